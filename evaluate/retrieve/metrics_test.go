package retrieve

import (
	"context"
	"math"
	"reflect"
	"strconv"
	"testing"

	"sccg/evaluate"
	"sccg/evaluate/stats"
)

// fixed is a retriever with a ranking per query, written by hand.
type fixed map[string][]Hit

func (f fixed) Retrieve(_ context.Context, q string, k int) ([]Hit, error) {
	h := f[q]
	return h[:min(k, len(h))], nil
}

func truth(host, route, method string) evaluate.GroundTruth {
	return evaluate.GroundTruth{Hosts: []string{host}, Route: route, Method: method}
}

// handQueries and handRanking are five samples over testCorpus, whose documents are
//
//	0 GET stocks /quote/latest     1 GET stocks /quote/{symbol}   2 POST weather /alerts
//	3 GET weather /forecast/{city} 4 GET weather /forecast/{city}/hourly
func handQueries() []Query {
	const w, s = "weather.p.rapidapi.com", "stocks.p.rapidapi.com"
	return []Query{
		// labeled by endpoint id; retrieved third, its host second.
		{SampleID: "q1", DocMatchType: "url", Text: "a", Truth: truth(w, "/forecast/{city}", "GET"), EndpointID: "ep-daily"},
		// a concrete route matched by template; the gold code also posts to /alerts
		// and calls a service the corpus lacks.
		{SampleID: "q2", DocMatchType: "route", Text: "b", Truth: truth(w, "/forecast/oslo", "GET"), Called: []evaluate.Captured{
			{Method: "GET", Host: w, Path: "/forecast/oslo"}, {Method: "POST", Host: w, Path: "/alerts"},
			{Method: "GET", Host: "auth.example.com", Path: "/token"}}},
		// no endpoint: Host@K only; nothing retrieved.
		{SampleID: "q3", DocMatchType: "host_only", Text: "c", Truth: truth(s, "", "GET")},
		// the label's method is not documented: matched on the route alone, the most
		// specific template (/quote/latest over /quote/{symbol}).
		{SampleID: "q4", DocMatchType: "host_only", Text: "d", Truth: truth(s, "/quote/latest", "POST")},
		// the corpus lacks the endpoint.
		{SampleID: "q5", DocMatchType: "url", Text: "e", Truth: truth("nowhere.example.com", "/v", "GET")},
	}
}

var handRanking = fixed{"a": hitsOf(1, 4, 3), "b": hitsOf(2, 3), "c": nil, "d": hitsOf(1, 0), "e": hitsOf(4)}

func TestJudgeAndRanks(t *testing.T) {
	c := testCorpus(t)
	rep, err := Evaluate(context.Background(), Config{Corpus: c, Retriever: handRanking, Name: "hand", Queries: handQueries(), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	type ranks struct {
		host, endpoint     int
		gold               []string
		match              string
		used               []string
		missing, unmatched int
		usedAt3            int
	}
	want := map[string]ranks{
		"q1": {2, 3, []string{"GET weather.p.rapidapi.com/forecast/{city}"}, "endpoint_id", []string{"GET weather.p.rapidapi.com/forecast/{city}"}, 0, 0, 1},
		"q2": {1, 2, []string{"GET weather.p.rapidapi.com/forecast/{city}"}, "route+method",
			[]string{"GET weather.p.rapidapi.com/forecast/{city}", "POST weather.p.rapidapi.com/alerts"}, 0, 1, 2},
		"q3": {0, 0, []string{}, "", []string{}, 0, 0, 0},
		"q4": {1, 2, []string{"GET stocks.p.rapidapi.com/quote/latest"}, "route", []string{"GET stocks.p.rapidapi.com/quote/latest"}, 0, 0, 1},
		"q5": {0, 0, []string{}, "", []string{}, 1, 0, 0},
	}
	for _, s := range rep.Samples {
		w := want[s.SampleID]
		got := ranks{s.HostRank, s.EndpointRank, s.Gold, s.GoldMatch, s.Used, s.UsedMissing, s.UnmatchedCalls, s.UsedAt[3]}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s: %+v, want %+v", s.SampleID, got, w)
		}
	}
	if rep.Samples[2].HasEndpoint || !rep.Samples[0].HasEndpoint {
		t.Error("only q3 lacks an endpoint")
	}
	if h := rep.Samples[1].Hits; len(h) != 2 || !h[0].Host || h[0].Endpoint || !h[0].Used || !h[1].Endpoint {
		t.Errorf("q2 hits = %+v", h)
	}
}

func TestAggregateByHand(t *testing.T) {
	c := testCorpus(t)
	rep, err := Evaluate(context.Background(), Config{Corpus: c, Retriever: handRanking, Name: "hand", Queries: handQueries()})
	if err != nil {
		t.Fatal(err)
	}
	a := rep.Overall
	if a.N != 5 || a.NEndpoint != 4 || a.NotInCorpus != 1 {
		t.Fatalf("N %d, NEndpoint %d, NotInCorpus %d; want 5, 4, 1", a.N, a.NEndpoint, a.NotInCorpus)
	}
	checkRates(t, "Host@K", a.HostAtK, []int{1, 3, 5, 10}, []int{2, 3, 3, 3}, 5)
	checkRates(t, "Endpoint@K", a.EndpointAtK, []int{1, 3, 5, 10}, []int{0, 3, 3, 3}, 4)
	checkRates(t, "top-K", a.TopKAccuracy, []int{5, 10, 20, 40}, []int{3, 3, 3, 3}, 4)
	near(t, "MRR", a.MRR, (1.0/3+1.0/2+1.0/2+0)/4)
	for i, k := range SetKs {
		// recall: q1, q2, q4 find every used endpoint, q5 none.
		near(t, "recall@"+strconv.Itoa(k), a.RecallAtK[i].Value, 3.0/4)
		// precision: q1 1 of 3, q2 2 of 2, q4 1 of 2, q5 0 of 1.
		near(t, "precision@"+strconv.Itoa(k), a.PrecisionAtK[i].Value, (1.0/3+1+1.0/2+0)/4)
	}
	ho := rep.ByDocMatchType["host_only"]
	if ho.N != 2 || ho.NEndpoint != 1 || ho.HostAtK[0].Hits != 1 || ho.EndpointAtK[1].Hits != 1 {
		t.Errorf("host_only stratum = %+v", ho)
	}
	if got := rep.QuerySources; len(got) != 1 {
		t.Errorf("query sources %v", got)
	}
}

func TestPrecisionCountsOnlyReturnedHits(t *testing.T) {
	// A ranking that puts the used endpoint first: precision@k is 1 when only it was
	// returned, 1/k when k documents were.
	c := testCorpus(t)
	q := []Query{{SampleID: "x", Text: "x", Truth: truth("weather.p.rapidapi.com", "/alerts", "POST")}}
	one, _ := Evaluate(context.Background(), Config{Corpus: c, Retriever: fixed{"x": hitsOf(2)}, Queries: q})
	all, _ := Evaluate(context.Background(), Config{Corpus: c, Retriever: fixed{"x": hitsOf(2, 0, 1, 3, 4)}, Queries: q})
	for i, k := range SetKs {
		near(t, "one hit precision@"+strconv.Itoa(k), one.Overall.PrecisionAtK[i].Value, 1)
		near(t, "five hits precision@"+strconv.Itoa(k), all.Overall.PrecisionAtK[i].Value, 1/float64(min(k, 5)))
	}
}

func checkRates(t *testing.T, name string, rs []Rate, ks, hits []int, n int) {
	t.Helper()
	if len(rs) != len(ks) {
		t.Fatalf("%s: %d rates, want %d", name, len(rs), len(ks))
	}
	for i, r := range rs {
		lo, hi := stats.Wilson(hits[i], n)
		if r.K != ks[i] || r.Hits != hits[i] || r.N != n || math.Abs(r.Rate-float64(hits[i])/float64(n)) > 1e-12 || r.Lo != lo || r.Hi != hi {
			t.Errorf("%s@%d = %+v, want %d/%d [%.4f, %.4f]", name, ks[i], r, hits[i], n, lo, hi)
		}
	}
}

func near(t *testing.T, name string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("%s = %.6f, want %.6f", name, got, want)
	}
}
