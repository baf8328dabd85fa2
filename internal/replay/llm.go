package replay

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode"
)

// LLMAnswer is one scripted answer of the LLM replay server. The zero value is a
// clean chat answer with empty content.
type LLMAnswer struct {
	// Content is the completion's text (chat only).
	Content string
	// FinishReason is the choice's finish_reason; empty means "stop".
	FinishReason string
	// Reasoning is sent as the message's reasoning_content, beside Content, as
	// DeepSeek, vLLM and llama.cpp send a reasoning model's thoughts.
	Reasoning string
	// Status, when neither 0 nor 200, answers with that HTTP status and an
	// OpenAI-style error object.
	Status int
	// RetryAfter is sent as the Retry-After header: delay-seconds or an HTTP date.
	RetryAfter string
	// Message is the error object's message (Status answers only).
	Message string
	// Delay holds the answer back this long, or until the client gives up (the
	// request is then logged with 504).
	Delay time.Duration
	// Body, when set, is sent verbatim as the body (with Status, or 200): garbage
	// that is not the protocol's JSON.
	Body string

	pass bool
}

// Answer is a clean chat answer with the given text. Answer("") is an empty one.
func Answer(text string) LLMAnswer { return LLMAnswer{Content: text} }

// Think is a reasoning model's answer: its thoughts in a <think> block, then
// content (bare or fenced), as Ollama and vLLM without a reasoning parser send it.
func Think(thoughts, content string) LLMAnswer {
	return Answer("<think>\n" + thoughts + "\n</think>\n\n" + content)
}

// Reasoned is a reasoning model's answer whose thoughts come in the
// reasoning_content field beside content.
func Reasoned(thoughts, content string) LLMAnswer {
	return LLMAnswer{Content: content, Reasoning: thoughts}
}

// Truncated is an answer cut off at the token limit: finish_reason "length".
func Truncated(content string) LLMAnswer {
	return LLMAnswer{Content: content, FinishReason: "length"}
}

// Fail is an error answer with the given status; retryAfter, when not empty, is
// sent as Retry-After.
func Fail(status int, retryAfter string) LLMAnswer {
	return LLMAnswer{Status: status, RetryAfter: retryAfter}
}

// Slow is a, held back by d: longer than the client's timeout, it is a timeout.
func Slow(d time.Duration, a LLMAnswer) LLMAnswer {
	a.Delay = d
	return a
}

// Garbage answers 200 with body sent verbatim instead of the protocol's JSON.
func Garbage(body string) LLMAnswer { return LLMAnswer{Body: body} }

// Pass answers as if the rule it is in did not exist: the next matching rule, the
// default, or (for embeddings) the vectors. A sequence [Fail(500, ""), Pass()]
// fails once and then answers normally.
func Pass() LLMAnswer { return LLMAnswer{pass: true} }

// CodeAnswer is garbage for a step that wants prose: a fenced Python function.
func CodeAnswer() LLMAnswer {
	return Answer("```python\nimport requests\n\ndef get_weather(city):\n    return requests.get(\"https://weatherapi-com.p.rapidapi.com/current.json\", params={\"q\": city}).json()\n```")
}

// LongAnswer is a clean answer of size bytes of prose, e.g. 10<<10 for a 10 kB one.
func LongAnswer(size int) LLMAnswer {
	const s = "This answer goes on and on about nothing in particular. "
	return Answer(strings.Repeat(s, size/len(s)+1)[:size])
}

// LLMOptions configures the LLM replay server.
type LLMOptions struct {
	// APIKey, when set, is the only bearer token accepted. Other requests get a 401
	// whose message repeats the token they sent, as some servers do, so tests can
	// prove a client keeps it out of its errors.
	APIKey string
	// Dims is the length of the default embedding vectors; 0 means 64.
	Dims int
	// Models are listed by GET /v1/models; nil means replay-chat and replay-embed.
	Models []string
	// OnlyModels makes chat and embeddings requests for a model not in Models
	// fail with 404 model_not_found, as OpenAI, vLLM and Ollama answer them.
	OnlyModels bool
}

// LLM is an OpenAI-compatible replay server handler:
//
//	POST /v1/chat/completions   scripted answers (On, Default), usage counts
//	POST /v1/embeddings         scripted vectors (Vector), else BagOfWords
//	GET  /v1/models             the configured models
//
// Answers are scripted per prompt substring; a rule's answers are served in order
// to successive calls of the same prompt, the last one repeating. Scripting is safe
// while the server runs.
type LLM struct {
	opts LLMOptions

	mu         sync.Mutex
	cond       *sync.Cond
	chat       []*llmRule
	def        *llmRule
	embed      []*llmRule
	vectors    map[string][]float32
	ids        int
	inflight   int
	maxFlight  int
	gate       int // hold requests until this many are in flight …
	gateTotal  int // … or this many have arrived
	gateArrive int
}

// llmRule is a list of answers for the requests whose prompt holds match.
type llmRule struct {
	match   string
	answers []LLMAnswer
	served  map[string]int // prompt → answers served so far
}

// next is the rule's answer for prompt, advancing its sequence.
func (r *llmRule) next(prompt string) LLMAnswer {
	i := min(r.served[prompt], len(r.answers)-1)
	r.served[prompt]++
	return r.answers[i]
}

// NewLLM returns an LLM replay handler with nothing scripted: every chat prompt
// gets "replay answer <hash>", every text its BagOfWords vector.
func NewLLM(opts LLMOptions) *LLM {
	if opts.Dims <= 0 {
		opts.Dims = 64
	}
	if opts.Models == nil {
		opts.Models = []string{"replay-chat", "replay-embed"}
	}
	l := &LLM{opts: opts, vectors: map[string][]float32{}}
	l.cond = sync.NewCond(&l.mu)
	return l
}

// On scripts the answers to chat requests whose prompt (every message's content)
// contains substring. Rules are tried in the order they were added.
func (l *LLM) On(substring string, answers ...LLMAnswer) {
	if len(answers) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.chat = append(l.chat, &llmRule{match: substring, answers: answers, served: map[string]int{}})
}

// Default scripts the answers to chat requests that no rule matches.
func (l *LLM) Default(answers ...LLMAnswer) {
	if len(answers) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.def = &llmRule{answers: answers, served: map[string]int{}}
}

// OnEmbed scripts faults for embeddings requests with an input containing
// substring. An answer that is neither an error nor garbage serves the vectors
// (after its Delay), as Pass() does.
func (l *LLM) OnEmbed(substring string, answers ...LLMAnswer) {
	if len(answers) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.embed = append(l.embed, &llmRule{match: substring, answers: answers, served: map[string]int{}})
}

// Vector fixes the embedding of one exact text.
func (l *LLM) Vector(text string, v []float32) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.vectors[text] = append([]float32(nil), v...)
}

// Gate holds every POST until n of them are in flight at once, or until total of
// them have arrived since the call (so the last, smaller group is not held for
// ever). A test of a client's concurrency limit n sends total requests and then
// checks MaxInFlight: the gate makes it reach n, the limit keeps it from passing n.
func (l *LLM) Gate(n, total int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.gate, l.gateTotal, l.gateArrive = n, total, 0
	l.cond.Broadcast()
}

// MaxInFlight is the most POSTs the server was handling at once.
func (l *LLM) MaxInFlight() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.maxFlight
}

// enter counts a request in and holds it at the gate; leave counts it out.
func (l *LLM) enter(ctx context.Context) {
	stop := context.AfterFunc(ctx, func() {
		l.mu.Lock()
		l.cond.Broadcast()
		l.mu.Unlock()
	})
	defer stop()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inflight++
	l.gateArrive++
	l.maxFlight = max(l.maxFlight, l.inflight)
	l.cond.Broadcast()
	for l.gate > 0 && l.inflight < l.gate && l.gateArrive < l.gateTotal && ctx.Err() == nil {
		l.cond.Wait()
	}
}

func (l *LLM) leave() {
	l.mu.Lock()
	l.inflight--
	l.mu.Unlock()
}

// LLMMessage is one message of a chat request as the server read it.
type LLMMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// UnmarshalJSON reads content given as a string or as a list of text parts.
func (m *LLMMessage) UnmarshalJSON(b []byte) error {
	var raw struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	m.Role = raw.Role
	if len(raw.Content) == 0 || string(raw.Content) == "null" {
		return nil
	}
	if json.Unmarshal(raw.Content, &m.Content) == nil {
		return nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw.Content, &parts); err != nil {
		return fmt.Errorf("message content: %w", err)
	}
	for _, p := range parts {
		m.Content += p.Text
	}
	return nil
}

// LLMChatRequest is a chat-completion request as the server read it; tests decode
// logged bodies with ParseLLMChat to check what a client sent.
type LLMChatRequest struct {
	Model       string       `json:"model"`
	Messages    []LLMMessage `json:"messages"`
	Temperature *float64     `json:"temperature"`
	TopP        *float64     `json:"top_p"`
	MaxTokens   int          `json:"max_tokens"`
	N           int          `json:"n"`
	Seed        *int64       `json:"seed"`
	Stop        []string     `json:"-"`
}

// Prompt is every message's content, one per line: what rules match against.
func (r *LLMChatRequest) Prompt() string {
	parts := make([]string, len(r.Messages))
	for i, m := range r.Messages {
		parts[i] = m.Content
	}
	return strings.Join(parts, "\n")
}

// ParseLLMChat decodes a chat-completion request body.
func ParseLLMChat(body string) (*LLMChatRequest, error) {
	var r LLMChatRequest
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		return nil, err
	}
	var extra struct {
		Stop json.RawMessage `json:"stop"`
	}
	json.Unmarshal([]byte(body), &extra)
	stop, err := stringOrList(extra.Stop)
	if err != nil {
		return nil, fmt.Errorf("stop: %w", err)
	}
	r.Stop = stop
	return &r, nil
}

// LLMEmbedRequest is an embeddings request as the server read it.
type LLMEmbedRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"-"`
	EncodingFormat string   `json:"encoding_format"`
}

// ParseLLMEmbed decodes an embeddings request body (input as a string or a list of
// strings; token arrays are refused).
func ParseLLMEmbed(body string) (*LLMEmbedRequest, error) {
	var r LLMEmbedRequest
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		return nil, err
	}
	var extra struct {
		Input json.RawMessage `json:"input"`
	}
	json.Unmarshal([]byte(body), &extra)
	in, err := stringOrList(extra.Input)
	if err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	if len(in) == 0 {
		return nil, errors.New("input: none")
	}
	r.Input = in
	return &r, nil
}

func stringOrList(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, errors.New("want a string or a list of strings")
	}
	return list, nil
}

// ServeHTTP answers one request as scripted.
func (l *LLM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if l.opts.APIKey != "" && r.Header.Get("Authorization") != "Bearer "+l.opts.APIKey {
		got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		llmError(w, http.StatusUnauthorized, "invalid_request_error", "invalid_api_key", "Incorrect API key provided: "+got+".")
		return
	}
	switch {
	case r.URL.Path == "/v1/models" && r.Method == http.MethodGet:
		data := []map[string]any{}
		for _, m := range l.opts.Models {
			data = append(data, map[string]any{"id": m, "object": "model", "created": 1700000000, "owned_by": "replay"})
		}
		llmJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
	case r.URL.Path == "/v1/chat/completions" && r.Method == http.MethodPost:
		l.enter(r.Context())
		defer l.leave()
		l.chatCompletion(w, r)
	case r.URL.Path == "/v1/embeddings" && r.Method == http.MethodPost:
		l.enter(r.Context())
		defer l.leave()
		l.embeddings(w, r)
	default:
		llmError(w, http.StatusNotFound, "invalid_request_error", "unknown_url", "Unknown request URL: "+r.Method+" "+r.URL.Path)
	}
}

// pick is the scripted answer for prompt among rules, then def; ok is false when
// every rule passes.
func pick(rules []*llmRule, def *llmRule, prompt string) (LLMAnswer, bool) {
	for _, rule := range rules {
		if strings.Contains(prompt, rule.match) {
			if a := rule.next(prompt); !a.pass {
				return a, true
			}
		}
	}
	if def != nil {
		if a := def.next(prompt); !a.pass {
			return a, true
		}
	}
	return LLMAnswer{}, false
}

func (l *LLM) chatCompletion(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 8<<20))
	if err != nil {
		llmError(w, http.StatusBadRequest, "invalid_request_error", nil, "bad body: "+err.Error())
		return
	}
	req, err := ParseLLMChat(string(body))
	if err != nil || req.Model == "" || len(req.Messages) == 0 {
		msg := "model and messages are required"
		if err != nil {
			msg = "bad body: " + err.Error()
		}
		llmError(w, http.StatusBadRequest, "invalid_request_error", nil, msg)
		return
	}
	if l.unknownModel(w, req.Model) {
		return
	}
	prompt := req.Prompt()
	n := max(req.N, 1)
	l.mu.Lock()
	// Each choice takes the next answer of the sequence; a fault answers alone.
	answers := make([]LLMAnswer, 0, n)
	for len(answers) < n {
		a, ok := pick(l.chat, l.def, prompt)
		if !ok {
			sum := sha256.Sum256([]byte(prompt))
			a = Answer("replay answer " + hex.EncodeToString(sum[:6]))
		}
		answers = append(answers, a)
		if a.Status != 0 && a.Status != http.StatusOK || a.Body != "" {
			break
		}
	}
	l.ids++
	id := l.ids
	l.mu.Unlock()
	first := answers[0]
	if !l.hold(w, r, first) || l.fault(w, first) {
		return
	}
	choices := make([]map[string]any, n)
	completion := 0
	for i, a := range answers {
		fr := a.FinishReason
		if fr == "" {
			fr = "stop"
		}
		msg := map[string]any{"role": "assistant", "content": a.Content}
		if a.Reasoning != "" {
			msg["reasoning_content"] = a.Reasoning
		}
		choices[i] = map[string]any{"index": i, "message": msg, "finish_reason": fr, "logprobs": nil}
		completion += countTokens(a.Content)
	}
	p := countTokens(prompt)
	llmJSON(w, http.StatusOK, map[string]any{
		"id": fmt.Sprintf("chatcmpl-replay-%d", id), "object": "chat.completion", "created": 1700000000,
		"model": req.Model, "choices": choices,
		"usage": map[string]int{"prompt_tokens": p, "completion_tokens": completion, "total_tokens": p + completion},
	})
}

func (l *LLM) embeddings(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 32<<20))
	if err != nil {
		llmError(w, http.StatusBadRequest, "invalid_request_error", nil, "bad body: "+err.Error())
		return
	}
	req, err := ParseLLMEmbed(string(body))
	if err != nil || req.Model == "" {
		msg := "model is required"
		if err != nil {
			msg = "bad body: " + err.Error()
		}
		llmError(w, http.StatusBadRequest, "invalid_request_error", nil, msg)
		return
	}
	if l.unknownModel(w, req.Model) {
		return
	}
	l.mu.Lock()
	a, scripted := pick(l.embed, nil, strings.Join(req.Input, "\n"))
	vecs := make([][]float32, len(req.Input))
	for i, t := range req.Input {
		if v, ok := l.vectors[t]; ok {
			vecs[i] = v
		} else {
			vecs[i] = BagOfWords(t, l.opts.Dims)
		}
	}
	l.mu.Unlock()
	if scripted && (!l.hold(w, r, a) || l.fault(w, a)) {
		return
	}
	data := make([]map[string]any, len(vecs))
	tokens := 0
	for i, v := range vecs {
		var emb any = v
		if req.EncodingFormat == "base64" {
			b := make([]byte, 4*len(v))
			for j, x := range v {
				binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(x))
			}
			emb = base64.StdEncoding.EncodeToString(b)
		}
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": emb}
		tokens += countTokens(req.Input[i])
	}
	llmJSON(w, http.StatusOK, map[string]any{"object": "list", "model": req.Model, "data": data,
		"usage": map[string]int{"prompt_tokens": tokens, "total_tokens": tokens}})
}

// unknownModel answers 404 model_not_found for a model the server does not
// serve (with OnlyModels) and reports whether it did.
func (l *LLM) unknownModel(w http.ResponseWriter, model string) bool {
	if !l.opts.OnlyModels {
		return false
	}
	for _, m := range l.opts.Models {
		if m == model {
			return false
		}
	}
	llmError(w, http.StatusNotFound, "invalid_request_error", "model_not_found",
		fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", model))
	return true
}

// RefusedURL is a base URL where nothing listens (a port opened and closed
// again), so a request to it is refused at once, as a server that is down.
func RefusedURL() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("replay: %w", err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/v1", nil
}

// hold waits out a's delay; it answers 504 and reports false when the client gave
// up first.
func (l *LLM) hold(w http.ResponseWriter, r *http.Request, a LLMAnswer) bool {
	if a.Delay <= 0 {
		return true
	}
	t := time.NewTimer(a.Delay)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		w.WriteHeader(http.StatusGatewayTimeout) // nobody reads it; it marks the log
		return false
	}
}

// fault answers a when it is an error or garbage, and reports whether it did.
func (l *LLM) fault(w http.ResponseWriter, a LLMAnswer) bool {
	status := a.Status
	if status == 0 {
		status = http.StatusOK
	}
	if a.RetryAfter != "" {
		w.Header().Set("Retry-After", a.RetryAfter)
	}
	switch {
	case a.Body != "":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(a.Body))
		return true
	case status != http.StatusOK:
		typ, code := "server_error", any(nil)
		if status == http.StatusTooManyRequests {
			typ, code = "requests", "rate_limit_exceeded"
		} else if status < 500 {
			typ = "invalid_request_error"
		}
		msg := a.Message
		if msg == "" {
			msg = http.StatusText(status) + " (replay)"
		}
		llmError(w, status, typ, code, msg)
		return true
	}
	return false
}

func llmError(w http.ResponseWriter, status int, typ string, code any, msg string) {
	llmJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}})
}

func llmJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// countTokens is the replay server's token count: words, as a rough stand-in.
func countTokens(s string) int { return len(strings.Fields(s)) }

// BagOfWords is the replay server's default embedding: each lower-cased word of
// text is hashed to one of dims signed buckets, and the sum is scaled to unit
// length, so texts sharing words get similar vectors. A text without words gets
// the first unit vector.
func BagOfWords(text string, dims int) []float32 {
	v := make([]float32, dims)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, word := range words {
		h := fnv.New64a()
		h.Write([]byte(word))
		x := h.Sum64()
		if x>>63 == 0 {
			v[x%uint64(dims)]++
		} else {
			v[x%uint64(dims)]--
		}
	}
	var norm float64
	for _, x := range v {
		norm += float64(x) * float64(x)
	}
	if norm == 0 {
		v[0] = 1
		return v
	}
	s := float32(1 / math.Sqrt(norm))
	for i := range v {
		v[i] *= s
	}
	return v
}
