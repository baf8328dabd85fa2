// Package stats holds the statistics of the evaluation: Wilson score intervals,
// bootstrap intervals of a mean,
// the unbiased pass@k estimator and its generalization to graded values (the
// expected best of k), paired and group-wise permutation tests, and Cohen's kappa.
package stats

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Wilson returns the Wilson score interval for k successes out of n at 95%
// confidence. With n = 0 it returns (0, 0).
func Wilson(k, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 0
	}
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	nn := float64(n)
	den := 1 + z*z/nn
	center := (p + z*z/(2*nn)) / den
	half := z * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn)) / den
	return math.Max(0, center-half), math.Min(1, center+half)
}

// BootstrapMean returns the percentile bootstrap 95% interval of the mean of
// values: the 2.5th and 97.5th percentiles of the means of rounds resamples
// (with replacement, as many values as there are). Seeded: the same input and
// seed give the same interval. With no values it returns (0, 0).
func BootstrapMean(values []float64, rounds int, seed uint64) (lo, hi float64) {
	n := len(values)
	if n == 0 || rounds <= 0 {
		return 0, 0
	}
	rng := rand.New(rand.NewPCG(seed, 0xb007))
	means := make([]float64, rounds)
	for r := range means {
		s := 0.0
		for range n {
			s += values[rng.IntN(n)]
		}
		means[r] = s / float64(n)
	}
	slices.Sort(means)
	at := func(q float64) float64 { return means[min(rounds-1, int(math.Floor(q*float64(rounds))))] }
	return at(0.025), at(0.975)
}

// PassAtK is the unbiased estimator 1 − C(n−c, k) / C(n, k) of the probability that
// at least one of k samples drawn from n generations, c of them correct, is correct.
// With n < k it uses k = n.
func PassAtK(n, c, k int) float64 {
	if n <= 0 {
		return 0
	}
	k = min(k, n)
	if n-c < k {
		return 1
	}
	// product form avoids huge binomials: C(n−c, k)/C(n, k) = Π_{i=n−c+1}^{n} (1 − k/i)
	prod := 1.0
	for i := n - c + 1; i <= n; i++ {
		prod *= 1 - float64(k)/float64(i)
	}
	return 1 - prod
}

// ExpectedMaxAtK is the expected best of k values drawn without replacement from
// values: Σ v_(i) · C(i−1, k−1) / C(n, k) over the values sorted ascending. It is
// DevEval's Recall@k over n generations, and PassAtK when every value is 0 or 1.
// With n < k it uses k = n; with no values it is 0.
func ExpectedMaxAtK(values []float64, k int) float64 {
	n := len(values)
	if n == 0 || k <= 0 {
		return 0
	}
	k = min(k, n)
	v := slices.Clone(values)
	slices.Sort(v)
	logC := func(a, b int) float64 {
		la, _ := math.Lgamma(float64(a + 1))
		lb, _ := math.Lgamma(float64(b + 1))
		lab, _ := math.Lgamma(float64(a - b + 1))
		return la - lb - lab
	}
	total := logC(n, k)
	e := 0.0
	for i := k; i <= n; i++ { // the i-th smallest is the best of C(i−1, k−1) subsets
		e += v[i-1] * math.Exp(logC(i-1, k-1)-total)
	}
	return e
}

// PermutationResult is the outcome of a permutation test.
type PermutationResult struct {
	N            int     `json:"n"`             // pairs (paired) or total observations (group-wise)
	NA           int     `json:"n_a,omitempty"` // group sizes (group-wise)
	NB           int     `json:"n_b,omitempty"`
	MeanA        float64 `json:"mean_a"`
	MeanB        float64 `json:"mean_b"`
	Diff         float64 `json:"diff"` // MeanA − MeanB
	P            float64 `json:"p"`    // two-sided
	Permutations int     `json:"permutations"`
}

// PairedPermutation tests whether paired observations a[i], b[i] differ in mean,
// by flipping the sign of each pair's difference at random. Seeded: the same input
// and seed give the same p.
func PairedPermutation(a, b []float64, rounds int, seed uint64) (PermutationResult, error) {
	if len(a) != len(b) {
		return PermutationResult{}, fmt.Errorf("paired permutation: %d and %d observations", len(a), len(b))
	}
	if len(a) == 0 {
		return PermutationResult{}, errors.New("paired permutation: no pairs")
	}
	d := make([]float64, len(a))
	var sa, sb, sd float64
	for i := range a {
		d[i] = a[i] - b[i]
		sa += a[i]
		sb += b[i]
		sd += d[i]
	}
	n := float64(len(a))
	obs := math.Abs(sd / n)
	rng := rand.New(rand.NewPCG(seed, 0x5ccb))
	extreme := 0
	for r := 0; r < rounds; r++ {
		s := 0.0
		for _, x := range d {
			if rng.Uint64()&1 == 1 {
				s += x
			} else {
				s -= x
			}
		}
		if math.Abs(s/n) >= obs-1e-12 {
			extreme++
		}
	}
	return PermutationResult{N: len(a), MeanA: sa / n, MeanB: sb / n, Diff: (sa - sb) / n,
		P: float64(extreme+1) / float64(rounds+1), Permutations: rounds}, nil
}

// GroupPermutation tests whether two independent groups differ in mean by
// reshuffling group labels. Seeded.
func GroupPermutation(a, b []float64, rounds int, seed uint64) (PermutationResult, error) {
	if len(a) == 0 || len(b) == 0 {
		return PermutationResult{}, fmt.Errorf("group permutation: empty group (%d and %d observations)", len(a), len(b))
	}
	all := append(append([]float64{}, a...), b...)
	mean := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	ma, mb := mean(a), mean(b)
	obs := math.Abs(ma - mb)
	rng := rand.New(rand.NewPCG(seed, 0x5ccb))
	extreme := 0
	na := len(a)
	total := 0.0
	for _, x := range all {
		total += x
	}
	for r := 0; r < rounds; r++ {
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		s := 0.0
		for _, x := range all[:na] {
			s += x
		}
		diff := s/float64(na) - (total-s)/float64(len(all)-na)
		if math.Abs(diff) >= obs-1e-12 {
			extreme++
		}
	}
	return PermutationResult{N: len(all), NA: len(a), NB: len(b), MeanA: ma, MeanB: mb, Diff: ma - mb,
		P: float64(extreme+1) / float64(rounds+1), Permutations: rounds}, nil
}

// Kappa is Cohen's kappa between two raters' labels on the same items.
type Kappa struct {
	N        int     `json:"n"`
	Observed float64 `json:"observed_agreement"`
	Expected float64 `json:"expected_agreement"`
	Kappa    float64 `json:"kappa"`
}

// CohensKappa computes κ = (p_o − p_e) / (1 − p_e). When p_e = 1 (both raters
// always give the same single label) κ is 1 if they agree everywhere.
func CohensKappa(a, b []string) (Kappa, error) {
	if len(a) != len(b) {
		return Kappa{}, fmt.Errorf("kappa: %d and %d labels", len(a), len(b))
	}
	if len(a) == 0 {
		return Kappa{}, errors.New("kappa: no labels")
	}
	ca, cb := map[string]int{}, map[string]int{}
	agree := 0
	for i := range a {
		ca[a[i]]++
		cb[b[i]]++
		if a[i] == b[i] {
			agree++
		}
	}
	n := float64(len(a))
	po := float64(agree) / n
	pe := 0.0
	for l, k := range ca {
		pe += float64(k) / n * float64(cb[l]) / n
	}
	k := Kappa{N: len(a), Observed: po, Expected: pe}
	if pe >= 1 {
		if po >= 1 {
			k.Kappa = 1
		}
		return k, nil
	}
	k.Kappa = (po - pe) / (1 - pe)
	return k, nil
}
