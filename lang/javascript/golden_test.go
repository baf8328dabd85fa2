package javascript

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"sccg/internal/golden"
	"sccg/lang"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// renderResult writes a file's extraction as stable, readable text for golden files.
func renderResult(res *lang.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "file: language=%s encoding=%s syntax_ok=%v", res.Language, res.Encoding, res.SyntaxOK)
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
		fmt.Fprintf(&b, "] lines %d-%d %s/%s", f.StartLine, f.EndLine, fa.Language, fa.Dialect)
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
		fmt.Fprintf(&b, "parameters: %s\n", strings.Join(fa.Parameters, " "))
		if len(fa.Decorators) > 0 {
			fmt.Fprintf(&b, "decorators: %s\n", strings.Join(fa.Decorators, " | "))
		}
		for _, p := range fa.PulledIn {
			fmt.Fprintf(&b, "pulled: %s %s %d-%d\n", p.Kind, p.Name, p.StartLine, p.EndLine)
		}
		if len(fa.Unresolved) > 0 {
			fmt.Fprintf(&b, "unresolved: %s\n", strings.Join(fa.Unresolved, " "))
		}
		fmt.Fprintf(&b, "imports: builtin=%v third_party=%v local=%v\n", fa.Imports.Stdlib, fa.Imports.ThirdParty, fa.Imports.Local)
		for _, c := range fa.Calls {
			fmt.Fprintf(&b, "call line %d %s %s %s url=%q resolved=%v", c.Line, c.Library, c.Callee, c.Method, c.URL, c.URLResolved)
			fmt.Fprintf(&b, " host=%q path=%q query=%q", c.Host, c.Path, c.Query)
			if c.Callback != "" {
				fmt.Fprintf(&b, " callback=%s", c.Callback)
			}
			if c.InHelper != "" {
				fmt.Fprintf(&b, " via=%s", strings.Join(c.Via, ">"))
			}
			if c.PathFrom != "" {
				fmt.Fprintf(&b, " path_from=%s", c.PathFrom)
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
		if fa.Docstring != nil {
			fmt.Fprintf(&b, "jsdoc: %s\n", strings.ReplaceAll(fa.Docstring.Text, "\n", " / "))
		}
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

// fixtures lists the fixture corpus under testdata/src.
func fixtures(t testing.TB) []string {
	ps, _ := filepath.Glob(filepath.Join("testdata", "src", "*"))
	var out []string
	for _, p := range ps {
		if _, _, ok := lang.ForPath(p); ok {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Fatal("no fixtures under testdata/src")
	}
	return out
}

func TestGoldenFixtures(t *testing.T) {
	for _, p := range fixtures(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel := "web/" + filepath.Base(p)
			res, err := Frontend{}.Extract(context.Background(), rel, b, lang.ExtractOptions{Stars: 40, Forks: 6,
				RepoPaths: []string{"web/format.js", "web/logger.js", "web/errors.ts", "logging/index.ts"}})
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "golden", filepath.Base(p)+".txt"), []byte(renderResult(res)), *update)
		})
	}
}
