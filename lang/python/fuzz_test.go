package python

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sccg/lang"
	"testing"
	"time"
)

// FuzzExtract feeds arbitrary bytes to Extract: it must not fail except on binary
// content or a timeout, and every kept candidate's code must parse on its own.
func FuzzExtract(f *testing.F) {
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "src", "*.py"))
	for _, p := range fixtures {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("def f(:\n  requests.get('x'\n"))
	if _, err := os.Stat(filepath.Join(corpusRoot, "repos")); err == nil {
		for i, cf := range corpusFiles(f) {
			if i%8 != 0 {
				continue // a spread of the corpus is enough to mutate from
			}
			if b, err := os.ReadFile(cf.abs); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		res, err := Extract(context.Background(), src, Options{Timeout: 5 * time.Second})
		if err != nil {
			if errors.Is(err, lang.ErrBinary) || errors.Is(err, lang.ErrTimeout) {
				return
			}
			t.Fatalf("Extract: %v", err)
		}
		for _, fn := range res.Functions {
			if fn.Status != lang.StatusCandidate {
				continue
			}
			tree, err := parse(context.Background(), []byte(fn.Code))
			if err != nil {
				t.Fatal(err)
			}
			if tree.HasError() {
				t.Fatalf("kept candidate %s does not parse on its own:\n%s", fn.QualName, fn.Code)
			}
		}
	})
}
