package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sccg/evaluate"
	"sccg/store"
)

// evalTestEnv is newTestEnv plus the paths of the evaluator's synthetic testdata.
func evalTestEnv(t *testing.T) (e *env, out, errb *bytes.Buffer, bench, gens string) {
	t.Helper()
	e, out, errb = newTestEnv(t)
	return e, out, errb, filepath.Join("..", "..", "evaluate", "testdata", "bench.json"),
		filepath.Join("..", "..", "evaluate", "testdata", "generations.jsonl")
}

func TestEvalCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox end to end")
	}
	// Slow: the sandbox end to end, twice.
	t.Parallel() // its own store and directories; the other slow end-to-end tests run beside it
	ctx := context.Background()
	e, out, errb, bench, gens := evalTestEnv(t)
	dir := t.TempDir()
	if code := run(ctx, []string{"eval", "--gold", "--bench", bench, "--out", filepath.Join(dir, "gold"), "--k", "1,3", "--timeout", "30s"}, e); code != 0 {
		t.Fatalf("eval --gold: exit %d, stderr %s", code, errb)
	}
	if !strings.Contains(out.String(), "gold/gold: n=7") || !strings.Contains(out.String(), "mock=1.000") ||
		!strings.Contains(out.String(), "isolation: fork-server+") || !strings.Contains(out.String(), "runs: 8 (0 completions reused") {
		t.Errorf("eval --gold output:\n%s", out)
	}
	s, err := store.Open(ctx, e.db)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := s.LatestEvaluations(ctx)
	s.Close()
	if err != nil || len(stored) != 8 {
		t.Fatalf("stored evaluations: %d, %v; want 8", len(stored), err)
	}

	// Running it again resumes: every completion comes from the store.
	out.Reset()
	if code := run(ctx, []string{"eval", "--gold", "--bench", bench, "--out", filepath.Join(dir, "gold2"), "--k", "1,3", "--timeout", "30s"}, e); code != 0 {
		t.Fatalf("second eval --gold: exit %d, stderr %s", code, errb)
	}
	s, _ = store.Open(ctx, e.db)
	runs, _ := s.LastRuns(ctx, 1)
	s.Close()
	if len(runs) != 1 || runs[0].Counts["resumed"] != 8 {
		t.Errorf("second run: %+v, want 8 resumed", runs)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "gold", "summary.json"))
	b, _ := os.ReadFile(filepath.Join(dir, "gold2", "summary.json"))
	if !bytes.Equal(a, b) {
		t.Errorf("resumed run's summary differs from the first:\n%s\n%s", a, b)
	}

	errb.Reset()
	out.Reset()
	if code := run(ctx, []string{"eval", "--bench", bench, "--generations", gens, "--out", filepath.Join(dir, "gen"), "--timeout", "30s", "--partial"}, e); code != 0 {
		t.Fatalf("eval --generations: exit %d, stderr %s", code, errb)
	}
	for _, want := range []string{"generations.jsonl line 16", `unknown sample_id "SYN-9999"`} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb)
		}
	}

	out.Reset()
	if code := run(ctx, []string{"report", filepath.Join(dir, "gen")}, e); code != 0 || !strings.Contains(out.String(), "Table V") {
		t.Errorf("report: exit %d, output %s", code, out)
	}
	rs, err := evaluate.ReadResults(filepath.Join(dir, "gen"))
	if err != nil {
		t.Fatal(err)
	}
	var ra, rb bytes.Buffer
	for _, r := range rs {
		line := r.SampleID + "#" + strconv.Itoa(r.SampleIndex) + "\t" + r.FailureStage + "\n"
		if r.Model == "model-a" {
			ra.WriteString(line)
		} else {
			rb.WriteString(line)
		}
	}
	os.WriteFile(filepath.Join(dir, "a.tsv"), ra.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "b.tsv"), rb.Bytes(), 0o644)
	out.Reset()
	if code := run(ctx, []string{"kappa", filepath.Join(dir, "a.tsv"), filepath.Join(dir, "b.tsv")}, e); code != 0 || !strings.Contains(out.String(), "kappa=") {
		t.Errorf("kappa: exit %d, output %s, stderr %s", code, out, errb)
	}
	out.Reset()
	if code := run(ctx, []string{"compare", "--rounds", "200", filepath.Join(dir, "gold"), filepath.Join(dir, "gen")}, e); code != 0 || !strings.Contains(out.String(), "| mock |") {
		t.Errorf("compare: exit %d, output %s, stderr %s", code, out, errb)
	}
}

func TestCompareByStratum(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox end to end")
	}
	ctx := context.Background()
	e, out, errb, bench, gens := evalTestEnv(t)
	dir := t.TempDir()
	if code := run(ctx, []string{"eval", "--exec", "--bench", bench, "--generations", gens, "--out", dir, "--timeout", "30s", "--partial"}, e); code != 0 {
		t.Fatalf("eval --exec: exit %d, stderr %s", code, errb)
	}
	if !strings.Contains(out.String(), "isolation: ") || strings.Contains(out.String(), "isolation: fork-server") {
		t.Errorf("eval --exec output:\n%s", out)
	}
	out.Reset()
	if code := run(ctx, []string{"--json", "compare", "--by", "model", "--groups", "model-a,model-b", "--rounds", "300", dir}, e); code != 0 {
		t.Fatalf("compare --by: exit %d, stderr %s", code, errb)
	}
	var cs []evaluate.Comparison
	if err := json.Unmarshal(out.Bytes(), &cs); err != nil || len(cs) == 0 {
		t.Fatalf("compare --json output %s: %v", out, err)
	}
	if m := cs[0]; m.Metric != "mock" || m.GroupWise.NA != 7 || m.GroupWise.NB != 6 || m.GroupWise.Diff <= 0 {
		t.Errorf("mock model-a vs model-b: %+v", m.GroupWise)
	}
}

func TestEvalUsage(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no out", []string{"eval", "--gold", "--bench", "x.json"}, 2, "--bench and --out are required"},
		{"gold and generations", []string{"eval", "--gold", "--generations", "g", "--bench", "x", "--out", "o"}, 2, "exactly one"},
		{"bad k", []string{"eval", "--gold", "--bench", "x", "--out", "o", "--k", "0"}, 2, "--k"},
		{"exec and warm", []string{"eval", "--exec", "--warm", "--gold", "--bench", "x", "--out", "o"}, 2, "contradict"},
		{"exec and no-batch", []string{"eval", "--exec", "--no-batch", "--gold", "--bench", "x", "--out", "o"}, 2, "--no-batch has no effect"},
		{"missing bench file", []string{"eval", "--gold", "--bench", "/nonexistent/b.json", "--out", "o"}, 1, "read benchmark"},
		{"compare needs two", []string{"compare", "a"}, 2, "want two result sets"},
		{"compare unknown metric", []string{"compare", "--metric", "bogus", "testdata-none-a", "testdata-none-b"}, 1, "read results"},
		{"kappa needs two", []string{"kappa", "a"}, 2, "want two label files"},
		{"report needs one", []string{"report"}, 2, "want at least one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _, errb, _, _ := evalTestEnv(t)
			if code := run(ctx, tt.args, e); code != tt.code || !strings.Contains(errb.String(), tt.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errb, tt.code, tt.stderr)
			}
		})
	}
}
