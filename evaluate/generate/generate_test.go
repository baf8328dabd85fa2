package generate

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sccg/evaluate"
	"sccg/evaluate/answer"
	"sccg/evaluate/prompts"
	"sccg/internal/replay"
	"sccg/lang"
	"sccg/llm"
)

// setup starts the LLM replay server and a client of it with a memory cache, no
// waiting between retries and a short timeout per attempt.
func setup(t *testing.T, cache llm.Cache) (*llm.Client, *replay.LLM, *replay.Server) {
	t.Helper()
	h := replay.NewLLM(replay.LLMOptions{})
	srv := replay.Start(h)
	t.Cleanup(srv.Close)
	c, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: "coder", Timeout: 300 * time.Millisecond, MaxRetries: 2, Concurrency: 3},
		llm.WithCache(cache), llm.WithSleep(func(ctx context.Context, d time.Duration) error { return ctx.Err() }))
	if err != nil {
		t.Fatal(err)
	}
	return c, h, srv
}

func prompt(id, task string) prompts.Prompt {
	msgs := []prompts.Message{llm.System("You are an experienced Python engineer."), llm.User("Task:\n" + task + "\n\nFunction name: f")}
	return prompts.Prompt{SampleID: id, Setting: prompts.OracleC3, Task: prompts.TaskGenerate, FunctionName: "f", Messages: msgs,
		PromptHash: prompts.Hash(msgs)}
}

const code = "import requests\n\n\ndef f():\n    return requests.get(\"https://tides.p.rapidapi.com/tides\").json()\n"

func readLines(t *testing.T, path string) map[string]evaluate.Generation {
	t.Helper()
	gens, problems, err := evaluate.ReadGenerations(path)
	if err != nil || len(problems) > 0 {
		t.Fatalf("read %s: %v %v", path, err, problems)
	}
	m := map[string]evaluate.Generation{}
	for _, g := range gens {
		m[g.SampleID] = g
	}
	return m
}

// TestRunAgainstReplay: answers with fences, with prose around the code, empty,
// truncated, after 429s, 500s and a timeout all end up in the generations file as
// the model sent them; a prompt that keeps failing is reported, not written.
func TestRunAgainstReplay(t *testing.T) {
	ctx := context.Background()
	c, h, srv := setup(t, llm.NewMemoryCache())
	fenced := "```python\n" + code + "```"
	prose := "Sure! Here is the function:\n\n```python\n" + code + "```\n\nIt returns the JSON body."
	h.On("fenced", replay.Answer(fenced))
	h.On("prose", replay.Answer(prose))
	h.On("empty", replay.Answer(""))
	h.On("truncated", replay.LLMAnswer{Content: "import requests\n\ndef f(", FinishReason: "length"})
	h.On("rate limited", replay.Fail(http.StatusTooManyRequests, "1"), replay.Fail(http.StatusTooManyRequests, "1"), replay.Answer(code))
	h.On("server error", replay.Fail(http.StatusInternalServerError, ""), replay.Answer(code))
	h.On("slow", replay.Slow(time.Hour, replay.Answer("too late")), replay.Answer(code))
	// three attempts (one and two retries) fail; the server has recovered by the rerun
	fail := replay.Fail(http.StatusInternalServerError, "")
	h.On("broken", fail, fail, fail, replay.Answer(code))
	ps := []prompts.Prompt{prompt("S1", "fenced"), prompt("S2", "prose"), prompt("S3", "empty"), prompt("S4", "truncated"),
		prompt("S5", "rate limited"), prompt("S6", "server error"), prompt("S7", "slow"), prompt("S8", "broken")}
	out := filepath.Join(t.TempDir(), "gens.jsonl")
	res, err := Run(ctx, c, ps, out, Options{Model: "coder", Temperature: llm.Float(0), TopP: llm.Float(1), Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Written != 7 || res.Failed != 1 || res.Empty != 1 || res.Truncated != 1 || res.Failures[0].SampleID != "S8" {
		t.Fatalf("result %+v", res)
	}
	got := readLines(t, out)
	want := map[string]string{"S1": fenced, "S2": prose, "S3": "", "S4": "import requests\n\ndef f(", "S5": code, "S6": code, "S7": code}
	for id, w := range want {
		if g, ok := got[id]; !ok || g.Completion != w || g.Model != "coder" || g.Setting != prompts.OracleC3 {
			t.Errorf("%s: %+v, want completion %q", id, g, w)
		}
	}
	if _, ok := got["S8"]; ok {
		t.Error("the failed prompt was written")
	}
	for _, id := range []string{"S1", "S2"} {
		if c := answer.Extract(got[id].Completion, "f", lang.Python).Text; c != code {
			t.Errorf("%s: the evaluator does not get the code back: %q", id, c)
		}
	}
	b, _ := os.ReadFile(out)
	if !strings.Contains(string(b), `"finish_reason":"length"`) || !strings.Contains(string(b), `"prompt_hash":"`+ps[0].PromptHash+`"`) {
		t.Errorf("generations lack finish_reason or prompt_hash:\n%s", b)
	}
	sent, err := replay.ParseLLMChat(srv.Log.All()[0].Body)
	if err != nil || sent.Temperature == nil || *sent.Temperature != 0 || sent.TopP == nil || *sent.TopP != 1 {
		t.Errorf("decoding parameters not sent: %+v (%v)", sent, err)
	}

	// Running again asks for the failed completion only; the server answers it now.
	before := srv.Log.Len()
	res, err = Run(ctx, c, ps, out, Options{Model: "coder", Temperature: llm.Float(0), TopP: llm.Float(1)})
	if err != nil || res.Resumed != 7 || res.Written != 1 || res.Failed != 0 {
		t.Fatalf("rerun: %+v, %v", res, err)
	}
	if n := srv.Log.Len() - before; n != 1 {
		t.Errorf("rerun sent %d requests, want the failed prompt's only", n)
	}
	if got := readLines(t, out); len(got) != 8 || got["S8"].Completion != code {
		t.Errorf("after the rerun: %d lines, S8 %q", len(got), got["S8"].Completion)
	}
}

// cancelAfter is a Chatter that cancels the run after n answers, as a kill would.
type cancelAfter struct {
	c      Chatter
	n      int64
	calls  atomic.Int64
	cancel context.CancelFunc
}

func (k *cancelAfter) Chat(ctx context.Context, req llm.ChatRequest) (*llm.ChatResponse, error) {
	resp, err := k.c.Chat(ctx, req)
	if k.calls.Add(1) >= k.n {
		k.cancel()
	}
	return resp, err
}

// TestResumeAndCache: a run killed midway loses nothing written; the rerun asks only
// for what is missing; a fresh output file with the same cache sends nothing.
func TestResumeAndCache(t *testing.T) {
	c, _, srv := setup(t, llm.NewMemoryCache())
	var ps []prompts.Prompt
	for _, id := range []string{"A", "B", "C", "D", "E", "F", "G", "H"} {
		ps = append(ps, prompt(id, "task "+id))
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "gens.jsonl")
	o := Options{Model: "coder", N: 2, Workers: 1}
	ctx, cancel := context.WithCancel(context.Background())
	res, err := Run(ctx, &cancelAfter{c: c, n: 5, cancel: cancel}, ps, out, o)
	if err == nil || res.Written < 4 || res.Written > 5 {
		t.Fatalf("killed run: %+v, %v", res, err)
	}
	// a kill in the middle of a write leaves a cut line
	f, _ := os.OpenFile(out, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"sample_id":"H","setting":"oracle-c3","model":"co`)
	f.Close()
	sentBefore := srv.Log.Len()
	res2, err := Run(context.Background(), c, ps, out, o)
	if err != nil || res2.Resumed != res.Written || res2.Resumed+res2.Written != 16 {
		t.Fatalf("resumed run: %+v, %v (first wrote %d)", res2, err, res.Written)
	}
	got, problems, err := evaluate.ReadGenerations(out)
	if err != nil || len(problems) > 0 || len(got) != 16 {
		t.Fatalf("after resuming: %d generations, %v %v", len(got), problems, err)
	}
	if sent := srv.Log.Len() - sentBefore; sent != 16-res.Written-res2.Cached {
		t.Errorf("the resumed run sent %d requests, want %d", sent, 16-res.Written-res2.Cached)
	}
	// sample_index 0 and 1 are separate requests, told apart in the cache
	if srv.Log.Len() < 16 {
		t.Errorf("%d requests for 8 prompts × 2 samples", srv.Log.Len())
	}

	before := srv.Log.Len()
	res3, err := Run(context.Background(), c, ps, filepath.Join(dir, "again.jsonl"), o)
	if err != nil || res3.Written != 16 || res3.Cached != 16 || srv.Log.Len() != before {
		t.Errorf("cached run: %+v, %v, %d requests sent", res3, err, srv.Log.Len()-before)
	}
}

// TestChangedPromptIsAskedAgain: a line answering an older version of a prompt is
// dropped from the file and the prompt is asked again.
func TestChangedPromptIsAskedAgain(t *testing.T) {
	ctx := context.Background()
	c, _, _ := setup(t, llm.NewMemoryCache())
	out := filepath.Join(t.TempDir(), "gens.jsonl")
	ps := []prompts.Prompt{prompt("A", "first wording"), prompt("B", "other")}
	if _, err := Run(ctx, c, ps, out, Options{Model: "coder"}); err != nil {
		t.Fatal(err)
	}
	first := readLines(t, out)["A"].Completion
	ps[0] = prompt("A", "second wording")
	res, err := Run(ctx, c, ps, out, Options{Model: "coder"})
	if err != nil || res.Stale != 1 || res.Written != 1 || res.Resumed != 1 {
		t.Fatalf("rerun with a changed prompt: %+v, %v", res, err)
	}
	got := readLines(t, out)
	if len(got) != 2 || got["A"].Completion == first {
		t.Errorf("A was not asked again: %+v", got)
	}
}

func TestNoModel(t *testing.T) {
	if _, err := Run(context.Background(), nil, nil, "x", Options{}); err == nil {
		t.Error("Run without a model did not fail")
	}
}
