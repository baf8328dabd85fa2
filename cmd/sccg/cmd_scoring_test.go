package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sccg/evaluate"
	"sccg/evaluate/prompts"
	"sccg/internal/replay"
	"sccg/release"
)

// thoughts are a reasoning model's thinking, with code in it that must never be
// scored (it requests another host).
const thoughts = "The user wants the endpoint. Maybe:\nimport requests\nrequests.get('https://wrong.example.com/x')\nNo, use the documented URL."

// TestReasoningModelScoresAsItsPlainTwin is problem 1 of issue 23 end to end: a
// reasoning model's answers (a <think> block before bare code, before fenced code,
// and reasoning_content beside the content) are generated through the replay
// server and scored exactly as the same code without its reasoning; a truncated
// answer is scored and counted as truncated; a syntax failure carries the
// parser's message and line.
func TestReasoningModelScoresAsItsPlainTwin(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox end to end")
	}
	e, out, _, bench, _ := evalTestEnv(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "p.jsonl")
	importTestRun(t, e, 0, "prompts", "--bench", bench, "--setting", "oracle-c3", "--out", p)
	ps, err := prompts.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := release.ReadFile(bench)
	if err != nil {
		t.Fatal(err)
	}
	gold := map[string]string{}
	for _, r := range recs {
		gold[r.SampleID] = r.Code.CompleteFunction
	}
	thinker := replay.NewLLM(replay.LLMOptions{Models: []string{"thinker"}, OnlyModels: true})
	plain := replay.NewLLM(replay.LLMOptions{Models: []string{"plain"}, OnlyModels: true})
	for i, x := range ps {
		code := gold[x.SampleID]
		match := "Function name: " + x.FunctionName + "\n"
		switch {
		case i == len(ps)-1: // cut at the token limit, in both
			cut := code[:strings.Index(code, "(")+1]
			thinker.On(match, replay.Truncated("<think>\n"+thoughts+"\n</think>\n"+cut))
			plain.On(match, replay.Truncated(cut))
		case i%3 == 0:
			thinker.On(match, replay.Think(thoughts, code))
			plain.On(match, replay.Answer(code))
		case i%3 == 1:
			fenced := "Here is the function:\n```python\n" + code + "```\nIt sends the request."
			thinker.On(match, replay.Think(thoughts, fenced))
			plain.On(match, replay.Answer(fenced))
		default:
			thinker.On(match, replay.Reasoned(thoughts, code))
			plain.On(match, replay.Answer(code))
		}
	}
	gens := filepath.Join(dir, "gens.jsonl")
	for name, h := range map[string]*replay.LLM{"thinker": thinker, "plain": plain} {
		srv := replay.Start(h)
		importTestRun(t, e, 0, "generate", "--prompts", p, "--model", name, "--base-url", srv.URL+"/v1", "--out", gens)
		srv.Close()
	}
	if !strings.Contains(out.String(), "1 truncated") {
		t.Errorf("generate does not count the truncated answer:\n%s", out)
	}
	res := filepath.Join(dir, "res")
	importTestRun(t, e, 0, "eval", "--bench", bench, "--generations", gens, "--out", res, "--timeout", "30s", "--partial")
	rs, err := evaluate.ReadResults(res)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]map[string]evaluate.Result{"thinker": {}, "plain": {}}
	for _, r := range rs {
		by[r.Model][r.SampleID] = r
	}
	if len(by["thinker"]) != len(ps) || len(by["plain"]) != len(ps) {
		t.Fatalf("results: %d thinker, %d plain; want %d each", len(by["thinker"]), len(by["plain"]), len(ps))
	}
	for id, a := range by["thinker"] {
		b := by["plain"][id]
		if a.Mock != b.Mock || a.Syntax != b.Syntax || a.HostAcc != b.HostAcc || a.FailureStage != b.FailureStage || a.ES != b.ES || a.CodeBLEU != b.CodeBLEU {
			t.Errorf("%s: thinker mock %v syntax %v stage %s, plain mock %v syntax %v stage %s", id, a.Mock, a.Syntax, a.FailureStage, b.Mock, b.Syntax, b.FailureStage)
		}
		if !a.Reasoning || b.Reasoning {
			t.Errorf("%s: reasoning thinker %v plain %v, want true and false", id, a.Reasoning, b.Reasoning)
		}
	}
	last := by["thinker"][ps[len(ps)-1].SampleID]
	if !last.Truncated || last.Syntax != 0 || !strings.Contains(last.SyntaxError, "SyntaxError") || last.SyntaxLine == 0 {
		t.Errorf("truncated answer: truncated %v syntax %v error %q line %d", last.Truncated, last.Syntax, last.SyntaxError, last.SyntaxLine)
	}
	var sum evaluate.Summary
	b, _ := os.ReadFile(filepath.Join(res, "summary.json"))
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	for _, g := range sum.Groups {
		wantReasoning := 0
		if g.Model == "thinker" {
			wantReasoning = len(ps)
		}
		if g.Answers.Truncated != 1 || g.Answers.Reasoning != wantReasoning {
			t.Errorf("%s answers %+v, want 1 truncated, %d reasoning", g.Model, g.Answers, wantReasoning)
		}
		if g.Overall.Mock == 0 {
			t.Errorf("%s: mock 0: the gold code was not found in the answers", g.Model)
		}
	}
	tables, _ := os.ReadFile(filepath.Join(res, "tables.md"))
	if !strings.Contains(string(tables), "| oracle-c3 | thinker | 7 of 8 | 1 | 7 |") {
		t.Errorf("tables.md does not count truncated and reasoning answers per cell:\n%s", tables)
	}
	t.Logf("thinker vs plain: %s", strings.TrimSpace(out.String()))
}

// TestEvalCoverage is problem 2 of issue 23: generations that cover part of the
// benchmark fail the evaluation unless --partial is given, and then the tables say
// n of N; a malformed line is counted and shown, and its sample is not covered.
func TestEvalCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox end to end")
	}
	e, out, errb, bench, gensAll := evalTestEnv(t)
	b, err := os.ReadFile(gensAll)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	dir := t.TempDir()
	gens := filepath.Join(dir, "first.jsonl")
	os.WriteFile(gens, []byte(lines[0]+lines[1]+"{\"sample_id\": \"SYN-0003\", \"completion\": \n"), 0o644)
	importTestRun(t, e, 1, "eval", "--bench", bench, "--generations", gens, "--out", filepath.Join(dir, "a"), "--timeout", "30s")
	for _, want := range []string{"cover 2 of the 8 samples", "--partial", "1 malformed line"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb)
		}
	}
	if !strings.Contains(out.String(), "malformed lines: 1") || !strings.Contains(out.String(), "covers 2 of 8 samples") {
		t.Errorf("stdout does not show the malformed line and the coverage:\n%s", out)
	}
	importTestRun(t, e, 0, "eval", "--bench", bench, "--generations", gens, "--out", filepath.Join(dir, "b"), "--timeout", "30s", "--partial")
	tables, _ := os.ReadFile(filepath.Join(dir, "b", "tables.md"))
	if !strings.Contains(string(tables), "(2 of 8 samples)") || !strings.Contains(string(tables), "| 2 of 8 |") {
		t.Errorf("tables.md does not say n of N:\n%s", tables)
	}
	// The split evaluated is the denominator: the file's records name no split.
	errb.Reset()
	importTestRun(t, e, 1, "eval", "--bench", bench, "--generations", gens, "--out", filepath.Join(dir, "c"), "--split", "test")
	if !strings.Contains(errb.String(), "no record names its split") {
		t.Errorf("eval --split over a file without splits: %s", errb)
	}
}

// TestGenerateFailsFast is problems 3 and 4 of issue 23: with the default
// settings, a server that is down fails generate at once with one clear line,
// and a model the server does not have stops after the first answer, without the
// advice to run it again.
func TestGenerateFailsFast(t *testing.T) {
	e, out, errb, bench, _ := evalTestEnv(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "p.jsonl")
	importTestRun(t, e, 0, "prompts", "--bench", bench, "--setting", "oracle-c3", "--out", p)

	dead, err := replay.RefusedURL()
	if err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	start := time.Now()
	importTestRun(t, e, 1, "generate", "--prompts", p, "--model", "m", "--base-url", dead, "--out", filepath.Join(dir, "dead.jsonl"))
	took := time.Since(start)
	t.Logf("a dead server failed generate in %s", took)
	if lines := strings.Count(errb.String(), "sccg generate: stopped"); !strings.Contains(errb.String(), "cannot reach the server") || lines != 1 {
		t.Errorf("dead server: %d lines of stderr:\n%s", lines, errb)
	}

	h := replay.NewLLM(replay.LLMOptions{Models: []string{"coder:7b"}, OnlyModels: true})
	srv := replay.Start(h)
	defer srv.Close()
	errb.Reset()
	out.Reset()
	importTestRun(t, e, 1, "generate", "--prompts", p, "--model", "coder", "--base-url", srv.URL+"/v1", "--out", filepath.Join(dir, "wrong.jsonl"),
		"--concurrency", "1")
	if !strings.Contains(errb.String(), `sccg generate: stopped: llm chat with coder: model "coder" not found (the server lists coder:7b)`) ||
		strings.Contains(errb.String(), "run it again") {
		t.Errorf("unknown model:\n%s", errb)
	}
	chats := 0
	for _, r := range srv.Log.All() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			chats++
		}
	}
	if chats != 1 {
		t.Errorf("%d chat requests for a model the server does not have, want 1", chats)
	}
}

// TestGridRunsEveryCellItCan is problem 3 of issue 23 for a grid: a model whose
// server is down fails its cell within seconds, the baselines (which need no
// server) still run, and the failed cells are named at the end with exit 1.
func TestGridRunsEveryCellItCan(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox end to end")
	}
	t.Parallel() // its own store and directories; the other slow end-to-end tests run beside it
	e, out, errb, bench, _ := evalTestEnv(t)
	dead, err := replay.RefusedURL()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	grid := filepath.Join(dir, "grid.json")
	os.WriteFile(grid, []byte(`{"settings": ["oracle-c3"], "baselines": ["gold", "null"],
  "models": [{"name": "down", "base_url": "`+dead+`"}], "eval": {"timeout": "30s"}, "stats": {"rounds": 100}}`), 0o644)
	res := filepath.Join(dir, "out")
	start := time.Now()
	importTestRun(t, e, 1, "experiment", "--grid", grid, "--bench", bench, "--out", res)
	t.Logf("grid with a dead server: %s", time.Since(start))
	var idx struct {
		Cells  []struct{ ID string } `json:"cells"`
		Failed []struct{ ID string } `json:"failed"`
	}
	b, _ := os.ReadFile(filepath.Join(res, "grid.json"))
	if err := json.Unmarshal(b, &idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Cells) != 2 || len(idx.Failed) != 1 || idx.Failed[0].ID != "oracle-c3/down" {
		t.Errorf("cells %+v, failed %+v; want the two baselines run and the model's cell failed", idx.Cells, idx.Failed)
	}
	for _, want := range []string{"cell oracle-c3/down failed", "cannot reach the server", "1 of 3 cells failed"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb)
		}
	}
	if strings.Contains(errb.String(), "again") || !strings.Contains(out.String(), "oracle-c3/gold") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, errb)
	}
}

// TestOneNotionOfSplit is problem 5 of issue 23: a benchmark imported with
// --split is split the same way by prompts, baseline, eval and experiment, the
// tool's own split files name their split, and bm25-nearest-train takes a train
// source in a grid (train:).
func TestOneNotionOfSplit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox end to end")
	}
	e, out, errb, bench, _ := evalTestEnv(t)
	dir := t.TempDir()
	importTestRun(t, e, 0, "import", "--split", "validation", bench)
	p := filepath.Join(dir, "p.jsonl")
	importTestRun(t, e, 0, "prompts", "--bench", bench, "--split", "validation", "--setting", "oracle-c3", "--out", p)
	if ps, err := prompts.ReadFile(p); err != nil || len(ps) != 7 {
		t.Errorf("prompts of the imported validation split: %d (%v), want 7", len(ps), err)
	}
	importTestRun(t, e, 1, "prompts", "--bench", bench, "--split", "test", "--setting", "oracle-c3", "--out", filepath.Join(dir, "none.jsonl"))
	g := filepath.Join(dir, "gold.jsonl")
	importTestRun(t, e, 0, "baseline", "gold", "--bench", bench, "--split", "validation", "--setting", "oracle-c3", "--out", g)

	// A split file of the tool's own export names its split by its name.
	splitFile := filepath.Join(dir, "splits", "validation.json")
	os.MkdirAll(filepath.Dir(splitFile), 0o755)
	b, _ := os.ReadFile(bench)
	os.WriteFile(splitFile, b, 0o644)
	fresh, _, _, _, _ := evalTestEnv(t)
	importTestRun(t, fresh, 0, "prompts", "--bench", splitFile, "--split", "validation", "--setting", "oracle-c3", "--out", filepath.Join(dir, "p2.jsonl"))

	// bm25-nearest-train over a file with no train split: the grid's train source.
	grid := filepath.Join(dir, "grid.yaml")
	os.WriteFile(grid, []byte("settings: [intent]\nsplit: validation\nbaselines: [bm25-nearest-train]\ndrop_leaks: true\ntrain: "+splitFile+"\neval: {timeout: 30s}\nstats: {rounds: 100}\n"), 0o644)
	importTestRun(t, e, 0, "experiment", "--grid", grid, "--bench", bench, "--out", filepath.Join(dir, "exp"))
	if !strings.Contains(out.String(), "intent/bm25-nearest-train") {
		t.Errorf("the grid did not run bm25-nearest-train:\n%s\n%s", out, errb)
	}
	// An empty grid file is a usage error.
	empty := filepath.Join(dir, "empty.yaml")
	os.WriteFile(empty, []byte("# nothing yet\n"), 0o644)
	importTestRun(t, e, 2, "experiment", "--grid", empty, "--bench", bench, "--out", filepath.Join(dir, "exp2"))
	if !strings.Contains(errb.String(), "the file is empty") {
		t.Errorf("empty grid: %s", errb)
	}
}

// Table II over a release file with no stats.json beside it (an imported or
// downloaded benchmark) is computed from its records, with no export first.
func TestReportTableIIOfAReleaseFile(t *testing.T) {
	e, out, errb, bench, _ := evalTestEnv(t)
	e.dbSet = false
	dir := filepath.Join(t.TempDir(), "report")
	importTestRun(t, e, 0, "report", "--bench", bench, "--out", dir)
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil || !strings.Contains(string(md), "### Table II") || !strings.Contains(string(md), "| Total samples | 8 |") {
		t.Errorf("report.md lacks Table II (%v):\n%s\n%s", err, out, errb)
	}
}
