package minhash

import (
	"fmt"
	"math/rand"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		name, code string
		want       []string
	}{
		{"identifiers and punctuation", "x = f(a,b)", []string{"x", "=", "f", "(", "a", ",", "b", ")"}},
		{"strings are one token", `u = "https://h/a b"`, []string{"u", "=", `"https://h/a b"`}},
		{"comments and whitespace dropped", "a  # note\n\tb", []string{"a", "b"}},
		{"escaped quote", `s = 'it\'s'`, []string{"s", "=", `'it\'s'`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Tokens(tt.code)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("Tokens(%q) = %q, want %q", tt.code, got, tt.want)
			}
		})
	}
}

func TestJaccard(t *testing.T) {
	tests := []struct {
		name string
		a, b []uint64
		want float64
	}{
		{"equal", []uint64{1, 2, 3}, []uint64{1, 2, 3}, 1},
		{"disjoint", []uint64{1, 2}, []uint64{3, 4}, 0},
		{"half", []uint64{1, 2, 3}, []uint64{2, 3, 4}, 0.5},
		{"both empty", nil, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Jaccard(tt.a, tt.b); got != tt.want {
				t.Errorf("Jaccard = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBands(t *testing.T) {
	b, r := Bands(0.85, 256)
	if b*r > 256 || b < 1 || r < 1 {
		t.Fatalf("Bands(0.85, 256) = %d×%d, want a banding within 256 permutations", b, r)
	}
	// The S-curve's midpoint (1/b)^(1/r) must sit below the threshold so that pairs at
	// the threshold are almost always proposed.
	p := 1 - pow(1-pow(0.85, r), b)
	if p < 0.95 {
		t.Errorf("Bands(0.85, 256) = %d×%d proposes a pair at Jaccard 0.85 with probability %.3f, want ≥ 0.95", b, r, p)
	}
}

func pow(x float64, n int) float64 {
	out := 1.0
	for i := 0; i < n; i++ {
		out *= x
	}
	return out
}

// TestSignatureEstimatesJaccard checks that the fraction of equal signature entries
// tracks the exact Jaccard similarity at several levels.
func TestSignatureEstimatesJaccard(t *testing.T) {
	h := NewHasher(256, 1)
	for _, shared := range []int{50, 120, 180, 195} {
		t.Run(fmt.Sprint(shared), func(t *testing.T) {
			a := make([]uint64, 0, 200)
			for i := 0; i < 200; i++ {
				a = append(a, uint64(i)*7919+13)
			}
			b := append([]uint64(nil), a[:shared]...)
			for i := shared; i < 200; i++ {
				b = append(b, uint64(i)*104729+1_000_003)
			}
			a, b = slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))
			sa, sb := h.Signature(a), h.Signature(b)
			eq := 0
			for i := range sa {
				if sa[i] == sb[i] {
					eq++
				}
			}
			est, exact := float64(eq)/256, Jaccard(a, b)
			if d := est - exact; d > 0.1 || d < -0.1 {
				t.Errorf("estimate %.3f vs exact %.3f: off by more than 0.1", est, exact)
			}
		})
	}
}

// synthDoc builds a function-like document from a seed; variant changes a few words.
func synthDoc(rng *rand.Rand, words []string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = words[rng.Intn(len(words))]
	}
	return out
}

// TestClusterMatchesBruteForce compares LSH clustering with the exact pairwise
// clustering on documents made of families of small edits.
func TestClusterMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	vocab := make([]string, 500)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%d", i)
	}
	var docs []string
	for f := 0; f < 40; f++ {
		base := synthDoc(rng, vocab, 120)
		for v := 0; v < 4; v++ {
			d := append([]string(nil), base...)
			edits := rng.Intn(6) // 0–5 edited tokens: some pairs above, some below 0.85
			if v == 3 {
				edits = 30
			}
			for e := 0; e < edits; e++ {
				d[rng.Intn(len(d))] = vocab[rng.Intn(len(vocab))]
			}
			docs = append(docs, strings.Join(d, " "))
		}
	}
	opt := Options{Threshold: 0.85}
	got, st := Cluster(docs, opt)

	sets := make([][]uint64, len(docs))
	for i, d := range docs {
		sets[i] = Shingles(Tokens(d), 5)
	}
	uf := NewUnionFind(len(docs))
	for i := range sets {
		for j := 0; j < i; j++ {
			if Jaccard(sets[i], sets[j]) >= 0.85 {
				uf.Union(int32(i), int32(j))
			}
		}
	}
	mismatch, clusters := 0, map[int32]int{}
	for i := range docs {
		if got[i] != uf.Find(int32(i)) {
			mismatch++
		}
		clusters[got[i]]++
	}
	t.Logf("docs=%d clusters=%d bands=%d rows=%d candidates=%d verified=%d", len(docs), len(clusters), st.Bands, st.Rows, st.CandidatePairs, st.VerifiedPairs)
	if mismatch > 0 {
		t.Errorf("%d of %d docs clustered differently from exact pairwise Jaccard", mismatch, len(docs))
	}
	if len(clusters) == len(docs) || len(clusters) < 40 {
		t.Errorf("%d clusters of %d docs from 40 families: want some merged, no families merged together", len(clusters), len(docs))
	}
}

func TestUnionFindOrderIndependent(t *testing.T) {
	a, b := NewUnionFind(5), NewUnionFind(5)
	a.Union(3, 4)
	a.Union(4, 1)
	b.Union(1, 4)
	b.Union(4, 3)
	for i := int32(0); i < 5; i++ {
		if a.Find(i) != b.Find(i) {
			t.Errorf("Find(%d) = %d and %d depending on union order", i, a.Find(i), b.Find(i))
		}
	}
}

// TestClusterMemoryIsLinear clusters n and 4n distinct documents and checks that
// the allocations grow about 4 times, not 16: no pairwise structure is built.
func TestClusterMemoryIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation measurement")
	}
	rng := rand.New(rand.NewSource(3))
	makeSets := func(n int) [][]uint64 {
		sets := make([][]uint64, n)
		for i := range sets {
			s := make([]uint64, 60)
			for j := range s {
				s[j] = rng.Uint64()
			}
			sets[i] = slices.Sorted(slices.Values(s))
		}
		return sets
	}
	alloc := func(sets [][]uint64) uint64 {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		ClusterSets(sets, Options{Perms: 64})
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	small, large := alloc(makeSets(1000)), alloc(makeSets(4000))
	ratio := float64(large) / float64(small)
	t.Logf("allocated %d KiB for 1,000 documents, %d KiB for 4,000 (×%.1f)", small>>10, large>>10, ratio)
	if ratio > 6 {
		t.Errorf("allocations grew ×%.1f for 4× the documents, want about ×4", ratio)
	}
}
