// Package llm is sccg's one client for OpenAI-compatible LLM servers (Ollama, vLLM,
// llama.cpp server, LM Studio, DeepSeek, OpenAI): chat completions and embeddings
// through the official SDK, with a per-request timeout, retries that honour
// Retry-After (for 429, 5xx and timeouts only), failing fast on a server it cannot
// reach, a key it refuses or a model it does not have, a breaker after failures in
// a row, a concurrency limit, token totals and a cache keyed by model and
// canonical prompt, so a rerun sends no request. Every LLM step of sccg — intents,
// generation, HyDE / CAPIR retrieval, reranking — goes through it.
//
// The API key is read from the environment variable that Config names, once, when
// the client is made. It is never logged, stored or put into an error.
package llm

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"sccg/internal/backoff"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// Defaults for the zero fields of Config.
const (
	DefaultTimeout      = 2 * time.Minute
	DefaultMaxRetries   = 4
	DefaultConcurrency  = 4
	DefaultMaxRetryWait = 2 * time.Minute
	DefaultEmbedBatch   = 64
)

// maxBody caps what is read of any response body: error bodies are cut to their
// first maxErrorBody bytes, a success body longer than maxBody is an error.
const (
	maxBody      = 64 << 20
	maxErrorBody = 1 << 20
)

// Config says which server and model a Client talks to and how patiently. It holds
// the name of the variable with the API key, never the key itself, so it can be
// printed and recorded with a run.
type Config struct {
	// BaseURL is the API root the endpoints hang off, e.g. http://localhost:11434/v1
	// (Ollama) or https://api.openai.com/v1. A URL without a path gets /v1.
	BaseURL string `json:"base_url"`
	// Model is the chat model used when a ChatRequest names none.
	Model string `json:"model,omitempty"`
	// EmbedModel is the embedding model used when Embed is given none.
	EmbedModel string `json:"embed_model,omitempty"`
	// APIKeyEnv names the environment variable holding the API key. Empty, or a
	// variable that is unset, sends no key: local servers need none.
	APIKeyEnv string `json:"api_key_env,omitempty"`
	// Timeout bounds each request attempt; 0 means DefaultTimeout. An attempt that
	// times out is retried.
	Timeout time.Duration `json:"timeout,omitempty"`
	// MaxRetries is how many times a failed attempt (429, 408, 5xx, timeout,
	// connection error) is retried: 0 means DefaultMaxRetries, negative means never.
	MaxRetries int `json:"max_retries,omitempty"`
	// MaxRetryWait caps the wait before a retry; 0 means DefaultMaxRetryWait. A
	// server whose Retry-After asks for longer is not retried early: the call fails
	// with an *APIError carrying RetryAfter.
	MaxRetryWait time.Duration `json:"max_retry_wait,omitempty"`
	// Concurrency is how many requests of one Client may be in flight at once; 0
	// means DefaultConcurrency.
	Concurrency int `json:"concurrency,omitempty"`
	// EmbedBatch is how many texts one embeddings request carries; 0 means
	// DefaultEmbedBatch.
	EmbedBatch int `json:"embed_batch,omitempty"`
	// BreakAfter is how many calls in a row may fail (each after its retries)
	// before the client stops sending and fails every call with a *BreakerError;
	// 0 means DefaultBreakAfter, negative means never.
	BreakAfter int `json:"break_after,omitempty"`
}

// withDefaults fills the zero fields.
func (c Config) withDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	switch {
	case c.MaxRetries == 0:
		c.MaxRetries = DefaultMaxRetries
	case c.MaxRetries < 0:
		c.MaxRetries = 0
	}
	if c.MaxRetryWait <= 0 {
		c.MaxRetryWait = DefaultMaxRetryWait
	}
	if c.Concurrency <= 0 {
		c.Concurrency = DefaultConcurrency
	}
	if c.EmbedBatch <= 0 {
		c.EmbedBatch = DefaultEmbedBatch
	}
	if c.BreakAfter == 0 {
		c.BreakAfter = DefaultBreakAfter
	}
	return c
}

// Option configures New with the dependencies a test or a command replaces.
type Option func(*Client)

// WithCache makes the client answer repeated requests from c and keep every new
// answer in it.
func WithCache(c Cache) Option { return func(cl *Client) { cl.cache = c } }

// WithHTTPClient sends requests through h instead of a client of its own.
func WithHTTPClient(h *http.Client) Option { return func(cl *Client) { cl.http = h } }

// WithLogger makes the client report retries to l. By default it logs nothing.
func WithLogger(l *slog.Logger) Option { return func(cl *Client) { cl.log = l } }

// WithClock sets the clock an HTTP-date Retry-After is measured against.
func WithClock(now func() time.Time) Option { return func(cl *Client) { cl.now = now } }

// WithSleep replaces the wait before a retry; sleep must return ctx.Err() when ctx
// ends first. Tests pass one that records the wait and returns at once.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(cl *Client) { cl.sleep = sleep }
}

// WithJitter replaces the random jitter added to a backoff: it returns a duration
// in [0, max].
func WithJitter(jitter func(max time.Duration) time.Duration) Option {
	return func(cl *Client) { cl.jitter = jitter }
}

// WithGetenv replaces os.Getenv for reading the API key variable.
func WithGetenv(getenv func(string) string) Option { return func(cl *Client) { cl.getenv = getenv } }

// Client sends chat and embedding requests to one server. It is safe for concurrent
// use; its concurrency limit and usage totals are shared by all its calls.
type Client struct {
	cfg    Config
	base   *url.URL // API root, path ending in "/"
	chat   openai.ChatCompletionService
	embed  openai.EmbeddingService
	key    string // only to scrub it from server messages; never printed
	cache  Cache
	http   *http.Client
	log    *slog.Logger
	now    func() time.Time
	sleep  func(context.Context, time.Duration) error
	jitter func(time.Duration) time.Duration
	getenv func(string) string
	sem    chan struct{}

	requests, retries, cacheHits, promptTokens, completionTokens, failures atomic.Int64

	// The first call, which goes alone; what it found; the models that do not
	// exist; the breaker.
	checkMu   sync.Mutex
	started   bool
	firstDone chan struct{}
	checkErr  error
	gone      map[string]error
	inARow    int // calls failed in a row
	broken    *BreakerError

	servedOnce sync.Once
	served     []string // the models the server lists, asked once, outside checkMu
}

// New makes a client for cfg. It reads the API key from the variable cfg.APIKeyEnv
// names; it sends no request.
func New(cfg Config, opts ...Option) (*Client, error) {
	c := &Client{cfg: cfg.withDefaults(), log: slog.New(slog.DiscardHandler), now: time.Now,
		sleep: backoff.Sleep, jitter: backoff.Jitter, getenv: os.Getenv}
	for _, o := range opts {
		o(c)
	}
	base, err := parseBase(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	c.base = base
	if c.cfg.APIKeyEnv != "" {
		c.key = c.getenv(c.cfg.APIKeyEnv)
	}
	if c.http == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = c.cfg.Concurrency
		c.http = &http.Client{Transport: t}
	}
	c.sem = make(chan struct{}, c.cfg.Concurrency)
	// The services are made directly, not through openai.NewClient, so that no
	// ambient OPENAI_* variable (key, organization, base URL, headers) is picked up:
	// the client sends exactly what Config says. The SDK's own retries are off; see
	// do for why.
	sdk := []option.RequestOption{
		option.WithBaseURL(base.String()),
		option.WithHTTPClient(c.http),
		option.WithAPIKey(c.key),
		option.WithMaxRetries(0),
	}
	c.chat = openai.NewChatCompletionService(sdk...)
	c.embed = openai.NewEmbeddingService(sdk...)
	return c, nil
}

// parseBase checks an API root and gives it a path ending in "/".
func parseBase(raw string) (*url.URL, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, fmt.Errorf("llm: no base URL (e.g. http://localhost:11434/v1)")
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("llm: base URL %q: want http(s)://host[:port]/path", redactURL(raw))
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1"
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u, nil
}

// redactURL drops the user info and query of a URL, which may carry credentials.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "<unparsable URL>"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}

// Config is the configuration the client runs with, defaults filled in.
func (c *Client) Config() Config { return c.cfg }

// String names the client's server and model, never its key.
func (c *Client) String() string {
	return fmt.Sprintf("llm.Client(%s, model %q)", redactURL(c.base.String()), c.cfg.Model)
}

// GoString is String, so that %#v does not print the key either.
func (c *Client) GoString() string { return c.String() }

// endpoint names one API endpoint in errors and logs: method and URL without
// credentials.
func (c *Client) endpoint(path string) string {
	return "POST " + redactURL(c.base.String()) + path
}

// Usage is a snapshot of what a Client has done.
type Usage struct {
	// Requests is how many HTTP requests were sent, retries included.
	Requests int64 `json:"requests"`
	// Retries is how many of them repeated a failed attempt.
	Retries int64 `json:"retries"`
	// CacheHits counts chat requests and embedding texts answered from the cache.
	CacheHits int64 `json:"cache_hits"`
	// PromptTokens and CompletionTokens are the servers' counts, summed over the
	// answers received (cache hits cost none).
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	// Failures counts the calls that returned an error, except those whose context
	// ended (cancelled or past its deadline).
	Failures int64 `json:"failures"`
}

// Usage returns the client's totals so far.
func (c *Client) Usage() Usage {
	return Usage{
		Requests:         c.requests.Load(),
		Retries:          c.retries.Load(),
		CacheHits:        c.cacheHits.Load(),
		PromptTokens:     c.promptTokens.Load(),
		CompletionTokens: c.completionTokens.Load(),
		Failures:         c.failures.Load(),
	}
}

// acquire takes one of the client's request slots, or fails when ctx ends first.
func (c *Client) acquire(ctx context.Context) error {
	select {
	case c.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *Client) release() { <-c.sem }
