package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"sccg/split"
)

func TestSplitCLI(t *testing.T) {
	fixture := filepath.Join("..", "..", "samples", "testdata", "mini.json")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
	}{
		{name: "text report", args: []string{"split", "--seed", "3"}, code: 0,
			stdout: []string{"split 2 samples of 2 APIs in 2 families (seed 3)", "doc_match_type", "comments_source", "http method", "host_only"}},
		{name: "bad ratios", args: []string{"split", "--ratios", "1,2"}, code: 2},
		{name: "bad similarity", args: []string{"split", "--name-similarity", "0"}, code: 2},
		{name: "stray argument", args: []string{"split", "extra"}, code: 2},
	}
	e, out, _ := newTestEnv(t)
	importTestRun(t, e, 0, "import", fixture)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out.Reset()
			importTestRun(t, e, tc.code, tc.args...)
			for _, s := range tc.stdout {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout = %q, want it to contain %q", out, s)
				}
			}
		})
	}
	t.Run("json report is stable for a seed", func(t *testing.T) {
		var reports [2]split.Report
		for i := range reports {
			out.Reset()
			importTestRun(t, e, 0, "split", "--json", "--seed", "5")
			if err := json.Unmarshal(out.Bytes(), &reports[i]); err != nil {
				t.Fatal(err)
			}
		}
		a, _ := json.Marshal(reports[0])
		b, _ := json.Marshal(reports[1])
		if string(a) != string(b) || reports[0].Samples != 2 || len(reports[0].Splits) != 3 {
			t.Errorf("reports differ or are wrong:\n%s\n%s", a, b)
		}
	})
}

func TestSplitEmptyStoreFails(t *testing.T) {
	e, _, errb := newTestEnv(t)
	importTestRun(t, e, 1, "split")
	if !strings.Contains(errb.String(), "no samples") {
		t.Errorf("stderr = %q, want it to say there are no samples", errb)
	}
}
