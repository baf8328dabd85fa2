package retrieve

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"slices"
	"strings"
)

// Hit is one retrieved document: its index in the corpus and its score (higher is
// better; scores of different retrievers are not comparable).
type Hit struct {
	Doc   int     `json:"doc"`
	Score float64 `json:"score"`
}

// Retriever returns the k documents of its corpus that best answer a query, best
// first. It may return fewer (none match, or a reranker kept fewer). Every
// retriever here is safe for concurrent use.
type Retriever interface {
	Retrieve(ctx context.Context, query string, k int) ([]Hit, error)
}

// Retriever names, for New and --retriever.
const (
	NameBM25 = "bm25"
)

// Names lists the retrievers New builds.
var Names = []string{NameBM25}

// Options configure the retrievers New builds.
type Options struct {
	BM25 BM25Options
}

// New builds the retriever called name over the corpus.
func New(ctx context.Context, name string, c *Corpus, o Options) (Retriever, error) {
	switch name {
	case NameBM25:
		return NewBM25(c, o.BM25), nil
	}
	return nil, fmt.Errorf("unknown retriever %q (known: %s)", name, strings.Join(Names, ", "))
}

// topK keeps the k best hits seen: highest score first, then lowest corpus index.
type topK struct {
	k int
	h hitHeap
}

func newTopK(k int) *topK { return &topK{k: k} }

func (t *topK) push(h Hit) {
	if len(t.h) < t.k {
		heap.Push(&t.h, h)
		return
	}
	if better(h, t.h[0]) {
		t.h[0] = h
		heap.Fix(&t.h, 0)
	}
}

// sorted returns the kept hits, best first.
func (t *topK) sorted() []Hit {
	out := slices.Clone([]Hit(t.h))
	sortHits(out)
	return out
}

// better orders hits: higher score, then lower corpus index.
func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Doc < b.Doc
}

func sortHits(hs []Hit) {
	slices.SortFunc(hs, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Doc, b.Doc)
	})
}

// hitHeap is a min-heap by better: its root is the worst kept hit.
type hitHeap []Hit

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(Hit)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
