package llm_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sccg/internal/replay"
	"sccg/llm"
	"sccg/store"
)

// The store is the cache every stage uses.
var _ llm.Cache = (*store.Store)(nil)

// waits records the waits before retries instead of sleeping.
type waits struct {
	mu sync.Mutex
	ds []time.Duration
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.ds = append(w.ds, d)
	w.mu.Unlock()
	return ctx.Err()
}

func (w *waits) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return fmt.Sprint(w.ds)
}

var clock = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// setup starts an LLM replay server and a client for it that records its waits,
// adds no jitter and has the fixed clock.
func setup(t *testing.T, opts replay.LLMOptions, cfg llm.Config, more ...llm.Option) (*llm.Client, *replay.LLM, *replay.Server, *waits) {
	t.Helper()
	h := replay.NewLLM(opts)
	srv := replay.Start(h)
	t.Cleanup(srv.Close)
	w := &waits{}
	cfg.BaseURL = srv.URL + "/v1"
	if cfg.Model == "" {
		cfg.Model = "replay-chat"
	}
	if cfg.EmbedModel == "" {
		cfg.EmbedModel = "replay-embed"
	}
	opt := append([]llm.Option{llm.WithSleep(w.sleep), llm.WithJitter(func(time.Duration) time.Duration { return 0 }),
		llm.WithClock(func() time.Time { return clock })}, more...)
	c, err := llm.New(cfg, opt...)
	if err != nil {
		t.Fatal(err)
	}
	return c, h, srv, w
}

func ask(prompt string) llm.ChatRequest {
	return llm.ChatRequest{Messages: []llm.Message{llm.System("You describe code."), llm.User(prompt)}}
}

func TestChatSendsTheRequestAndReadsTheAnswer(t *testing.T) {
	c, h, srv, _ := setup(t, replay.LLMOptions{}, llm.Config{})
	h.On("describe", replay.Answer("first sample"), replay.LLMAnswer{Content: "second, cut", FinishReason: "length"})
	req := ask("describe this function")
	req.Temperature, req.TopP, req.MaxTokens, req.N = llm.Float(0), llm.Float(0.95), 256, 2
	req.Seed, req.Stop = llm.Int64(7), []string{"\n\n"}
	resp, err := c.Chat(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(resp.Texts()); got != "[first sample second, cut]" {
		t.Errorf("texts = %s", got)
	}
	if resp.Choices[1].FinishReason != "length" || resp.Choices[0].FinishReason != "stop" {
		t.Errorf("finish reasons = %+v", resp.Choices)
	}
	withModel := req
	withModel.Model = "replay-chat"
	if resp.Model != "replay-chat" || resp.Cached || resp.Key != withModel.Key() {
		t.Errorf("response = %+v", resp)
	}
	// "You describe code.\ndescribe this function" is 6 words; the answers 2 + 2.
	if resp.Usage != (llm.TokenUsage{PromptTokens: 6, CompletionTokens: 4}) {
		t.Errorf("usage = %+v", resp.Usage)
	}
	sent, err := replay.ParseLLMChat(srv.Log.All()[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	if sent.Model != "replay-chat" || *sent.Temperature != 0 || *sent.TopP != 0.95 || sent.MaxTokens != 256 ||
		sent.N != 2 || *sent.Seed != 7 || fmt.Sprint(sent.Stop) != "[\n\n]" || len(sent.Messages) != 2 || sent.Messages[0].Role != "system" {
		t.Errorf("sent %+v", sent)
	}
	want := llm.Usage{Requests: 1, PromptTokens: 6, CompletionTokens: 4}
	if u := c.Usage(); u != want {
		t.Errorf("Usage = %+v, want %+v", u, want)
	}
}

// Unset decoding parameters are left to the server.
func TestChatOmitsUnsetParameters(t *testing.T) {
	c, _, srv, _ := setup(t, replay.LLMOptions{}, llm.Config{})
	if _, err := c.Chat(context.Background(), ask("x")); err != nil {
		t.Fatal(err)
	}
	body := srv.Log.All()[0].Body
	for _, p := range []string{"temperature", "top_p", "max_tokens", `"n"`, "seed", "stop"} {
		if strings.Contains(body, p) {
			t.Errorf("body %s sends %s, which was not set", body, p)
		}
	}
}

func TestChatFaults(t *testing.T) {
	retryDate := clock.Add(30 * time.Second).Format(http.TimeFormat)
	tests := []struct {
		name     string
		cfg      llm.Config
		answers  []replay.LLMAnswer
		want     string // text of the answer, when it succeeds
		wantErr  string // in the error text, when it fails
		errCheck func(error) bool
		requests int64
		waits    string
	}{
		{name: "clean", answers: []replay.LLMAnswer{replay.Answer("fine")}, want: "fine", requests: 1, waits: "[]"},
		{name: "429 with Retry-After seconds is waited out", answers: []replay.LLMAnswer{replay.Fail(429, "7"), replay.Answer("fine")},
			want: "fine", requests: 2, waits: "[7s]"},
		{name: "429 with Retry-After as an HTTP date", answers: []replay.LLMAnswer{replay.Fail(429, retryDate), replay.Answer("fine")},
			want: "fine", requests: 2, waits: "[30s]"},
		{name: "500 is retried with exponential backoff", answers: []replay.LLMAnswer{replay.Fail(500, ""), replay.Fail(503, ""), replay.Fail(500, ""), replay.Answer("fine")},
			want: "fine", requests: 4, waits: "[1s 2s 4s]"},
		{name: "an HTML 502 from a proxy is still a retried 502",
			answers: []replay.LLMAnswer{{Status: 502, Body: "<html><body>Bad Gateway</body></html>"}, replay.Answer("fine")},
			want:    "fine", requests: 2, waits: "[1s]"},
		{name: "a timeout is retried", cfg: llm.Config{Timeout: time.Second},
			answers: []replay.LLMAnswer{replay.Slow(time.Hour, replay.Answer("too late")), replay.Answer("fine")},
			want:    "fine", requests: 2, waits: "[1s]"},
		{name: "empty content is the caller's business", answers: []replay.LLMAnswer{replay.Answer("")}, want: "", requests: 1, waits: "[]"},
		{name: "code instead of prose", answers: []replay.LLMAnswer{replay.CodeAnswer()}, want: replay.CodeAnswer().Content, requests: 1, waits: "[]"},
		{name: "a 10 kB answer", answers: []replay.LLMAnswer{replay.LongAnswer(10 << 10)}, want: replay.LongAnswer(10 << 10).Content, requests: 1, waits: "[]"},
		{name: "a garbage body is not retried", answers: []replay.LLMAnswer{replay.Garbage("{not json"), replay.Answer("fine")},
			wantErr: "unreadable HTTP 200 answer", errCheck: func(err error) bool { var re *llm.ResponseError; return errors.As(err, &re) },
			requests: 1, waits: "[]"},
		{name: "400 is not retried", answers: []replay.LLMAnswer{{Status: 400, Message: "context length exceeded"}},
			wantErr: "HTTP 400 Bad Request after 1 attempt(s): context length exceeded",
			errCheck: func(err error) bool {
				var ae *llm.APIError
				return errors.As(err, &ae) && ae.Status == 400 && !ae.Retryable()
			}, requests: 1, waits: "[]"},
		{name: "a Retry-After longer than the cap is not waited", cfg: llm.Config{MaxRetryWait: time.Minute},
			answers: []replay.LLMAnswer{replay.Fail(429, "3600"), replay.Answer("fine")},
			wantErr: "HTTP 429 Too Many Requests asks to retry after 1h0m0s, longer than allowed",
			errCheck: func(err error) bool {
				var ae *llm.APIError
				return errors.As(err, &ae) && ae.RetryAfter == time.Hour && ae.Retryable()
			}, requests: 1, waits: "[]"},
		{name: "retries exhausted", cfg: llm.Config{MaxRetries: 2}, answers: []replay.LLMAnswer{replay.Fail(500, "")},
			wantErr: "/v1/chat/completions: HTTP 500 Internal Server Error after 3 attempt(s)",
			errCheck: func(err error) bool {
				var ae *llm.APIError
				return errors.As(err, &ae) && ae.Status == 500 && ae.Attempts == 3 && strings.HasPrefix(ae.Endpoint, "POST http://127.0.0.1:")
			}, requests: 3, waits: "[1s 2s]"},
		{name: "no retries", cfg: llm.Config{MaxRetries: -1}, answers: []replay.LLMAnswer{replay.Fail(503, "1"), replay.Answer("fine")},
			wantErr: "HTTP 503 Service Unavailable after 1 attempt(s)", requests: 1, waits: "[]"},
		{name: "timeouts exhausted", cfg: llm.Config{Timeout: 50 * time.Millisecond, MaxRetries: 1},
			answers: []replay.LLMAnswer{replay.Slow(time.Hour, replay.Answer("too late"))},
			wantErr: "/v1/chat/completions: timed out after 2 attempt(s)",
			errCheck: func(err error) bool {
				var te *llm.TransportError
				return errors.As(err, &te) && te.Timeout && errors.Is(err, context.DeadlineExceeded)
			}, requests: 2, waits: "[1s]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, h, srv, w := setup(t, replay.LLMOptions{}, tc.cfg)
			h.On("the prompt", tc.answers...)
			resp, err := c.Chat(context.Background(), ask("the prompt"))
			u := c.Usage()
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				if !strings.Contains(err.Error(), srv.URL+"/v1/chat/completions") {
					t.Errorf("err %q does not name the endpoint", err)
				}
				if tc.errCheck != nil && !tc.errCheck(err) {
					t.Errorf("err %#v is not the typed error wanted", err)
				}
				if u.Failures != 1 {
					t.Errorf("Failures = %d, want 1", u.Failures)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if resp.Text() != tc.want {
					t.Errorf("text = %.60q (%d bytes), want %.60q (%d bytes)", resp.Text(), len(resp.Text()), tc.want, len(tc.want))
				}
				if resp.Choices[0].FinishReason != "stop" {
					t.Errorf("finish reason %q", resp.Choices[0].FinishReason)
				}
			}
			if u.Requests != tc.requests || u.Retries != tc.requests-1 {
				t.Errorf("Usage = %+v, want %d requests", u, tc.requests)
			}
			srv.Close() // a handler the client gave up on may still be logging
			if int64(srv.Log.Len()) != tc.requests {
				t.Errorf("server saw %d requests, want %d", srv.Log.Len(), tc.requests)
			}
			if w.String() != tc.waits {
				t.Errorf("waits = %s, want %s", w, tc.waits)
			}
		})
	}
}

// Embeddings are retried like chat.
func TestEmbedRetries(t *testing.T) {
	c, h, srv, w := setup(t, replay.LLMOptions{}, llm.Config{})
	h.OnEmbed("busy", replay.Fail(429, "2"), replay.Fail(500, ""), replay.Pass())
	vecs, err := c.Embed(context.Background(), "", []string{"busy server"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != 1 || len(vecs[0]) != 64 || srv.Log.Len() != 3 || w.String() != "[2s 2s]" {
		t.Fatalf("vectors %d, requests %d, waits %s; want 1 vector after 3 requests, waits [2s 2s]", len(vecs), srv.Log.Len(), w)
	}
	if u := c.Usage(); u.Retries != 2 || u.Requests != 3 {
		t.Errorf("Usage = %+v", u)
	}
}

func TestEmbedBatchesAndKeepsOrder(t *testing.T) {
	c, h, srv, _ := setup(t, replay.LLMOptions{Dims: 8}, llm.Config{EmbedBatch: 4, Concurrency: 1})
	h.Vector("fixed", []float32{0.5, 0.5})
	texts := []string{"a b", "fixed", "c", "d", "e", "a b", "f", "g", "h", "i"} // 9 distinct
	if _, err := c.Embed(context.Background(), "", texts); err == nil || !strings.Contains(err.Error(), "vectors of different lengths") {
		t.Fatalf("err = %v, want vectors of different lengths refused", err)
	}
	h.Vector("fixed", replay.BagOfWords("something else", 8))
	vecs, err := c.Embed(context.Background(), "", texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, tx := range texts {
		want := replay.BagOfWords(tx, 8)
		if tx == "fixed" {
			want = replay.BagOfWords("something else", 8)
		}
		if fmt.Sprint(vecs[i]) != fmt.Sprint(want) {
			t.Errorf("vector %d (%q) = %v, want %v", i, tx, vecs[i], want)
		}
	}
	var sizes []int
	for _, r := range srv.Log.All()[3:] { // the second call's requests
		e, err := replay.ParseLLMEmbed(r.Body)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(e.Input))
		if e.Model != "replay-embed" || e.EncodingFormat != "float" {
			t.Errorf("sent model %q format %q", e.Model, e.EncodingFormat)
		}
	}
	if fmt.Sprint(sizes) != "[4 4 1]" {
		t.Errorf("batch sizes = %v, want [4 4 1] (9 distinct texts, 4 a batch)", sizes)
	}
	if got, err := c.Embed(context.Background(), "", nil); err != nil || len(got) != 0 {
		t.Errorf("Embed of no texts = %v, %v", got, err)
	}
}

func TestConcurrencyLimitIsShared(t *testing.T) {
	for _, limit := range []int{1, 3} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			c, h, srv, _ := setup(t, replay.LLMOptions{}, llm.Config{Concurrency: limit, EmbedBatch: 1})
			const chats, texts = 6, 6
			// the client's first call goes alone (its outcome decides for the others)
			if _, err := c.Chat(context.Background(), ask("first")); err != nil {
				t.Fatal(err)
			}
			h.Gate(limit, chats+texts)
			var wg sync.WaitGroup
			for i := range chats {
				wg.Go(func() {
					if _, err := c.Chat(context.Background(), ask(fmt.Sprint("prompt ", i))); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Go(func() {
				in := make([]string, texts)
				for i := range in {
					in[i] = fmt.Sprint("text ", i)
				}
				if _, err := c.Embed(context.Background(), "", in); err != nil {
					t.Error(err)
				}
			})
			wg.Wait()
			if got := h.MaxInFlight(); got != limit {
				t.Errorf("server saw %d requests in flight at once, want the limit %d", got, limit)
			}
			if srv.Log.Len() != 1+chats+texts {
				t.Errorf("%d requests, want %d", srv.Log.Len(), 1+chats+texts)
			}
		})
	}
}

// A rerun against the same store sends nothing: every answer comes from the cache.
func TestRerunWithTheStoreCacheSendsNothing(t *testing.T) {
	ctx := context.Background()
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "sccg.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := replay.NewLLM(replay.LLMOptions{})
	h.On("leaky", replay.Answer("calls weatherapi-com.p.rapidapi.com"), replay.Answer("fetches the weather"))
	srv := replay.Start(h)
	defer srv.Close()
	cfg := llm.Config{BaseURL: srv.URL + "/v1", Model: "replay-chat", EmbedModel: "replay-embed"}
	reqs := []llm.ChatRequest{ask("leaky function"), ask("another function")}
	reqs = append(reqs, reqs[0])
	reqs[2].Temperature = llm.Float(0.2) // another decoding parameter: another request
	texts := []string{"weather forecast", "currency rates", "weather forecast"}

	run := func() ([]*llm.ChatResponse, [][]float32, llm.Usage) {
		c, err := llm.New(cfg, llm.WithCache(s))
		if err != nil {
			t.Fatal(err)
		}
		var out []*llm.ChatResponse
		for _, r := range reqs {
			resp, err := c.Chat(ctx, r)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, resp)
		}
		vecs, err := c.Embed(ctx, "", texts)
		if err != nil {
			t.Fatal(err)
		}
		return out, vecs, c.Usage()
	}
	first, firstVecs, u1 := run()
	sent := srv.Log.Len()
	if sent != 4 || u1.Requests != 4 || u1.CacheHits != 0 {
		t.Fatalf("first run: %d requests (usage %+v), want 3 chats and 1 embedding batch", sent, u1)
	}
	if first[0].Text() != "calls weatherapi-com.p.rapidapi.com" || first[2].Text() != "fetches the weather" {
		t.Fatalf("first run texts %q, %q", first[0].Text(), first[2].Text())
	}
	second, secondVecs, u2 := run()
	if srv.Log.Len() != sent {
		t.Fatalf("the rerun sent %d requests, want none", srv.Log.Len()-sent)
	}
	if u2.Requests != 0 || u2.CacheHits != 5 || u2.PromptTokens != 0 {
		t.Errorf("rerun usage = %+v, want 0 requests and 5 cache hits (3 chats, 2 distinct texts)", u2)
	}
	for i := range first {
		if !second[i].Cached || second[i].Text() != first[i].Text() || second[i].Usage != first[i].Usage || second[i].Key != first[i].Key {
			t.Errorf("answer %d: rerun %+v, first %+v", i, second[i], first[i])
		}
	}
	if fmt.Sprint(secondVecs) != fmt.Sprint(firstVecs) {
		t.Error("cached vectors differ from the first run's")
	}
	// A new Sample of the same request is asked again.
	c, _ := llm.New(cfg, llm.WithCache(s))
	r := reqs[0]
	r.Sample = 1
	if resp, err := c.Chat(ctx, r); err != nil || resp.Cached || srv.Log.Len() != sent+1 {
		t.Errorf("a new sample: cached %v, err %v, %d requests", resp != nil && resp.Cached, err, srv.Log.Len()-sent)
	}
}

const secretKey = "sk-test-4f1d2c3b5a69788796a5b4c3d2e1f0ff"

// The key is sent to the server but appears in no error, log line or printout.
func TestAPIKeyNeverLeaks(t *testing.T) {
	getenv := func(name string) string {
		if name == "SCCG_LLM_KEY" {
			return secretKey
		}
		return ""
	}
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	tests := []struct {
		name      string
		serverKey string
		answers   []replay.LLMAnswer
	}{
		{"retries exhausted", secretKey, []replay.LLMAnswer{replay.Fail(500, "")}},
		{"the server echoes a rejected key", "another-key", nil},
		{"the server echoes the key in an error message", secretKey, []replay.LLMAnswer{{Status: 400, Message: "bad key " + secretKey}}},
		{"the server echoes the key in a garbage body", secretKey, []replay.LLMAnswer{replay.Garbage("key=" + secretKey)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, h, srv, _ := setup(t, replay.LLMOptions{APIKey: tc.serverKey}, llm.Config{APIKeyEnv: "SCCG_LLM_KEY", MaxRetries: 2},
				llm.WithGetenv(getenv), llm.WithLogger(logger))
			h.On("p", tc.answers...)
			_, err := c.Chat(context.Background(), ask("p"))
			if err == nil {
				t.Fatal("no error")
			}
			if strings.Contains(err.Error(), secretKey) || strings.Contains(fmt.Sprintf("%+v %#v", err, err), secretKey) {
				t.Errorf("error shows the key: %v", err)
			}
			if got := srv.Log.All()[0].Header.Get("Authorization"); got != "Bearer "+secretKey {
				t.Errorf("Authorization sent = %q, want the key from the environment", got)
			}
			for _, s := range []string{fmt.Sprint(c), fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c), fmt.Sprintf("%+v", c.Config())} {
				if strings.Contains(s, secretKey) {
					t.Errorf("printing the client shows the key: %s", s)
				}
			}
		})
	}
	if !strings.Contains(logs.String(), "llm: retrying") {
		t.Error("no retry was logged")
	}
	if strings.Contains(logs.String(), secretKey) {
		t.Errorf("logs show the key: %s", logs.String())
	}
}

// Without a key variable nothing is sent, not even an ambient OPENAI_API_KEY.
func TestNoKeyForLocalServers(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "ambient-key")
	t.Setenv("OPENAI_ORG_ID", "ambient-org")
	c, _, srv, _ := setup(t, replay.LLMOptions{}, llm.Config{})
	if _, err := c.Chat(context.Background(), ask("hi")); err != nil {
		t.Fatal(err)
	}
	hdr := srv.Log.All()[0].Header
	if hdr.Get("Authorization") != "" || hdr.Get("OpenAI-Organization") != "" {
		t.Errorf("sent Authorization %q, OpenAI-Organization %q; want neither", hdr.Get("Authorization"), hdr.Get("OpenAI-Organization"))
	}
}

func TestNewChecksTheBaseURL(t *testing.T) {
	tests := []struct {
		base, wantErr string
	}{
		{"", "no base URL"},
		{"localhost:11434", "want http(s)://"},
		{"ftp://host/v1", "want http(s)://"},
		{"http://u:p4ss@host/v1?key=q", ""},
	}
	for _, tc := range tests {
		t.Run(tc.base, func(t *testing.T) {
			c, err := llm.New(llm.Config{BaseURL: tc.base})
			if tc.wantErr == "" {
				if err != nil || strings.Contains(c.String(), "p4ss") || strings.Contains(c.String(), "key=q") {
					t.Fatalf("New = %v, %v; want a client that does not print credentials", c, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

// A base URL without a path means the server's /v1.
func TestBaseURLWithoutPathGetsV1(t *testing.T) {
	h := replay.NewLLM(replay.LLMOptions{})
	srv := replay.Start(h)
	defer srv.Close()
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Chat(context.Background(), ask("hi")); err != nil {
		t.Fatal(err)
	}
	if p := srv.Log.All()[0].Path; p != "/v1/chat/completions" {
		t.Errorf("path = %s", p)
	}
}

func TestChatNeedsModelAndMessages(t *testing.T) {
	c, err := llm.New(llm.Config{BaseURL: "http://127.0.0.1:9/v1"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		req     llm.ChatRequest
		wantErr string
	}{
		{"no model", ask("x"), "no model"},
		{"no messages", llm.ChatRequest{Model: "m"}, "no messages"},
		{"bad role", llm.ChatRequest{Model: "m", Messages: []llm.Message{{Role: "tool", Content: "x"}}}, `unknown role "tool"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := c.Chat(context.Background(), tc.req); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want %q", err, tc.wantErr)
			}
		})
	}
	if u := c.Usage(); u.Requests != 0 {
		t.Errorf("invalid requests were sent: %+v", u)
	}
}

func TestKeysAndHashes(t *testing.T) {
	base := llm.ChatRequest{Model: "m", Messages: []llm.Message{llm.User("<a & b>")}}
	if got := string(base.Canonical()); got != `{"v":1,"model":"m","messages":[{"role":"user","content":"<a & b>"}]}` {
		t.Errorf("Canonical = %s", got)
	}
	variants := map[string]func(*llm.ChatRequest){
		"model":       func(r *llm.ChatRequest) { r.Model = "m2" },
		"message":     func(r *llm.ChatRequest) { r.Messages = []llm.Message{llm.User("<a & c>")} },
		"role":        func(r *llm.ChatRequest) { r.Messages = []llm.Message{llm.System("<a & b>")} },
		"temperature": func(r *llm.ChatRequest) { r.Temperature = llm.Float(0) },
		"top_p":       func(r *llm.ChatRequest) { r.TopP = llm.Float(1) },
		"max_tokens":  func(r *llm.ChatRequest) { r.MaxTokens = 10 },
		"n":           func(r *llm.ChatRequest) { r.N = 5 },
		"seed":        func(r *llm.ChatRequest) { r.Seed = llm.Int64(0) },
		"stop":        func(r *llm.ChatRequest) { r.Stop = []string{"\n"} },
		"sample":      func(r *llm.ChatRequest) { r.Sample = 1 },
	}
	seen := map[string]string{base.Key(): "base"}
	for name, change := range variants {
		r := base
		change(&r)
		k := r.Key()
		if other, dup := seen[k]; dup {
			t.Errorf("changing %s gives the key of %s", name, other)
		}
		seen[k] = name
		if name != "message" && name != "role" && llm.PromptHash(r.Messages) != llm.PromptHash(base.Messages) {
			t.Errorf("changing %s changes the prompt hash", name)
		}
	}
	one := base
	one.N = 1
	if one.Key() != base.Key() {
		t.Error("n=1 and n unset ask the same thing but have different keys")
	}
	if llm.PromptHash(nil) != llm.PromptHash([]llm.Message{}) || len(llm.TextHash("x")) != 64 {
		t.Error("hash helpers")
	}
}

func TestMemoryCacheServesARerun(t *testing.T) {
	cache := llm.NewMemoryCache()
	c, _, srv, _ := setup(t, replay.LLMOptions{}, llm.Config{}, llm.WithCache(cache))
	for range 2 {
		if _, err := c.Chat(context.Background(), ask("hi")); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Embed(context.Background(), "", []string{"a", "b"}); err != nil {
			t.Fatal(err)
		}
	}
	if srv.Log.Len() != 2 {
		t.Errorf("%d requests, want 2 (one chat, one batch)", srv.Log.Len())
	}
	if u := c.Usage(); u.CacheHits != 3 {
		t.Errorf("CacheHits = %d, want 3", u.CacheHits)
	}
}
