package evaluate

import (
	"testing"
)

func synthResults(model string, mocks []float64, source string) []Result {
	var out []Result
	for i, m := range mocks {
		r := Result{SampleID: string(rune('A' + i)), Model: model, HasEndpoint: true, CommentsSource: source}
		r.Mock, r.ES = m, m/2
		out = append(out, r)
	}
	return out
}

func TestCompare(t *testing.T) {
	a := synthResults("a", []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, "original")
	b := synthResults("b", []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "intent_redacted")
	cs, err := Compare(a, b, CompareOptions{Metrics: []string{"mock", "es"}, Rounds: 2000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Paired == nil || cs[0].Paired.N != 12 || cs[0].Paired.P > 0.01 || cs[0].GroupWise.P > 0.01 {
		t.Fatalf("clearly different sets: %+v", cs)
	}
	same, err := Compare(a, a, CompareOptions{Metrics: []string{"mock"}, Rounds: 500, Seed: 3})
	if err != nil || same[0].Paired.P < 0.99 {
		t.Errorf("a set against itself: %+v %v", same, err)
	}
	if _, err := Compare(a, b, CompareOptions{Metrics: []string{"bogus"}}); err == nil {
		t.Error("unknown metric: no error")
	}
	ga, gb, err := SplitBy(append(a, b...), "comments_source", "original", "intent_redacted")
	if err != nil || len(ga) != 12 || len(gb) != 12 {
		t.Errorf("SplitBy: %d, %d, %v", len(ga), len(gb), err)
	}
	if _, _, err := SplitBy(a, "colour", "x", "y"); err == nil {
		t.Error("unknown stratum: no error")
	}
}

// With n completions per sample, the tests count samples (each the mean of its
// completions), not completions.
func TestCompareCountsSamples(t *testing.T) {
	var a, b []Result
	for i := range 4 {
		for k := range 3 {
			ra := Result{SampleID: string(rune('A' + i)), SampleIndex: k, HasEndpoint: true}
			ra.Mock = 1
			rb := ra
			rb.Mock = float64(k % 2)
			a, b = append(a, ra), append(b, rb)
		}
	}
	cs, err := Compare(a, b, CompareOptions{Metrics: []string{"mock"}, Rounds: 500, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if c := cs[0]; c.Paired.N != 4 || c.GroupWise.NA != 4 || c.GroupWise.NB != 4 || c.GroupWise.MeanB < 0.33 || c.GroupWise.MeanB > 0.34 {
		t.Errorf("paired n %d, groups %d and %d (mean b %v); want 4 samples each, mean 1/3", c.Paired.N, c.GroupWise.NA, c.GroupWise.NB, c.GroupWise.MeanB)
	}
}
