package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sccg/evaluate/report"
)

func TestReportCommand(t *testing.T) {
	td := filepath.Join("..", "..", "evaluate", "report", "testdata")
	inputs := []string{"--results", filepath.Join(td, "export"), "--results", filepath.Join(td, "grid"),
		"--results", filepath.Join(td, "gold"), "--results", filepath.Join(td, "retrieval.json"), "--rounds", "50"}
	ctx := context.Background()

	t.Run("page without a store", func(t *testing.T) {
		e, out, errb := newTestEnv(t)
		e.dbSet = false
		dir := t.TempDir()
		if code := run(ctx, append([]string{"report", "--out", dir}, inputs...), e); code != 0 {
			t.Fatalf("exit %d, stderr %s", code, errb)
		}
		if !strings.Contains(out.String(), "17 tables, 7 figures, 12 sample pages") {
			t.Errorf("stdout = %q", out)
		}
		for _, f := range []string{"index.html", "report.md", "manifest.json", "figures/staircase.svg", "samples/SCG-000008.html"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("report did not write %s: %v", f, err)
			}
		}
		page, _ := os.ReadFile(filepath.Join(dir, "samples", "SCG-000008.html"))
		if !strings.Contains(string(page), "No store was given") {
			t.Error("without --db the sample page should say there is no lineage")
		}
	})

	t.Run("lineage and JSON with a store", func(t *testing.T) {
		e, out, errb := newTestEnv(t)
		importTestRun(t, e, 0, "import", filepath.Join(td, "export", "sccgbench.json"))
		out.Reset()
		dir := t.TempDir()
		if code := run(ctx, append([]string{"report", "--json", "--out", dir}, inputs...), e); code != 0 {
			t.Fatalf("exit %d, stderr %s", code, errb)
		}
		var m report.Manifest
		if err := json.Unmarshal(out.Bytes(), &m); err != nil || m.Samples != 12 || len(m.Figures) != 7 {
			t.Fatalf("--json manifest %+v (%v): %s", m, err, out)
		}
		page, _ := os.ReadFile(filepath.Join(dir, "samples", "SCG-000008.html"))
		if !strings.Contains(string(page), "SCG-000008  (imported sample)") || !strings.Contains(string(page), "== alignment") {
			t.Errorf("the sample page lacks the audit lineage:\n%s", page)
		}
	})

	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"results need --out", []string{"report", "--results", filepath.Join(td, "gold")}, 2, "--out DIR is required"},
		{"nothing to report", []string{"report", "--out", "x"}, 2, "want --results"},
		{"a path that is not there", []string{"report", "--results", "nope", "--out", "x"}, 1, "nope"},
		{"summaries still print tables", []string{"report", filepath.Join(td, "gold")}, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, out, errb := newTestEnv(t)
			e.dbSet = false
			if code := run(ctx, tc.args, e); code != tc.code || !strings.Contains(errb.String(), tc.msg) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errb, tc.code, tc.msg)
			}
			if tc.code == 0 && !strings.Contains(out.String(), "### Table V") {
				t.Errorf("stdout = %q, want the Markdown tables", out)
			}
		})
	}
	t.Run("a store that is not there", func(t *testing.T) {
		e, _, errb := newTestEnv(t)
		if code := run(ctx, append([]string{"report", "--out", t.TempDir()}, inputs...), e); code != 1 || !strings.Contains(errb.String(), "--db") {
			t.Errorf("exit %d, stderr %q; want 1 naming --db", code, errb)
		}
	})
}
