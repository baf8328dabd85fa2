package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sccg/evaluate/jsbox"
	"strings"
	"sync"
	"syscall"
	"testing"

	"sccg/evaluate"
	"sccg/evaluate/experiment"
	"sccg/evaluate/prompts"
	"sccg/internal/pipeline"
	"sccg/internal/replay"
	"sccg/release"
	"sccg/split"
	"sccg/store"
)

// snapshot is the replay snapshot built once for the experiment commands' tests:
// its store (with the crawled documentation) and its export directory.
var snapshot struct {
	once       sync.Once
	dir        string
	db, export string
	err        error
}

// TestMain serves as a JavaScript worker when a jsbox runner of a command under
// test re-executes this binary, as the sccg binary does for `sccg eval`.
func TestMain(m *testing.M) {
	if jsbox.IsWorker(os.Args) {
		// syscall.Exit, not os.Exit: a race-built worker sleeps a second in
		// os.Exit(0), and each runner's Close waits for it (see jsbox's TestMain).
		syscall.Exit(jsbox.ServeWorker(os.Stdin, os.Stdout, os.Args[2:]))
	}
	code := m.Run()
	if snapshot.dir != "" {
		os.RemoveAll(snapshot.dir)
	}
	if rejectFixture.dir != "" {
		os.RemoveAll(rejectFixture.dir)
	}
	os.Exit(code)
}

// replaySnapshot builds the benchmark from the replay servers, as `sccg demo` does,
// into a store and an export directory shared by the tests that read it.
func replaySnapshot(t *testing.T) (db, export string) {
	t.Helper()
	snapshot.once.Do(func() {
		if snapshot.dir, snapshot.err = os.MkdirTemp("", "sccg-snapshot-"); snapshot.err != nil {
			return
		}
		rp, err := pipeline.StartReplay()
		if err != nil {
			snapshot.err = err
			return
		}
		defer rp.Close()
		snapshot.db, snapshot.export = filepath.Join(snapshot.dir, "sccg.db"), filepath.Join(snapshot.dir, "export")
		st, err := store.Open(context.Background(), snapshot.db)
		if err != nil {
			snapshot.err = err
			return
		}
		defer st.Close()
		o := pipeline.Options{Out: snapshot.export, Format: release.JSON, Split: split.Options{Seed: 1, Ratios: split.DefaultRatios}}
		rp.Apply(&o)
		_, snapshot.err = pipeline.Build(context.Background(), st, o)
	})
	if snapshot.err != nil {
		t.Fatalf("build the replay snapshot: %v", snapshot.err)
	}
	return snapshot.db, snapshot.export
}

// snapshotEnv is a test env on a copy of the snapshot's store (commands write to it).
func snapshotEnv(t *testing.T) (*env, string) {
	t.Helper()
	db, export := replaySnapshot(t)
	e, _, _ := newTestEnv(t)
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e.db, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return e, export
}

func readSummary(t *testing.T, dir string) map[string]evaluate.Group {
	t.Helper()
	s, err := evaluate.ReadSummary(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]evaluate.Group{}
	for _, g := range s.Groups {
		out[g.Setting+"/"+g.Model] = g
	}
	return out
}

// TestPromptsBaselineEvalOnTheSnapshot: doc-template under oracle-c3 hits every
// sample of the snapshot whose gold endpoint is documented (the documentation from
// the store the snapshot was built in); null hits none; the selection task's gold
// ranks the target first.
func TestPromptsBaselineEvalOnTheSnapshot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the replay snapshot and runs the sandbox")
	}
	// Slow: four baselines' completions and the selection task scored in the sandbox.
	t.Parallel() // its own copy of the snapshot's store; the other slow end-to-end tests run beside it
	e, export := snapshotEnv(t)
	out, errb := e.stdout.(interface{ String() string }), e.stderr.(interface{ String() string })
	dir := t.TempDir()
	recs, err := release.ReadFile(filepath.Join(export, "sccgbench.json"))
	if err != nil {
		t.Fatal(err)
	}
	documented := 0
	for _, r := range recs {
		if prompts.Documented(r) {
			documented++
		}
	}
	p := filepath.Join(dir, "c3.jsonl")
	importTestRun(t, e, 0, "prompts", "--bench", export, "--setting", "oracle-c3", "--out", p)
	if !strings.Contains(out.String(), "oracle-c3 prompts") || !strings.Contains(out.String(), "documentation: store") {
		t.Errorf("prompts output: %s", out)
	}
	if !strings.Contains(errb.String(), "no_docs") {
		t.Errorf("the undocumented samples were not reported: %s", errb)
	}
	ps, err := prompts.ReadFile(p)
	if err != nil || len(ps) != documented {
		t.Fatalf("%d oracle-c3 prompts (%v); %d samples are documented", len(ps), err, documented)
	}
	g := filepath.Join(dir, "dt.jsonl")
	importTestRun(t, e, 0, "baseline", "doc-template", "--bench", export, "--prompts", p, "--out", g)
	importTestRun(t, e, 0, "baseline", "null", "--bench", export, "--setting", "c1", "--out", filepath.Join(dir, "null.jsonl"))
	// under intent (every prompt LeakChecked) doc-template has nothing to call;
	// bm25-nearest-train copies the code of the nearest train intent
	importTestRun(t, e, 0, "baseline", "doc-template", "--bench", export, "--setting", "intent", "--out", filepath.Join(dir, "dt-intent.jsonl"))
	importTestRun(t, e, 0, "baseline", "bm25-nearest-train", "--bench", export, "--split", "test", "--setting", "intent",
		"--out", filepath.Join(dir, "bm25.jsonl"))
	var all []evaluate.Generation
	for _, f := range []string{g, "null.jsonl", "dt-intent.jsonl", "bm25.jsonl"} {
		gs, _, err := evaluate.ReadGenerations(filepath.Join(dir, filepath.Base(f)))
		if err != nil || len(gs) == 0 {
			t.Fatalf("%s: %d generations, %v", f, len(gs), err)
		}
		all = append(all, gs...)
	}
	os.WriteFile(filepath.Join(dir, "all.jsonl"), []byte(strings.Join(jsonLines(t, all), "")), 0o644)
	// the prompts skipped the samples without documentation: a part of the benchmark
	importTestRun(t, e, 0, "eval", "--bench", filepath.Join(export, "sccgbench.json"), "--generations", filepath.Join(dir, "all.jsonl"),
		"--out", filepath.Join(dir, "eval"), "--timeout", "30s", "--partial")
	sum := readSummary(t, filepath.Join(dir, "eval"))
	dt := sum["oracle-c3/doc-template"]
	if dt.Overall.N != documented || dt.Overall.Mock != 1 {
		t.Errorf("doc-template under oracle-c3: n=%d mock=%.3f; want every one of the %d documented samples hit", dt.Overall.N, dt.Overall.Mock, documented)
	}
	if n := sum["c1/null"]; n.Overall.N == 0 || n.Overall.Mock != 0 || n.Overall.Syntax != 1 {
		t.Errorf("null under c1: %+v", n.Overall)
	}
	if di := sum["intent/doc-template"]; di.Overall.N != len(recs)-noEndpoint(recs) || di.Overall.Mock != 0 || di.Overall.ExecReq != 1 {
		t.Errorf("doc-template under intent: n=%d mock=%.3f exec_req=%.3f; want every sample prompted and none hit",
			di.Overall.N, di.Overall.Mock, di.Overall.ExecReq)
	}
	if bm := sum["intent/bm25-nearest-train"]; bm.Overall.N == 0 || bm.Overall.Syntax == 0 {
		t.Errorf("bm25-nearest-train: %+v", bm.Overall)
	}

	sel := filepath.Join(dir, "sel.jsonl")
	importTestRun(t, e, 0, "prompts", "--bench", export, "--task", "select-endpoint", "--out", sel)
	importTestRun(t, e, 0, "baseline", "gold", "--bench", export, "--prompts", sel, "--out", filepath.Join(dir, "selgold.jsonl"))
	importTestRun(t, e, 0, "eval", "--bench", filepath.Join(export, "sccgbench.json"), "--prompts", sel,
		"--generations", filepath.Join(dir, "selgold.jsonl"), "--out", filepath.Join(dir, "seleval"))
	if !strings.Contains(out.String(), "select-endpoint/gold: n=") || !strings.Contains(out.String(), "top1=1.000") {
		t.Errorf("selection eval: %s", out)
	}
	tables, _ := os.ReadFile(filepath.Join(dir, "seleval", "tables.md"))
	if !strings.Contains(string(tables), "Endpoint selection") {
		t.Errorf("selection tables.md: %s", tables)
	}
}

func noEndpoint(recs []release.Record) int {
	n := 0
	for _, r := range recs {
		if t := evaluate.TruthOf(r); !t.HasEndpoint() {
			n++
		}
	}
	return n
}

func jsonLines(t *testing.T, gens []evaluate.Generation) []string {
	t.Helper()
	var out []string
	for _, g := range gens {
		b, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b)+"\n")
	}
	return out
}

const replayCode = "```python\nimport requests\n\n\ndef f(*args, **kwargs):\n    return requests.get(\"https://api.example.com/\").json()\n```"

// TestGenerateCommand runs sccg generate against the LLM replay server: every
// prompt answered, the key read from the variable --key-env names and never
// printed, a rerun sends nothing.
func TestGenerateCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the replay snapshot")
	}
	t.Parallel() // its own copy of the snapshot's store; the other slow end-to-end tests run beside it
	e, export := snapshotEnv(t)
	out, errb := e.stdout.(interface{ String() string }), e.stderr.(interface{ String() string })
	h := replay.NewLLM(replay.LLMOptions{APIKey: "sk-replay-secret"})
	h.Default(replay.Answer(replayCode))
	h.On("fixtures", replay.Fail(429, "1"), replay.Answer(replayCode))
	srv := replay.Start(h)
	defer srv.Close()
	e.getenv = func(k string) string {
		if k == "REPLAY_KEY" {
			return "sk-replay-secret"
		}
		return ""
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "c2.jsonl")
	importTestRun(t, e, 0, "prompts", "--bench", export, "--setting", "c2", "--out", p)
	ps, _ := prompts.ReadFile(p)
	g := filepath.Join(dir, "gens.jsonl")
	args := []string{"generate", "--prompts", p, "--model", "replay-chat", "--base-url", srv.URL + "/v1", "--key-env", "REPLAY_KEY",
		"--out", g, "--temperature", "0", "--top-p", "1", "--max-tokens", "512", "--concurrency", "3"}
	importTestRun(t, e, 0, args...)
	gens, problems, err := evaluate.ReadGenerations(g)
	if err != nil || len(problems) > 0 || len(gens) != len(ps) {
		t.Fatalf("%d generations for %d prompts (%v %v)", len(gens), len(ps), problems, err)
	}
	if !strings.Contains(errb.String(), "answers from the cache") || strings.Contains(errb.String()+out.String(), "sk-replay-secret") {
		t.Errorf("generate output: %s\n%s", out, errb)
	}
	// identical prompts are asked once: the cache answers the repeats
	distinct := map[string]bool{}
	for _, x := range ps {
		distinct[x.PromptHash] = true
	}
	sent := srv.Log.Len()
	if sent < len(distinct) || sent >= len(ps)+len(distinct) {
		t.Errorf("%d requests for %d prompts, %d distinct", sent, len(ps), len(distinct))
	}
	importTestRun(t, e, 0, args...)
	if srv.Log.Len() != sent || !strings.Contains(out.String(), "0 new") {
		t.Errorf("the rerun sent %d requests: %s", srv.Log.Len()-sent, out)
	}
	// a wrong key fails every request; the command says so and exits 1
	e.getenv = func(string) string { return "wrong" }
	importTestRun(t, e, 1, "generate", "--prompts", p, "--model", "other", "--base-url", srv.URL+"/v1", "--key-env", "REPLAY_KEY",
		"--out", filepath.Join(dir, "bad.jsonl"), "--retries", "0")
	if !strings.Contains(errb.String(), "sccg generate: stopped") || !strings.Contains(errb.String(), "401") ||
		strings.Contains(errb.String(), "run it again") || strings.Contains(errb.String(), "wrong") {
		t.Errorf("generate with a bad key: %s", errb)
	}
}

// TestExperimentCommand runs a grid (baselines and a replay model) on the snapshot
// and reruns it: the second run resumes everything and writes the same tables.
func TestExperimentCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the replay snapshot and runs the sandbox")
	}
	// Slow: two runs of a 13-cell grid (the first scores each cell's completions in the
	// sandbox), about 20 s under the race detector.
	t.Parallel() // its own copy of the snapshot's store; the other slow end-to-end tests run beside it
	e, export := snapshotEnv(t)
	out := e.stdout.(interface{ String() string })
	h := replay.NewLLM(replay.LLMOptions{})
	h.Default(replay.Answer(replayCode))
	srv := replay.Start(h)
	defer srv.Close()
	dir := t.TempDir()
	grid := filepath.Join(dir, "grid.json")
	os.WriteFile(grid, []byte(`{"settings": ["intent", "oracle-c3", "oracle-c5"], "baselines": ["gold", "null", "doc-template", "bm25-nearest-train"],
  "models": [{"name": "replay-chat", "base_url": "`+srv.URL+`/v1", "temperature": 0}],
  "split": "test", "eval": {"timeout": "30s"}, "stats": {"rounds": 200}}`), 0o644)
	res := filepath.Join(dir, "out")
	importTestRun(t, e, 0, "experiment", "--grid", grid, "--bench", export, "--out", res)
	var idx experiment.Index
	b, err := os.ReadFile(filepath.Join(res, "grid.json"))
	if err != nil || json.Unmarshal(b, &idx) != nil {
		t.Fatalf("grid.json: %v", err)
	}
	if len(idx.Cells) != 13 || idx.Docs != "store" {
		t.Errorf("%d cells (want 3 settings × 4 and bm25-nearest-train under intent), docs from %q (want the store)", len(idx.Cells), idx.Docs)
	}
	for _, c := range idx.Cells {
		if c.Model == "doc-template" && (c.Setting == "intent") != (c.Overall.Mock == 0) {
			t.Errorf("%s: mock %.3f", c.ID, c.Overall.Mock)
		}
	}
	tables, _ := os.ReadFile(filepath.Join(res, "tables.md"))
	for _, s := range []string{"Table V", "Table VII", "| replay-chat | oracle-c5 |", "| intent | bm25-nearest-train |", "Temporal split"} {
		if !strings.Contains(string(tables), s) {
			t.Errorf("tables.md lacks %q", s)
		}
	}
	if page, err := os.ReadFile(filepath.Join(res, "report", "report.md")); err != nil || !strings.Contains(string(page), "Table VII") {
		t.Errorf("the grid's report page: %v", err)
	}
	sent := srv.Log.Len()
	out.(interface{ Reset() }).Reset()
	importTestRun(t, e, 0, "experiment", "--grid", grid, "--bench", export, "--out", res)
	again, _ := os.ReadFile(filepath.Join(res, "tables.md"))
	if string(again) != string(tables) || srv.Log.Len() != sent {
		t.Errorf("the rerun changed tables.md or sent %d requests", srv.Log.Len()-sent)
	}
	out.(interface{ Reset() }).Reset()
	importTestRun(t, e, 0, "report", res)
	if !strings.Contains(out.String(), "Table V") {
		t.Errorf("sccg report on the grid's directory: %s", out)
	}
}

func TestExperimentCommandsUsage(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	badGrid := filepath.Join(dir, "bad.yaml")
	os.WriteFile(badGrid, []byte("settings: [c7]\nbaselines: [gold]\n"), 0o644)
	bench := filepath.Join("..", "..", "evaluate", "testdata", "experiment_bench.json")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"prompts without --out", []string{"prompts", "--bench", bench}, 2, "--out is required"},
		{"prompts without --bench", []string{"prompts", "--out", "x"}, 2, "--bench is required"},
		{"prompts, unknown setting", []string{"prompts", "--bench", bench, "--setting", "c7", "--out", "x"}, 2, "unknown setting"},
		{"prompts, dense without embeddings", []string{"prompts", "--bench", bench, "--setting", "rag-dense", "--out", "x"}, 2, "needs an embeddings model"},
		{"prompts, missing bench", []string{"prompts", "--bench", "/nonexistent.json", "--out", "x"}, 1, "read benchmark"},
		{"baseline without a name", []string{"baseline", "--bench", bench, "--out", "x"}, 2, "want one baseline name"},
		{"baseline, unknown name", []string{"baseline", "oracle", "--bench", bench, "--out", "x"}, 2, "unknown baseline"},
		{"baseline doc-template without prompts", []string{"baseline", "doc-template", "--bench", bench, "--out", "x"}, 2, "give --setting S or --prompts"},
		{"baseline, both", []string{"baseline", "gold", "--bench", bench, "--setting", "c1", "--prompts", "p", "--out", "x"}, 2, "not both"},
		{"generate without flags", []string{"generate", "--prompts", "p"}, 2, "are required"},
		{"generate, bad base url", []string{"generate", "--prompts", "p", "--model", "m", "--base-url", "ftp://x", "--out", "o"}, 1, "read prompts"},
		{"experiment without grid", []string{"experiment", "--out", dir}, 2, "--grid and --out are required"},
		{"experiment, bad grid", []string{"experiment", "--grid", badGrid, "--out", dir}, 1, "unknown setting"},
		{"experiment, no bench", []string{"experiment", "--grid", writeGrid(t, dir), "--out", dir}, 2, "no benchmark"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _, errb := newTestEnv(t)
			if code := run(ctx, tt.args, e); code != tt.code || !strings.Contains(errb.String(), tt.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errb, tt.code, tt.stderr)
			}
		})
	}
}

func writeGrid(t *testing.T, dir string) string {
	p := filepath.Join(dir, "ok.yaml")
	if err := os.WriteFile(p, []byte("settings: [c1]\nbaselines: [gold]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
