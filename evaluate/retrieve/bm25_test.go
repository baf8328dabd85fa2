package retrieve

import (
	"context"
	"math"
	"testing"
)

func TestBM25ScoresByHand(t *testing.T) {
	// Three documents, 12 terms: avgdl = 4. With k1 = 1.2 and b = 0.75:
	//   norm(d) = 1.2·(0.25 + 0.75·|d|/4): d0, d1 (3 terms) 0.975; d2 (6 terms) 1.65.
	//   idf(a) = ln(1 + (3−2+0.5)/(2+0.5)) = ln 1.6; idf(e) = ln(1 + 2.5/1.5) = ln(8/3).
	docs := [][]string{{"a", "b", "c"}, {"a", "a", "d"}, {"e", "f", "g", "h", "i", "j"}}
	ix := newBM25(docs, DefaultBM25)
	idfA, idfE := math.Log(1.6), math.Log(8.0/3)
	tests := []struct {
		name  string
		query []string
		want  []Hit
	}{
		// tf 2 in d1: 2·2.2/(2+0.975); tf 1 in d0: 2.2/(1+0.975).
		{"one term, two documents", []string{"a"}, []Hit{{1, idfA * 4.4 / 2.975}, {0, idfA * 2.2 / 1.975}}},
		// a repeated query term counts twice.
		{"repeated query term", []string{"a", "a"}, []Hit{{1, 2 * idfA * 4.4 / 2.975}, {0, 2 * idfA * 2.2 / 1.975}}},
		{"two terms", []string{"b", "e"}, []Hit{{0, idfE * 2.2 / 1.975}, {2, idfE * 2.2 / 2.65}}},
		{"unknown term", []string{"zzz"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ix.search(tc.query, 10)
			if len(got) != len(tc.want) {
				t.Fatalf("hits = %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i].Doc != tc.want[i].Doc || math.Abs(got[i].Score-tc.want[i].Score) > 1e-12 {
					t.Errorf("hit %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
	if got := ix.search([]string{"a"}, 1); len(got) != 1 || got[0].Doc != 1 {
		t.Errorf("k = 1: %v, want only d1", got)
	}
}

func TestBM25Parameters(t *testing.T) {
	// b = 0 ignores length: the same term once in a short and a long document
	// scores the same, and ties go to corpus order; b = 1 favours the short one.
	docs := [][]string{{"x", "pad", "pad", "pad", "pad", "pad"}, {"x"}}
	flat := newBM25(docs, BM25Options{K1: 1.2, B: 0})
	if got := flat.search([]string{"x"}, 2); got[0].Doc != 0 || got[0].Score != got[1].Score {
		t.Errorf("b = 0: %v, want a tie in corpus order", got)
	}
	full := newBM25(docs, BM25Options{K1: 1.2, B: 1})
	if got := full.search([]string{"x"}, 2); got[0].Doc != 1 || got[0].Score <= got[1].Score {
		t.Errorf("b = 1: %v, want the short document first", got)
	}
	// k1 saturates term frequency: with a large k1 tf 3 scores nearly 3× tf 1.
	tf := [][]string{{"y", "y", "y"}, {"y", "z", "z"}}
	big := newBM25(tf, BM25Options{K1: 1000, B: 0}).search([]string{"y"}, 2)
	if r := big[0].Score / big[1].Score; r < 2.9 {
		t.Errorf("k1 = 1000: tf 3 / tf 1 = %.3f, want ≈ 3", r)
	}
	small := newBM25(tf, BM25Options{K1: 0.01, B: 0}).search([]string{"y"}, 2)
	if r := small[0].Score / small[1].Score; r > 1.01 {
		t.Errorf("k1 = 0.01: tf 3 / tf 1 = %.3f, want ≈ 1", r)
	}
}

func TestBM25OverACorpus(t *testing.T) {
	c := testCorpus(t)
	r, err := New(context.Background(), NameBM25, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	hits, err := r.Retrieve(context.Background(), "hourly weather forecast for a city", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || c.Docs[hits[0].Doc].ID != "GET weather.p.rapidapi.com/forecast/{city}/hourly" {
		t.Errorf("top hit of the hourly query: %v", ids(c, hits))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Retrieve(ctx, "weather", 3); err == nil {
		t.Error("a cancelled context should stop Retrieve")
	}
	if _, err := New(context.Background(), "nope", c, Options{}); err == nil {
		t.Error("an unknown retriever name should fail")
	}
}

func ids(c *Corpus, hs []Hit) []string {
	var out []string
	for _, h := range hs {
		out = append(out, c.Docs[h.Doc].ID)
	}
	return out
}
