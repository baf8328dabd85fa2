package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/respjson"
)

// Message roles.
const (
	RoleSystem    = "system"
	RoleDeveloper = "developer"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// System is a system message.
func System(content string) Message { return Message{Role: RoleSystem, Content: content} }

// User is a user message.
func User(content string) Message { return Message{Role: RoleUser, Content: content} }

// Assistant is an assistant message, e.g. the answer of a few-shot example.
func Assistant(content string) Message { return Message{Role: RoleAssistant, Content: content} }

// ChatRequest is one chat-completion request. Unset decoding parameters (nil, 0,
// empty) are not sent, so the server's defaults apply.
type ChatRequest struct {
	// Model is the model to ask; empty means the Client's Config.Model.
	Model    string
	Messages []Message
	// Temperature and TopP are the sampling parameters; nil leaves them to the
	// server (0 is a real temperature: greedy decoding).
	Temperature *float64
	TopP        *float64
	// MaxTokens caps the length of each completion.
	MaxTokens int
	// N asks for that many completions in one request. Some servers (Ollama)
	// ignore it and answer one: check len(Choices).
	N int
	// Seed asks the server for reproducible sampling, where it supports one.
	Seed *int64
	// Stop lists sequences that end a completion.
	Stop []string
	// Sample tells independent samples of the same request apart in the cache: it
	// is part of the cache key but is not sent. Asking again for a request whose
	// cached answer was unusable also takes a new Sample.
	Sample int
}

// Float returns a pointer to v, for ChatRequest.Temperature and TopP.
func Float(v float64) *float64 { return &v }

// Int64 returns a pointer to v, for ChatRequest.Seed.
func Int64(v int64) *int64 { return &v }

// keyVersion changes when the key scheme does, so old cache rows are not misread.
const keyVersion = 1

// canonicalChat is the request as it is hashed: fixed field order, unset fields
// omitted (so a parameter added later does not change the keys of old requests).
type canonicalChat struct {
	V           int       `json:"v"`
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature *float64  `json:"temperature,omitempty"`
	TopP        *float64  `json:"top_p,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	N           int       `json:"n,omitempty"`
	Seed        *int64    `json:"seed,omitempty"`
	Stop        []string  `json:"stop,omitempty"`
	Sample      int       `json:"sample,omitempty"`
}

// Canonical is the canonical JSON of the request: its model, its messages and every
// decoding parameter, in a fixed order, without HTML escaping. It is what Key hashes
// and what the store keeps beside a cached answer.
func (r ChatRequest) Canonical() []byte {
	c := canonicalChat{V: keyVersion, Model: r.Model, Messages: r.Messages, Temperature: r.Temperature,
		TopP: r.TopP, MaxTokens: max(r.MaxTokens, 0), Seed: r.Seed, Stop: r.Stop, Sample: r.Sample}
	if c.Messages == nil {
		c.Messages = []Message{}
	}
	if r.N > 1 { // 0 and 1 both ask for one completion
		c.N = r.N
	}
	return canonicalJSON(c)
}

// Key is the request's cache key: the hex SHA-256 of Canonical. Two requests have
// the same key exactly when they ask the same model the same thing the same way.
func (r ChatRequest) Key() string { return hashHex(r.Canonical()) }

// Choice is one completion.
type Choice struct {
	// Text is the completion's content as the server sent it: possibly empty, code
	// instead of prose, or cut off (FinishReason "length"). Judging it is the
	// caller's business.
	Text string `json:"text"`
	// FinishReason is why the model stopped: "stop", "length", "content_filter", …
	FinishReason string `json:"finish_reason"`
	// Refusal is the model's refusal message, when it refused.
	Refusal string `json:"refusal,omitempty"`
	// Reasoning is the reasoning a server returns beside the content of a
	// reasoning model (reasoning_content: DeepSeek, vLLM, llama.cpp; reasoning:
	// Ollama, OpenRouter), or "".
	Reasoning string `json:"reasoning,omitempty"`
}

// TokenUsage is the server's token count for one answer.
type TokenUsage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// ChatResponse is the answer to a ChatRequest.
type ChatResponse struct {
	// Model is the model as the server named it in its answer.
	Model   string     `json:"model"`
	Choices []Choice   `json:"choices"`
	Usage   TokenUsage `json:"usage"`
	// Key is the request's cache key.
	Key string `json:"-"`
	// Cached is true when the answer came from the cache; Usage is then what the
	// original request cost.
	Cached bool `json:"-"`
}

// Text is the first completion's text, or "" when there is none.
func (r *ChatResponse) Text() string {
	if len(r.Choices) == 0 {
		return ""
	}
	return r.Choices[0].Text
}

// Texts lists the completions' texts.
func (r *ChatResponse) Texts() []string {
	out := make([]string, len(r.Choices))
	for i, ch := range r.Choices {
		out[i] = ch.Text
	}
	return out
}

// Chat sends a chat-completion request, or answers it from the cache when the same
// request was answered before.
func (c *Client) Chat(ctx context.Context, req ChatRequest) (*ChatResponse, error) {
	if req.Model == "" {
		req.Model = c.cfg.Model
	}
	resp, err := c.chatOnce(ctx, req)
	if err != nil {
		if ctx.Err() == nil {
			c.failures.Add(1)
		}
		return nil, fmt.Errorf("llm chat with %s: %w", req.Model, c.unknownModel(ctx, err, req.Model))
	}
	return resp, nil
}

func (c *Client) chatOnce(ctx context.Context, req ChatRequest) (*ChatResponse, error) {
	if req.Model == "" {
		return nil, errors.New("no model: set ChatRequest.Model or Config.Model")
	}
	params, err := chatParams(req)
	if err != nil {
		return nil, err
	}
	canon := req.Canonical()
	key := hashHex(canon)
	if c.cache != nil {
		raw, ok, err := c.cache.GetChat(ctx, key)
		if err != nil {
			return nil, fmt.Errorf("read cache: %w", err)
		}
		if ok {
			var resp ChatResponse
			if err := json.Unmarshal([]byte(raw), &resp); err != nil {
				return nil, fmt.Errorf("read cached answer %s: %w", key, err)
			}
			resp.Key, resp.Cached = key, true
			c.cacheHits.Add(1)
			return &resp, nil
		}
	}
	if err := c.modelGone(req.Model); err != nil {
		return nil, err
	}
	var out *openai.ChatCompletion
	err = c.do(ctx, "chat/completions", func(ctx context.Context, mw option.RequestOption) error {
		r, err := c.chat.New(ctx, params, mw)
		out = r
		return err
	})
	if err != nil {
		return nil, err
	}
	resp := &ChatResponse{Model: out.Model, Key: key, Choices: make([]Choice, len(out.Choices)),
		Usage: TokenUsage{PromptTokens: out.Usage.PromptTokens, CompletionTokens: out.Usage.CompletionTokens}}
	for i, ch := range out.Choices {
		resp.Choices[i] = Choice{Text: ch.Message.Content, FinishReason: ch.FinishReason, Refusal: ch.Message.Refusal,
			Reasoning: reasoningOf(ch.Message.JSON.ExtraFields)}
	}
	c.promptTokens.Add(resp.Usage.PromptTokens)
	c.completionTokens.Add(resp.Usage.CompletionTokens)
	if c.cache != nil {
		b, _ := json.Marshal(resp)
		// An answer that arrived is kept even when the caller gives up now.
		if err := c.cache.PutChat(context.WithoutCancel(ctx), key, req.Model, string(canon), string(b)); err != nil {
			return nil, fmt.Errorf("write cache: %w", err)
		}
	}
	return resp, nil
}

// chatParams translates a request into the SDK's parameters.
func chatParams(req ChatRequest) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: req.Model}
	if len(req.Messages) == 0 {
		return p, errors.New("no messages")
	}
	for i, m := range req.Messages {
		switch m.Role {
		case RoleSystem:
			p.Messages = append(p.Messages, openai.SystemMessage(m.Content))
		case RoleDeveloper:
			p.Messages = append(p.Messages, openai.DeveloperMessage(m.Content))
		case RoleUser:
			p.Messages = append(p.Messages, openai.UserMessage(m.Content))
		case RoleAssistant:
			p.Messages = append(p.Messages, openai.AssistantMessage(m.Content))
		default:
			return p, fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
	}
	if req.Temperature != nil {
		p.Temperature = openai.Float(*req.Temperature)
	}
	if req.TopP != nil {
		p.TopP = openai.Float(*req.TopP)
	}
	if req.MaxTokens > 0 {
		p.MaxTokens = openai.Int(int64(req.MaxTokens))
	}
	if req.N > 1 {
		p.N = openai.Int(int64(req.N))
	}
	if req.Seed != nil {
		p.Seed = openai.Int(*req.Seed)
	}
	if len(req.Stop) > 0 {
		p.Stop = openai.ChatCompletionNewParamsStopUnion{OfStringArray: req.Stop}
	}
	return p, nil
}

// reasoningOf reads the reasoning field a server added to a message, if any.
func reasoningOf(extra map[string]respjson.Field) string {
	for _, name := range []string{"reasoning_content", "reasoning"} {
		f, ok := extra[name]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal([]byte(f.Raw()), &s) == nil && s != "" {
			return s
		}
	}
	return ""
}
