package javascript

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"sccg/lang"
)

// FuzzExtract feeds arbitrary bytes to Extract in every dialect: it must not fail
// except on binary content or a timeout, and every kept candidate's code must
// parse on its own.
func FuzzExtract(f *testing.F) {
	for _, p := range fixtures(f) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, uint8(0))
		}
	}
	f.Add([]byte("function f( {\n  fetch('x'\n"), uint8(1))
	f.Add([]byte("const a = () => axios.get(`${"), uint8(2))
	dialects := []lang.Dialect{lang.DialectJS, lang.DialectTS, lang.DialectTSX}
	f.Fuzz(func(t *testing.T, src []byte, which uint8) {
		d := dialects[int(which)%len(dialects)]
		res, err := Extract(context.Background(), src, Options{Dialect: d, Timeout: 5 * time.Second})
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
			tree, err := parse(context.Background(), grammarOf(d), []byte(fn.Code))
			if err != nil {
				t.Fatal(err)
			}
			if tree.HasError() {
				t.Fatalf("kept candidate %s does not parse on its own:\n%s", fn.QualName, fn.Code)
			}
		}
	})
}
