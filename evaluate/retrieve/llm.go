package retrieve

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"sccg/evaluate/answer"
	"sccg/internal/workpool"
	"sccg/lang"
	"sccg/llm"
)

// The prompts of the LLM steps. Every request is greedy (temperature 0), so the
// client's cache answers a rerun.
const (
	hydeSystem = "You are a Python developer. Write the Python function that does what the task asks by " +
		"calling a web API over HTTP with the requests library: put the full URL with the API's host and " +
		"route, the HTTP method and the query or body parameters in the code. Answer with the code only."
	decomposeSystem = "You break a programming task that calls web APIs into subtasks. Each subtask is one " +
		"thing the code has to ask a web API for, in a few words. Answer with one subtask per line, at " +
		"most five lines, nothing else."
	selectSystem = "You pick the web API endpoints a programming task needs from a numbered list of " +
		"candidates. Answer with the numbers of the endpoints that serve the task, most useful first, " +
		"separated by commas, and nothing else; answer none when no candidate serves it."
	orderSystem = "You rank web API endpoints by how well they serve a programming task. Answer with the " +
		"numbers of all the candidates, best first, separated by commas, and nothing else."
)

// chat asks one greedy question and returns the first completion's text.
func chat(ctx context.Context, c Chatter, model, system, user string, maxTokens int) (string, error) {
	resp, err := c.Chat(ctx, llm.ChatRequest{Model: model, Messages: []llm.Message{llm.System(system), llm.User(user)},
		Temperature: llm.Float(0), MaxTokens: maxTokens})
	if err != nil {
		return "", err
	}
	return resp.Text(), nil
}

// HyDE retrieves with hypothetical code instead of the intent (DeepCodeSeek's code
// expansion): an LLM writes the request code the intent asks for, and that code is
// searched for — embedded as a document is and fused with BM25 over it when an
// embeddings model is configured, BM25 alone otherwise. An empty answer falls back
// to the intent.
type HyDE struct {
	Chat  Chatter
	Model string
	// Search ranks the documents for the code; when it is a Preparer, Prepare hands
	// it every query's code at once (so their embeddings go in batches).
	Search Retriever
	Fallbacks
	expanded memo[expansion]
}

// expansion is what HyDE searches for one intent.
type expansion struct {
	text     string
	fellBack bool // the answer held no code: text is the intent
}

// Retrieve implements Retriever.
func (h *HyDE) Retrieve(ctx context.Context, query string, k int) ([]Hit, error) {
	e, err := h.expanded.get(ctx, query, h.expand)
	if err != nil {
		return nil, err
	}
	if e.fellBack {
		h.add(FallbackHyDENoCode)
	}
	return h.Search.Retrieve(ctx, e.text, k)
}

// Prepare asks for the code of every query, several at once, and prepares Search
// with them.
func (h *HyDE) Prepare(ctx context.Context, queries []string) error {
	es, err := h.expanded.all(ctx, queries, h.expand)
	if err != nil {
		return err
	}
	p, ok := h.Search.(Preparer)
	if !ok {
		return nil
	}
	texts := make([]string, len(es))
	for i, e := range es {
		texts[i] = e.text
	}
	return p.Prepare(ctx, texts)
}

// expand is the hypothetical code for an intent (the code blocks of the answer), or
// the intent itself when the answer holds none.
func (h *HyDE) expand(ctx context.Context, query string) (expansion, error) {
	ans, err := chat(ctx, h.Chat, h.Model, hydeSystem, "Task: "+query, 768)
	if err != nil {
		return expansion{}, fmt.Errorf("hyde: %w", err)
	}
	a := answer.Extract(ans, "", lang.Python)
	code := strings.TrimSpace(a.Text)
	if code == "" || a.Form == answer.FormNone {
		return expansion{text: query, fellBack: true}, nil
	}
	return expansion{text: code}, nil
}

// CAPIR is CAPIR's decomposer–retriever–reranker: an LLM splits the intent into
// subtasks, each subtask (and the intent) is retrieved with Base, the rankings are
// fused (reciprocal rank), and an LLM keeps, from the first Candidates of them, the
// endpoints that serve the task, in its order. An answer naming no candidate number
// (garbage) keeps the fused order; "none" keeps nothing.
type CAPIR struct {
	Chat   Chatter
	Model  string
	Corpus *Corpus
	// Base retrieves for the intent and each subtask; when it is a Preparer,
	// Prepare hands it every query and subtask at once.
	Base       Retriever
	PerTask    int // documents retrieved per subtask; default 10
	Candidates int // fused candidates shown to the reranker; default 20
	Fallbacks
	subtasks memo[[]string]
}

// Prepare decomposes every query, several at once, and prepares Base with the
// queries and all their subtasks.
func (c *CAPIR) Prepare(ctx context.Context, queries []string) error {
	subs, err := c.subtasks.all(ctx, queries, c.decompose)
	if err != nil {
		return err
	}
	p, ok := c.Base.(Preparer)
	if !ok {
		return nil
	}
	texts := slices.Clone(queries)
	for _, s := range subs {
		texts = append(texts, s...)
	}
	return p.Prepare(ctx, texts)
}

// Retrieve implements Retriever.
func (c *CAPIR) Retrieve(ctx context.Context, query string, k int) ([]Hit, error) {
	subs, err := c.subtasks.get(ctx, query, c.decompose)
	if err != nil {
		return nil, err
	}
	if len(subs) == 0 {
		c.add(FallbackNoSubtasks)
	}
	per := c.PerTask
	if per <= 0 {
		per = 10
	}
	var lists [][]Hit
	for _, s := range append([]string{query}, subs...) {
		hs, err := c.Base.Retrieve(ctx, s, per)
		if err != nil {
			return nil, err
		}
		lists = append(lists, hs)
	}
	n := c.Candidates
	if n <= 0 {
		n = 20
	}
	cands := fuse(lists, 60, n)
	if len(cands) == 0 {
		return nil, nil
	}
	var b strings.Builder
	b.WriteString("Task: " + query + "\n\nSubtasks:\n")
	for _, s := range subs {
		b.WriteString("- " + s + "\n")
	}
	b.WriteString("\nCandidate endpoints:\n")
	writeCandidates(&b, c.Corpus, cands)
	ans, err := chat(ctx, c.Chat, c.Model, selectSystem, b.String(), 128)
	if err != nil {
		return nil, fmt.Errorf("capir rerank: %w", err)
	}
	picked := candidateNumbers(ans, len(cands))
	switch {
	case len(picked) == 0 && isNone(ans):
		return nil, nil
	case len(picked) == 0:
		c.add(FallbackCAPIRNoCandidate)
		return cands[:min(k, len(cands))], nil
	}
	out := make([]Hit, 0, min(k, len(picked)))
	for i, p := range picked {
		if i == k {
			break
		}
		out = append(out, Hit{Doc: cands[p].Doc, Score: float64(len(picked) - i)})
	}
	return out, nil
}

// decompose is the LLM's subtasks of an intent, one per answer line (bullets and
// numbering dropped, at most eight).
func (c *CAPIR) decompose(ctx context.Context, query string) ([]string, error) {
	ans, err := chat(ctx, c.Chat, c.Model, decomposeSystem, "Task: "+query, 256)
	if err != nil {
		return nil, fmt.Errorf("capir decompose: %w", err)
	}
	text, _ := answer.WithoutReasoning(ans)
	lines, ok := jsonList(text)
	if !ok {
		lines = strings.Split(text, "\n")
	}
	var out []string
	for _, line := range lines {
		line = strings.TrimSpace(bulletRE.ReplaceAllString(strings.TrimSpace(line), ""))
		if line != "" && !strings.HasPrefix(line, "```") && !strings.ContainsAny(line[:1], "{}[]") && len(out) < 8 {
			out = append(out, line)
		}
	}
	return out, nil
}

// bulletRE is a list marker at the start of a line: "-", "*", "•", "1.", "2)".
var bulletRE = regexp.MustCompile(`^(?:[-*•]+|\d+[.)])\s*`)

// Reranker has an LLM reorder the first Depth documents of Base's ranking (the rest
// keep their order after them). Candidates the answer does not name follow those
// it names, in Base's order, so nothing is lost to a short or garbled answer.
type Reranker struct {
	Chat   Chatter
	Model  string
	Corpus *Corpus
	Base   Retriever
	Depth  int // default 20
	Fallbacks
}

// Retrieve implements Retriever.
func (r *Reranker) Retrieve(ctx context.Context, query string, k int) ([]Hit, error) {
	depth := r.Depth
	if depth <= 0 {
		depth = 20
	}
	hits, err := r.Base.Retrieve(ctx, query, max(k, depth))
	if err != nil {
		return nil, err
	}
	n := min(depth, len(hits))
	if n < 2 {
		return hits[:min(k, len(hits))], nil
	}
	var b strings.Builder
	b.WriteString("Task: " + query + "\n\nCandidate endpoints:\n")
	writeCandidates(&b, r.Corpus, hits[:n])
	ans, err := chat(ctx, r.Chat, r.Model, orderSystem, b.String(), 256)
	if err != nil {
		return nil, fmt.Errorf("rerank: %w", err)
	}
	order := candidateNumbers(ans, n)
	if len(order) == 0 {
		r.add(FallbackRerankNoRanking)
	}
	named := make([]bool, n)
	for _, i := range order {
		named[i] = true
	}
	for i := range n {
		if !named[i] {
			order = append(order, i)
		}
	}
	out := make([]Hit, 0, len(hits))
	for j, i := range order {
		out = append(out, Hit{Doc: hits[i].Doc, Score: float64(len(hits) - j)})
	}
	for j, h := range hits[n:] {
		out = append(out, Hit{Doc: h.Doc, Score: float64(len(hits) - n - j)})
	}
	return out[:min(k, len(out))], nil
}

// Prepare prepares the base retriever when it can be.
func (r *Reranker) Prepare(ctx context.Context, queries []string) error {
	if p, ok := r.Base.(Preparer); ok {
		return p.Prepare(ctx, queries)
	}
	return nil
}

func writeCandidates(b *strings.Builder, c *Corpus, hits []Hit) {
	for i, h := range hits {
		fmt.Fprintf(b, "[%d] %s\n", i+1, c.Docs[h.Doc].Summary())
	}
}

var numberRE = regexp.MustCompile(`\d+`)

// candidateNumbers reads the candidate numbers (1-based) an answer names, in order,
// each once, as 0-based indices below n.
func candidateNumbers(ans string, n int) []int {
	var out []int
	seen := map[int]bool{}
	for _, m := range numberRE.FindAllString(ans, -1) {
		v, err := strconv.Atoi(m)
		if err != nil || v < 1 || v > n || seen[v] {
			continue
		}
		seen[v] = true
		out = append(out, v-1)
	}
	return out
}

func isNone(ans string) bool {
	a := strings.ToLower(strings.Trim(strings.TrimSpace(ans), ".!\"'`"))
	return a == "none" || a == "no"
}

// memo keeps an LLM step's outcome per query: Prepare asks for every query at
// once, Retrieve takes what it got (or asks, for a query not prepared). Fallbacks
// are counted where the outcome is used, once per retrieval, not here.
type memo[T any] struct {
	mu sync.Mutex
	m  map[string]T
}

// get is the outcome for q, asked for when there is none yet.
func (m *memo[T]) get(ctx context.Context, q string, ask func(context.Context, string) (T, error)) (T, error) {
	m.mu.Lock()
	v, ok := m.m[q]
	m.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := ask(ctx, q)
	if err != nil {
		return v, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string]T{}
	}
	m.m[q] = v
	return v, nil
}

// all is the outcome for every distinct query, in their first order, asked for
// GOMAXPROCS at a time.
func (m *memo[T]) all(ctx context.Context, qs []string, ask func(context.Context, string) (T, error)) ([]T, error) {
	var uniq []string
	seen := map[string]bool{}
	for _, q := range qs {
		if !seen[q] {
			seen[q] = true
			uniq = append(uniq, q)
		}
	}
	out := make([]T, len(uniq))
	err := workpool.ForEach(ctx, 0, len(uniq), func(i int) error {
		v, err := m.get(ctx, uniq[i], ask)
		out[i] = v
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
