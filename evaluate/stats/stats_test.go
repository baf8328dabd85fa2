package stats

import (
	"math"
	"testing"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) < eps }

func TestWilson(t *testing.T) {
	tests := []struct {
		name   string
		k, n   int
		lo, hi float64
	}{
		{"95 of 104 (the paper's real-call check)", 95, 104, 0.844, 0.954},
		{"none", 0, 10, 0, 0.2775},
		{"all", 10, 10, 0.7225, 1},
		{"empty", 0, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := Wilson(tt.k, tt.n)
			if !near(lo, tt.lo, 1e-3) || !near(hi, tt.hi, 1e-3) {
				t.Errorf("Wilson(%d, %d) = (%.4f, %.4f), want (%.4f, %.4f)", tt.k, tt.n, lo, hi, tt.lo, tt.hi)
			}
		})
	}
}

func TestPassAtK(t *testing.T) {
	tests := []struct {
		name    string
		n, c, k int
		want    float64
	}{
		{"pass@1 is the success rate", 5, 2, 1, 0.4},
		{"pass@3 of 5 with 1 correct", 5, 1, 3, 0.6},
		{"pass@5 of 5 with 1 correct", 5, 1, 5, 1},
		{"none correct", 5, 0, 3, 0},
		{"k larger than n", 2, 1, 5, 1},
		{"pass@2 of 4 with 1 correct", 4, 1, 2, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PassAtK(tt.n, tt.c, tt.k); !near(got, tt.want, 1e-12) {
				t.Errorf("PassAtK(%d, %d, %d) = %v, want %v", tt.n, tt.c, tt.k, got, tt.want)
			}
		})
	}
}

func TestPermutation(t *testing.T) {
	same := []float64{1, 0, 1, 0, 1, 0, 1, 0, 1, 0}
	better := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	worse := []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	r, err := PairedPermutation(same, same, 2000, 1)
	if err != nil || r.P < 0.99 {
		t.Errorf("identical pairs: p = %v, err %v; want ~1", r.P, err)
	}
	r, _ = PairedPermutation(better, worse, 2000, 1)
	if r.P > 0.01 || r.Diff != 1 {
		t.Errorf("all-better pairs: p = %v diff %v, want p < 0.01, diff 1", r.P, r.Diff)
	}
	r2, _ := PairedPermutation(better, worse, 2000, 1)
	if r2.P != r.P {
		t.Errorf("same seed, different p: %v vs %v", r.P, r2.P)
	}
	g, err := GroupPermutation(better, worse[:5], 2000, 7)
	if err != nil || g.P > 0.01 {
		t.Errorf("separated groups: p = %v, err %v", g.P, err)
	}
	g, _ = GroupPermutation(same, same[:6], 2000, 7)
	if g.P < 0.5 {
		t.Errorf("similar groups: p = %v, want large", g.P)
	}
	if _, err := PairedPermutation(same, same[:3], 10, 1); err == nil {
		t.Error("paired test of unequal lengths: no error")
	}
}

func TestCohensKappa(t *testing.T) {
	tests := []struct {
		name string
		a, b []string
		want float64
	}{
		{"perfect", []string{"1", "0", "1", "0"}, []string{"1", "0", "1", "0"}, 1},
		{"textbook 2x2", // 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no: po .7, pe .5
			rep([]string{"y", "y", "n", "n"}, []int{20, 5, 10, 15}), rep([]string{"y", "n", "y", "n"}, []int{20, 5, 10, 15}), 0.4},
		{"one label everywhere", []string{"a", "a"}, []string{"a", "a"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := CohensKappa(tt.a, tt.b)
			if err != nil || !near(k.Kappa, tt.want, 1e-9) {
				t.Errorf("kappa = %+v, err %v, want %v", k, err, tt.want)
			}
		})
	}
}

func rep(labels []string, counts []int) []string {
	var out []string
	for i, l := range labels {
		for j := 0; j < counts[i]; j++ {
			out = append(out, l)
		}
	}
	return out
}

func TestExpectedMaxAtK(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		k      int
		want   float64
	}{
		// subsets of two: {0.2, 0.5} → 0.5, {0.2, 1} → 1, {0.5, 1} → 1.
		{"k = 2 of three, by hand", []float64{1, 0.2, 0.5}, 2, 2.5 / 3},
		{"k = 1 is the mean", []float64{1, 0.2, 0.5}, 1, 1.7 / 3},
		{"k = n is the maximum", []float64{0.3, 0.9, 0.1}, 3, 0.9},
		{"k > n uses n", []float64{0.3, 0.9}, 5, 0.9},
		{"none", nil, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ExpectedMaxAtK(tt.values, tt.k); !near(got, tt.want, 1e-12) {
				t.Errorf("ExpectedMaxAtK(%v, %d) = %v, want %v", tt.values, tt.k, got, tt.want)
			}
		})
	}
	// On 0/1 values it is pass@k: 3 of 7 correct.
	bin := []float64{0, 1, 0, 0, 1, 0, 1}
	for k := 1; k <= 7; k++ {
		if got, want := ExpectedMaxAtK(bin, k), PassAtK(7, 3, k); !near(got, want, 1e-12) {
			t.Errorf("k = %d: %v, pass@k %v", k, got, want)
		}
	}
}

func TestBootstrapMean(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		lo, hi float64 // bounds the interval must lie within / reach
	}{
		{"constant values: a point", []float64{0.5, 0.5, 0.5, 0.5}, 0.5, 0.5},
		{"none", nil, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if lo, hi := BootstrapMean(tc.values, 500, 1); lo != tc.lo || hi != tc.hi {
				t.Errorf("interval [%g, %g], want [%g, %g]", lo, hi, tc.lo, tc.hi)
			}
		})
	}
	// Half ones, half zeros over 100 values: the mean 0.5 with a standard error of
	// 0.05, so about [0.40, 0.60]; the same seed, the same interval.
	var v []float64
	for i := range 100 {
		v = append(v, float64(i%2))
	}
	lo, hi := BootstrapMean(v, 2000, 7)
	if lo < 0.37 || lo > 0.43 || hi < 0.57 || hi > 0.63 {
		t.Errorf("interval [%.3f, %.3f], want about [0.40, 0.60]", lo, hi)
	}
	if lo2, hi2 := BootstrapMean(v, 2000, 7); lo2 != lo || hi2 != hi {
		t.Errorf("not deterministic: [%g, %g] then [%g, %g]", lo, hi, lo2, hi2)
	}
}
