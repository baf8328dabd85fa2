package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sccg/internal/replay"
	"sccg/store"
)

// llmCase is one kept function of the fault tests: the API it calls and its code.
type llmCase struct {
	host, route, fn, code string
}

// llmCases are functions that each call their own API, so that each gets its own
// scripted answers; geo_country has a docstring that states its goal.
var llmCases = []llmCase{
	{"cat-facts9.p.rapidapi.com", "/fact", "random_cat_fact", `def random_cat_fact(key):
    r = requests.get("https://cat-facts9.p.rapidapi.com/fact", headers={"x-rapidapi-key": key})
    return r.json()["fact"]
`},
	{"movie-db77.p.rapidapi.com", "/titles/search", "search_movies", `def search_movies(title, key):
    resp = requests.get("https://movie-db77.p.rapidapi.com/titles/search", params={"query": title}, headers={"x-rapidapi-key": key})
    resp.raise_for_status()
    return [m["name"] for m in resp.json()["results"]]
`},
	{"trivia-quiz55.p.rapidapi.com", "/questions/random", "random_question", `def random_question(category, key):
    url = "https://trivia-quiz55.p.rapidapi.com/questions/random"
    data = requests.get(url, params={"category": category}, headers={"x-rapidapi-key": key}).json()
    return data["question"], data["answer"]
`},
	{"word-lists3.p.rapidapi.com", "/rhymes", "rhymes_for", `def rhymes_for(word, key):
    try:
        r = requests.get("https://word-lists3.p.rapidapi.com/rhymes", params={"word": word}, headers={"x-rapidapi-key": key}, timeout=5)
    except requests.RequestException:
        return []
    return r.json()
`},
	{"color-names8.p.rapidapi.com", "/palette", "color_palette", `def color_palette(hex_code, size, key):
    payload = {"hex": hex_code, "count": size}
    out = requests.post("https://color-names8.p.rapidapi.com/palette", json=payload, headers={"x-rapidapi-key": key})
    return out.json().get("colors", [])
`},
	{"space-news4.p.rapidapi.com", "/articles", "latest_space_articles", `def latest_space_articles(limit, key):
    r = requests.get("https://space-news4.p.rapidapi.com/articles", params={"limit": limit}, headers={"x-rapidapi-key": key})
    if r.status_code != 200:
        return None
    return r.json()
`},
	{"stock-ticks6.p.rapidapi.com", "/quote", "stock_quote", `def stock_quote(symbol, key):
    headers = {"x-rapidapi-key": key, "x-rapidapi-host": "stock-ticks6.p.rapidapi.com"}
    q = requests.get("https://stock-ticks6.p.rapidapi.com/quote", params={"symbol": symbol}, headers=headers).json()
    return float(q["price"])
`},
	{"flight-times2.p.rapidapi.com", "/status", "flight_status", `def flight_status(number, date, key):
    r = requests.get("https://flight-times2.p.rapidapi.com/status", params={"flight": number, "date": date}, headers={"x-rapidapi-key": key})
    return r.json()["status"]
`},
	{"geo-ip7.p.rapidapi.com", "/lookup", "geo_country", `def geo_country(ip, key):
    """Look up the country an IP address is in."""
    r = requests.get("https://geo-ip7.p.rapidapi.com/lookup", params={"ip": ip}, headers={"x-rapidapi-key": key})
    return r.json()["country"]
`},
	{"slow-answers5.p.rapidapi.com", "/echo", "slow_echo", `def slow_echo(text, key):
    r = requests.post("https://slow-answers5.p.rapidapi.com/echo", data={"text": text}, headers={"x-rapidapi-key": key})
    return r.text
`},
}

// writeLLMInputs writes an OpenAPI document per API and a git repository per function.
func writeLLMInputs(t *testing.T, cases []llmCase) (docs, repos string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	root := t.TempDir()
	docs, repos = filepath.Join(root, "docs"), filepath.Join(root, "repos")
	write := func(path, body string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cases {
		method := "get"
		if strings.Contains(c.code, "requests.post") {
			method = "post"
		}
		write(filepath.Join(docs, fmt.Sprintf("api%d.json", i)), fmt.Sprintf(`{"openapi": "3.0.3", "info": {"title": "API %d", "version": "1"},
  "servers": [{"url": "https://%s"}], "paths": {%q: {%q: {"operationId": "op", "summary": "op", "responses": {"200": {"description": "ok"}}}}}}`,
			i, c.host, c.route, method))
		repo := filepath.Join(repos, c.fn)
		write(filepath.Join(repo, c.fn+".py"), "import requests\n\n\n"+c.code)
		for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"remote", "add", "origin", "https://github.com/dev" + strconv.Itoa(i) + "/" + c.fn + ".git"},
			{"add", "."}, {"commit", "-q", "-m", "code"}} {
			cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
			cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2025-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2025-01-01T00:00:00Z", "GIT_CONFIG_GLOBAL=/dev/null")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
	}
	return docs, repos
}

// sleeps records the waits the LLM client asked for, and returns at once.
type sleeps struct {
	mu sync.Mutex
	ds []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.ds = append(s.ds, d)
	s.mu.Unlock()
	return ctx.Err()
}

// requestsFor counts the chat requests whose prompt holds the function's def line,
// and returns their prompts (every message's content).
func requestsFor(t *testing.T, log []replay.Request, fn string) (n int, prompts []string) {
	t.Helper()
	for _, r := range log {
		req, err := replay.ParseLLMChat(r.Body)
		if err != nil {
			t.Fatalf("request %s: %v", r.Body, err)
		}
		if p := req.Prompt(); strings.Contains(p, "def "+fn+"(") {
			n++
			prompts = append(prompts, p)
		}
	}
	return n, prompts
}

// exported reads an export as comments_source, intent_path and intent text by function.
func exported(t *testing.T, e *env) map[string][3]string {
	t.Helper()
	dir := t.TempDir()
	js := e.json
	e.json = false
	importTestRun(t, e, 0, "export", "--out", dir)
	e.json = js
	out := map[string][3]string{}
	for fn, r := range readRecords(t, filepath.Join(dir, "sccgbench.json")) {
		path, _ := r["intent_path"].(string)
		text := ""
		if cs, _ := r["comments"].([]any); len(cs) > 0 {
			text, _ = cs[0].(map[string]any)["text"].(string)
		}
		out[fn] = [3]string{r["comments_source"].(string), path, text}
	}
	return out
}

const cleanIntent = "Fetch what the user asked for and return the result."

// TestRedactLLMFaults runs sccg redact against the LLM replay server with one
// scripted behaviour per function: a clean intent, a leak then a clean one, a leak
// twice, garbage (empty, code, 10 kB), a 429 with Retry-After and a 500. Then it
// reruns with --on-leak drop and proves from the request log that the cache
// answered everything: the rerun sends nothing.
func TestRedactLLMFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end build skipped in -short mode")
	}
	docs, repos := writeLLMInputs(t, llmCases[:9])
	e, out, _ := newTestEnv(t)
	importTestRun(t, e, 0, "build", "--docs", docs, "--local", repos)

	l := replay.NewLLM(replay.LLMOptions{APIKey: "sk-replay-secret"})
	srv := replay.Start(l)
	defer srv.Close()
	// The stricter retry is told apart from the first request by what it names.
	l.On(`"movie-db77"`, replay.Answer("Search for films whose title matches what the user typed."))
	l.On(`"trivia-quiz55"`, replay.Answer("Fetch a random question from trivia quiz 55 in a category."))
	l.On("the answer is empty", replay.Answer("Find words that rhyme with a given word."))
	l.On("bytes long, not one or two sentences", replay.Answer("List the latest articles about space flight."))
	l.On("def search_movies(", replay.Answer("Search MovieDB77 for films matching a title."))
	l.On("def random_question(", replay.Answer("Ask TriviaQuiz55 for a random question."))
	l.On("def rhymes_for(", replay.Answer(""))
	l.On("def color_palette(", replay.CodeAnswer())
	l.On("def latest_space_articles(", replay.LongAnswer(10<<10))
	l.On("def stock_quote(", replay.Fail(http.StatusTooManyRequests, "1"), replay.Pass())
	l.On("def flight_status(", replay.Fail(http.StatusInternalServerError, ""), replay.Pass())
	l.Default(replay.Answer(cleanIntent))

	var sl sleeps
	e.sleep = sl.sleep
	e.getenv = func(k string) string {
		if k == "SCCG_LLM_API_KEY" {
			return "sk-replay-secret"
		}
		return ""
	}
	llmArgs := []string{"redact", "--llm-base-url", srv.URL + "/v1", "--llm-model", "replay-chat"}
	out.Reset()
	importTestRun(t, e, 0, llmArgs...)
	t.Logf("sccg redact:\n%s", out)
	if strings.Contains(out.String(), "sk-replay-secret") {
		t.Fatal("the API key was printed")
	}
	got := exported(t, e)
	want := map[string][2]string{
		"random_cat_fact":       {"intent_humanlike", "llm"},
		"search_movies":         {"intent_humanlike", "llm_retry"},
		"random_question":       {"intent_redacted", "fallback"},
		"rhymes_for":            {"intent_humanlike", "llm_retry"},
		"color_palette":         {"intent_redacted", "fallback"},
		"latest_space_articles": {"intent_humanlike", "llm_retry"},
		"stock_quote":           {"intent_humanlike", "llm"},
		"flight_status":         {"intent_humanlike", "llm"},
		"geo_country":           {"original", "original"},
	}
	for fn, w := range want {
		if g := got[fn]; g[0] != w[0] || g[1] != w[1] {
			t.Errorf("%s: %s via %s (%q), want %s via %s", fn, g[0], g[1], g[2], w[0], w[1])
		}
	}
	if g := got["search_movies"][2]; g != "Search for films whose title matches what the user typed." {
		t.Errorf("search_movies: intent %q, want the clean retry", g)
	}
	log := srv.Log.All()
	for _, c := range []struct {
		fn   string
		n    int
		last string // in the last request of the function
	}{
		{"random_cat_fact", 1, "Look up the country an IP address is in."}, // a human comment of another API is a style anchor
		{"search_movies", 2, `must not appear in the intent, in any spelling, case or split into words: "movie-db77"`},
		{"random_question", 2, `"trivia-quiz55"`},
		{"rhymes_for", 2, "the answer is empty"},
		{"color_palette", 2, "the answer is code, not prose"},
		{"latest_space_articles", 2, "bytes long"},
		{"stock_quote", 2, ""}, // the 429, then the same request after Retry-After
		{"flight_status", 2, ""},
		{"geo_country", 0, ""},
	} {
		n, prompts := requestsFor(t, log, c.fn)
		if n != c.n {
			t.Errorf("%s: %d requests, want %d", c.fn, n, c.n)
			continue
		}
		if c.last != "" && !strings.Contains(prompts[n-1], c.last) {
			t.Errorf("%s: the last request lacks %q:\n%s", c.fn, c.last, prompts[n-1])
		}
		for _, b := range prompts {
			for _, lc := range llmCases {
				if lc.fn == c.fn && strings.Contains(b, lc.host) {
					t.Errorf("%s: the prompt holds its own host %s", c.fn, lc.host)
				}
			}
		}
	}
	for _, r := range log {
		if r.Header.Get("Authorization") != "Bearer sk-replay-secret" {
			t.Errorf("request without the API key from $SCCG_LLM_API_KEY")
		}
		req, _ := replay.ParseLLMChat(r.Body)
		if req.Temperature == nil || *req.Temperature != 0 {
			t.Errorf("request without temperature 0: %s", r.Body)
		}
	}
	if !slices.Contains(sl.ds, time.Second) {
		t.Errorf("the client waited %v, want the 1s Retry-After of the 429", sl.ds)
	}

	// every attempt is in the audit, with its prompt, response, report and decision
	e.json = false
	out.Reset()
	importTestRun(t, e, 0, "audit", sampleOf(t, e, "search_movies"))
	for _, w := range []string{"attempt 1  comment  intent_humanlike via llm  FAILED LeakCheck  model replay-chat  → retry",
		`"Search MovieDB77 for films matching a title."`, `"kind":"host_label"`,
		"attempt 2  comment  intent_humanlike via llm_retry  passed LeakCheck  model replay-chat  → accepted", "prompt system:", "prompt assistant:"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("audit of search_movies lacks %q:\n%s", w, out)
		}
	}

	t.Run("a rerun with --on-leak drop sends nothing and drops the leak twice", func(t *testing.T) {
		before := srv.Log.Len()
		out.Reset()
		importTestRun(t, e, 0, append(llmArgs, "--on-leak", "drop")...)
		if n := srv.Log.Len() - before; n != 0 {
			t.Fatalf("the rerun sent %d requests, want 0 (every answer is in the cache)", n)
		}
		if !strings.Contains(out.String(), "0 answers from the server, 13 from the cache") {
			t.Errorf("summary %q, want 13 cached answers", out)
		}
		got := exported(t, e)
		if _, ok := got["random_question"]; ok {
			t.Errorf("random_question is still exported (%v); --on-leak drop must drop it", got["random_question"])
		}
		if len(got) != 8 {
			t.Errorf("%d samples exported, want 8", len(got))
		}
		s, err := store.Open(context.Background(), e.db)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		fid := functionOf(t, s, "random_question")
		ds, _ := s.Decisions(context.Background(), "function", strconv.FormatInt(fid, 10))
		if !slices.ContainsFunc(ds, func(d store.Decision) bool {
			return d.Stage == "redact" && d.Verdict == store.Rejected && strings.Contains(d.Reason, "--on-leak drop")
		}) {
			t.Errorf("no recorded redact decision dropping random_question: %+v", ds)
		}
		out.Reset()
		e.json = false
		importTestRun(t, e, 0, "stats")
		if !strings.Contains(out.String(), "intents of kept functions by path: original 1, llm 3, llm_retry 3, fallback 1, dropped 1") {
			t.Errorf("stats:\n%s", out)
		}
		before = srv.Log.Len()
		importTestRun(t, e, 0, append(llmArgs, "--on-leak", "drop")...)
		if n := srv.Log.Len() - before; n != 0 {
			t.Errorf("a third run sent %d requests, want 0", n)
		}
	})
}

// TestRedactLLMTimeout: a model that never answers in time costs the sample
// nothing (the offline generator writes it, the failure is recorded), and since a
// failure is not an answer, the next run asks again.
func TestRedactLLMTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end build skipped in -short mode")
	}
	docs, repos := writeLLMInputs(t, llmCases[9:])
	e, out, _ := newTestEnv(t)
	importTestRun(t, e, 0, "build", "--docs", docs, "--local", repos)
	l := replay.NewLLM(replay.LLMOptions{})
	srv := replay.Start(l)
	defer srv.Close()
	l.On("def slow_echo(", replay.Slow(time.Hour, replay.Answer("too late")))
	var sl sleeps
	e.sleep = sl.sleep
	args := []string{"redact", "--llm-base-url", srv.URL, "--llm-model", "replay-chat", "--llm-timeout", "150ms", "--llm-retries", "1"}
	out.Reset()
	importTestRun(t, e, 0, args...)
	if g := exported(t, e)["slow_echo"]; g[0] != "intent_redacted" || g[1] != "fallback" {
		t.Errorf("slow_echo: %s via %s, want intent_redacted via fallback", g[0], g[1])
	}
	if n, _ := requestsFor(t, srv.Log.All(), "slow_echo"); n != 2 {
		t.Errorf("%d requests, want 2 (one retry of the timeout)", n)
	}
	for _, r := range srv.Log.All() {
		if r.Status != http.StatusGatewayTimeout {
			t.Errorf("request answered %d, want it held until the client gave up (504)", r.Status)
		}
	}
	e.json = false
	out.Reset()
	importTestRun(t, e, 0, "audit", "SCG-000001")
	if !strings.Contains(out.String(), "→ error") || !strings.Contains(out.String(), "timed out") {
		t.Errorf("audit does not show the failed request:\n%s", out)
	}
	before := srv.Log.Len()
	importTestRun(t, e, 0, args...)
	if srv.Log.Len() == before {
		t.Error("the rerun did not ask again after a failed request")
	}
}

// sampleOf returns the sample id of the function named fn.
func sampleOf(t *testing.T, e *env, fn string) string {
	t.Helper()
	s, err := store.Open(context.Background(), e.db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	smps, err := s.Samples(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, smp := range smps {
		if smp.FunctionName == fn {
			return smp.SampleID
		}
	}
	t.Fatalf("no sample of %s", fn)
	return ""
}

func functionOf(t *testing.T, s *store.Store, fn string) int64 {
	t.Helper()
	ks, err := s.KeptFunctions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range ks {
		f, err := s.Function(context.Background(), k.FunctionID)
		if err == nil && f.Name == fn {
			return f.ID
		}
	}
	t.Fatalf("no kept function %s", fn)
	return 0
}
