package python

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"sccg/lang"
	"slices"
	"sort"
	"strings"
	"testing"

	"sccg/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// renderResult writes a file's extraction as stable, readable text for golden files.
func renderResult(res *lang.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "file: encoding=%s syntax_ok=%v", res.Encoding, res.SyntaxOK)
	if len(res.SyntaxErrors) > 0 {
		fmt.Fprintf(&b, " syntax_errors=%v", res.SyntaxErrors)
	}
	b.WriteString("\n")
	for _, f := range res.Functions {
		fa := f.Facts
		fmt.Fprintf(&b, "\n== %s [%s", f.QualName, f.Status)
		if f.RejectReason != "" {
			fmt.Fprintf(&b, ": %s", f.RejectReason)
		}
		fmt.Fprintf(&b, "] lines %d-%d", f.StartLine, f.EndLine)
		if f.IsAsync {
			b.WriteString(" async")
		}
		if f.ClassName != "" {
			fmt.Fprintf(&b, " class=%s", f.ClassName)
		}
		if fa.Parent != "" {
			fmt.Fprintf(&b, " parent=%s", fa.Parent)
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, "signature: %s\n", fa.Signature)
		if len(fa.Decorators) > 0 {
			fmt.Fprintf(&b, "decorators: %s\n", strings.Join(fa.Decorators, " | "))
		}
		for _, p := range fa.PulledIn {
			fmt.Fprintf(&b, "pulled: %s %s %d-%d\n", p.Kind, p.Name, p.StartLine, p.EndLine)
		}
		if len(fa.Unresolved) > 0 {
			fmt.Fprintf(&b, "unresolved: %s\n", strings.Join(fa.Unresolved, " "))
		}
		fmt.Fprintf(&b, "imports: stdlib=%v third_party=%v local=%v\n", fa.Imports.Stdlib, fa.Imports.ThirdParty, fa.Imports.Local)
		for _, c := range fa.Calls {
			fmt.Fprintf(&b, "call line %d %s %s %s url=%q resolved=%v", c.Line, c.Library, c.Callee, c.Method, c.URL, c.URLResolved)
			fmt.Fprintf(&b, " host=%q path=%q query=%q", c.Host, c.Path, c.Query)
			if c.InHelper != "" {
				fmt.Fprintf(&b, " via=%s", strings.Join(c.Via, ">"))
			}
			fmt.Fprintf(&b, "\n  url_expr: %s\n", strings.Join(strings.Fields(c.URLExpr), " "))
			for _, k := range slices.Sorted(maps.Keys(c.Headers)) {
				v := c.Headers[k]
				if v == "" {
					v = "<expr " + strings.Join(strings.Fields(c.HeaderExprs[k]), " ") + ">"
				}
				fmt.Fprintf(&b, "  header %s: %s\n", k, v)
			}
			if c.HasRapidAPIHost || c.HasRapidAPIKey {
				fmt.Fprintf(&b, "  rapidapi host=%v(%s) key=%v(%s)\n", c.HasRapidAPIHost, c.RapidAPIHost, c.HasRapidAPIKey, c.RapidAPIKey)
			}
			for _, p := range c.Params {
				ex := ""
				if p.Literal {
					ex = "=" + p.Example
				}
				fmt.Fprintf(&b, "  param %s %s%s\n", p.Location, p.Name, ex)
			}
		}
		fmt.Fprintf(&b, "checks: status=%v exceptions=%v syntax=%v eloc=%d comments=%d docstring=%v placeholder=%v goal=%v\n",
			fa.StatusCheck, fa.ExceptionHandling, fa.SyntaxOK, fa.EffectiveLOC, len(fa.Comments), fa.Docstring != nil,
			fa.CommentsPlaceholder, fa.CommentsStateGoal)
		comps := make([]string, 0, len(fa.Quality.Components))
		for k, v := range fa.Quality.Components {
			if v != 0 {
				comps = append(comps, fmt.Sprintf("%s=%g", k, v))
			}
		}
		sort.Strings(comps)
		fmt.Fprintf(&b, "quality: %g (%s)\n", fa.Quality.Score, strings.Join(comps, " "))
		fmt.Fprintf(&b, "hash: %s\n", f.CodeHash[:16])
		b.WriteString("code:\n")
		for _, l := range strings.Split(strings.TrimRight(f.Code, "\n"), "\n") {
			b.WriteString("  | " + l + "\n")
		}
	}
	return b.String()
}

// checkGolden compares got with the golden file at path (rewriting it with -update).
// A missing golden file fails the test unless -update is given, or unless
// newOK: a file added to the shared corpus is skipped until its golden is written.
func checkGolden(t *testing.T, path, got string, newOK bool) {
	t.Helper()
	if _, err := os.Stat(path); newOK && !*update && errors.Is(err, fs.ErrNotExist) {
		t.Skipf("no golden file yet for this new corpus file (run go test ./lang/python -update)")
	}
	golden.Check(t, path, []byte(got), *update)
}

func TestGoldenFixtures(t *testing.T) {
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "src", "*.py"))
	if len(fixtures) == 0 {
		t.Fatal("no fixtures under testdata/src")
	}
	for _, p := range fixtures {
		t.Run(filepath.Base(p), func(t *testing.T) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Extract(context.Background(), b, Options{Stars: 40, Forks: 6})
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("testdata", "golden", "src", strings.TrimSuffix(filepath.Base(p), ".py")+".txt"), renderResult(res), false)
		})
	}
}

// TestGoldenCorpus checks the functions found, the context pulled in and the facts
// of every file of the shared corpus against testdata/golden/corpus.
func TestGoldenCorpus(t *testing.T) {
	for _, f := range corpusFiles(t) {
		t.Run(f.repo+"/"+f.path, func(t *testing.T) {
			b, err := os.ReadFile(f.abs)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Extract(context.Background(), b, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("testdata", "golden", "corpus", f.repo, f.path+".txt"), renderResult(res), true)
		})
	}
}
