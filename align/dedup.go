package align

import (
	"cmp"
	"math"
	"sort"
	"strings"

	"sccg/minhash"
)

// Dedup kinds.
const (
	DedupRepresentative = "representative"
	DedupExact          = "exact"
	DedupNear           = "near"
)

// DedupItem is one aligned function as de-duplication sees it.
type DedupItem struct {
	FunctionID int64
	CodeHash   string // normalized code hash from the extractor
	Code       string // shingled for near-duplicates: the function as written when Source is set
	Source     string
	Endpoint   string // the primary alignment's host, method and route: near-duplicates must agree
	// Direct is set when the function makes a request itself, not only through
	// same-file helpers it calls (lang.Facts.Direct).
	Direct bool
	// Quality is the function's code quality: the quality score of its own body
	// without the repository's signals (stars and forks), which depend on where the
	// repository was mined from (CodeQuality).
	Quality float64
	// Repo, Path, QualName and StartLine are the function's stable key: they break
	// ties the same way whichever order the files were mined in.
	Repo      string
	Path      string
	QualName  string
	StartLine int
}

// CodeQuality is a function's quality score without its repository's signals: the
// sum of every other component.
func CodeQuality(components map[string]float64) float64 {
	q := 0.0
	for k, v := range components {
		if k != "repo_signals" {
			q += v
		}
	}
	return math.Round(q*10) / 10
}

// Preferred reports whether a is preferred over b, as a sample and as a cluster's
// representative: a direct request function first, then the higher code quality,
// then the stable key (repository, case-insensitively; path; qualname; start line).
// It never looks at row ids, so `mine --local`, `--corpus` and GitHub mining of the
// same repositories prefer the same functions.
func Preferred(a, b DedupItem) bool {
	if a.Direct != b.Direct {
		return a.Direct
	}
	if a.Quality != b.Quality {
		return a.Quality > b.Quality
	}
	if c := cmp.Compare(strings.ToLower(a.Repo), strings.ToLower(b.Repo)); c != 0 {
		return c < 0
	}
	if c := cmp.Compare(a.Repo, b.Repo); c != 0 {
		return c < 0
	}
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.QualName != b.QualName {
		return a.QualName < b.QualName
	}
	if a.StartLine != b.StartLine {
		return a.StartLine < b.StartLine
	}
	return a.CodeHash < b.CodeHash
}

// DedupEntry is a function's place in its duplicate cluster. Cluster is the
// function id of the cluster's representative.
type DedupEntry struct {
	FunctionID int64   `json:"function_id"`
	Cluster    int64   `json:"cluster"`
	Kind       string  `json:"kind"`
	Similarity float64 `json:"similarity"`
	Rank       int     `json:"rank"` // place in the order of Preferred over every item, 1 first
}

// DedupOptions configure Dedup.
type DedupOptions struct {
	Threshold float64 // near-duplicate Jaccard threshold; default minhash.DefaultThreshold
	Perms     int     // MinHash permutations; default minhash.DefaultPerms
	Shingle   int     // tokens per shingle; default minhash.DefaultShingle
}

// withDefaults fills the zero fields with minhash's defaults.
func (o DedupOptions) withDefaults() DedupOptions {
	if o.Threshold <= 0 {
		o.Threshold = minhash.DefaultThreshold
	}
	if o.Perms <= 0 {
		o.Perms = minhash.DefaultPerms
	}
	if o.Shingle <= 0 {
		o.Shingle = minhash.DefaultShingle
	}
	return o
}

// DedupStats count what Dedup found.
type DedupStats struct {
	Functions    int           `json:"functions"`
	ExactGroups  int           `json:"exact_groups"`    // hashes shared by more than one function
	ExactDropped int           `json:"exact_dropped"`   // functions that are exact copies
	NearClusters int           `json:"near_clusters"`   // clusters of more than one distinct code
	NearDropped  int           `json:"near_dropped"`    // distinct codes that are near copies
	Clusters     int           `json:"clusters"`        // representatives
	Largest      int           `json:"largest_cluster"` // functions in the largest cluster
	LSH          minhash.Stats `json:"lsh"`
}

// Dedup ranks every item by Preferred, groups exact copies (same normalized code
// hash: the most preferred copy is kept) and then near-duplicates among the kept
// copies (MinHash LSH over the function as written, exact Jaccard verified, only
// between functions aligned to the same endpoint, union-find). A cluster's
// representative is its most preferred member. Every item gets one entry, with its
// rank, representatives included; clusters span repositories and, later, splits.
func Dedup(items []DedupItem, opt DedupOptions) ([]DedupEntry, DedupStats) {
	st := DedupStats{Functions: len(items)}
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return Preferred(items[order[i]], items[order[j]]) })
	rank := make([]int, len(items))
	for r, i := range order {
		rank[i] = r + 1
	}

	// Exact: the first of each hash in order of preference is its group's keeper.
	keeperOf := make([]int, len(items))
	byHash := map[string]int{}
	var keepers []int
	for _, i := range order {
		h := items[i].CodeHash
		if h == "" {
			h = "\x00" + items[i].Code
		}
		if k, ok := byHash[h]; ok {
			keeperOf[i] = k
			continue
		}
		byHash[h] = i
		keeperOf[i] = i
		keepers = append(keepers, i)
	}
	groupSize := map[int]int{}
	for i := range items {
		groupSize[keeperOf[i]]++
	}
	for _, k := range keepers {
		if groupSize[k] > 1 {
			st.ExactGroups++
			st.ExactDropped += groupSize[k] - 1
		}
	}

	// Near: cluster the keepers.
	sets := make([][]uint64, len(keepers))
	opt = opt.withDefaults()
	k := opt.Shingle
	for n, i := range keepers {
		text := items[i].Source
		if text == "" {
			text = items[i].Code
		}
		sets[n] = minhash.Shingles(minhash.Tokens(text), k)
	}
	// Two functions that call different endpoints are different samples however
	// alike their code: near-duplicates must share the primary endpoint.
	same := func(a, b int32) bool { return items[keepers[a]].Endpoint == items[keepers[b]].Endpoint }
	roots, lst := minhash.ClusterSets(sets, minhash.Options{Threshold: opt.Threshold, Perms: opt.Perms, K: k, Compatible: same})
	st.LSH = lst
	members := map[int32][]int{}
	for n := range keepers {
		members[roots[n]] = append(members[roots[n]], n)
	}
	repOf := make([]int, len(keepers)) // keeper position → representative position
	for _, ms := range members {
		best := ms[0] // keepers are in order of preference
		for _, n := range ms[1:] {
			best = min(best, n)
		}
		for _, n := range ms {
			repOf[n] = best
		}
		if len(ms) > 1 {
			st.NearClusters++
			st.NearDropped += len(ms) - 1
		}
	}
	st.Clusters = len(members)

	pos := make(map[int]int, len(keepers))
	for n, i := range keepers {
		pos[i] = n
	}
	out := make([]DedupEntry, len(items))
	size := map[int64]int{}
	for i, it := range items {
		n := pos[keeperOf[i]]
		rep := keepers[repOf[n]]
		e := DedupEntry{FunctionID: it.FunctionID, Cluster: items[rep].FunctionID, Similarity: 1, Rank: rank[i]}
		switch {
		case i == rep:
			e.Kind = DedupRepresentative
		case keeperOf[i] != i:
			e.Kind = DedupExact
			if keeperOf[i] != rep {
				e.Similarity = minhash.Jaccard(sets[n], sets[repOf[n]])
			}
		default:
			e.Kind = DedupNear
			e.Similarity = minhash.Jaccard(sets[n], sets[repOf[n]])
		}
		out[i] = e
		size[e.Cluster]++
	}
	for _, s := range size {
		st.Largest = max(st.Largest, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].FunctionID < out[j].FunctionID })
	return out, st
}
