package evaluate

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"sccg/evaluate/sandbox"
	"sccg/internal/conformance"
	"sccg/release"
)

func readSynthetic(t testing.TB) ([]release.Record, []Generation, []string) {
	t.Helper()
	bench, err := release.ReadFile(filepath.Join("testdata", "bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	gens, problems, err := ReadGenerations(filepath.Join("testdata", "generations.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return bench, gens, problems
}

func runOrSkip(t testing.TB, cfg Config) *Output {
	t.Helper()
	cfg.Sandbox.ScratchDir = t.TempDir()
	if cfg.Sandbox.Limits.Timeout == 0 {
		// nothing here loops: a generous limit keeps a busy machine from failing tests
		cfg.Sandbox.Limits.Timeout = 30 * time.Second
	}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		if strings.Contains(err.Error(), "sandbox: find") {
			t.Skipf("no python: %v", err)
		}
		t.Fatal(err)
	}
	return out
}

func TestRunSynthetic(t *testing.T) {
	bench, gens, problems := readSynthetic(t)
	if len(problems) != 1 || !strings.Contains(problems[0], "generations.jsonl line") {
		t.Errorf("problems reading generations = %q, want the malformed line named", problems)
	}
	out := runOrSkip(t, Config{Bench: bench, Generations: gens, K: []int{1, 2}})
	if len(out.Problems) != 1 || !strings.Contains(out.Problems[0], `unknown sample_id "SYN-9999"`) {
		t.Errorf("run problems = %q, want the unknown sample named", out.Problems)
	}
	got := map[string]Result{}
	for _, r := range out.Results {
		got[r.Model+"/"+r.SampleID+"/"+string(rune('0'+r.SampleIndex))] = r
	}
	tests := []struct {
		name, key   string
		stage       string
		mock        float64
		hasEndpoint bool
	}{
		{"requests GET hits", "model-a/SYN-0001/0", StageHit, 1, true},
		{"requests POST json hits", "model-a/SYN-0002/0", StageHit, 1, true},
		{"httpx async base_url with path param hits", "model-a/SYN-0003/0", StageHit, 1, true},
		{"http.client hits", "model-a/SYN-0004/0", StageHit, 1, true},
		{"urllib in a class method hits", "model-a/SYN-0005/0", StageHit, 1, true},
		{"no endpoint: host and method", "model-a/SYN-0006/0", StageHit, 1, false},
		{"module-level session hits", "model-a/SYN-0007/0", StageHit, 1, true},
		{"stubbed django and pandas hit", "model-a/SYN-0008/0", StageHit, 1, true},
		{"wrong host", "model-b/SYN-0001/0", StageHost, 0, true},
		{"wrong method", "model-b/SYN-0002/0", StageMethod, 0, true},
		{"wrong route", "model-b/SYN-0003/0", StageEndpoint, 0, true},
		{"syntax error", "model-b/SYN-0004/0", StageSyntax, 0, true},
		{"no request", "model-b/SYN-0005/0", StageRequest, 0, true},
		{"second sample of a pair misses", "model-b/SYN-0007/1", StageEndpoint, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := got[tt.key]
			if !ok {
				t.Fatalf("no result for %s", tt.key)
			}
			if r.FailureStage != tt.stage || r.Mock != tt.mock || r.HasEndpoint != tt.hasEndpoint {
				t.Errorf("stage=%s mock=%v has_endpoint=%v (status %s %s, requests %+v); want stage=%s mock=%v has_endpoint=%v",
					r.FailureStage, r.Mock, r.HasEndpoint, r.Status, r.Reason, r.Requests, tt.stage, tt.mock, tt.hasEndpoint)
			}
		})
	}
	a := got["model-a/SYN-0001/0"]
	if a.ParamF1 != 1 || a.Robust != 1 || a.Dep != 1 || a.Secret != 1 || a.CodeBLEU < 0.99 || a.ES != 1 {
		t.Errorf("gold-identical completion: %+v", a.Metrics)
	}
	// Dependency recall from the sandbox's facts of the gold and the completion.
	if r := got["model-a/SYN-0008/0"]; !reflect.DeepEqual(r.GoldDeps, []string{"django", "pandas", "requests"}) || r.DepRecall != 1 {
		t.Errorf("SYN-0008 gold deps %q, dep_recall %v", r.GoldDeps, r.DepRecall)
	}
	if r := got["model-b/SYN-0004/0"]; len(r.GoldDeps) != 0 || r.DepRecall != 1 {
		t.Errorf("SYN-0004 (http.client) has no dependency to recall: %q %v", r.GoldDeps, r.DepRecall)
	}
	if r := got["model-a/SYN-0002/0"]; r.ParamsSource != "code" || r.ParamF1 != 1 {
		t.Errorf("SYN-0002 params from code_params: source %q f1 %v", r.ParamsSource, r.ParamF1)
	}
	if r := got["model-a/SYN-0003/0"]; r.ParamsSource != "gold_run" || r.ParamF1 != 1 {
		t.Errorf("SYN-0003 params fall back to the gold run: source %q f1 %v", r.ParamsSource, r.ParamF1)
	}
	var b *Group
	for i := range out.Summary.Groups {
		if out.Summary.Groups[i].Model == "model-b" {
			b = &out.Summary.Groups[i]
		}
	}
	if b == nil || b.PassAtK["pass@1"] <= 0 || b.FailureStages[StageHost] != 1 {
		t.Fatalf("model-b summary: %+v", b)
	}
	// SYN-0007 has two completions, one hit: pass@1 = 0.5, pass@2 = 1 for it.
	if b.Overall.N != 7 {
		t.Errorf("model-b overall n = %d, want 7", b.Overall.N)
	}

	dir := t.TempDir()
	if err := WriteOutputs(dir, out); err != nil {
		t.Fatal(err)
	}
	back, err := ReadResults(dir)
	if err != nil || len(back) != len(out.Results) {
		t.Errorf("ReadResults: %d results, %v; want %d", len(back), err, len(out.Results))
	}
}

// mutants returns the gold code with its host, route or method changed; a mutation
// that does not apply to the code is left out.
func mutants(r release.Record, truth GroundTruth) map[string]string {
	code := r.Code.CompleteFunction
	out := map[string]string{}
	add := func(name, m string) {
		if m != code {
			out[name] = m
		}
	}
	host := code
	for _, h := range truth.Hosts {
		host = strings.ReplaceAll(host, h, "mutant-"+h)
	}
	add("host", host)
	if truth.Route != "" {
		segs := splitPath(truth.Route)
		for i := len(segs) - 1; i >= 0; i-- {
			if !strings.Contains(segs[i], "{") {
				add("route", strings.ReplaceAll(code, "/"+segs[i], "/"+segs[i]+"-mutant"))
				break
			}
		}
	}
	method := code
	switch truth.Method {
	case "GET":
		for _, p := range [][2]string{{".get(", ".delete("}, {`"GET"`, `"DELETE"`}, {`'GET'`, `'DELETE'`}} {
			method = strings.ReplaceAll(method, p[0], p[1])
		}
	default:
		lm := strings.ToLower(truth.Method)
		for _, p := range [][2]string{{"." + lm + "(", ".patch("}, {`"` + truth.Method + `"`, `"PATCH"`}, {`'` + truth.Method + `'`, `'PATCH'`}} {
			method = strings.ReplaceAll(method, p[0], p[1])
		}
	}
	add("method", method)
	return out
}

func mutantGenerations(bench []release.Record) []Generation {
	var gens []Generation
	for _, r := range bench {
		for name, code := range mutants(r, TruthOf(r)) {
			gens = append(gens, Generation{SampleID: r.SampleID, Setting: "mutant", Model: name, Completion: code})
		}
	}
	return gens
}

// TestMutantsNeverHit: gold code with its host, route or method changed must never
// be a Mock hit.
func TestMutantsNeverHit(t *testing.T) {
	bench, _, _ := readSynthetic(t)
	gens := mutantGenerations(bench)
	if len(gens) < 15 {
		t.Fatalf("only %d mutants of %d samples", len(gens), len(bench))
	}
	out := runOrSkip(t, Config{Bench: bench, Generations: gens})
	for _, r := range out.Results {
		if r.Mock == 1 {
			t.Errorf("%s mutant of %s hits: %+v", r.Model, r.SampleID, r.Requests)
		}
	}
}

func TestConformanceMutants(t *testing.T) {
	bench := conformance.Records(t)
	gens := mutantGenerations(bench)
	out := runOrSkip(t, Config{Bench: bench, Generations: gens, Sandbox: sandbox.Options{Limits: sandbox.Limits{Timeout: 3 * time.Second}}})
	for _, r := range out.Results {
		if r.Mock == 1 {
			t.Errorf("%s mutant of %s hits: %+v", r.Model, r.SampleID, r.Requests)
		}
	}
	t.Logf("%d mutants, none hit", len(out.Results))
}

// TestWarmMatchesExec: the fork server scores every completion as a fresh exec does.
func TestWarmMatchesExec(t *testing.T) {
	bench, gens, _ := readSynthetic(t)
	cold := runOrSkip(t, Config{Bench: bench, Generations: gens, Sandbox: sandbox.Options{Exec: true}})
	warm := runOrSkip(t, Config{Bench: bench, Generations: gens})
	if len(cold.Results) != len(warm.Results) {
		t.Fatalf("%d results cold, %d warm", len(cold.Results), len(warm.Results))
	}
	for i := range cold.Results {
		c, w := cold.Results[i], warm.Results[i]
		if c.SampleID != w.SampleID || c.Metrics != w.Metrics || c.FailureStage != w.FailureStage || c.Status != w.Status ||
			len(c.Requests) != len(w.Requests) {
			t.Errorf("%s/%s #%d: exec %s %s %+v, fork server %s %s %+v", c.Model, c.SampleID, c.SampleIndex,
				c.Status, c.FailureStage, c.Metrics, w.Status, w.FailureStage, w.Metrics)
		}
	}
}
