package retrieve

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sccg/internal/replay"
	"sccg/llm"
	"sccg/store"
)

// llmSetup starts the LLM replay server (4-dimensional vectors) and a client for it
// whose cache is a fresh store; retries do not wait.
func llmSetup(t *testing.T) (*replay.LLM, *replay.Server, *store.Store, func() *llm.Client) {
	t.Helper()
	h := replay.NewLLM(replay.LLMOptions{Dims: 4})
	srv := replay.Start(h)
	t.Cleanup(srv.Close)
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "sccg.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	client := func() *llm.Client {
		c, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: "replay-chat", EmbedModel: "replay-embed", MaxRetries: -1},
			llm.WithCache(st), llm.WithSleep(func(ctx context.Context, _ time.Duration) error { return ctx.Err() }))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	return h, srv, st, client
}

// scriptDocVectors fixes the embedding of every testCorpus document (after prefix):
//
//	0 stocks /quote/latest [1 0 0 0]     1 stocks /quote/{symbol} [.8 .6 0 0]
//	2 weather /alerts      [0 0 1 0]     3 weather /forecast/{city} [0 0 .6 .8]
//	4 weather /forecast/{city}/hourly [0 0 0 1]
func scriptDocVectors(h *replay.LLM, c *Corpus, prefix string) {
	vs := [][]float32{{1, 0, 0, 0}, {0.8, 0.6, 0, 0}, {0, 0, 1, 0}, {0, 0, 0.6, 0.8}, {0, 0, 0, 1}}
	for i := range c.Docs {
		h.Vector(prefix+c.Docs[i].Text(), vs[i])
	}
}

func embedBodies(srv *replay.Server) []string {
	var out []string
	for _, r := range srv.Log.All() {
		if strings.HasSuffix(r.Path, "/embeddings") {
			out = append(out, r.Body)
		}
	}
	return out
}

func TestDenseAgainstScriptedVectors(t *testing.T) {
	ctx := context.Background()
	h, srv, _, client := llmSetup(t)
	c := testCorpus(t)
	scriptDocVectors(h, c, "passage: ")
	// The query, with its prefix, points mostly at the hourly forecast.
	h.Vector("query: hourly please", []float32{0, 0, 0.28, 0.96})
	cl := client()
	o := Options{Embedder: cl, EmbedModel: "replay-embed", QueryPrefix: "query: ", DocPrefix: "passage: "}
	r, err := New(ctx, NameDense, c, o)
	if err != nil {
		t.Fatal(err)
	}
	hits, err := r.Retrieve(ctx, "hourly please", 5)
	if err != nil {
		t.Fatal(err)
	}
	want := []Hit{{4, 0.96}, {3, 0.6*0.28 + 0.8*0.96}, {2, 0.28}, {0, 0}, {1, 0}}
	for i := range want {
		if hits[i].Doc != want[i].Doc || math.Abs(hits[i].Score-want[i].Score) > 1e-6 {
			t.Fatalf("hits = %v, want %v (cosine, ties in corpus order)", hits, want)
		}
	}
	bodies := embedBodies(srv)
	if len(bodies) != 2 || !strings.Contains(bodies[0], "passage: Stocks Finance") || !strings.Contains(bodies[1], `"query: hourly please"`) {
		t.Errorf("embedding requests %q: want the prefixed documents, then the prefixed query", bodies)
	}

	// A second run with a new client embeds nothing: every vector is in the store.
	before := srv.Log.Len()
	cl2 := client()
	r2, err := New(ctx, NameDense, c, Options{Embedder: cl2, EmbedModel: "replay-embed", QueryPrefix: "query: ", DocPrefix: "passage: "})
	if err != nil {
		t.Fatal(err)
	}
	again, err := r2.Retrieve(ctx, "hourly please", 5)
	if err != nil {
		t.Fatal(err)
	}
	if srv.Log.Len() != before || cl2.Usage().Requests != 0 || !slices.Equal(ids(c, again), ids(c, hits)) {
		t.Errorf("rerun sent %d requests (usage %+v); hits %v", srv.Log.Len()-before, cl2.Usage(), ids(c, again))
	}
}

func TestDensePrepareBatchesQueries(t *testing.T) {
	ctx := context.Background()
	h, srv, _, client := llmSetup(t)
	c := testCorpus(t)
	scriptDocVectors(h, c, "")
	r, err := New(ctx, NameDense, c, Options{Embedder: client(), EmbedModel: "replay-embed"})
	if err != nil {
		t.Fatal(err)
	}
	qs := []Query{{SampleID: "a", Text: "one"}, {SampleID: "b", Text: "two"}, {SampleID: "c", Text: "three"}}
	if _, err := Evaluate(ctx, Config{Corpus: c, Retriever: r, Queries: qs}); err != nil {
		t.Fatal(err)
	}
	if n := len(embedBodies(srv)); n != 2 {
		t.Errorf("%d embedding requests, want 2 (documents, then every query in one batch)", n)
	}
}

func TestHybridIsReciprocalRankFusion(t *testing.T) {
	ctx := context.Background()
	h, _, _, client := llmSetup(t)
	c := testCorpus(t)
	scriptDocVectors(h, c, "")
	h.Vector("latest quote", []float32{0, 0, 0, 1}) // dense: the hourly forecast first
	o := Options{Embedder: client(), EmbedModel: "replay-embed"}
	r, err := New(ctx, NameHybrid, c, o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Retrieve(ctx, "latest quote", 5)
	if err != nil {
		t.Fatal(err)
	}
	// bm25 ranks the two stock endpoints; dense ranks 4 (cosine 1), 3 (0.8), then
	// 0, 1, 2 (all 0) in corpus order.
	bm, _ := NewBM25(c, DefaultBM25).Retrieve(ctx, "latest quote", 100)
	rank := func(hs []Hit, d int) int {
		for i, h := range hs {
			if h.Doc == d {
				return i + 1
			}
		}
		return 0
	}
	dense := []int{4, 3, 0, 1, 2}
	want := map[int]float64{}
	for d := range c.Docs {
		if r := rank(bm, d); r > 0 {
			want[d] += 1 / float64(60+r)
		}
		want[d] += 1 / float64(60+slices.Index(dense, d)+1)
	}
	if len(got) != 5 {
		t.Fatalf("hits %v", got)
	}
	for i, g := range got {
		if math.Abs(g.Score-want[g.Doc]) > 1e-12 {
			t.Errorf("hit %d: doc %d score %.6f, want %.6f", i, g.Doc, g.Score, want[g.Doc])
		}
		if i > 0 && got[i-1].Score < g.Score {
			t.Errorf("hits out of order: %v", got)
		}
	}
	if got[0].Doc != 0 {
		t.Errorf("top hit %s, want the stock endpoint both rankings know", c.Docs[got[0].Doc].ID)
	}
}

func TestHyDESearchesTheHypotheticalCode(t *testing.T) {
	ctx := context.Background()
	h, srv, _, client := llmSetup(t)
	c := testCorpus(t)
	h.On("Task: tell me when storms come", replay.Answer("Here you go:\n```python\nimport requests\n\ndef watch(hook):\n"+
		"    return requests.post('https://weather.p.rapidapi.com/alerts', json={'hook': hook})\n```"))
	h.On("Task: nothing useful", replay.Answer(""))
	r, err := New(ctx, NameHyDE, c, Options{Chat: client()})
	if err != nil {
		t.Fatal(err)
	}
	hits, err := r.Retrieve(ctx, "tell me when storms come", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || c.Docs[hits[0].Doc].ID != "POST weather.p.rapidapi.com/alerts" {
		t.Errorf("hyde hits %v, want the alerts endpoint the code posts to", ids(c, hits))
	}
	// The intent alone shares no term with any document: BM25 over it finds nothing.
	if plain, _ := NewBM25(c, DefaultBM25).Retrieve(ctx, "tell me when storms come", 3); len(plain) != 0 {
		t.Errorf("bm25 over the intent: %v", ids(c, plain))
	}
	// An empty answer falls back to the intent.
	if _, err := r.Retrieve(ctx, "nothing useful", 3); err != nil {
		t.Fatal(err)
	}
	var prompts []string
	for _, q := range srv.Log.All() {
		if req, err := replay.ParseLLMChat(q.Body); err == nil {
			prompts = append(prompts, req.Prompt())
			if req.Temperature == nil || *req.Temperature != 0 {
				t.Errorf("hyde asked with temperature %v, want 0 (greedy, cacheable)", req.Temperature)
			}
		}
	}
	if len(prompts) != 2 || !strings.Contains(prompts[0], "requests library") {
		t.Errorf("prompts %q", prompts)
	}
}

func TestHyDEWithEmbeddingsEmbedsTheCodeAsADocument(t *testing.T) {
	ctx := context.Background()
	h, srv, _, client := llmSetup(t)
	c := testCorpus(t)
	scriptDocVectors(h, c, "passage: ")
	code := "import requests\nrequests.get('https://weather.p.rapidapi.com/forecast/oslo/hourly')"
	h.On("Task: hour by hour", replay.Answer("```python\n"+code+"\n```"))
	h.Vector("passage: "+code, []float32{0, 0, 0, 1})
	cl := client()
	r, err := New(ctx, NameHyDE, c, Options{Chat: cl, Embedder: cl, EmbedModel: "replay-embed", QueryPrefix: "query: ", DocPrefix: "passage: "})
	if err != nil {
		t.Fatal(err)
	}
	hits, err := r.Retrieve(ctx, "hour by hour", 2)
	if err != nil {
		t.Fatal(err)
	}
	if c.Docs[hits[0].Doc].ID != "GET weather.p.rapidapi.com/forecast/{city}/hourly" {
		t.Errorf("hits %v", ids(c, hits))
	}
	bodies := embedBodies(srv)
	if len(bodies) != 2 || !strings.Contains(bodies[1], "passage: import requests") {
		t.Errorf("the code should be embedded with the document prefix: %q", bodies)
	}
}

func TestCAPIRDecomposesRetrievesAndReranks(t *testing.T) {
	ctx := context.Background()
	c := testCorpus(t)
	const task = "daily forecast and storm alerts"
	subs := []string{"daily forecast for a city", "subscribe to alerts"}
	// The candidates the reranker will see: the task and each subtask through BM25,
	// fused.
	bm := NewBM25(c, DefaultBM25)
	var lists [][]Hit
	for _, q := range append([]string{task}, subs...) {
		hs, _ := bm.Retrieve(ctx, q, 10)
		lists = append(lists, hs)
	}
	cands := fuse(lists, 60, 20)
	pos := func(id string) int {
		i, _ := c.Lookup(id)
		for j, h := range cands {
			if h.Doc == i {
				return j + 1
			}
		}
		t.Fatalf("%s is not a candidate", id)
		return 0
	}
	alerts, daily := pos("POST weather.p.rapidapi.com/alerts"), pos("GET weather.p.rapidapi.com/forecast/{city}")
	tests := []struct {
		name   string
		rerank replay.LLMAnswer
		want   []string
	}{
		{"the reranker's picks in its order", replay.Answer(fmt.Sprintf("%d, %d", alerts, daily)),
			[]string{"POST weather.p.rapidapi.com/alerts", "GET weather.p.rapidapi.com/forecast/{city}"}},
		{"none keeps nothing", replay.Answer("None."), nil},
		{"garbage keeps the fused order", replay.Answer("I think the weather ones"), ids(c, cands[:3])},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, srv, _, client := llmSetup(t)
			h.On("one subtask per line", replay.Answer("1. "+subs[0]+"\n- "+subs[1]+"\n"))
			h.On("Candidate endpoints", tc.rerank)
			r, err := New(ctx, NameCAPIR, c, Options{Chat: client()})
			if err != nil {
				t.Fatal(err)
			}
			hits, err := r.Retrieve(ctx, task, 3)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(c, hits); !slices.Equal(got, tc.want) {
				t.Errorf("capir hits %q, want %q", got, tc.want)
			}
			var rerankPrompt string
			for _, q := range srv.Log.All() {
				if req, err := replay.ParseLLMChat(q.Body); err == nil && strings.Contains(req.Prompt(), "Candidate endpoints") {
					rerankPrompt = req.Prompt()
				}
			}
			if !strings.Contains(rerankPrompt, "- "+subs[1]) || !strings.Contains(rerankPrompt, fmt.Sprintf("[%d] POST weather.p.rapidapi.com/alerts — Subscribe to alerts", alerts)) {
				t.Errorf("rerank prompt lacks the subtasks or the numbered candidates:\n%s", rerankPrompt)
			}
		})
	}
}

func TestLLMRerank(t *testing.T) {
	ctx := context.Background()
	h, _, _, client := llmSetup(t)
	c := testCorpus(t)
	h.On("Task: reorder me", replay.Answer("3, 1"))
	r, err := Rerank(fixed{"reorder me": hitsOf(0, 1, 2, 3, 4)}, c, Options{Chat: client(), Candidates: 3})
	if err != nil {
		t.Fatal(err)
	}
	hits, err := r.Retrieve(ctx, "reorder me", 5)
	if err != nil {
		t.Fatal(err)
	}
	// The named candidates first (3, 1), the unnamed one (2) after them, the rest
	// of the base ranking unchanged.
	want := []int{2, 0, 1, 3, 4}
	for i, hit := range hits {
		if hit.Doc != want[i] || (i > 0 && hit.Score >= hits[i-1].Score) {
			t.Fatalf("reranked %v, want docs %v with falling scores", hits, want)
		}
	}
}

func TestLLMFaultsReachTheCaller(t *testing.T) {
	ctx := context.Background()
	h, _, _, client := llmSetup(t)
	c := testCorpus(t)
	h.Default(replay.Fail(http.StatusInternalServerError, ""))
	r, err := New(ctx, NameHyDE, c, Options{Chat: client()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Evaluate(ctx, Config{Corpus: c, Retriever: r, Queries: []Query{{SampleID: "x", Text: "anything"}}})
	if err == nil || !strings.Contains(err.Error(), "hyde") {
		t.Errorf("Evaluate over a failing LLM: %v, want the hyde error", err)
	}
}

func TestWithoutAnLLM(t *testing.T) {
	ctx := context.Background()
	c := testCorpus(t)
	for _, name := range []string{NameDense, NameHybrid, NameHyDE, NameCAPIR} {
		if _, err := New(ctx, name, c, Options{}); !errors.Is(err, ErrNeedsLLM) {
			t.Errorf("%s without an LLM: %v, want ErrNeedsLLM", name, err)
		}
	}
	if _, err := Rerank(NewBM25(c, DefaultBM25), c, Options{}); !errors.Is(err, ErrNeedsLLM) {
		t.Errorf("rerank without an LLM: %v, want ErrNeedsLLM", err)
	}
}

// The LLM answers a retriever cannot use are counted, by what it did instead; a
// decomposition given as a JSON list is read as its items.
func TestUnusableAnswersAreCounted(t *testing.T) {
	ctx := context.Background()
	c := testCorpus(t)
	h, srv, _, client := llmSetup(t)
	h.On("one subtask per line", replay.Answer(`["daily forecast for a city", "subscribe to alerts"]`))
	h.On("Candidate endpoints", replay.Answer("I think the weather ones"))
	r, err := New(ctx, NameCAPIR, c, Options{Chat: client()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Retrieve(ctx, "daily forecast and storm alerts", 3); err != nil {
		t.Fatal(err)
	}
	var rerankPrompt string
	for _, q := range srv.Log.All() {
		if req, err := replay.ParseLLMChat(q.Body); err == nil && strings.Contains(req.Prompt(), "Candidate endpoints") {
			rerankPrompt = req.Prompt()
		}
	}
	if !strings.Contains(rerankPrompt, "- subscribe to alerts\n") || strings.Contains(rerankPrompt, "[\"daily") {
		t.Errorf("the JSON list was not read as subtasks:\n%s", rerankPrompt)
	}
	got := r.(FallbackCounter).Counts()
	if !maps.Equal(got, map[string]int{FallbackCAPIRNoCandidate: 1}) {
		t.Errorf("capir fallbacks %v", got)
	}

	h.On("Task: reorder me", replay.Answer("I cannot rank these."))
	rr, err := Rerank(fixed{"reorder me": hitsOf(0, 1, 2)}, c, Options{Chat: client(), Candidates: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rr.Retrieve(ctx, "reorder me", 3); err != nil {
		t.Fatal(err)
	}
	if got := rr.(FallbackCounter).Counts(); got[FallbackRerankNoRanking] != 1 {
		t.Errorf("rerank fallbacks %v", got)
	}

	h.On("Task: prose only", replay.Answer("I would call the weather API with the city."))
	hy, err := New(ctx, NameHyDE, c, Options{Chat: client()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hy.Retrieve(ctx, "prose only", 3); err != nil {
		t.Fatal(err)
	}
	if got := hy.(FallbackCounter).Counts(); got[FallbackHyDENoCode] != 1 {
		t.Errorf("hyde fallbacks %v", got)
	}
}

// HyDE's code and CAPIR's queries and subtasks are embedded as dense's queries are:
// in batches of llm.DefaultEmbedBatch, not one request per text; their unusable
// answers are still counted once per retrieval.
func TestHyDEAndCAPIREmbedInBatches(t *testing.T) {
	ctx := context.Background()
	const n = 130
	query := func(i int) string { return fmt.Sprintf("ask number %03d now", i) }
	tests := []struct {
		name   string
		script func(h *replay.LLM)
		build  func(c *Corpus, o Options) (Retriever, error)
		texts  int // distinct texts embedded besides the documents
		want   map[string]int
	}{
		{"hyde", func(h *replay.LLM) {
			for i := range n {
				a := replay.Answer(fmt.Sprintf("```python\nrequests.get('https://weather.p.rapidapi.com/forecast/c%03d')\n```", i))
				if i%2 == 1 {
					a = replay.Answer("I would ask the weather API.")
				}
				h.On("Task: "+query(i), a)
			}
		}, func(c *Corpus, o Options) (Retriever, error) { return New(ctx, NameHyDE, c, o) },
			n, map[string]int{FallbackHyDENoCode: n / 2}},
		{"hyde reranked", func(h *replay.LLM) {
			h.On("Candidate endpoints", replay.Answer("2, 1"))
			for i := range n {
				h.On("Task: "+query(i), replay.Answer(fmt.Sprintf("```python\nrequests.get('https://stocks.p.rapidapi.com/quote/s%03d')\n```", i)))
			}
		}, func(c *Corpus, o Options) (Retriever, error) {
			r, err := New(ctx, NameHyDE, c, o)
			if err != nil {
				return nil, err
			}
			return Rerank(r, c, o)
		}, n, nil},
		{"capir", func(h *replay.LLM) {
			h.On("Candidate endpoints", replay.Answer("1"))
			for i := range n {
				a := replay.Answer(fmt.Sprintf("1. forecast for city %03d\n2. alerts for city %03d", i, i))
				if i%3 == 0 {
					a = replay.Answer("")
				}
				h.On("Task: "+query(i), a)
			}
		}, func(c *Corpus, o Options) (Retriever, error) { return New(ctx, NameCAPIR, c, o) },
			n + 2*(n-(n+2)/3), map[string]int{FallbackNoSubtasks: (n + 2) / 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, srv, _, client := llmSetup(t)
			tc.script(h)
			c := testCorpus(t)
			cl := client()
			r, err := tc.build(c, Options{Chat: cl, Embedder: cl, EmbedModel: "replay-embed", DocPrefix: "passage: ", QueryPrefix: "query: "})
			if err != nil {
				t.Fatal(err)
			}
			qs := make([]Query, n)
			for i := range qs {
				qs[i] = Query{SampleID: fmt.Sprintf("s%03d", i), Text: query(i)}
			}
			if _, err := Evaluate(ctx, Config{Corpus: c, Retriever: r, Queries: qs}); err != nil {
				t.Fatal(err)
			}
			bodies := embedBodies(srv)
			inputs := 0
			for _, b := range bodies {
				req, err := replay.ParseLLMEmbed(b)
				if err != nil {
					t.Fatal(err)
				}
				inputs += len(req.Input)
			}
			batches := (tc.texts + llm.DefaultEmbedBatch - 1) / llm.DefaultEmbedBatch
			if len(bodies) != 1+batches || inputs != len(c.Docs)+tc.texts {
				t.Errorf("%d embedding requests carrying %d texts, want %d (the documents, then %d texts in batches of %d)",
					len(bodies), inputs, 1+batches, tc.texts, llm.DefaultEmbedBatch)
			}
			if got := r.(FallbackCounter).Counts(); !maps.Equal(got, tc.want) {
				t.Errorf("fallbacks %v, want %v", got, tc.want)
			}
		})
	}
}
