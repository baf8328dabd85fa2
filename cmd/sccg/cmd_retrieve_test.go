package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sccg/evaluate/retrieve"
	"sccg/internal/replay"
)

func retrieveTestdata(name string) string {
	return filepath.Join("..", "..", "evaluate", "retrieve", "testdata", name)
}

func TestRetrieveCommand(t *testing.T) {
	ctx := context.Background()
	bench, docs := retrieveTestdata("bench.json"), filepath.Join("testdata", "retrieve-docs")
	e, out, errb := newTestEnv(t)
	file := filepath.Join(t.TempDir(), "r.json")
	args := []string{"retrieve", "--bench", bench, "--docs", docs, "--split", "test", "--no-run", "--out", file}
	if code := run(ctx, args, e); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errb)
	}
	for _, want := range []string{"bm25: corpus from docs (5 endpoint documents, 2 hosts) · 4 queries", "| bm25 | overall | Endpoint@K | 3 |",
		"Top-K accuracy", "Recall@k and precision@k", "wrote " + file} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errb.String(), "corpus: ") || !strings.Contains(errb.String(), "broken.json") {
		t.Errorf("the unreadable doc file should be reported on stderr: %q", errb)
	}
	var res struct {
		Reports []struct {
			Retriever string `json:"retriever"`
			Samples   []struct {
				SampleID     string `json:"sample_id"`
				EndpointRank int    `json:"endpoint_rank"`
			} `json:"samples"`
		} `json:"reports"`
	}
	b, err := os.ReadFile(file)
	if err != nil || json.Unmarshal(b, &res) != nil || len(res.Reports) != 1 || len(res.Reports[0].Samples) != 4 {
		t.Fatalf("--out: %v\n%s", err, b)
	}
	if s := res.Reports[0].Samples[0]; s.SampleID != "SCG-000001" || s.EndpointRank != 1 {
		t.Errorf("first sample %+v", s)
	}
	if _, err := os.Stat(e.db); err == nil {
		t.Error("retrieve --bench created the default store")
	}

	// Without documentation or a store, the corpus is the benchmark's own endpoints.
	out.Reset()
	if code := run(ctx, []string{"retrieve", "--bench", bench, "--no-run", "--json"}, e); code != 0 {
		t.Fatalf("--json: exit %d, stderr %s", code, errb)
	}
	var js struct {
		Reports []struct {
			Corpus struct {
				Source    string `json:"source"`
				Documents int    `json:"documents"`
			} `json:"corpus"`
			Queries int `json:"queries"`
		} `json:"reports"`
	}
	if err := json.Unmarshal(out.Bytes(), &js); err != nil || js.Reports[0].Corpus.Source != "bench" || js.Reports[0].Corpus.Documents != 4 || js.Reports[0].Queries != 5 {
		t.Errorf("--json: %v %+v", err, js)
	}
}

func TestRetrieveFromTheStore(t *testing.T) {
	ctx := context.Background()
	e, out, errb := newTestEnv(t)
	if code := run(ctx, []string{"import", retrieveTestdata("bench.json")}, e); code != 0 {
		t.Fatalf("import: exit %d, %s", code, errb)
	}
	out.Reset()
	if code := run(ctx, []string{"retrieve", "--split", "train", "--no-run"}, e); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errb)
	}
	if !strings.Contains(out.String(), "corpus from bench (4 endpoint documents, 2 hosts) · 1 queries (function_name 1)") {
		t.Errorf("store samples, split train:\n%s", out)
	}
}

func TestRetrieveUsageErrors(t *testing.T) {
	bench := retrieveTestdata("bench.json")
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"unknown retriever", []string{"--bench", bench, "--retriever", "magic"}, `unknown retriever "magic"`},
		{"bad split name", []string{"--bench", bench, "--split", "dev2"}, "--split"},
		{"empty split", []string{"--bench", bench, "--split", "validation", "--no-run"}, "no sample of"},
		{"docs source without docs", []string{"--bench", bench, "--corpus", "docs"}, "--corpus docs needs --docs"},
		{"bad corpus source", []string{"--bench", bench, "--corpus", "web"}, "unknown source"},
		{"bad b", []string{"--bench", bench, "--b", "2"}, "--b between 0 and 1"},
		{"no samples anywhere", []string{"--no-run"}, "has no samples"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, _, errb := newTestEnv(t)
			if code := run(context.Background(), append([]string{"retrieve"}, tc.args...), e); code != 2 {
				t.Fatalf("exit %d, want 2 (stderr %q)", code, errb)
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr %q, want %q", errb, tc.stderr)
			}
		})
	}
}

func TestRetrieveRunsTheGoldCode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the gold code in the sandbox")
	}
	e, _, errb := newTestEnv(t)
	file := filepath.Join(t.TempDir(), "r.json")
	args := []string{"retrieve", "--bench", retrieveTestdata("bench.json"), "--docs", filepath.Join("testdata", "retrieve-docs"), "--out", file}
	if code := run(context.Background(), args, e); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errb)
	}
	var res struct {
		Reports []struct {
			Samples []struct {
				SampleID string   `json:"sample_id"`
				Used     []string `json:"used"`
			} `json:"samples"`
		} `json:"reports"`
	}
	b, _ := os.ReadFile(file)
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if s := res.Reports[0].Samples[1]; s.SampleID != "SCG-000002" || len(s.Used) != 2 {
		t.Errorf("SCG-000002 uses %v, want the forecast and the alerts its gold code posts to", s.Used)
	}
}

func TestDocsCorpus(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join("testdata", "retrieve-docs")
	c, err := docsCorpus(ctx, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"POST skyward-weather.p.rapidapi.com/alerts",
		"GET skyward-weather.p.rapidapi.com/forecast/{city}",
		"GET skyward-weather.p.rapidapi.com/forecast/{city}/hourly",
		"GET stock-quotes.p.rapidapi.com/history",
		"GET stock-quotes.p.rapidapi.com/quote/{symbol}",
	}
	var got []string
	for _, d := range c.Docs {
		got = append(got, d.ID)
	}
	if !slices.Equal(got, want) || c.Source != retrieve.SourceDocs {
		t.Errorf("documents %q (source %s), want %q", got, c.Source, want)
	}
	if len(c.Problems) != 1 || !strings.Contains(c.Problems[0], "broken.json") {
		t.Errorf("problems = %q, want one naming broken.json", c.Problems)
	}
	d := c.Docs[1]
	if d.API != "Skyward Weather" || d.Category != "Weather" || d.Key != "getForecast" || d.Name != "Daily forecast" ||
		len(d.Params) != 2 || d.Params[1].Name != "days" || d.Params[1].Description != "Number of days, 1 to 14." {
		t.Errorf("daily forecast document = %+v", d)
	}
	if q := c.Docs[4]; q.Category != "Finance" || q.API != "Stock Quotes" || len(q.Params) != 1 || q.Params[0].Location != "path" {
		t.Errorf("ToolBench document = %+v", q)
	}
	if _, err := docsCorpus(ctx, []string{filepath.Join(dir, "broken.json")}); !errors.Is(err, retrieve.ErrEmptyCorpus) ||
		!strings.Contains(err.Error(), "broken.json") {
		t.Errorf("only a broken file: %v, want ErrEmptyCorpus naming the file", err)
	}
	if _, err := docsCorpus(ctx, []string{filepath.Join(dir, "nope")}); err == nil {
		t.Error("a missing path should fail")
	}
}

func TestRetrieveWithTheReplayLLM(t *testing.T) {
	ctx := context.Background()
	h := replay.NewLLM(replay.LLMOptions{})
	h.Default(replay.Answer("```python\nimport requests\nrequests.get('https://skyward-weather.p.rapidapi.com/forecast/oslo')\n```"))
	h.On("one subtask per line", replay.Answer("daily forecast\nsevere weather alerts"))
	h.On("Candidate endpoints", replay.Answer("1"))
	srv := replay.Start(h)
	defer srv.Close()
	e, out, errb := newTestEnv(t)
	args := []string{"retrieve", "--bench", retrieveTestdata("bench.json"), "--docs", filepath.Join("testdata", "retrieve-docs"), "--no-run",
		"--retriever", "bm25,dense,hybrid,hyde,capir", "--llm-url", srv.URL + "/v1", "--llm-model", "replay-chat",
		"--embed-model", "replay-embed", "--query-prefix", "query: "}
	if code := run(ctx, args, e); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errb)
	}
	for _, name := range []string{"bm25", "dense", "hybrid", "hyde", "capir"} {
		if !strings.Contains(out.String(), "| "+name+" | overall | Endpoint@K |") {
			t.Errorf("no %s row:\n%s", name, out)
		}
	}
	sent := srv.Log.Len()
	if sent == 0 {
		t.Fatal("no LLM request was sent")
	}
	// A rerun, with a reranker on top, asks only the reranker's new questions: every
	// vector and every earlier answer comes from the store.
	out.Reset()
	errb.Reset()
	args = append(args, "--rerank", "llm")
	if code := run(ctx, args, e); code != 0 {
		t.Fatalf("rerun: exit %d, stderr %s", code, errb)
	}
	if !strings.Contains(out.String(), "| hybrid+rerank | overall |") || !strings.Contains(errb.String(), "dense+rerank: ") {
		t.Errorf("rerun output:\n%s\n%s", out, errb)
	}
	for _, q := range srv.Log.All()[sent:] {
		if strings.HasSuffix(q.Path, "/embeddings") || !strings.Contains(q.Body, "best first") {
			t.Errorf("the rerun sent a request that is not a reranking: %s %.200s", q.Path, q.Body)
		}
	}
}

func TestRetrieveWithoutAnLLM(t *testing.T) {
	bench := retrieveTestdata("bench.json")
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"hyde", []string{"--retriever", "hyde"}, "need an LLM"},
		{"capir", []string{"--retriever", "bm25,capir"}, "need an LLM"},
		{"rerank", []string{"--rerank", "llm"}, "--rerank llm, hyde and capir need an LLM"},
		{"hyde with a server but no chat model", []string{"--retriever", "hyde", "--llm-url", "http://127.0.0.1:9/v1"}, "--llm-model"},
		{"dense", []string{"--retriever", "dense"}, "need an embeddings model"},
		{"bad rerank", []string{"--rerank", "cohere"}, "--rerank"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, _, errb := newTestEnv(t)
			args := append([]string{"retrieve", "--bench", bench, "--no-run"}, tc.args...)
			if code := run(context.Background(), args, e); code != 2 {
				t.Fatalf("exit %d, want 2 (stderr %q)", code, errb)
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr %q, want %q", errb, tc.stderr)
			}
		})
	}
}
