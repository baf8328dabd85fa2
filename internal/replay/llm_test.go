package replay

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func startLLM(t *testing.T, opts LLMOptions) (*LLM, *Server) {
	t.Helper()
	l := NewLLM(opts)
	srv := Start(l)
	t.Cleanup(srv.Close)
	return l, srv
}

// post sends body to path and returns the status, the Retry-After header and the
// decoded JSON answer (nil when it is not JSON).
func post(t *testing.T, c *http.Client, url, body string) (int, string, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer k")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v map[string]any
	json.Unmarshal(b, &v)
	return resp.StatusCode, resp.Header.Get("Retry-After"), v
}

func chatBody(prompt string) string {
	b, _ := json.Marshal(map[string]any{"model": "m", "messages": []map[string]string{{"role": "user", "content": prompt}}})
	return string(b)
}

func content(v map[string]any, i int) string {
	ch, _ := v["choices"].([]any)
	if i >= len(ch) {
		return "<no choice>"
	}
	msg := ch[i].(map[string]any)["message"].(map[string]any)
	s, _ := msg["content"].(string)
	return s
}

func TestLLMScriptedChatAnswers(t *testing.T) {
	l, srv := startLLM(t, LLMOptions{})
	l.On("weather", Answer("leaky: call weatherapi-com.p.rapidapi.com"), Answer("clean intent"))
	l.On("flaky", Fail(http.StatusTooManyRequests, "2"), Pass())
	l.On("broken", Fail(http.StatusInternalServerError, ""))
	l.On("garbage", Garbage("{not json"))
	l.Default(Answer("default answer"))
	url := srv.URL + "/v1/chat/completions"
	tests := []struct {
		name, prompt string
		status       int
		retryAfter   string
		want         string
	}{
		{"first call of a prompt", "get the weather", 200, "", "leaky: call weatherapi-com.p.rapidapi.com"},
		{"second call of the same prompt", "get the weather", 200, "", "clean intent"},
		{"the last answer repeats", "get the weather", 200, "", "clean intent"},
		{"another prompt matching the rule starts its own sequence", "weather in Paris", 200, "", "leaky: call weatherapi-com.p.rapidapi.com"},
		{"429 with Retry-After", "flaky prompt", 429, "2", ""},
		{"then Pass falls through to the default", "flaky prompt", 200, "", "default answer"},
		{"500", "broken prompt", 500, "", ""},
		{"500 again: the last answer repeats", "broken prompt", 500, "", ""},
		{"garbage is sent verbatim", "garbage prompt", 200, "", "<no choice>"},
		{"no rule matches", "something else", 200, "", "default answer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, ra, v := post(t, http.DefaultClient, url, chatBody(tc.prompt))
			if status != tc.status || ra != tc.retryAfter {
				t.Fatalf("got %d Retry-After %q, want %d %q", status, ra, tc.status, tc.retryAfter)
			}
			if status == 200 && content(v, 0) != tc.want {
				t.Fatalf("content = %q, want %q", content(v, 0), tc.want)
			}
			if status >= 400 {
				if e, _ := v["error"].(map[string]any); e == nil || e["message"] == "" {
					t.Errorf("error answer without an OpenAI error object: %v", v)
				}
			}
		})
	}
	if n := srv.Log.Len(); n != len(tests) {
		t.Errorf("log has %d requests, want %d", n, len(tests))
	}
}

func TestLLMChatAnswerShape(t *testing.T) {
	l, srv := startLLM(t, LLMOptions{})
	l.On("three", Answer("one two"), Answer("three"), LLMAnswer{Content: "cut", FinishReason: "length"})
	_, _, v := post(t, http.DefaultClient, srv.URL+"/v1/chat/completions",
		`{"model":"m","n":3,"messages":[{"role":"system","content":"be brief"},{"role":"user","content":[{"type":"text","text":"give "},{"type":"text","text":"three"}]}]}`)
	if content(v, 0) != "one two" || content(v, 1) != "three" || content(v, 2) != "cut" {
		t.Fatalf("choices = %v, want the sequence's three answers", v["choices"])
	}
	if fr := v["choices"].([]any)[2].(map[string]any)["finish_reason"]; fr != "length" {
		t.Errorf("finish_reason = %v, want length", fr)
	}
	u := v["usage"].(map[string]any)
	// prompt "be brief\ngive three" is 4 words; completions 2+1+1
	if u["prompt_tokens"] != 4.0 || u["completion_tokens"] != 4.0 || u["total_tokens"] != 8.0 {
		t.Errorf("usage = %v, want 4 prompt and 4 completion tokens", u)
	}
	if v["model"] != "m" || v["object"] != "chat.completion" {
		t.Errorf("answer = %v", v)
	}
	req, err := ParseLLMChat(srv.Log.All()[0].Body)
	if err != nil || req.N != 3 || req.Prompt() != "be brief\ngive three" {
		t.Errorf("ParseLLMChat = %+v, %v", req, err)
	}
}

func TestLLMSlowAnswerOutlastsTheClient(t *testing.T) {
	l, srv := startLLM(t, LLMOptions{})
	l.On("slow", Slow(time.Hour, Answer("too late")), Answer("in time"))
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/chat/completions", strings.NewReader(chatBody("slow")))
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	for l.inFlight() == 0 { // wait until the server holds the request
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; err == nil {
		t.Fatal("a request held for an hour answered")
	}
	srv.Close() // waits for the handler: it must end when the client gives up
	if got := srv.Log.All(); len(got) != 1 || got[0].Status != http.StatusGatewayTimeout {
		t.Fatalf("log = %+v, want one request marked 504", got)
	}
}

func (l *LLM) inFlight() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.inflight
}

func TestLLMEmbeddings(t *testing.T) {
	l, srv := startLLM(t, LLMOptions{Dims: 16})
	l.Vector("fixed", []float32{1, 0, 0})
	l.OnEmbed("fail once", Fail(http.StatusServiceUnavailable, "1"), Pass())
	url := srv.URL + "/v1/embeddings"
	status, _, v := post(t, http.DefaultClient, url, `{"model":"e","input":["fixed","weather forecast for a city"]}`)
	if status != 200 {
		t.Fatalf("status %d", status)
	}
	data := v["data"].([]any)
	if len(data) != 2 || data[1].(map[string]any)["index"] != 1.0 {
		t.Fatalf("data = %v", data)
	}
	if got := data[0].(map[string]any)["embedding"].([]any); len(got) != 3 || got[0] != 1.0 {
		t.Errorf("scripted vector = %v, want [1 0 0]", got)
	}
	if got := data[1].(map[string]any)["embedding"].([]any); len(got) != 16 {
		t.Errorf("default vector has %d dims, want 16", len(got))
	}
	if u := v["usage"].(map[string]any); u["prompt_tokens"] != 6.0 {
		t.Errorf("usage = %v, want 6 prompt tokens", u)
	}
	if status, ra, _ := post(t, http.DefaultClient, url, `{"model":"e","input":"please fail once"}`); status != 503 || ra != "1" {
		t.Errorf("scripted fault: %d %q, want 503 with Retry-After 1", status, ra)
	}
	if status, _, _ := post(t, http.DefaultClient, url, `{"model":"e","input":"please fail once"}`); status != 200 {
		t.Errorf("after the fault: %d, want the vectors", status)
	}
	_, _, v = post(t, http.DefaultClient, url, `{"model":"e","input":"fixed","encoding_format":"base64"}`)
	if s, _ := v["data"].([]any)[0].(map[string]any)["embedding"].(string); s != "AACAPwAAAAAAAAAA" {
		t.Errorf("base64 vector = %q, want little-endian float32 1,0,0", s)
	}
	if status, _, _ := post(t, http.DefaultClient, url, `{"model":"e","input":[[1,2]]}`); status != 400 {
		t.Errorf("token arrays: %d, want 400", status)
	}
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

func TestBagOfWordsSimilarTextsAreClose(t *testing.T) {
	a := BagOfWords("Get the 15-minute weather forecast for a city", 64)
	b := BagOfWords("weather forecast of a city, every 15 minutes", 64)
	c := BagOfWords("Translate text between languages", 64)
	if d := cosine(a, a); math.Abs(d-1) > 1e-6 {
		t.Errorf("self similarity %v, want 1", d)
	}
	if ab, ac := cosine(a, b), cosine(a, c); ab <= ac || ab < 0.5 {
		t.Errorf("cos(similar) = %.2f, cos(unrelated) = %.2f: want the similar pair clearly closer", ab, ac)
	}
	if fmtVec(BagOfWords("x y", 8)) != fmtVec(BagOfWords("X, y!", 8)) {
		t.Error("vectors depend on case or punctuation")
	}
	if v := BagOfWords("  ", 4); v[0] != 1 {
		t.Errorf("empty text = %v, want the first unit vector", v)
	}
}

func fmtVec(v []float32) string { b, _ := json.Marshal(v); return string(b) }

func TestLLMAPIKey(t *testing.T) {
	_, srv := startLLM(t, LLMOptions{APIKey: "k"})
	if status, _, _ := post(t, http.DefaultClient, srv.URL+"/v1/chat/completions", chatBody("hi")); status != 200 {
		t.Errorf("right key: %d", status)
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v1/models", nil)
	req.Header.Set("Authorization", "Bearer wrong-key")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 401 || !strings.Contains(string(b), "wrong-key") {
		t.Errorf("wrong key: %d %s, want a 401 that repeats the key sent", resp.StatusCode, b)
	}
}

func TestLLMGateHoldsUntilNInFlight(t *testing.T) {
	l, srv := startLLM(t, LLMOptions{})
	const n, total = 3, 7
	l.Gate(n, total)
	var wg sync.WaitGroup
	for range total {
		wg.Go(func() {
			resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(chatBody("hi")))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		})
	}
	wg.Wait()
	if got := l.MaxInFlight(); got < n {
		t.Fatalf("MaxInFlight = %d, want at least %d", got, n)
	}
	if srv.Log.Len() != total {
		t.Fatalf("%d requests answered, want %d", srv.Log.Len(), total)
	}
}

func TestLLMModelsAndUnknownPaths(t *testing.T) {
	_, srv := startLLM(t, LLMOptions{})
	resp, body := get(t, http.DefaultClient, srv.URL+"/v1/models")
	if resp.StatusCode != 200 || !strings.Contains(body, `"replay-embed"`) {
		t.Errorf("models: %d %s", resp.StatusCode, body)
	}
	if resp, _ := get(t, http.DefaultClient, srv.URL+"/v1/completions"); resp.StatusCode != 404 {
		t.Errorf("unknown path: %d, want 404", resp.StatusCode)
	}
}
