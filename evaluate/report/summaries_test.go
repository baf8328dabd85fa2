package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sccg/evaluate"
	"sccg/internal/golden"
)

// An eval's tables.md: the evaluator's synthetic fixture, one model partial.
func TestTablesGolden(t *testing.T) {
	s, err := evaluate.ReadSummary(filepath.Join("testdata", "eval", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteTables(&b, []evaluate.Summary{s}, nil); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "tables.golden.md"), b.Bytes(), *update)
}

// What the tables say of partial cells, answers, intervals and pass@k, alike in
// a tables.md (WriteTables) and in the report's page (report.md).
func TestTablesOfSummaries(t *testing.T) {
	sum := evaluate.Summary{Groups: []evaluate.Group{
		{Setting: "intent", Model: "m", Covered: 3, Expected: 4, RootRoutes: 1,
			Overall:        evaluate.Agg{N: 6, Samples: 3, Metrics: evaluate.Metrics{Mock: 0.5, HostAcc: 1}},
			Answers:        evaluate.AnswerCounts{Truncated: 2, Reasoning: 4, SyntaxErrors: 1},
			FailureStages:  map[string]int{evaluate.StageHost: 3, evaluate.StageHit: 3},
			PassAtK:        map[string]float64{"pass@1": 0.5, "pass@2": 0.75},
			PassAtKOmitted: []string{"pass@3 (n = 2)"}},
		{Setting: "oracle-c3", Model: "m", Covered: 4, Expected: 4,
			Overall:        evaluate.Agg{N: 4, Samples: 4, Metrics: evaluate.Metrics{Mock: 1, HostAcc: 1}},
			FailureStages:  map[string]int{evaluate.StageHit: 4},
			PassAtK:        map[string]float64{"pass@1": 1},
			PassAtKOmitted: []string{"pass@2 (n = 1)", "pass@3 (n = 1)"}},
	}}
	half := evaluate.FormatRate(0.5, 3) // over the 3 samples, not the 6 completions
	tests := []struct {
		what string
		row  string
	}{
		{"Table IV says n of N for a partial cell", "| intent | m | 6 (3 of 4 samples) | 0.00 |"},
		{"Table V too, with intervals over samples", "| intent | m | 6 (3 of 4 samples) | 0.00 [0.0–56.1] |"},
		{"Table V's Mock over samples", "| " + half + " | 0.00 [0.0–56.1] |"},
		{"a complete cell's N is bare", "| oracle-c3 | m | 4 | 0.00 |"},
		{"answers: covered, truncated, reasoning, syntax errors, root routes", "| intent | m | 3 of 4 | 2 | 4 | 0 | 0 | 0 | 1 | 1 |"},
		{"Table VI's shares over samples", "| intent | m | 6 (3 of 4 samples) | 0 · 0.00 [0.0–56.1] | 0 · 0.00 [0.0–56.1] | 3 · " + half},
		{"Table VII, n of N and intervals over samples", "| m | intent | 6 (3 of 4 samples) | 100.00 [43.9–100.0] | 0.00 [0.0–56.1] | 0.00 | " + half},
		{"pass@k for k ≤ n, the rest named", "| intent | m | 3 | 6 | 50.00 | 75.00 | pass@3 (n = 2) |"},
		{"a cell with n = 1 has pass@1 only", "| oracle-c3 | m | 4 | 4 | 100.00 | – | pass@2 (n = 1), pass@3 (n = 1) |"},
	}
	var md bytes.Buffer
	if err := WriteTables(&md, []evaluate.Summary{sum}, nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	js, _ := json.Marshal(sum)
	if err := os.WriteFile(filepath.Join(dir, "summary.json"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := writeFixture(t, Inputs{Paths: []string{dir}}, Options{Rounds: 10})
	page, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []struct{ name, text string }{{"tables.md", md.String()}, {"report.md", string(page)}} {
		if strings.Contains(doc.text, "| pass@3 |") {
			t.Errorf("%s: a pass@3 column, though no cell has 3 completions of every sample", doc.name)
		}
		for _, tc := range tests {
			if !strings.Contains(doc.text, tc.row) {
				t.Errorf("%s: %s: no %q in\n%s", doc.name, tc.what, tc.row, doc.text)
			}
		}
	}
}
