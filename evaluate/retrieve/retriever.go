package retrieve

import (
	"cmp"
	"container/heap"
	"context"
	"errors"
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
	NameBM25   = "bm25"   // Okapi BM25 over the API-aware tokens
	NameDense  = "dense"  // cosine similarity of embeddings
	NameHybrid = "hybrid" // reciprocal-rank fusion of bm25 and dense
	NameHyDE   = "hyde"   // hypothetical request code, searched instead of the intent
	NameCAPIR  = "capir"  // decompose, retrieve per subtask, LLM rerank
)

// Names lists the retrievers New builds.
var Names = []string{NameBM25, NameLearned, NameDense, NameHybrid, NameHyDE, NameCAPIR}

// Options configure the retrievers New builds. The LLM-backed ones need Embedder
// (dense, hybrid) or Chat (hyde, capir, Rerank); *llm.Client is both.
type Options struct {
	BM25 BM25Options

	// Ranker is the trained model of the learned retriever (TrainStored,
	// StoredRanker).
	Ranker *RankerModel

	Embedder   Embedder
	EmbedModel string
	// QueryPrefix is put before each query before it is embedded, DocPrefix before
	// each document: bge-style models want "Represent this sentence for searching
	// relevant passages: " on queries, e5-style ones "query: " and "passage: ".
	QueryPrefix, DocPrefix string

	Chat      Chatter
	ChatModel string // empty: the client's model

	// RRFK is the reciprocal-rank-fusion constant of hybrid, hyde and capir;
	// default 60.
	RRFK int
	// PerTask is how many documents capir retrieves per subtask; default 10.
	PerTask int
	// Candidates is how many documents capir and Rerank show the LLM; default 20.
	Candidates int
}

// ErrNeedsRanker is New's error for the learned retriever without a model.
var ErrNeedsRanker = errors.New("needs a trained ranker: train one on a benchmark's samples (--train FILE), or name one the store holds")

// New builds the retriever called name over the corpus. One that needs an LLM the
// options lack returns an error wrapping ErrNeedsLLM.
func New(ctx context.Context, name string, c *Corpus, o Options) (Retriever, error) {
	needChat := func() error {
		if o.Chat == nil {
			return fmt.Errorf("%s %w: a chat model", name, ErrNeedsLLM)
		}
		return nil
	}
	switch name {
	case NameBM25:
		return NewBM25(c, o.BM25), nil
	case NameLearned:
		if o.Ranker == nil {
			return nil, fmt.Errorf("%s %w", name, ErrNeedsRanker)
		}
		return NewLearned(c, o.Ranker)
	case NameDense:
		return NewDense(ctx, c, o)
	case NameHybrid:
		d, err := NewDense(ctx, c, o)
		if err != nil {
			return nil, err
		}
		return &Fusion{Parts: []Retriever{NewBM25(c, o.BM25), d}, K: o.RRFK}, nil
	case NameHyDE:
		if err := needChat(); err != nil {
			return nil, err
		}
		var search Retriever = NewBM25(c, o.BM25)
		if o.Embedder != nil && o.EmbedModel != "" {
			d, err := NewDense(ctx, c, o)
			if err != nil {
				return nil, err
			}
			search = &Fusion{Parts: []Retriever{search, asDocument{d}}, K: o.RRFK}
		}
		return &HyDE{Chat: o.Chat, Model: o.ChatModel, Search: search}, nil
	case NameCAPIR:
		if err := needChat(); err != nil {
			return nil, err
		}
		var base Retriever = NewBM25(c, o.BM25)
		if o.Embedder != nil && o.EmbedModel != "" {
			d, err := NewDense(ctx, c, o)
			if err != nil {
				return nil, err
			}
			base = &Fusion{Parts: []Retriever{base, d}, K: o.RRFK}
		}
		return &CAPIR{Chat: o.Chat, Model: o.ChatModel, Corpus: c, Base: base, PerTask: o.PerTask, Candidates: o.Candidates}, nil
	}
	return nil, fmt.Errorf("unknown retriever %q (known: %s)", name, strings.Join(Names, ", "))
}

// Rerank wraps a retriever so that an LLM reorders its first o.Candidates hits.
func Rerank(base Retriever, c *Corpus, o Options) (Retriever, error) {
	if o.Chat == nil {
		return nil, fmt.Errorf("rerank %w: a chat model", ErrNeedsLLM)
	}
	return &Reranker{Chat: o.Chat, Model: o.ChatModel, Corpus: c, Base: base, Depth: o.Candidates}, nil
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
