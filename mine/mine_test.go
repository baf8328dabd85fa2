package mine_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"sccg/internal/golden"
	"sccg/internal/replay"
	"sccg/internal/storetest"
	"sccg/lang"
	"sccg/mine"
	"sccg/store"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fakeClock advances instantly when slept on; the replay server reads it too.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	slept time.Duration
	// onSleep, when set, runs before each sleep (tests cancel contexts from it).
	onSleep func(d time.Duration)
}

func newFakeClock() *fakeClock {
	// In the past, so that go-github's own wall-clock checks never hold a request.
	return &fakeClock{now: time.Date(2024, 3, 4, 5, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if c.onSleep != nil {
		c.onSleep(d)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.slept += d
	c.mu.Unlock()
	return nil
}

// mineTestStore opens a store holding the two fixture APIs.
func mineTestStore(t testing.TB, clock *fakeClock) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "mine.db"), store.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	apis := []struct {
		slug, host string
		routes     []string
	}{
		{"weather-now", "weather-now.p.rapidapi.com", []string{"/forecast/daily/{location}", "/current", "/v1/aqi"}},
		{"jokes-hub", "jokes-hub.p.rapidapi.com", []string{"/random/joke", "/joke/search"}},
	}
	err = st.Update(ctx, func(tx *store.Tx) error {
		for _, a := range apis {
			var eps []store.Endpoint
			for _, r := range a.routes {
				eps = append(eps, store.Endpoint{IsCurrent: true, Host: a.host, Method: "GET", Route: r})
			}
			if _, err := tx.SaveAPI(ctx, &store.API{Source: "rapidapi", Owner: "fixture", Slug: a.slug, Host: a.host}, eps); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// mineTestServer serves the fixture corpus on the fake clock.
func mineTestServer(t testing.TB, clock *fakeClock, opts replay.GitHubOptions) *replay.Server {
	t.Helper()
	opts.Now = clock.Now
	h, err := replay.GitHub(os.DirFS("testdata/corpus"), opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := replay.Start(h)
	t.Cleanup(srv.Close)
	return srv
}

func mineTestOptions(srv *replay.Server, clock *fakeClock) mine.Options {
	// Python only: the faults these tests script count the searches of one language.
	return mine.Options{APIBase: srv.URL, Tokens: []string{"tok-a"}, HTTPClient: srv.Client(), Clock: clock, Seed: 1,
		Languages: []lang.Name{lang.Python}}
}

// mineListing renders what a run stored and decided, without volatile fields.
func mineListing(t testing.TB, st *store.Store) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	files, err := st.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, f := range files {
		r, err := st.Repository(ctx, f.RepoID)
		if err != nil {
			t.Fatal(err)
		}
		hits, err := st.FileHits(ctx, f.ID)
		if err != nil {
			t.Fatal(err)
		}
		var hs []string
		for _, h := range hits {
			hs = append(hs, h.QueryLayer+" "+h.Query)
		}
		lines = append(lines, fmt.Sprintf("file %s/%s layer=%s stars=%d license=%s sha=%s\n  query: %s\n  hits: %s",
			r.FullName, f.Path, f.QueryLayer, r.Stars, r.License, f.GitSHA[:10], f.Query, strings.Join(hs, "\n        ")))
	}
	sort.Strings(lines)
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	counts, err := st.DecisionCounts(ctx, mine.Stage)
	if err != nil {
		t.Fatal(err)
	}
	var ds []string
	for k, n := range counts {
		ds = append(ds, fmt.Sprintf("decision %s x%d", k, n))
	}
	sort.Strings(ds)
	b.WriteString(strings.Join(ds, "\n") + "\n")
	return b.String()
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), []byte(got), *update)
}

func TestMineReplayGolden(t *testing.T) {
	ctx := context.Background()
	clock := newFakeClock()
	st := mineTestStore(t, clock)
	srv := mineTestServer(t, clock, replay.GitHubOptions{})
	stats, err := mine.Mine(ctx, st, mineTestOptions(srv, clock))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "mine_replay.golden", mineListing(t, st))
	if reps := srv.Log.Repeats(); len(reps) > 0 {
		t.Errorf("repeated requests: %v", reps)
	}
	if stats.Requests != srv.Log.Len() {
		t.Errorf("miner counted %d requests, server saw %d", stats.Requests, srv.Log.Len())
	}
	if stats.Wasted != 0 {
		t.Errorf("wasted %d requests: %+v", stats.Wasted, stats)
	}
	if stats.RateLimited != 2 {
		t.Errorf("rate limited %d times, want the scripted 403 and 429: %+v", stats.RateLimited, stats)
	}
	for _, r := range srv.Log.All() {
		if r.Header.Get("Authorization") != "Bearer tok-a" {
			t.Fatalf("%s sent without the token", r.Path)
		}
	}
	// A second run has nothing left to do: no request at all, nothing changes.
	before := storetest.MustDump(t, st, "repositories", "files", "file_hits", "decisions")
	n := srv.Log.Len()
	if _, err := mine.Mine(ctx, st, mineTestOptions(srv, clock)); err != nil {
		t.Fatal(err)
	}
	if got := srv.Log.All()[n:]; len(got) != 0 {
		t.Errorf("second run sent %d requests, want 0: %+v", len(got), got)
	}
	after := storetest.MustDump(t, st, "repositories", "files", "file_hits", "decisions")
	if before != after {
		t.Errorf("second run changed the store:\n%s\n---\n%s", before, after)
	}
}

func TestMinePacesSearchesAndNeverLogsTheToken(t *testing.T) {
	ctx := context.Background()
	clock := newFakeClock()
	st := mineTestStore(t, clock)
	srv := mineTestServer(t, clock, replay.GitHubOptions{Faults: &replay.GitHubFaults{}})
	var logs strings.Builder
	opts := mineTestOptions(srv, clock)
	opts.Tokens = []string{"secret-one", "secret-two"}
	opts.Logf = func(f string, a ...any) { fmt.Fprintf(&logs, f+"\n", a...) }
	stats, err := mine.Mine(ctx, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	if stats.RateLimited != 0 {
		t.Errorf("paced run was refused %d times", stats.RateLimited)
	}
	used := map[string]int{}
	for _, r := range srv.Log.All() {
		if strings.HasPrefix(r.Path, "/search/") {
			used[r.Header.Get("Authorization")]++
		}
	}
	if used["Bearer secret-one"] == 0 || used["Bearer secret-two"] == 0 {
		t.Errorf("tokens not rotated: %v", used)
	}
	// Two tokens at 10 a minute each: 20 searches a minute at most.
	if min := time.Duration(stats.SearchRequests-2) * 3 * time.Second; clock.slept < min {
		t.Errorf("slept %v for %d searches, want at least %v", clock.slept, stats.SearchRequests, min)
	}
	dump := storetest.MustDump(t, st)
	if strings.Contains(dump+logs.String(), "secret-") {
		t.Error("a token reached the store or the log")
	}
}

// spendFirst spends the token's search budget just before the miner's first search,
// as another process using the same token would.
type spendFirst struct {
	n    int
	next http.RoundTripper
	once sync.Once
}

func (s *spendFirst) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path == "/search/code" {
		s.once.Do(func() {
			for i := 0; i < s.n; i++ {
				req, _ := http.NewRequest(http.MethodGet, r.URL.Scheme+"://"+r.URL.Host+"/search/code?q=elsewhere", nil)
				req.Header.Set("Authorization", r.Header.Get("Authorization"))
				if resp, err := s.next.RoundTrip(req); err == nil {
					resp.Body.Close()
				}
			}
		})
	}
	return s.next.RoundTrip(r)
}

func TestMineWaitsForRateLimitReset(t *testing.T) {
	tests := []struct {
		name        string
		spentBefore bool // the budget was spent before the run began (else: during it)
		wantRefused int
	}{
		{"spent before the run: read from /rate_limit", true, 0},
		{"spent behind its back: one 403, then wait", false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			clock := newFakeClock()
			st := mineTestStore(t, clock)
			srv := mineTestServer(t, clock, replay.GitHubOptions{SearchPerMinute: 2, Faults: &replay.GitHubFaults{}})
			opts := mineTestOptions(srv, clock)
			opts.SearchPerMinute = -1 // no pacing: only the server's answers tell the miner to wait
			if tt.spentBefore {
				for i := 0; i < 2; i++ {
					resp, err := srv.Client().Do(httptestRequest(srv.URL + "/search/code?q=earlier"))
					if err != nil {
						t.Fatal(err)
					}
					resp.Body.Close()
				}
			} else {
				opts.HTTPClient = &http.Client{Transport: &spendFirst{n: 2, next: srv.Client().Transport}}
			}
			start := clock.Now()
			stats, err := mine.Mine(ctx, st, opts)
			if err != nil {
				t.Fatal(err)
			}
			refused := 0
			for _, r := range srv.Log.All() {
				if r.Status == http.StatusForbidden {
					refused++
				}
			}
			if refused != tt.wantRefused || stats.RateLimited != tt.wantRefused {
				t.Errorf("refused %d times (miner counted %d), want %d", refused, stats.RateLimited, tt.wantRefused)
			}
			searches := stats.SearchRequests - stats.RateLimited
			if minWait := time.Duration(searches/2) * time.Minute; clock.Now().Sub(start) < minWait {
				t.Errorf("clock advanced %v for %d searches at 2 a minute, want at least %v", clock.Now().Sub(start), searches, minWait)
			}
			files, _ := st.Files(ctx)
			if len(files) != 5 {
				t.Errorf("stored %d files, want the 5 of an unhindered run", len(files))
			}
		})
	}
}

func httptestRequest(u string) *http.Request {
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("Authorization", "Bearer tok-a")
	return req
}

func TestMineSecondaryLimitsGiveUpWithDecision(t *testing.T) {
	ctx := context.Background()
	clock := newFakeClock()
	st := mineTestStore(t, clock)
	var faults replay.GitHubFaults
	for i := 1; i <= 3; i++ { // the first query's three tries
		faults.TooManyRequests = append(faults.TooManyRequests, replay.RequestFault{SearchRequest: i})
	}
	srv := mineTestServer(t, clock, replay.GitHubOptions{Faults: &faults})
	opts := mineTestOptions(srv, clock)
	opts.MaxTries = 3
	opts.APIs = []string{"jokes-hub"}
	stats, err := mine.Mine(ctx, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Failed != 1 || stats.RateLimited != 3 {
		t.Errorf("failed %d, rate limited %d; want 1 and 3", stats.Failed, stats.RateLimited)
	}
	if clock.slept < 2*time.Minute {
		t.Errorf("slept %v between three 429s, want at least two minutes", clock.slept)
	}
	counts, _ := st.DecisionCounts(ctx, mine.Stage)
	if counts["failed: gave up after repeated rate limits"] != 1 {
		t.Errorf("decisions %v: want one gave-up decision", counts)
	}
	files, _ := st.Files(ctx)
	if len(files) == 0 {
		t.Error("the run did not go on after giving up on one query")
	}
}

func TestMineCancelEndsAWait(t *testing.T) {
	clock := newFakeClock()
	st := mineTestStore(t, clock)
	srv := mineTestServer(t, clock, replay.GitHubOptions{Faults: &replay.GitHubFaults{SecondaryLimit: []replay.RequestFault{{SearchRequest: 1, RetryAfter: 3600}}}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clock.onSleep = func(d time.Duration) {
		if d >= time.Hour {
			cancel()
		}
	}
	_, err := mine.Mine(ctx, st, mineTestOptions(srv, clock))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if n := mineBudgetedRequests(srv); n != 1 {
		t.Errorf("sent %d requests, want only the refused one", n)
	}
}

// cancelAfter cancels a context once n requests have been answered.
type cancelAfter struct {
	n      int
	cancel context.CancelFunc
	next   http.RoundTripper
	mu     sync.Mutex
	seen   int
}

func (c *cancelAfter) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(r)
	c.mu.Lock()
	c.seen++
	if c.seen == c.n {
		c.cancel()
	}
	c.mu.Unlock()
	return resp, err
}

func TestMineResumesAfterKill(t *testing.T) {
	ctx := context.Background()
	tables := []string{"repositories", "files", "file_hits", "blobs"}

	clock := newFakeClock()
	want := mineTestStore(t, clock)
	srv := mineTestServer(t, clock, replay.GitHubOptions{Faults: &replay.GitHubFaults{}})
	if _, err := mine.Mine(ctx, want, mineTestOptions(srv, clock)); err != nil {
		t.Fatal(err)
	}
	wantDump := storetest.MustDump(t, want, tables...)
	total := mineBudgetedRequests(srv)

	for _, k := range []int{3, total / 2, total - 2} {
		t.Run(fmt.Sprintf("killed after %d requests", k), func(t *testing.T) {
			clock := newFakeClock()
			st := mineTestStore(t, clock)
			srv := mineTestServer(t, clock, replay.GitHubOptions{Faults: &replay.GitHubFaults{}})
			kctx, cancel := context.WithCancel(ctx)
			defer cancel()
			opts := mineTestOptions(srv, clock)
			opts.HTTPClient = &http.Client{Transport: &cancelAfter{n: k, cancel: cancel, next: srv.Client().Transport}}
			if _, err := mine.Mine(kctx, st, opts); !errors.Is(err, context.Canceled) {
				t.Fatalf("killed run: got %v, want context.Canceled", err)
			}
			if _, err := mine.Mine(ctx, st, mineTestOptions(srv, clock)); err != nil {
				t.Fatal(err)
			}
			got := storetest.MustDump(t, st, tables...)
			if got != wantDump {
				t.Errorf("resumed store differs:\n%s\n--- want\n%s", got, wantDump)
			}
			// Resuming re-sends at most the search page that was cut short and the
			// request whose answer the kill lost.
			if extra := mineBudgetedRequests(srv) - total; extra > 2 {
				t.Errorf("killed and resumed runs sent %d requests more than one run: %v", extra, srv.Log.Repeats())
			}
		})
	}
}

// mineBudgetedRequests counts the requests that cost rate-limit budget (all but
// /rate_limit).
func mineBudgetedRequests(srv *replay.Server) int {
	n := 0
	for _, r := range srv.Log.All() {
		if r.Path != "/rate_limit" {
			n++
		}
	}
	return n
}

func TestMineRetriesIncompleteResults(t *testing.T) {
	ctx := context.Background()
	clock := newFakeClock()
	want := mineTestStore(t, clock)
	srv := mineTestServer(t, clock, replay.GitHubOptions{Faults: &replay.GitHubFaults{}})
	if _, err := mine.Mine(ctx, want, mineTestOptions(srv, clock)); err != nil {
		t.Fatal(err)
	}
	wantDump := storetest.MustDump(t, want, "files", "file_hits")

	st := mineTestStore(t, clock)
	srv = mineTestServer(t, clock, replay.GitHubOptions{Faults: &replay.GitHubFaults{Incomplete: []replay.RequestFault{{SearchRequest: 1}}}})
	if _, err := mine.Mine(ctx, st, mineTestOptions(srv, clock)); err != nil {
		t.Fatal(err)
	}
	got := storetest.MustDump(t, st, "files", "file_hits")
	if got != wantDump {
		t.Errorf("after an incomplete page:\n%s\n--- want\n%s", got, wantDump)
	}
	if reps := srv.Log.Repeats(); len(reps) != 1 || !strings.HasPrefix(reps[0], "2x GET /search/code?page=1") {
		t.Errorf("repeats %v, want the incomplete first page asked twice", reps)
	}
}

func TestMineRefreshesStaleMetadataConditionally(t *testing.T) {
	ctx := context.Background()
	clock := newFakeClock()
	st := mineTestStore(t, clock)
	srv := mineTestServer(t, clock, replay.GitHubOptions{Faults: &replay.GitHubFaults{}})
	opts := mineTestOptions(srv, clock)
	opts.APIs = []string{"jokes-hub"}
	if _, err := mine.Mine(ctx, st, opts); err != nil {
		t.Fatal(err)
	}
	// Two days later the weather API is mined: bob/bots holds one of its files, and
	// its metadata is asked for again with the ETag, answered 304.
	clock.Sleep(ctx, 48*time.Hour)
	opts.APIs = []string{"weather-now"}
	stats, err := mine.Mine(ctx, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	if stats.NotModified != 1 {
		t.Errorf("not modified %d, want 1 (bob/bots): %+v", stats.NotModified, stats)
	}
	var sawConditional bool
	for _, r := range srv.Log.All() {
		if r.Path == "/repos/bob/bots" && r.Header.Get("If-None-Match") != "" && r.Status == http.StatusNotModified {
			sawConditional = true
		}
	}
	if !sawConditional {
		t.Error("no conditional request for bob/bots")
	}
	r, err := st.RepositoryByName(ctx, "bob/bots")
	if err != nil || r.Stars != 1 || !r.IsFork || !r.Archived {
		t.Errorf("bob/bots after a 304: %+v, %v", r, err)
	}
}

func TestMineRotatesAwayFromAnExhaustedToken(t *testing.T) {
	ctx := context.Background()
	clock := newFakeClock()
	st := mineTestStore(t, clock)
	srv := mineTestServer(t, clock, replay.GitHubOptions{SearchPerMinute: 100, Faults: &replay.GitHubFaults{}})
	for i := 0; i < 100; i++ { // tok-a's budget is gone for this minute
		resp, err := srv.Client().Do(httptestRequest(srv.URL + "/search/code?q=earlier"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	n := srv.Log.Len()
	opts := mineTestOptions(srv, clock)
	opts.Tokens = []string{"tok-a", "tok-b"}
	opts.SearchPerMinute = -1
	start := clock.Now()
	if _, err := mine.Mine(ctx, st, opts); err != nil {
		t.Fatal(err)
	}
	if waited := clock.Now().Sub(start); waited != 0 {
		t.Errorf("waited %v although tok-b was free", waited)
	}
	for _, r := range srv.Log.All()[n:] {
		if strings.HasPrefix(r.Path, "/search/") && r.Header.Get("Authorization") != "Bearer tok-b" {
			t.Errorf("search sent with the exhausted token: %s", r.Path)
		}
	}
}

// failingTransport answers some requests itself: the first search with a 502, and
// every search naming the given term with a 422.
type failingTransport struct {
	next    http.RoundTripper
	term    string
	mu      sync.Mutex
	first   bool
	answers int
}

func (f *failingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	f.mu.Lock()
	status := 0
	if r.URL.Path == "/search/code" {
		switch {
		case !f.first:
			f.first, status = true, http.StatusBadGateway
		case strings.Contains(r.URL.Query().Get("q"), f.term):
			status = http.StatusUnprocessableEntity
		}
	}
	if status != 0 {
		f.answers++
	}
	f.mu.Unlock()
	if status == 0 {
		return f.next.RoundTrip(r)
	}
	return &http.Response{StatusCode: status, Status: http.StatusText(status), Request: r, Header: http.Header{},
		Body: io.NopCloser(strings.NewReader(`{"message":"` + http.StatusText(status) + `"}`))}, nil
}

func TestMineServerErrorsEndOnlyTheirUnit(t *testing.T) {
	ctx := context.Background()
	clock := newFakeClock()
	st := mineTestStore(t, clock)
	srv := mineTestServer(t, clock, replay.GitHubOptions{Faults: &replay.GitHubFaults{}})
	opts := mineTestOptions(srv, clock)
	ft := &failingTransport{next: srv.Client().Transport, term: `"/current"`}
	opts.HTTPClient = &http.Client{Transport: ft}
	stats, err := mine.Mine(ctx, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	if stats.ServerErrors != 1 || stats.Failed != 1 {
		t.Errorf("server errors %d, failed %d; want 1 and 1 (%+v)", stats.ServerErrors, stats.Failed, stats)
	}
	counts, _ := st.DecisionCounts(ctx, mine.Stage)
	if counts["failed: request failed (422 Unprocessable Entity)"] != 1 {
		t.Errorf("decisions %v: want one failed query", counts)
	}
	files, _ := st.Files(ctx)
	if len(files) != 5 {
		t.Errorf("stored %d files, want 5: the host query still finds current.py", len(files))
	}
}

// closeStoreAfterSearch closes the store once a code search naming term is
// answered, so every lookup the miner makes about its results fails.
type closeStoreAfterSearch struct {
	next http.RoundTripper
	term string
	st   *store.Store
}

func (c *closeStoreAfterSearch) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(r)
	if r.URL.Path == "/search/code" && strings.Contains(r.URL.Query().Get("q"), c.term) {
		c.st.Close()
	}
	return resp, err
}

func TestMineReportsStoreErrors(t *testing.T) {
	ctx := context.Background()
	clock := newFakeClock()
	st := mineTestStore(t, clock)
	srv := mineTestServer(t, clock, replay.GitHubOptions{})
	opts := mineTestOptions(srv, clock)
	opts.HTTPClient = &http.Client{Transport: &closeStoreAfterSearch{next: srv.Client().Transport, term: "/forecast/daily", st: st}}
	_, err := mine.Mine(ctx, st, opts)
	if err == nil || !strings.Contains(err.Error(), "repository alice/weather-app") || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("err = %v, want the failed repository lookup reported", err)
	}
	for _, r := range srv.Log.All() {
		if strings.HasPrefix(r.Path, "/repos/") {
			t.Errorf("requested %s after the store failed: a failed lookup was taken for a missing row", r.Path)
		}
	}
}
