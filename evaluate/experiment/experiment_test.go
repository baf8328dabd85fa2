package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sccg/evaluate"
	"sccg/evaluate/prompts"
	"sccg/internal/golden"
	"sccg/internal/replay"
	"sccg/internal/storetest"
	"sccg/llm"
	"sccg/release"
	"sccg/store"
)

func writeFile(t *testing.T, path, body string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadGrid(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, file, body, err string
		check                 func(*Grid) bool
	}{
		{"yaml, null is the baseline's name", "g.yaml", "bench: b.json\nsettings: [C0, c3, rag_bm25]\nbaselines: [gold, null]\n" +
			"models:\n  - name: qwen2.5-coder:7b\n    base_url: http://localhost:11434/v1\n    temperature: 0\n    n: 5\n",
			"", func(g *Grid) bool {
				return slices.Equal(g.Settings, []string{"intent", "oracle-c3", "rag-bm25"}) && slices.Equal(g.Baselines, []string{"gold", "null"}) &&
					*g.Models[0].Temperature == 0 && slices.Equal(g.ks(), []int{1, 5}) && g.Resolve(g.Bench) == filepath.Join(dir, "b.json")
			}},
		{"json", "g.json", `{"settings": ["oracle-c5"], "baselines": ["doc-template"], "stats": {"cutoff": "2024-01-01", "contamination": true}}`,
			"", func(g *Grid) bool {
				return g.Settings[0] == "oracle-c5" && g.Stats.Contamination && g.Task == prompts.TaskGenerate
			}},
		{"select task", "s.yaml", "task: select-endpoint\nbaselines: [gold]\n", "", func(g *Grid) bool {
			return slices.Equal(g.Settings, []string{prompts.TaskSelect})
		}},
		{"unknown field", "u.yaml", "settings: [intent]\nbaselines: [gold]\nmodel: x\n", "field model not found", nil},
		{"unknown json field", "u.json", `{"settings": ["intent"], "baselines": ["gold"], "seed": 1}`, "unknown field", nil},
		{"unknown setting", "b.yaml", "settings: [c9]\nbaselines: [gold]\n", "unknown setting", nil},
		{"nothing to run", "n.yaml", "settings: [intent]\n", "nothing to run", nil},
		{"model without base_url", "m.yaml", "settings: [intent]\nmodels: [{name: m}]\n", "no base_url", nil},
		{"a model named like a baseline", "mb.yaml", "settings: [intent]\nmodels: [{name: gold, base_url: http://x}]\n", "baseline's name", nil},
		{"duplicate setting", "d.yaml", "settings: [c3, oracle-c3]\nbaselines: [gold]\n", "given twice", nil},
		{"bad cutoff", "c.yaml", "settings: [intent]\nbaselines: [gold]\nstats: {cutoff: June}\n", "stats.cutoff", nil},
		{"a model's own cutoff", "mc.yaml", "settings: [intent]\nmodels: [{name: m, base_url: http://x, cutoff: 2023-10-01}]\nstats: {cutoff: 2024-06-01}\n",
			"", func(g *Grid) bool { return g.cutoff("m") == "2023-10-01" && g.cutoff("gold") == "2024-06-01" }},
		{"bad model cutoff", "bmc.yaml", "settings: [intent]\nmodels: [{name: m, base_url: http://x, cutoff: soon}]\n", "models: m: cutoff", nil},
		{"settings with the select task", "st.yaml", "task: select-endpoint\nsettings: [intent]\nbaselines: [gold]\n", "has none", nil},
		{"a mapping where names go", "mp.yaml", "settings: [{a: b}]\nbaselines: [gold]\n", "want a name", nil},
		{"not yaml or json", "g.toml", "settings = []", "want a .yaml", nil},
		{"dense without embeddings", "dn.yaml", "settings: [rag-dense]\nbaselines: [gold]\n", "needs an embeddings model", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := ReadGrid(writeFile(t, filepath.Join(dir, tt.file), tt.body))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(g) {
				t.Errorf("grid %+v", g)
			}
		})
	}
}

var noLeaks = prompts.LeakFunc(func(context.Context, *release.Record, string) (string, error) { return "", nil })

const modelCode = "```python\nimport requests\n\n\ndef f(*args, **kwargs):\n    r = requests.get(\"https://tidewatch.p.rapidapi.com/tides\", params={\"station\": \"x\"})\n    return r.json()\n```"

// countingTransport cancels the run after n requests reach the server, as a kill
// during generation would.
type countingTransport struct {
	n      int64
	seen   atomic.Int64
	cancel context.CancelFunc
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if c.cancel != nil && c.seen.Add(1) >= c.n {
		c.cancel()
	}
	return resp, err
}

type gridRun struct {
	dir    string
	srv    *replay.Server
	bench  *evaluate.Bench
	grid   *Grid
	opened func() Options
}

func newGridRun(t *testing.T, srv *replay.Server) *gridRun {
	t.Helper()
	bench, err := evaluate.LoadBench(filepath.Join("..", "testdata", "experiment_bench.json"), "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	grid := writeFile(t, filepath.Join(dir, "grid.yaml"), "settings: [intent, oracle-c3]\nbaselines: [gold, null, doc-template]\n"+
		"models:\n  - name: replay-coder\n    base_url: "+srv.URL+"/v1\n    temperature: 0\n    concurrency: 2\n    timeout: 5s\n"+
		"eval:\n  timeout: 30s\nstats:\n  rounds: 200\n")
	g, err := ReadGrid(grid)
	if err != nil {
		t.Fatal(err)
	}
	st := storetest.Open(t)
	gr := &gridRun{dir: filepath.Join(dir, "out"), srv: srv, bench: bench, grid: g}
	gr.opened = func() Options {
		return Options{Dir: gr.dir, Bench: bench, Store: st, Leaks: noLeaks,
			LLMOptions: []llm.Option{llm.WithSleep(func(ctx context.Context, _ time.Duration) error { return ctx.Err() })}}
	}
	return gr
}

// outputs reads every file a grid wrote, results without their timings.
func outputs(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasSuffix(rel, "generate.json") || strings.HasPrefix(rel, "sccg.db") {
			return nil // request counts and the store differ between a fresh and a resumed run
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if filepath.Base(rel) == "results.jsonl" {
			var lines []string
			for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				var m map[string]any
				if err := json.Unmarshal([]byte(line), &m); err != nil {
					return err
				}
				delete(m, "duration_ms")
				out, _ := json.Marshal(m)
				lines = append(lines, string(out))
			}
			b = []byte(strings.Join(lines, "\n"))
		}
		files[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestKilledGridResumesToTheSameOutputs: a grid killed during generation and again
// during evaluation, then rerun, writes exactly what an uninterrupted run writes,
// and the rerun asks the model only for what it had not answered.
func TestKilledGridResumesToTheSameOutputs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox")
	}
	h := replay.NewLLM(replay.LLMOptions{})
	h.Default(replay.Answer(modelCode))
	h.On("high_tides", replay.Fail(http.StatusInternalServerError, ""), replay.Answer(modelCode)) // one retry
	srv := replay.Start(h)
	defer srv.Close()

	whole := newGridRun(t, srv)
	idx, err := Run(context.Background(), whole.grid, whole.opened())
	if err != nil {
		t.Fatal(err)
	}
	wholeRequests := srv.Log.Len()
	if len(idx.Cells) != 8 {
		t.Fatalf("%d cells, want 2 settings × (1 model + 3 baselines)", len(idx.Cells))
	}
	want := outputs(t, whole.dir)
	for _, f := range []string{"grid.json", "tables.md", "summary.json", "prompts/intent.jsonl", "cells/oracle-c3/replay-coder/generations.jsonl",
		"cells/oracle-c3/doc-template/results.jsonl", "cells/intent/null/tables.md"} {
		if _, ok := want[f]; !ok {
			t.Errorf("the grid wrote no %s", f)
		}
	}
	for _, s := range []string{"Table V: executability", "Table VII: information-augmentation staircase", "| replay-coder | oracle-c3 |",
		"| doc-template | oracle-c3 | 5 |", "Temporal split"} {
		if !strings.Contains(want["tables.md"], s) {
			t.Errorf("tables.md lacks %q", s)
		}
	}
	mock := map[string]float64{}
	for _, c := range idx.Cells {
		mock[c.ID] = c.Overall.Mock
	}
	if mock["oracle-c3/doc-template"] != 1 || mock["intent/doc-template"] != 0 || mock["oracle-c3/null"] != 0 {
		t.Errorf("cell Mock %v", mock)
	}

	killed := newGridRun(t, srv)
	// kill 1: during the model's generations
	ctx, cancel := context.WithCancel(context.Background())
	o := killed.opened()
	o.LLMOptions = append(o.LLMOptions, llm.WithHTTPClient(&http.Client{Transport: &countingTransport{n: 3, cancel: cancel}}))
	if _, err := Run(ctx, killed.grid, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("run killed during generation: err = %v", err)
	}
	// kill 2: in the middle of an evaluation
	ctx, cancel = context.WithCancel(context.Background())
	o = killed.opened()
	var scored atomic.Int64
	o.OnScored = func(string) {
		if scored.Add(1) == 9 {
			cancel()
		}
	}
	if _, err := Run(ctx, killed.grid, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("run killed during evaluation: err = %v", err)
	}
	o = killed.opened()
	var rescored atomic.Int64
	o.OnScored = func(string) { rescored.Add(1) }
	if _, err := Run(context.Background(), killed.grid, o); err != nil {
		t.Fatal(err)
	}
	got := outputs(t, killed.dir)
	for f, w := range want {
		g, ok := got[f]
		// the files may name the directory they are in; everything else must agree
		w, g = strings.ReplaceAll(w, whole.dir, "DIR"), strings.ReplaceAll(g, killed.dir, "DIR")
		switch {
		case !ok:
			t.Errorf("the resumed grid lacks %s", f)
		case g != w:
			t.Errorf("%s differs after resuming:\n%s", f, golden.Diff(w, g))
		}
	}
	for f := range got {
		if _, ok := want[f]; !ok {
			t.Errorf("the resumed grid wrote %s, the uninterrupted one did not", f)
		}
	}
	// The killed runs lose at most the requests in flight (two at a time); the
	// answers that arrived are written or cached, and not asked for again.
	if n := srv.Log.Len() - wholeRequests; n > wholeRequests+2 {
		t.Errorf("the killed and resumed runs sent %d requests, the uninterrupted one %d", n, wholeRequests)
	}
	if rescored.Load() == 0 {
		t.Error("the final rerun scored nothing: the kill during evaluation did not interrupt it")
	}

	// A third run changes nothing and scores nothing again.
	o = killed.opened()
	var again atomic.Int64
	o.OnScored = func(string) { again.Add(1) }
	if _, err := Run(context.Background(), killed.grid, o); err != nil {
		t.Fatal(err)
	}
	if again.Load() != 0 {
		t.Errorf("a finished grid scored %d completions again", again.Load())
	}
	if g2 := outputs(t, killed.dir); g2["tables.md"] != got["tables.md"] || g2["grid.json"] != got["grid.json"] {
		t.Error("a third run changed the outputs")
	}
}

// TestContaminationPairs prompts the samples that have a human comment and a
// stored redacted intent both ways, and the paired test reaches the summary.
func TestContaminationPairs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox")
	}
	ctx := context.Background()
	bench, err := evaluate.LoadBench(filepath.Join("..", "testdata", "experiment_bench.json"), "")
	if err != nil {
		t.Fatal(err)
	}
	st := storetest.Open(t)
	// SYN-0001 and SYN-0003 have original comments; give them stored redacted
	// intents, as the redact stage would.
	redacted := map[string]string{"SYN-0001": "When is the water highest at a station?", "SYN-0003": "Which stations report levels?"}
	if err := st.Update(ctx, func(tx *store.Tx) error {
		for _, r := range bench.All {
			b, _ := json.Marshal(r)
			smp := store.Sample{SampleID: r.SampleID, Origin: store.OriginImported, FunctionName: r.FunctionName, Record: b}
			if err := tx.PutSample(ctx, &smp); err != nil {
				return err
			}
			if text, ok := redacted[r.SampleID]; ok {
				if err := tx.PutIntent(ctx, store.Intent{SampleRowID: smp.ID, Attempt: 1, Kind: "intent_redacted", Text: text, Passed: true}); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	pairs, err := intentPairs(ctx, st, bench.Samples)
	if err != nil || len(pairs) != 2 || pairs["SYN-0001"] != [2]string{"Next high tides for a station.", redacted["SYN-0001"]} {
		t.Fatalf("pairs %v, %v", pairs, err)
	}
	// a record's redacted_intent field (the redact stage's export) is a pair's
	// redacted side too, and comes before the store's
	withField := append([]release.Record(nil), bench.Samples...)
	withField[0].Extra = maps.Clone(withField[0].Extra)
	withField[0].Extra["redacted_intent"] = json.RawMessage(`{"text": "Upcoming peaks of the water at a gauge.", "comments_source": "intent_redacted"}`)
	if p, err := intentPairs(ctx, st, withField); err != nil || p["SYN-0001"][1] != "Upcoming peaks of the water at a gauge." {
		t.Errorf("pair from the redacted_intent field: %v, %v", p["SYN-0001"], err)
	}
	h := replay.NewLLM(replay.LLMOptions{})
	h.Default(replay.Answer(modelCode))
	srv := replay.Start(h)
	defer srv.Close()
	dir := t.TempDir()
	g, err := ReadGrid(writeFile(t, filepath.Join(dir, "g.yaml"), "settings: [intent]\nbaselines: [gold]\n"+
		"models: [{name: replay-coder, base_url: "+srv.URL+"/v1}]\nstats: {contamination: true, rounds: 100}\n"))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := Run(ctx, g, Options{Dir: filepath.Join(dir, "out"), Bench: bench, Store: st, Leaks: noLeaks})
	if err != nil {
		t.Fatal(err)
	}
	var labels, cells []string
	for _, s := range idx.Settings {
		labels = append(labels, fmt.Sprintf("%s=%d", s.Setting, s.Prompts))
	}
	for _, c := range idx.Cells {
		cells = append(cells, c.ID)
	}
	if !slices.Equal(labels, []string{"intent=6", SettingHuman + "=2", SettingRedacted + "=2"}) {
		t.Errorf("settings %v", labels)
	}
	if !slices.Equal(cells, []string{"intent/replay-coder", "intent/gold", SettingHuman + "/replay-coder", SettingRedacted + "/replay-coder"}) {
		t.Errorf("cells %v (gold ignores the intent: it runs no pair)", cells)
	}
	var paired *Test
	for i, x := range idx.Tests {
		if x.Kind == TestContamination {
			paired = &idx.Tests[i]
		}
	}
	if paired == nil || paired.Comparisons[0].Paired == nil || paired.Comparisons[0].Paired.N != 2 {
		t.Fatalf("no paired contamination test over the 2 samples: %+v", idx.Tests)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "out", "tables.md"))
	if !bytes.Contains(b, []byte("Contamination: human comment vs redacted intent")) || !bytes.Contains(b, []byte("| 2 pairs |")) {
		t.Errorf("tables.md lacks the paired test:\n%s", b)
	}
}

// TestRAGSettingsAndTheRetrievalBaseline: rag-bm25 and rag-dense prompts come from
// the retrievers (dense through the replay server's embeddings, cached in the
// store), bm25-nearest-train runs under the intent setting only.
func TestRAGSettingsAndTheRetrievalBaseline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox")
	}
	ctx := context.Background()
	h := replay.NewLLM(replay.LLMOptions{})
	srv := replay.Start(h)
	defer srv.Close()
	bench, err := evaluate.LoadBench(filepath.Join("..", "testdata", "experiment_bench.json"), "test")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	g, err := ReadGrid(writeFile(t, filepath.Join(dir, "g.yaml"), "settings: [intent, rag-bm25, rag-dense]\nk: 2\n"+
		"baselines: [doc-template, bm25-nearest-train]\nretrieval: {base_url: "+srv.URL+"/v1, embed_model: replay-embed}\n"+
		"eval: {timeout: 30s}\nstats: {rounds: 100}\n"))
	if err != nil {
		t.Fatal(err)
	}
	st := storetest.Open(t)
	o := Options{Dir: filepath.Join(dir, "out"), Bench: bench, Store: st, Leaks: noLeaks}
	idx, err := Run(ctx, g, o)
	if err != nil {
		t.Fatal(err)
	}
	var cells []string
	for _, c := range idx.Cells {
		cells = append(cells, c.ID)
	}
	want := []string{"intent/doc-template", "intent/bm25-nearest-train", "rag-bm25/doc-template", "rag-dense/doc-template"}
	if !slices.Equal(cells, want) {
		t.Errorf("cells %v, want %v", cells, want)
	}
	embeds := 0
	for _, r := range srv.Log.All() {
		if strings.HasSuffix(r.Path, "/embeddings") {
			embeds++
		}
	}
	if embeds == 0 {
		t.Error("rag-dense sent no embeddings request")
	}
	ps, err := prompts.ReadFile(filepath.Join(o.Dir, "prompts", "rag-dense.jsonl"))
	if err != nil || len(ps) == 0 || len(ps[0].Docs) != 2 || !strings.Contains(ps[0].Messages[1].Content, "[2]\nAPI: ") {
		t.Fatalf("rag-dense prompts: %v (%d)", err, len(ps))
	}
	gens, _, err := evaluate.ReadGenerations(filepath.Join(o.Dir, "cells", "intent", "bm25-nearest-train", "generations.jsonl"))
	if err != nil || len(gens) == 0 || !strings.Contains(gens[0].Completion, "def station_list(") {
		t.Errorf("bm25-nearest-train copies the train split's code (SYN-0003 is its only train sample): %+v, %v", gens, err)
	}
	before := srv.Log.Len()
	if _, err := Run(ctx, g, o); err != nil {
		t.Fatal(err)
	}
	if srv.Log.Len() != before {
		t.Errorf("a rerun sent %d embeddings requests; the vectors are in the store", srv.Log.Len()-before)
	}
}

// TestModelCutoffs: each model's cells split their time slices at the model's
// own training cutoff (else stats.cutoff), read from when each sample's function
// was written where the record says, and the report shows Mock before and after
// each model's cutoff with the permutation test.
func TestModelCutoffs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox")
	}
	ctx := context.Background()
	recs, err := release.ReadFile(filepath.Join("..", "testdata", "experiment_bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	// four samples' functions were written at known dates; the rest carry only
	// their repository's creation
	for i, d := range []string{"2022-02-01T00:00:00Z", "2024-02-01T00:00:00Z", "2024-09-15T00:00:00Z", "2025-01-01T00:00:00Z"} {
		recs[i].GitHubInfo.FunctionAuthoredAt, recs[i].GitHubInfo.FunctionModifiedAt = d, d
	}
	dir := t.TempDir()
	b, err := release.EncodeJSON(recs)
	if err != nil {
		t.Fatal(err)
	}
	bench, err := evaluate.LoadBench(writeFile(t, filepath.Join(dir, "bench.json"), string(b)), "")
	if err != nil {
		t.Fatal(err)
	}
	h := replay.NewLLM(replay.LLMOptions{})
	h.Default(replay.Answer(modelCode))
	srv := replay.Start(h)
	defer srv.Close()
	g, err := ReadGrid(writeFile(t, filepath.Join(dir, "g.yaml"), "settings: [intent]\nbaselines: [doc-template]\n"+
		"models:\n  - {name: old-coder, base_url: "+srv.URL+"/v1, cutoff: 2024-01-01}\n  - {name: new-coder, base_url: "+srv.URL+"/v1}\n"+
		"stats: {cutoff: 2024-08-01, rounds: 100}\n"))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := Run(ctx, g, Options{Dir: filepath.Join(dir, "out"), Bench: bench, Store: storetest.Open(t), Leaks: noLeaks})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"intent/old-coder": "2024-01-01", "intent/new-coder": "2024-08-01", "intent/doc-template": "2024-08-01"}
	for _, c := range idx.Cells {
		if c.Cutoff != want[c.ID] {
			t.Errorf("cell %s: cutoff %q, want %q", c.ID, c.Cutoff, want[c.ID])
		}
		// the intent setting prompts 6 of the 7 samples (one dated function among them)
		if ts := c.TimeSlices; ts == nil || ts.ByFunction != 3 || ts.ByRepository != 3 || ts.Unknown != 0 {
			t.Errorf("cell %s: time slices %+v, want 3 by function_authored_at and 3 by created_at", c.ID, c.TimeSlices)
		}
	}
	temporal := map[string]string{}
	for _, x := range idx.Tests {
		if x.Kind == TestTemporal {
			temporal[x.Cell] = x.A + " " + x.B
		}
	}
	if temporal["intent/old-coder"] != "before_2024-01-01 from_2024-01-01" || temporal["intent/new-coder"] != "before_2024-08-01 from_2024-08-01" {
		t.Errorf("temporal tests %v", temporal)
	}
	md, err := os.ReadFile(filepath.Join(dir, "out", "report", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Mock before and after each model's training cutoff", "| old-coder | intent | 2024-01-01 | 3 / 3 / 0 |",
		"| new-coder | intent | 2024-08-01 | 3 / 3 / 0 |"} {
		if !bytes.Contains(md, []byte(w)) {
			t.Errorf("report.md lacks %q", w)
		}
	}
}
