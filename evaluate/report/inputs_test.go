package report

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sccg/evaluate"
)

// copyFile copies a testdata file into dir (creating it).
func copyFile(t *testing.T, from, dir, name string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, name), string(b))
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func ids(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

// TestPartialInputs: whatever is missing is left out with a note naming why, and
// never rendered as an empty table.
func TestPartialInputs(t *testing.T) {
	tests := []struct {
		name     string
		setup    func(t *testing.T, dir string) Inputs
		check    func(t *testing.T, d *Data)
		tables   []string // exactly these tables
		figures  []string // exactly these figures
		omitted  []string // each is a substring of one omission note
		problems []string // each is a substring of one problem
		samples  int
	}{
		{
			name: "a summary without its results",
			setup: func(t *testing.T, dir string) Inputs {
				copyFile(t, "testdata/gold/summary.json", filepath.Join(dir, "gold"), "summary.json")
				return Inputs{Paths: []string{filepath.Join(dir, "gold")}}
			},
			tables:  []string{"table-iv", "table-v", "table-answers", "table-dep-recall", "table-vi", "table-pass-at-k", "table-doc-match-type", "table-comments-source", "table-time-slice", "table-no-endpoint"},
			figures: []string{"fig-failures"},
			omitted: []string{"Table II (dataset statistics) is left out", "no benchmark was given", "update-year histogram is left out",
				"Table VII (the staircase) and its figure are left out", "Table VIII (retrieval hit rates)"},
		},
		{
			name: "an export only",
			setup: func(t *testing.T, dir string) Inputs {
				copyFile(t, "testdata/export/stats.json", filepath.Join(dir, "export"), "stats.json")
				copyFile(t, "testdata/export/sccgbench.json", filepath.Join(dir, "export"), "sccgbench.json")
				return Inputs{Paths: []string{filepath.Join(dir, "export")}}
			},
			tables:  []string{"table-ii"},
			figures: []string{"fig-loc-cdf", "fig-lorenz", "fig-update-years"},
			omitted: []string{"Tables IV–VI", "Table VII", "pass@k is left out", "strata are left out", "Table VIII"},
			samples: 12,
		},
		{
			name: "broken results.jsonl, summary kept",
			setup: func(t *testing.T, dir string) Inputs {
				copyFile(t, "testdata/gold/summary.json", filepath.Join(dir, "gold"), "summary.json")
				writeFile(t, filepath.Join(dir, "gold", "results.jsonl"), "{\"sample_id\": \"SCG-1\"}\nnot json\n")
				return Inputs{Paths: []string{filepath.Join(dir, "gold")}}
			},
			tables:   []string{"table-iv", "table-v", "table-answers", "table-dep-recall", "table-vi", "table-pass-at-k", "table-doc-match-type", "table-comments-source", "table-time-slice", "table-no-endpoint"},
			figures:  []string{"fig-failures"},
			problems: []string{"line 2", "leave " + "%DIR%/gold out"},
		},
		{
			name: "results without a summary",
			setup: func(t *testing.T, dir string) Inputs {
				copyFile(t, "testdata/gold/results.jsonl", filepath.Join(dir, "gold"), "results.jsonl")
				return Inputs{Paths: []string{filepath.Join(dir, "gold", "results.jsonl")}}
			},
			tables:  []string{"table-iv", "table-v", "table-answers", "table-dep-recall", "table-vi", "table-pass-at-k", "table-doc-match-type", "table-comments-source", "table-time-slice", "table-no-endpoint"},
			figures: []string{"fig-failures"},
			samples: 12,
		},
		{
			name: "a grid whose grid.json is unreadable",
			setup: func(t *testing.T, dir string) Inputs {
				g := filepath.Join(dir, "grid")
				writeFile(t, filepath.Join(g, "grid.json"), "{not json")
				for _, c := range []string{"intent/synthetic-small", "oracle-c3/synthetic-small"} {
					copyFile(t, "testdata/grid/cells/"+c+"/summary.json", filepath.Join(g, "cells", c), "summary.json")
				}
				// The grid's own summary combines its cells: it must not count twice.
				copyFile(t, "testdata/grid/summary.json", g, "summary.json")
				return Inputs{Paths: []string{g}}
			},
			tables: []string{"table-iv", "table-v", "table-answers", "table-dep-recall", "table-vi", "table-vii", "table-attribution", "table-pass-at-k",
				"table-doc-match-type", "table-comments-source", "table-time-slice", "table-no-endpoint"},
			figures:  []string{"fig-failures", "fig-staircase", "fig-attribution"},
			problems: []string{"read grid"},
		},
		{
			name: "a demo's output directory, with a retrieval report beside its subdirectories",
			setup: func(t *testing.T, dir string) Inputs {
				demo := filepath.Join(dir, "demo-out")
				copyFile(t, "testdata/export/stats.json", filepath.Join(demo, "export"), "stats.json")
				copyFile(t, "testdata/export/sccgbench.json", filepath.Join(demo, "export"), "sccgbench.json")
				copyFile(t, "testdata/gold/summary.json", filepath.Join(demo, "eval"), "summary.json")
				copyFile(t, "testdata/gold/results.jsonl", filepath.Join(demo, "eval"), "results.jsonl")
				copyFile(t, "testdata/retrieval.json", demo, "retrieval.json")
				return Inputs{Paths: []string{demo}}
			},
			tables: []string{"table-ii", "table-iv", "table-v", "table-answers", "table-dep-recall", "table-vi", "table-viii", "table-ranking", "table-pass-at-k",
				"table-doc-match-type", "table-comments-source", "table-time-slice", "table-no-endpoint"},
			figures: []string{"fig-loc-cdf", "fig-lorenz", "fig-update-years", "fig-failures", "fig-retrieval"},
			omitted: []string{"Table VII (the staircase) and its figure are left out"},
			samples: 12,
		},
		{
			name: "a grid of the endpoint-selection task",
			setup: func(t *testing.T, dir string) Inputs {
				writeFile(t, filepath.Join(dir, "sel", "grid.json"), `{"grid": {"task": "select-endpoint", "settings": ["oracle-c3"]},
					"cells": [{"id": "oracle-c3/m", "setting": "oracle-c3", "model": "m", "kind": "model", "dir": "cells/oracle-c3/m",
					"selection": {"setting": "oracle-c3", "model": "m", "n": 20, "top1": 0.45, "top3": 0.8, "unparsed": 1, "mean_candidates": 6.5}}]}`)
				return Inputs{Paths: []string{filepath.Join(dir, "sel")}}
			},
			tables:  []string{"table-selection"},
			omitted: []string{"Tables IV–VI", "Table VIII"},
		},
		{
			name: "two reports of one retriever, one of them bare",
			setup: func(t *testing.T, dir string) Inputs {
				b, err := os.ReadFile("testdata/retrieval.json")
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(dir, "a.json"), string(b))
				s := string(b)
				one := strings.TrimSuffix(strings.TrimSpace(s[strings.Index(s, "["):]), "}")
				one = strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(one), "[")), "]")
				writeFile(t, filepath.Join(dir, "b.json"), one)
				return Inputs{Paths: []string{filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")}}
			},
			check: func(t *testing.T, d *Data) {
				var names []string
				for _, r := range d.Retrieval {
					names = append(names, r.Name)
				}
				if !slices.Equal(names, []string{"bm25 (a)", "bm25 (b)"}) {
					t.Errorf("retrievers = %v, want them told apart by their files", names)
				}
			},
			tables:  []string{"table-viii", "table-ranking"},
			figures: []string{"fig-retrieval"},
			omitted: []string{"Table II", "Tables IV–VI"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := tc.setup(t, dir)
			d, err := Load(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if tc.check != nil {
				tc.check(t, d)
			}
			m, err := Write(context.Background(), d, filepath.Join(dir, "out"), Options{Rounds: 100})
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(m.Tables); !slices.Equal(got, tc.tables) {
				t.Errorf("tables = %v, want %v", got, tc.tables)
			}
			if got := ids(m.Figures); !slices.Equal(got, tc.figures) {
				t.Errorf("figures = %v, want %v", got, tc.figures)
			}
			for _, want := range tc.omitted {
				if !slices.ContainsFunc(m.Omitted, func(o string) bool { return strings.Contains(o, want) }) {
					t.Errorf("no omission note says %q; notes: %q", want, m.Omitted)
				}
			}
			for _, want := range tc.problems {
				want = strings.ReplaceAll(want, "%DIR%", dir)
				if !slices.ContainsFunc(m.Problems, func(p string) bool { return strings.Contains(p, want) }) {
					t.Errorf("no problem says %q; problems: %q", want, m.Problems)
				}
			}
			if len(tc.problems) == 0 && len(m.Problems) > 0 {
				t.Errorf("problems: %q", m.Problems)
			}
			if m.Samples != tc.samples {
				t.Errorf("%d sample pages, want %d", m.Samples, tc.samples)
			}
			md, err := os.ReadFile(filepath.Join(dir, "out", "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range m.Omitted {
				if !strings.Contains(string(md), o) {
					t.Errorf("report.md lacks the note %q", o)
				}
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "empty", "README"), "nothing here")
	writeFile(t, filepath.Join(dir, "other.json"), `{"hello": 1}`)
	writeFile(t, filepath.Join(dir, "text.json"), `not json`)
	tests := []struct {
		name string
		in   Inputs
		want string
	}{
		{"missing path", Inputs{Paths: []string{filepath.Join(dir, "nope")}}, "no such file"},
		{"directory without inputs", Inputs{Paths: []string{filepath.Join(dir, "empty")}}, "holds nothing a report reads"},
		{"JSON of another kind", Inputs{Paths: []string{filepath.Join(dir, "other.json")}}, "JSON a report does not read"},
		{"not JSON", Inputs{Paths: []string{filepath.Join(dir, "text.json")}}, "neither JSON nor"},
		{"missing bench", Inputs{Paths: []string{"testdata/gold"}, Bench: filepath.Join(dir, "nope.json")}, "read benchmark"},
		{"bad stats", Inputs{Paths: []string{"testdata/gold"}, Stats: filepath.Join(dir, "other.json")}, "no \"total\" figures"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(context.Background(), tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestGroupsOfNamesakes: the same setting and model in two result sets are told
// apart by the sets' names, and settings follow the staircase.
func TestGroupsOfNamesakes(t *testing.T) {
	g := func(setting, model string) evaluate.Group { return evaluate.Group{Setting: setting, Model: model} }
	sets := []*ResultSet{
		{Name: "a", Summary: evaluate.Summary{Groups: []evaluate.Group{g("oracle-c3", "m"), g("intent", "m"), g("rag-zeta", "m")}}},
		{Name: "b", Summary: evaluate.Summary{Groups: []evaluate.Group{g("intent", "m"), g("gold", "gold"), g("rag-bm25", "n")}}},
	}
	var got []string
	for _, x := range collectGroups(sets, newSettingRank(nil)) {
		got = append(got, x.Setting+"/"+x.Model)
	}
	want := []string{"intent/m [a]", "intent/m [b]", "rag-bm25/n", "rag-zeta/m", "oracle-c3/m", "gold/gold"}
	if !slices.Equal(got, want) {
		t.Errorf("groups = %v, want %v", got, want)
	}
}

// TestRewriteRemovesStale: a report written again over fewer samples removes the
// pages it no longer has, and nothing it did not write.
func TestRewriteRemovesStale(t *testing.T) {
	out := t.TempDir()
	writeFile(t, filepath.Join(out, "samples", "mine.html"), "kept")
	d, err := Load(context.Background(), Inputs{Paths: []string{"testdata/gold"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(context.Background(), d, out, Options{Rounds: 10}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "samples", "SCG-000008.html")); err != nil {
		t.Fatal(err)
	}
	d.Sets[0].Results = d.Sets[0].Results[1:] // SCG-000008 is the first
	m, err := Write(context.Background(), d, out, Options{Rounds: 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "samples", "SCG-000008.html")); !os.IsNotExist(err) {
		t.Errorf("the stale page of SCG-000008 is still there (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(out, "samples", "mine.html")); err != nil {
		t.Errorf("a file the report did not write was removed: %v", err)
	}
	if m.Samples != 11 {
		t.Errorf("%d sample pages, want 11", m.Samples)
	}
}

// TestNamesAreEscaped: setting and model names come from generations files; in
// the page and its figures they are text, never markup.
func TestNamesAreEscaped(t *testing.T) {
	d, err := Load(context.Background(), Inputs{Paths: []string{"testdata/gold"}})
	if err != nil {
		t.Fatal(err)
	}
	bad := `<img src="http://example.invalid/x.png">`
	for _, s := range d.Sets {
		for i := range s.Summary.Groups {
			s.Summary.Groups[i].Model = bad
		}
		for i := range s.Results {
			s.Results[i].Model = bad
		}
	}
	out := t.TempDir()
	if _, err := Write(context.Background(), d, out, Options{Rounds: 10}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "figures/failures.svg", "samples/SCG-000008.html"} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), bad) {
			t.Errorf("%s holds the model name as markup", f)
		}
		if !strings.Contains(string(b), "example.invalid") {
			t.Errorf("%s lost the model name", f)
		}
	}
}
