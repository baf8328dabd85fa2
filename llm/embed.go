package llm

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// Embed returns one vector per text, in order, embedded by model (empty means the
// Client's Config.EmbedModel). Texts with a cached vector are not sent; the rest go
// in batches of Config.EmbedBatch, several at once within the concurrency limit, and
// each batch is cached as soon as it arrives, so a cancelled run keeps what it got.
// A text that occurs twice is sent once.
func (c *Client) Embed(ctx context.Context, model string, texts []string) ([][]float32, error) {
	if model == "" {
		model = c.cfg.EmbedModel
	}
	out, err := c.embedAll(ctx, model, texts)
	if err != nil {
		if ctx.Err() == nil {
			c.failures.Add(1)
		}
		return nil, fmt.Errorf("llm embed %d text(s) with %s: %w", len(texts), model, c.unknownModel(ctx, err, model))
	}
	return out, nil
}

func (c *Client) embedAll(ctx context.Context, model string, texts []string) ([][]float32, error) {
	if model == "" {
		return nil, errors.New("no model: pass one or set Config.EmbedModel")
	}
	out := make([][]float32, len(texts))
	if len(texts) == 0 {
		return out, nil
	}
	where := map[string][]int{} // text → its positions
	var uniq []string
	for i, t := range texts {
		if _, ok := where[t]; !ok {
			uniq = append(uniq, t)
		}
		where[t] = append(where[t], i)
	}
	set := func(t string, v []float32) {
		for _, i := range where[t] {
			out[i] = v
		}
	}
	missing := uniq
	if c.cache != nil {
		hashes := make([]string, len(uniq))
		for i, t := range uniq {
			hashes[i] = TextHash(t)
		}
		got, err := c.cache.GetEmbeddings(ctx, model, hashes)
		if err != nil {
			return nil, fmt.Errorf("read cache: %w", err)
		}
		missing = nil
		for i, t := range uniq {
			if v, ok := got[hashes[i]]; ok {
				set(t, v)
				c.cacheHits.Add(1)
			} else {
				missing = append(missing, t)
			}
		}
	}
	if err := c.embedMissing(ctx, model, missing, set); err != nil {
		return nil, err
	}
	for i := range out {
		if len(out[i]) != len(out[0]) {
			return nil, fmt.Errorf("vectors of different lengths: %d for text 0, %d for text %d", len(out[0]), len(out[i]), i)
		}
	}
	return out, nil
}

// embedMissing sends texts in batches with up to Concurrency batches at once and
// hands each vector to set. The first failure stops the rest.
func (c *Client) embedMissing(ctx context.Context, model string, texts []string, set func(string, []float32)) error {
	var batches [][]string
	for len(texts) > 0 {
		n := min(c.cfg.EmbedBatch, len(texts))
		batches = append(batches, texts[:n])
		texts = texts[n:]
	}
	if len(batches) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
		work  = make(chan []string)
	)
	for range min(c.cfg.Concurrency, len(batches)) {
		wg.Go(func() {
			for b := range work {
				vecs, err := c.embedBatch(ctx, model, b)
				mu.Lock()
				if err != nil && first == nil {
					first = err
					cancel()
				}
				if err == nil {
					for i, t := range b {
						set(t, vecs[i])
					}
				}
				mu.Unlock()
			}
		})
	}
feed:
	for _, b := range batches {
		select {
		case work <- b:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// embedBatch sends one embeddings request and caches its vectors.
func (c *Client) embedBatch(ctx context.Context, model string, texts []string) ([][]float32, error) {
	params := openai.EmbeddingNewParams{
		Model:          model,
		Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: texts},
		EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
	}
	var out *openai.CreateEmbeddingResponse
	err := c.do(ctx, "embeddings", func(ctx context.Context, mw option.RequestOption) error {
		r, err := c.embed.New(ctx, params, mw)
		out = r
		return err
	})
	if err != nil {
		return nil, err
	}
	c.promptTokens.Add(out.Usage.PromptTokens)
	bad := func(format string, args ...any) error {
		return &ResponseError{Endpoint: c.endpoint("embeddings"), Status: 200, Err: fmt.Errorf(format, args...)}
	}
	if len(out.Data) != len(texts) {
		return nil, bad("%d vectors for %d texts", len(out.Data), len(texts))
	}
	vecs := make([][]float32, len(texts))
	for _, d := range out.Data {
		i := int(d.Index)
		if i < 0 || i >= len(texts) || vecs[i] != nil {
			return nil, bad("vector index %d out of range or repeated", d.Index)
		}
		if len(d.Embedding) == 0 {
			return nil, bad("empty vector for text %d", i)
		}
		v := make([]float32, len(d.Embedding))
		for j, x := range d.Embedding {
			v[j] = float32(x)
		}
		vecs[i] = v
	}
	if c.cache != nil {
		m := make(map[string][]float32, len(texts))
		for i, t := range texts {
			m[TextHash(t)] = vecs[i]
		}
		if err := c.cache.PutEmbeddings(context.WithoutCancel(ctx), model, m); err != nil {
			return nil, fmt.Errorf("write cache: %w", err)
		}
	}
	return vecs, nil
}
