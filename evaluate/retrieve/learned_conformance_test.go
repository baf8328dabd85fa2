package retrieve

import (
	"context"
	"os"
	"testing"

	"sccg/release"
)

// TestConformanceLearnedByAPI cross-validates the learned ranker by API on the
// public validation samples (SCCG_CONFORMANCE; make conformance): each fold's
// APIs are held out of its training, and the pooled held-out ranks are compared
// with BM25's on the same samples and documents (the samples' own api_metadata).
// The ranker must beat BM25's MRR and match its Endpoint@10 on APIs it never saw.
func TestConformanceLearnedByAPI(t *testing.T) {
	path := os.Getenv("SCCG_CONFORMANCE")
	if path == "" {
		t.Skip("SCCG_CONFORMANCE not set: the public validation samples (make conformance)")
	}
	ctx := context.Background()
	recs, err := release.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := FromRecords(recs)
	if err != nil {
		t.Fatal(err)
	}
	qs := Queries(recs, QueryOptions{})
	bm, err := Evaluate(ctx, Config{Corpus: c, Retriever: NewBM25(c, DefaultBM25), Name: NameBM25, Queries: qs})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{5, 10} {
		cv, folds, err := CrossValidate(ctx, c, qs, k, TrainOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range folds {
			t.Logf("cv %d fold %d: %d samples of %d APIs held out; λ %g", k, i+1, f.Samples, len(f.APIs), f.Model.Lambda)
		}
		for _, r := range []*Report{bm, cv} {
			a := r.Overall
			t.Logf("%-22s Endpoint@1 %s @5 %s @10 %s  MRR %s (n = %d)", r.Retriever, rateCell(a.EndpointAtK[0]),
				rateCell(a.EndpointAtK[2]), rateCell(a.EndpointAtK[3]), MRRCell(a), a.NEndpoint)
		}
		if l, b := cv.Overall, bm.Overall; l.MRR <= b.MRR || l.EndpointAtK[3].Rate < b.EndpointAtK[3].Rate {
			t.Errorf("cv %d by API: learned MRR %.3f, Endpoint@10 %.3f; bm25 %.3f, %.3f: want MRR above and Endpoint@10 at least bm25's",
				k, l.MRR, l.EndpointAtK[3].Rate, b.MRR, b.EndpointAtK[3].Rate)
		}
	}
}
