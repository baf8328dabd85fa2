package pyast

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

func TestZZDebug(t *testing.T) {
	path := os.Getenv("PYFILE")
	if path == "" {
		t.Skip()
	}
	b, _ := os.ReadFile(path)
	res, err := Extract(context.Background(), b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("file syntax", res.SyntaxOK, res.SyntaxErrors)
	for _, f := range res.Functions {
		fmt.Printf("=== %s %s %s %q lines %d-%d unresolved=%v\n", f.QualName, f.Status, f.RejectReason, f.Facts.Signature, f.StartLine, f.EndLine, f.Facts.Unresolved)
		for _, c := range f.Facts.Calls {
			c.Headers = nil
			c.HeaderExprs = nil
			j, _ := json.Marshal(c)
			fmt.Println("  ", string(j))
		}
		if os.Getenv("CODE") != "" {
			fmt.Println(f.Code)
		}
	}
}
