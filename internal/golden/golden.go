// Package golden compares what a test produced with a golden file under testdata/,
// and rewrites the file when the test runs with -update. Every package's golden
// tests use it, each with its own -update flag.
package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Check compares got with the file at path. With update it writes got there
// instead (creating directories). A missing or different file fails the test with
// the first differing lines and how to accept the change.
func Check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
		return
	}
	if string(want) != string(got) {
		t.Errorf("%s differs (check the change, then run go test -update):\n%s", path, Diff(string(want), string(got)))
	}
}

// Diff shows the first lines (at most 10) where got differs from want.
func Diff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(wl), len(gl)) && shown < 10; i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w == g {
			continue
		}
		fmt.Fprintf(&b, "line %d:\n  want %q\n   got %q\n", i+1, w, g)
		shown++
	}
	if len(wl) != len(gl) {
		fmt.Fprintf(&b, "(%d lines wanted, %d got)\n", len(wl), len(gl))
	}
	return b.String()
}
