package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"sccg/evaluate/report"
	"sccg/internal/browsertest"
	"sccg/internal/conformance"
)

// TestConformanceReport makes the report of the public validation samples the way
// a user would: import, export, score the gold code, retrieve with BM25, report
// with the store. Every table and figure whose data that gives must be there, and
// every sample must have a page with its lineage.
func TestConformanceReport(t *testing.T) {
	path := conformance.Path(t)
	e, out, errb := newTestEnv(t)
	dir := t.TempDir()
	ctx := context.Background()
	for _, args := range [][]string{
		{"import", path},
		{"export", "--out", filepath.Join(dir, "export")},
		{"eval", "--gold", "--bench", filepath.Join(dir, "export", "sccgbench.json"), "--out", filepath.Join(dir, "eval")},
		{"retrieve", "--retriever", "bm25", "--bench", filepath.Join(dir, "export", "sccgbench.json"), "--out", filepath.Join(dir, "retrieval.json")},
		{"report", "--json", "--results", dir, "--rounds", "500", "--out", filepath.Join(dir, "report")},
	} {
		out.Reset()
		if code := run(ctx, args, e); code != 0 {
			t.Fatalf("sccg %s: exit %d, stderr %s", strings.Join(args, " "), code, errb)
		}
	}
	var m report.Manifest
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("report --json: %v\n%s", err, out)
	}
	var got []string
	for _, x := range append(m.Tables, m.Figures...) {
		got = append(got, x.ID)
	}
	for _, id := range []string{"table-ii", "table-iv", "table-v", "table-vi", "table-viii", "table-pass-at-k", "table-doc-match-type",
		"table-comments-source", "table-time-slice", "fig-loc-cdf", "fig-lorenz", "fig-update-years", "fig-failures", "fig-retrieval"} {
		if !slices.Contains(got, id) {
			t.Errorf("the report lacks %s (has %v)", id, got)
		}
	}
	if m.Samples != 130 || len(m.Problems) > 0 {
		t.Errorf("%d sample pages (want 130), problems %q", m.Samples, m.Problems)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report", "samples", "SCG-000012.html"))
	if err != nil || !strings.Contains(string(page), "(imported sample)") {
		t.Errorf("SCG-000012's page lacks its lineage (%v)", err)
	}
	t.Logf("tables %d, figures %d, left out: %q", len(m.Tables), len(m.Figures), m.Omitted)

	br := browsertest.New(t)
	if err := chromedp.Do(br.Ctx, chromedp.Navigate(browsertest.FileURL(t, filepath.Join(dir, "report", "index.html"))),
		chromedp.WaitReady("#sample-index")); err != nil {
		t.Fatal(err)
	}
	idsJSON, _ := json.Marshal(got)
	for _, p := range browsertest.Run(t, br.Ctx, chromedp.Evaluate[[]string](fmt.Sprintf("(%s)(%s)", browsertest.CheckRendered, idsJSON))) {
		t.Errorf("index.html: %s", p)
	}
	if ext := br.External(); len(ext) > 0 {
		t.Errorf("the report made network requests: %v", ext)
	}
}
