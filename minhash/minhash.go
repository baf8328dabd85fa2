// Package minhash finds near-duplicate documents: token shingles, MinHash signatures,
// banded locality-sensitive hashing to propose candidate pairs, exact Jaccard to
// verify them, and union-find to cluster. Memory is linear in the number of
// documents: a fixed-size signature and a sorted shingle set per document, and one
// bucket entry per document and band.
package minhash

import (
	"cmp"
	"hash/fnv"
	"math"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Tokens splits code into tokens: identifiers and numbers, string literals as one
// token each, and single punctuation characters. Whitespace and # comments are
// dropped, so formatting changes do not change the tokens.
func Tokens(code string) []string {
	var out []string
	for i := 0; i < len(code); {
		r, w := utf8.DecodeRuneInString(code[i:])
		switch {
		case unicode.IsSpace(r):
			i += w
		case r == '#':
			for i < len(code) && code[i] != '\n' {
				i++
			}
		case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			j := i
			for j < len(code) {
				r2, w2 := utf8.DecodeRuneInString(code[j:])
				if r2 != '_' && !unicode.IsLetter(r2) && !unicode.IsDigit(r2) {
					break
				}
				j += w2
			}
			out = append(out, code[i:j])
			i = j
		case r == '"' || r == '\'':
			j := i + 1
			for j < len(code) && code[j] != byte(r) && code[j] != '\n' {
				if code[j] == '\\' {
					j++
				}
				j++
			}
			if j < len(code) {
				j++
			}
			j = min(j, len(code))
			out = append(out, code[i:j])
			i = j
		default:
			out = append(out, code[i:i+w])
			i += w
		}
	}
	return out
}

// Shingles hashes every run of k consecutive tokens and returns the distinct hashes,
// sorted. A document shorter than k tokens has one shingle: all of it.
func Shingles(tokens []string, k int) []uint64 {
	if len(tokens) == 0 {
		return nil
	}
	n := len(tokens) - k + 1
	if n < 1 {
		n, k = 1, len(tokens)
	}
	out := make([]uint64, 0, n)
	h := fnv.New64a()
	for i := 0; i < n; i++ {
		h.Reset()
		for _, t := range tokens[i : i+k] {
			h.Write([]byte(t))
			h.Write([]byte{0})
		}
		out = append(out, h.Sum64())
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Jaccard is the exact Jaccard similarity of two sorted, distinct sets (two empty
// sets are identical).
func Jaccard[T cmp.Ordered](a, b []T) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// Hasher computes MinHash signatures with a fixed number of hash functions standing
// in for permutations: multiply-shift hashes h(x) = (a·x + b) >> 32 over 64-bit
// words (a odd), deterministic for a seed.
type Hasher struct {
	a, b []uint64
}

// NewHasher returns a hasher with perms hash functions derived from seed.
func NewHasher(perms int, seed uint64) *Hasher {
	h := &Hasher{a: make([]uint64, perms), b: make([]uint64, perms)}
	s := seed
	next := func() uint64 { // splitmix64
		s += 0x9e3779b97f4a7c15
		z := s
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	for i := range h.a {
		h.a[i] = next() | 1
		h.b[i] = next()
	}
	return h
}

// Perms is the number of hash functions (the signature length).
func (h *Hasher) Perms() int { return len(h.a) }

// Signature is the MinHash signature of a shingle set.
func (h *Hasher) Signature(shingles []uint64) []uint32 {
	sig := make([]uint32, len(h.a))
	for i := range sig {
		sig[i] = math.MaxUint32
	}
	a, b := h.a, h.b[:len(h.a)]
	for _, x := range shingles {
		for i := range a {
			if u := uint32((a[i]*x + b[i]) >> 32); u < sig[i] {
				sig[i] = u
			}
		}
	}
	return sig
}

// Bands chooses the LSH banding (bands × rows ≤ perms): among bandings that propose a
// pair at the threshold with probability at least 0.995 (candidates are verified
// with exact Jaccard, so a missed pair costs more than a wasted comparison), the one
// with the least false-positive probability mass below the threshold.
func Bands(threshold float64, perms int) (bands, rows int) {
	best := math.Inf(1)
	bands, rows = perms, 1
	for r := 1; r <= perms; r++ {
		b := perms / r
		if 1-math.Pow(1-math.Pow(threshold, float64(r)), float64(b)) < 0.995 {
			continue
		}
		fp := integrate(func(s float64) float64 { return 1 - math.Pow(1-math.Pow(s, float64(r)), float64(b)) }, 0, threshold)
		if fp < best {
			best, bands, rows = fp, b, r
		}
	}
	return bands, rows
}

func integrate(f func(float64) float64, a, b float64) float64 {
	const n = 64
	h := (b - a) / n
	s := 0.0
	for i := 0; i < n; i++ {
		s += f(a + (float64(i)+0.5)*h)
	}
	return s * h
}

// Index is an LSH index over MinHash signatures.
type Index struct {
	bands, rows int
	buckets     []map[uint64][]int32
}

// NewIndex returns an index with the given banding.
func NewIndex(bands, rows int) *Index {
	ix := &Index{bands: bands, rows: rows, buckets: make([]map[uint64][]int32, bands)}
	for i := range ix.buckets {
		ix.buckets[i] = map[uint64][]int32{}
	}
	return ix
}

// Add files document doc (a dense index) under each band of sig.
func (ix *Index) Add(doc int32, sig []uint32) {
	for b := 0; b < ix.bands; b++ {
		k := bandKey(sig[b*ix.rows : (b+1)*ix.rows])
		ix.buckets[b][k] = append(ix.buckets[b][k], doc)
	}
}

// Buckets calls fn with every bucket holding more than one document.
func (ix *Index) Buckets(fn func(docs []int32)) {
	for _, m := range ix.buckets {
		keys := make([]uint64, 0, len(m))
		for k, v := range m {
			if len(v) > 1 {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			fn(m[k])
		}
	}
}

func bandKey(rows []uint32) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range rows {
		for s := 0; s < 32; s += 8 {
			h ^= uint64(byte(v >> s))
			h *= 1099511628211
		}
	}
	return h
}

// UnionFind is a disjoint-set forest over dense indexes.
type UnionFind struct{ parent []int32 }

// NewUnionFind returns n singleton sets.
func NewUnionFind(n int) *UnionFind {
	u := &UnionFind{parent: make([]int32, n)}
	for i := range u.parent {
		u.parent[i] = int32(i)
	}
	return u
}

// Find returns the root of x's set.
func (u *UnionFind) Find(x int32) int32 {
	for u.parent[x] != x {
		u.parent[x] = u.parent[u.parent[x]]
		x = u.parent[x]
	}
	return x
}

// Union merges the sets of x and y (the smaller root becomes the parent, so the
// result does not depend on call order).
func (u *UnionFind) Union(x, y int32) {
	rx, ry := u.Find(x), u.Find(y)
	if rx == ry {
		return
	}
	if ry < rx {
		rx, ry = ry, rx
	}
	u.parent[ry] = rx
}

// The defaults of Options: near-duplicates are pairs of documents whose token
// 5-gram shingle sets have an exact Jaccard similarity of at least 0.85, found with
// 256 MinHash permutations.
const (
	DefaultThreshold = 0.85
	DefaultPerms     = 256
	DefaultShingle   = 5
)

// Options configure Cluster.
type Options struct {
	Threshold float64 // minimum exact Jaccard; default DefaultThreshold
	Perms     int     // default DefaultPerms
	K         int     // shingle size in tokens; default DefaultShingle
	Seed      uint64
	// Compatible, when set, must hold for two documents to be joined: a candidate
	// pair that fails it is not even verified.
	Compatible func(a, b int32) bool
}

func (o *Options) defaults() {
	if o.Threshold <= 0 {
		o.Threshold = DefaultThreshold
	}
	if o.Perms <= 0 {
		o.Perms = DefaultPerms
	}
	if o.K <= 0 {
		o.K = DefaultShingle
	}
}

// Stats describe one clustering.
type Stats struct {
	Docs           int `json:"docs"`
	Bands          int `json:"bands"`
	Rows           int `json:"rows"`
	CandidatePairs int `json:"candidate_pairs"`
	VerifiedPairs  int `json:"verified_pairs"`
}

// Cluster groups docs whose exact Jaccard similarity over k-token shingles is at
// least the threshold (transitively). It returns, for each doc, the dense index of
// its set's root (the smallest index in the set), and the statistics.
func Cluster(docs []string, opt Options) ([]int32, Stats) {
	opt.defaults()
	sets := make([][]uint64, len(docs))
	for i, d := range docs {
		sets[i] = Shingles(Tokens(d), opt.K)
	}
	return ClusterSets(sets, opt)
}

// ClusterSets is Cluster over precomputed shingle sets.
func ClusterSets(sets [][]uint64, opt Options) ([]int32, Stats) {
	opt.defaults()
	bands, rows := Bands(opt.Threshold, opt.Perms)
	st := Stats{Docs: len(sets), Bands: bands, Rows: rows}
	h := NewHasher(opt.Perms, opt.Seed)
	ix := NewIndex(bands, rows)
	for i, s := range sets {
		ix.Add(int32(i), h.Signature(s))
	}
	uf := NewUnionFind(len(sets))
	ix.Buckets(func(docs []int32) {
		// Compare each member with the members before it that are not already in its
		// set; near-identical buckets collapse after the first comparisons.
		for i := 1; i < len(docs); i++ {
			for j := 0; j < i; j++ {
				if uf.Find(docs[i]) == uf.Find(docs[j]) {
					continue
				}
				if opt.Compatible != nil && !opt.Compatible(docs[i], docs[j]) {
					continue
				}
				st.CandidatePairs++
				if Jaccard(sets[docs[i]], sets[docs[j]]) >= opt.Threshold {
					st.VerifiedPairs++
					uf.Union(docs[i], docs[j])
				}
			}
		}
	})
	roots := make([]int32, len(sets))
	for i := range roots {
		roots[i] = uf.Find(int32(i))
	}
	return roots, st
}
