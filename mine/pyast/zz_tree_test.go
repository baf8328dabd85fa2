package pyast

import (
	"context"
	"fmt"
	"os"
	"testing"
)

func TestZZTree(t *testing.T) {
	path := os.Getenv("PYFILE")
	if path == "" {
		t.Skip()
	}
	b, _ := os.ReadFile(path)
	root, _ := parse(context.Background(), b)
	for _, c := range root.children {
		fmt.Printf("%s rows %d-%d\n", c.typ, c.row+1, c.endRow+1)
		if c.typ == "ERROR" {
			for _, k := range c.children {
				fmt.Printf("   %s rows %d-%d\n", k.typ, k.row+1, k.endRow+1)
			}
		}
	}
}
