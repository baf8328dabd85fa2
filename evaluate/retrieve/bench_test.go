package retrieve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"sccg/store"
)

// syntheticCorpus makes n endpoint documents shaped like the hub's: APIs of ten
// endpoints each, with titles, descriptions, routes and parameters drawn from a
// vocabulary of service words. The same n gives the same corpus.
func syntheticCorpus(tb testing.TB, n int) *Corpus {
	tb.Helper()
	words := strings.Fields(`weather forecast city hourly daily alert stock quote price history market crypto
		coin exchange rate currency convert news article headline sport score match team player league
		movie film actor series episode music track album artist lyric search query result image photo
		video stream translate language text sentiment email verify phone number address geocode map
		route distance flight airport hotel booking travel recipe food nutrition calorie health fitness
		job salary company domain whois ip location time zone holiday calendar event ticket book author
		quote random joke fact trivia game esport twitch social profile follower post comment review
		product amazon shop order invoice payment tax vat bank account iban card fraud risk score`)
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(k int) string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(ws, " ")
	}
	var apis []store.API
	var eps []store.Endpoint
	for a := 0; len(eps) < n; a++ {
		host := fmt.Sprintf("%s-%d.p.rapidapi.com", strings.ReplaceAll(pick(2), " ", "-"), a)
		apis = append(apis, store.API{ID: int64(a + 1), Title: pick(3), Category: pick(1), Description: pick(20)})
		for e := 0; e < 10 && len(eps) < n; e++ {
			ep := store.Endpoint{APIID: int64(a + 1), Host: host, Method: []string{"GET", "GET", "POST"}[e%3],
				Route: fmt.Sprintf("/%s/%d/{%s}", strings.ReplaceAll(pick(2), " ", "_"), e, words[rng.IntN(len(words))]),
				Name:  pick(3), Description: pick(15 + rng.IntN(20))}
			for p := 0; p < rng.IntN(5); p++ {
				ep.Params = append(ep.Params, store.Param{Name: strings.ReplaceAll(pick(2), " ", "_"), Location: "query", Description: pick(6)})
			}
			eps = append(eps, ep)
		}
	}
	c, err := FromEndpoints(SourceStore, apis, eps)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// BenchmarkBM25 measures BM25 queries (top 40) over 10,000 endpoint documents. The
// vocabulary is small, so every query term matches hundreds of documents: a
// pessimistic case.
func BenchmarkBM25(b *testing.B) {
	c := syntheticCorpus(b, 10000)
	ix := NewBM25(c, DefaultBM25)
	queries := []string{
		"Get the hourly weather forecast for a city",
		"convert an amount between two currencies at today's exchange rate",
		"look up the latest stock quote price for a ticker symbol",
		"search news articles and headlines about a sports team",
		"verify that an email address exists",
		"find flights between two airports and book a hotel",
	}
	ctx := context.Background()
	const perOp = 120 // queries per iteration, so that `make bench` (3 iterations) measures 360
	for b.Loop() {
		for i := 0; i < perOp; i++ {
			if _, err := ix.Retrieve(ctx, queries[i%len(queries)], DefaultDepth); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*perOp)/b.Elapsed().Seconds(), "queries/s")
}

// BenchmarkBM25Index measures indexing 10,000 endpoint documents.
func BenchmarkBM25Index(b *testing.B) {
	c := syntheticCorpus(b, 10000)
	for b.Loop() {
		NewBM25(c, DefaultBM25)
	}
}

// BenchmarkTrain measures training the learned ranker (the strength chosen by
// 5-fold cross-validation by API, then the final fit) on 200 samples of 40 APIs
// against their 200 endpoint documents — the size of a public validation split.
func BenchmarkTrain(b *testing.B) {
	w := newFieldWorld(b, 40, 5, true)
	ctx := context.Background()
	for b.Loop() {
		if _, err := Train(ctx, w.corpus, w.queries, TrainOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLearned measures the learned ranker's queries (top 40) over 10,000
// endpoint documents: every document is scored on every feature.
func BenchmarkLearned(b *testing.B) {
	ctx := context.Background()
	w := newFieldWorld(b, 10, 5, true)
	m, err := Train(ctx, w.corpus, w.queries, TrainOptions{Lambda: 0.01})
	if err != nil {
		b.Fatal(err)
	}
	l, err := NewLearned(syntheticCorpus(b, 10000), m)
	if err != nil {
		b.Fatal(err)
	}
	queries := []string{"Get the hourly weather forecast for a city", "verify that an email address exists",
		"look up the latest stock quote price for a ticker symbol"}
	const perOp = 30
	for b.Loop() {
		for i := 0; i < perOp; i++ {
			if _, err := l.Retrieve(ctx, queries[i%len(queries)], DefaultDepth); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*perOp)/b.Elapsed().Seconds(), "queries/s")
}

func TestSyntheticCorpusSize(t *testing.T) {
	if c := syntheticCorpus(t, 10000); c.Len() != 10000 {
		t.Errorf("synthetic corpus has %d documents, want 10000", c.Len())
	}
}
