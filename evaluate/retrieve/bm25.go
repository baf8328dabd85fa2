package retrieve

import (
	"cmp"
	"context"
	"math"
	"slices"
	"sync"
)

// BM25Options are the Okapi BM25 parameters.
type BM25Options struct {
	K1 float64 // term-frequency saturation; default 1.2
	B  float64 // length normalization, 0–1; default 0.75
}

func (o BM25Options) withDefaults() BM25Options {
	if o.K1 <= 0 {
		o.K1 = 1.2
	}
	if o.B < 0 {
		o.B = 0
	}
	if o.B > 1 {
		o.B = 1
	}
	return o
}

// DefaultBM25 are the usual Okapi parameters, k1 = 1.2 and b = 0.75.
var DefaultBM25 = BM25Options{K1: 1.2, B: 0.75}

// BM25 is an in-memory Okapi BM25 index over a corpus's documents (Document.Text,
// cut into terms by Tokenize). A document's score for a query is
//
//	Σ_t qtf(t) · idf(t) · tf(t,d)·(k1+1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl))
//
// with idf(t) = ln(1 + (N − df(t) + 0.5)/(df(t) + 0.5)), which is never negative.
// Only documents sharing a term with the query are returned; equal scores are
// ordered by corpus order. It is safe for concurrent use.
type BM25 struct {
	opts     BM25Options
	terms    map[string]int32
	postings [][]posting // by term
	idf      []float64   // by term
	norm     []float64   // by document: k1·(1 − b + b·|d|/avgdl)
	pool     sync.Pool   // *accumulator
}

// accumulator is one query's scratch space: a score per document (all zero between
// queries) and the documents given one.
type accumulator struct {
	scores  []float64
	touched []int32
}

type posting struct {
	doc int32
	tf  float32
}

// NewBM25 indexes the corpus.
func NewBM25(c *Corpus, o BM25Options) *BM25 {
	docs := make([][]string, len(c.Docs))
	for i := range c.Docs {
		docs[i] = Tokenize(c.Docs[i].Text())
	}
	return newBM25(docs, o)
}

// NewTextIndex indexes arbitrary texts (cut by Tokenize) instead of a corpus's
// endpoint documents; a Hit's Doc is then the index of its text. The
// bm25-nearest-train baseline searches the train split's intents with it.
func NewTextIndex(texts []string, o BM25Options) *BM25 {
	docs := make([][]string, len(texts))
	for i, t := range texts {
		docs[i] = Tokenize(t)
	}
	return newBM25(docs, o)
}

// newBM25 indexes documents given as their terms.
func newBM25(docs [][]string, o BM25Options) *BM25 {
	o = o.withDefaults()
	ix := &BM25{opts: o, terms: map[string]int32{}, norm: make([]float64, len(docs))}
	total := 0
	counts := map[int32]float32{}
	for di, toks := range docs {
		total += len(toks)
		clear(counts)
		for _, t := range toks {
			id, ok := ix.terms[t]
			if !ok {
				id = int32(len(ix.postings))
				ix.terms[t] = id
				ix.postings = append(ix.postings, nil)
			}
			counts[id]++
		}
		for id, tf := range counts {
			ix.postings[id] = append(ix.postings[id], posting{doc: int32(di), tf: tf})
		}
	}
	n := float64(len(docs))
	ix.idf = make([]float64, len(ix.postings))
	for id, ps := range ix.postings {
		df := float64(len(ps))
		ix.idf[id] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	avg := 1.0
	if total > 0 {
		avg = float64(total) / n
	}
	for di, toks := range docs {
		ix.norm[di] = o.K1 * (1 - o.B + o.B*float64(len(toks))/avg)
	}
	ix.pool.New = func() any { return &accumulator{scores: make([]float64, len(docs))} }
	return ix
}

// Retrieve returns the k best documents for the query.
func (ix *BM25) Retrieve(ctx context.Context, query string, k int) ([]Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return ix.search(Tokenize(query), k), nil
}

// queryTerms are the ids of the query's terms the index knows, in term-id order
// with repeats: a fixed order of additions makes equal inputs give bit-equal
// scores.
func (ix *BM25) queryTerms(toks []string) []int32 {
	var ids []int32
	for _, t := range toks {
		if id, ok := ix.terms[t]; ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// scoreAll writes every document's score for the query's terms into out (one
// entry per document): zero for a document that shares no term with it.
func (ix *BM25) scoreAll(toks []string, out []float64) { ix.scoreWeighted(toks, nil, out) }

// scoreWeighted is scoreAll with each query term counted weight[t] times (1 for
// a term weight does not hold) instead of once.
func (ix *BM25) scoreWeighted(toks []string, weight map[string]float64, out []float64) {
	clear(out)
	type term struct {
		id int32
		w  float64
	}
	var ts []term
	for _, t := range toks {
		if id, ok := ix.terms[t]; ok {
			w, ok := weight[t]
			if !ok {
				w = 1
			}
			ts = append(ts, term{id, w})
		}
	}
	slices.SortStableFunc(ts, func(a, b term) int { return cmp.Compare(a.id, b.id) })
	k1 := ix.opts.K1
	for n := 0; n < len(ts); {
		id, w := ts[n].id, 0.0
		for ; n < len(ts) && ts[n].id == id; n++ {
			w += ts[n].w
		}
		idf := ix.idf[id] * w
		for _, p := range ix.postings[id] {
			tf := float64(p.tf)
			out[p.doc] += idf * tf * (k1 + 1) / (tf + ix.norm[p.doc])
		}
	}
}

// idfOf is the idf of a term, 0 when the index does not know it.
func (ix *BM25) idfOf(t string) float64 {
	if id, ok := ix.terms[t]; ok {
		return ix.idf[id]
	}
	return 0
}

func (ix *BM25) search(toks []string, k int) []Hit {
	if k <= 0 || len(toks) == 0 {
		return nil
	}
	ids := ix.queryTerms(toks)
	if len(ids) == 0 {
		return nil
	}
	acc := ix.pool.Get().(*accumulator)
	scores, touched := acc.scores, acc.touched[:0]
	k1 := ix.opts.K1
	for n := 0; n < len(ids); {
		id, w := ids[n], 0.0
		for ; n < len(ids) && ids[n] == id; n++ {
			w++
		}
		idf := ix.idf[id] * w
		for _, p := range ix.postings[id] {
			tf := float64(p.tf)
			if scores[p.doc] == 0 {
				touched = append(touched, p.doc)
			}
			scores[p.doc] += idf * tf * (k1 + 1) / (tf + ix.norm[p.doc])
		}
	}
	top := newTopK(k)
	for _, d := range touched {
		top.push(Hit{Doc: int(d), Score: scores[d]})
		scores[d] = 0
	}
	acc.touched = touched
	ix.pool.Put(acc)
	return top.sorted()
}
