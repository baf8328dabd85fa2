package retrieve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"sccg/llm"
)

// Embedder turns texts into vectors with a model; *llm.Client is one (its cache
// keeps every vector by model and text hash, so a rerun embeds nothing).
type Embedder interface {
	Embed(ctx context.Context, model string, texts []string) ([][]float32, error)
}

// Chatter answers chat requests; *llm.Client is one (its cache keeps every answer).
type Chatter interface {
	Chat(ctx context.Context, req llm.ChatRequest) (*llm.ChatResponse, error)
}

// ErrNeedsLLM is returned when a retriever or reranker that needs an LLM (chat or
// embeddings) is asked for without one.
var ErrNeedsLLM = errors.New("needs an LLM")

// Preparer is a retriever that can do work for many queries at once before they
// are asked one by one (Dense embeds them in batches). Evaluate calls Prepare when
// the retriever has it.
type Preparer interface {
	Prepare(ctx context.Context, queries []string) error
}

// Dense ranks documents by the cosine similarity of their embedding to the query's,
// both from an OpenAI-compatible /v1/embeddings model. Documents are embedded once,
// when it is made; queries as they come (or in batches by Prepare). It is safe for
// concurrent use.
type Dense struct {
	emb          Embedder
	model        string
	queryPrefix  string
	docPrefix    string
	vecs         [][]float32 // unit length, by document
	mu           sync.Mutex
	queryVectors map[string][]float32 // by prefixed text, unit length
}

// NewDense embeds every document of the corpus (Document.Text after o.DocPrefix)
// with o.Embedder and o.EmbedModel.
func NewDense(ctx context.Context, c *Corpus, o Options) (*Dense, error) {
	if o.Embedder == nil || o.EmbedModel == "" {
		return nil, fmt.Errorf("dense retrieval %w: an embeddings endpoint and model", ErrNeedsLLM)
	}
	texts := make([]string, len(c.Docs))
	for i := range c.Docs {
		texts[i] = o.DocPrefix + c.Docs[i].Text()
	}
	vecs, err := o.Embedder.Embed(ctx, o.EmbedModel, texts)
	if err != nil {
		return nil, fmt.Errorf("embed %d endpoint documents: %w", len(texts), err)
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("embed %d endpoint documents: %d vectors came back", len(texts), len(vecs))
	}
	for i := range vecs {
		vecs[i] = unit(vecs[i])
	}
	return &Dense{emb: o.Embedder, model: o.EmbedModel, queryPrefix: o.QueryPrefix, docPrefix: o.DocPrefix,
		vecs: vecs, queryVectors: map[string][]float32{}}, nil
}

// Prepare embeds the queries (after the query prefix) in batches.
func (d *Dense) Prepare(ctx context.Context, queries []string) error {
	return d.embed(ctx, d.queryPrefix, queries)
}

// embed embeds texts after prefix in one call of the Embedder, which sends them in
// batches, and keeps their vectors for search: the one way every dense search text
// (queries, HyDE's code, CAPIR's subtasks) is embedded ahead of its search.
func (d *Dense) embed(ctx context.Context, prefix string, texts []string) error {
	prefixed := make([]string, 0, len(texts))
	for _, t := range texts {
		prefixed = append(prefixed, prefix+t)
	}
	vecs, err := d.emb.Embed(ctx, d.model, prefixed)
	if err != nil {
		return fmt.Errorf("embed %d texts: %w", len(prefixed), err)
	}
	if len(vecs) != len(prefixed) {
		return fmt.Errorf("embed %d texts: %d vectors came back", len(prefixed), len(vecs))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for i, t := range prefixed {
		d.queryVectors[t] = unit(vecs[i])
	}
	return nil
}

// Retrieve returns the k documents most similar to the query (after the query
// prefix).
func (d *Dense) Retrieve(ctx context.Context, query string, k int) ([]Hit, error) {
	return d.search(ctx, d.queryPrefix+query, k)
}

// asDocument searches a Dense with texts embedded as documents are (after the
// document prefix): HyDE's hypothetical code.
type asDocument struct{ d *Dense }

// Retrieve ranks documents by similarity to text embedded as a document.
func (a asDocument) Retrieve(ctx context.Context, text string, k int) ([]Hit, error) {
	return a.d.search(ctx, a.d.docPrefix+text, k)
}

// Prepare embeds texts as documents, in batches.
func (a asDocument) Prepare(ctx context.Context, texts []string) error {
	return a.d.embed(ctx, a.d.docPrefix, texts)
}

func (d *Dense) search(ctx context.Context, text string, k int) ([]Hit, error) {
	q, err := d.vector(ctx, text)
	if err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, nil
	}
	top := newTopK(k)
	for i, v := range d.vecs {
		if len(v) != len(q) {
			return nil, fmt.Errorf("dense retrieval: query vector has %d dimensions, documents %d", len(q), len(v))
		}
		top.push(Hit{Doc: i, Score: dot(q, v)})
	}
	return top.sorted(), nil
}

func (d *Dense) vector(ctx context.Context, text string) ([]float32, error) {
	d.mu.Lock()
	v, ok := d.queryVectors[text]
	d.mu.Unlock()
	if ok {
		return v, nil
	}
	vecs, err := d.emb.Embed(ctx, d.model, []string{text})
	if err != nil {
		return nil, fmt.Errorf("embed query: %w", err)
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("embed query: %d vectors came back", len(vecs))
	}
	v = unit(vecs[0])
	d.mu.Lock()
	d.queryVectors[text] = v
	d.mu.Unlock()
	return v, nil
}

// unit scales v to length 1 (a zero vector stays zero).
func unit(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	s := 1 / math.Sqrt(n)
	for i, x := range v {
		out[i] = float32(float64(x) * s)
	}
	return out
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// Fusion merges the rankings of several retrievers by reciprocal-rank fusion: a
// document's score is Σ 1/(K + rank) over the rankings it is in (rank from 1), each
// ranking cut at Depth (at least the k asked for).
type Fusion struct {
	Parts []Retriever
	K     int // default 60
	Depth int // default 100
}

// Retrieve returns the k documents with the highest fused score; ties go to corpus
// order.
func (f *Fusion) Retrieve(ctx context.Context, query string, k int) ([]Hit, error) {
	rk := f.K
	if rk <= 0 {
		rk = 60
	}
	depth := f.Depth
	if depth <= 0 {
		depth = 100
	}
	depth = max(depth, k)
	var lists [][]Hit
	for _, p := range f.Parts {
		hs, err := p.Retrieve(ctx, query, depth)
		if err != nil {
			return nil, err
		}
		lists = append(lists, hs)
	}
	return fuse(lists, rk, k), nil
}

// Prepare prepares every part that can be.
func (f *Fusion) Prepare(ctx context.Context, queries []string) error {
	for _, p := range f.Parts {
		if pp, ok := p.(Preparer); ok {
			if err := pp.Prepare(ctx, queries); err != nil {
				return err
			}
		}
	}
	return nil
}

// fuse is reciprocal-rank fusion of rankings, cut at k.
func fuse(lists [][]Hit, rk, k int) []Hit {
	scores := map[int]float64{}
	var order []int
	for _, hs := range lists {
		for r, h := range hs {
			if _, seen := scores[h.Doc]; !seen {
				order = append(order, h.Doc)
			}
			scores[h.Doc] += 1 / float64(rk+r+1)
		}
	}
	top := newTopK(k)
	for _, d := range order {
		top.push(Hit{Doc: d, Score: scores[d]})
	}
	return top.sorted()
}
