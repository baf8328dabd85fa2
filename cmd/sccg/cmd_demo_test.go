package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"sccg/evaluate"
	"sccg/evaluate/prompts"
	"sccg/evaluate/report"
	"sccg/internal/browsertest"
)

// TestDemo runs the tour end to end and opens its report in Chromium: every table
// and figure the manifest lists is laid out, the page fetches nothing, and the
// tables the demo prints are there. A second run resumes and prints the same.
func TestDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole demo")
	}
	// Slow: the whole demo (a build, every sample's own code and a 12-cell grid in the
	// sandbox, rate-limited real calls, the report), twice where Chromium is; half a
	// minute under the race detector.
	t.Parallel() // its own store and directories; the other slow end-to-end tests run beside it
	ctx := context.Background()
	e, out, errb := newTestEnv(t)
	e.dbSet = false // the demo keeps its store in its own directory
	dir := filepath.Join(t.TempDir(), "demo-out")
	if code := run(ctx, []string{"demo", "--out", dir, "--timeout", "30s"}, e); code != 0 {
		t.Fatalf("demo: exit %d, stderr:\n%s", code, errb)
	}
	for _, want := range []string{"### Table II", "### Table V", "### Table VII", "| oracle-c3 | doc-template |",
		"### Where grounding fails", "| rag-learned | doc-template |",
		"open " + filepath.Join(dir, "report", "index.html"), "sccg audit --db " + filepath.Join(dir, "sccg.db")} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	for i := 1; i <= demoSteps; i++ {
		if !strings.Contains(errb.String(), fmt.Sprintf("[%d/%d] done", i, demoSteps)) {
			t.Errorf("no progress line for step %d:\n%s", i, errb)
		}
	}
	if strings.Contains(out.String(), "![") {
		t.Error("the demo prints figure links a terminal cannot show")
	}
	var m report.Manifest
	b, err := os.ReadFile(filepath.Join(dir, "report", report.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, en := range append(append([]report.Entry{}, m.Tables...), m.Figures...) {
		ids = append(ids, en.ID)
	}
	for _, want := range []string{"table-ii", "table-v", "table-vi", "table-vii", "table-attribution", "fig-attribution", "table-viii", "fig-staircase",
		"fig-retrieval", "fig-loc-cdf", "fig-lorenz", "fig-update-years", "fig-failures", "table-realcall", "fig-realcall"} {
		if !strings.Contains(" "+strings.Join(ids, " ")+" ", " "+want+" ") {
			t.Errorf("the demo's report lacks %s (has %v; left out: %v)", want, ids, m.Omitted)
		}
	}

	// Every RAG and oracle cell is attributed: its counts add up to its
	// completions, and its hits are its Mock hits.
	sum, err := evaluate.ReadSummary(filepath.Join(dir, "experiment", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	cells := 0
	for _, g := range sum.Groups {
		if g.Setting == prompts.Intent {
			continue
		}
		cells++
		a := g.Attribution
		if a == nil || !a.AddsUp() || a.N != g.Overall.N || a.Attributed() != a.N || float64(a.Hit) != math.Round(g.Overall.Mock*float64(g.Overall.N)) {
			t.Errorf("%s/%s: attribution %+v; want every one of its %d completions attributed, %v of them hits", g.Setting, g.Model, a,
				g.Overall.N, g.Overall.Mock*float64(g.Overall.N))
		}
	}
	if cells != 9 {
		t.Errorf("%d RAG and oracle cells, want 9 (three settings × gold, null, doc-template)", cells)
	}
	var rets struct{ Reports []struct{ Retriever string } }
	b, _ = os.ReadFile(filepath.Join(dir, "retrieval.json"))
	if err := json.Unmarshal(b, &rets); err != nil || len(rets.Reports) != 2 || rets.Reports[1].Retriever != "learned" {
		t.Errorf("retrieval.json: %+v (%v), want bm25 and learned", rets, err)
	}

	br := browsertest.New(t)
	if err := chromedp.Do(br.Ctx, chromedp.Navigate(browsertest.FileURL(t, filepath.Join(dir, "report", "index.html"))),
		chromedp.WaitReady("#sample-index")); err != nil {
		t.Fatal(err)
	}
	idsJSON, _ := json.Marshal(ids)
	for _, p := range browsertest.Run(t, br.Ctx, chromedp.Evaluate[[]string](fmt.Sprintf("(%s)(%s)", browsertest.CheckRendered, idsJSON))) {
		t.Errorf("demo-out/report/index.html: %s", p)
	}
	if ext := br.External(); len(ext) > 0 {
		t.Errorf("the demo's report made network requests: %v", ext)
	}

	first := out.String()
	out.Reset()
	errb.Reset()
	if code := run(ctx, []string{"demo", "--out", dir, "--timeout", "30s"}, e); code != 0 {
		t.Fatalf("second demo: exit %d, stderr:\n%s", code, errb)
	}
	if out.String() != first {
		t.Errorf("a second demo printed other tables:\n%s", out)
	}
}
