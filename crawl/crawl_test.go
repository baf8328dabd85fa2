package crawl

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"sccg/internal/golden"
	"sccg/internal/replay"
	"sccg/internal/storetest"
	"sccg/store"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

var testClock = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func startHub(t *testing.T, opts replay.RapidAPIOptions) *replay.Server {
	t.Helper()
	h, err := replay.RapidAPI(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := replay.Start(h)
	t.Cleanup(srv.Close)
	return srv
}

// sleeps records the waits a crawl asked for instead of sleeping.
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

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.ds...)
}

func hubOptions(srv *replay.Server, sl *sleeps) Options {
	return Options{BaseURL: srv.URL, PageSize: 7, Sleep: sl.sleep,
		Jitter: func(max time.Duration) time.Duration { return max / 2 }, Now: func() time.Time { return testClock }}
}

// readableDump renders the crawled APIs, endpoints, params and the crawl decisions
// as text for golden files.
func readableDump(t *testing.T, s *store.Store) string {
	t.Helper()
	ctx := context.Background()
	apis, err := s.APIs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(apis, func(i, j int) bool {
		return apis[i].Source+apis[i].Owner+"/"+apis[i].Slug < apis[j].Source+apis[j].Owner+"/"+apis[j].Slug
	})
	f := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprint(*p)
	}
	var b strings.Builder
	for _, a := range apis {
		subs := "-"
		if a.Subscribers != nil {
			subs = fmt.Sprint(*a.Subscribers)
		}
		fmt.Fprintf(&b, "api %s %s/%s host=%s version=%s category=%q title=%q pricing=%s popularity=%s subscribers=%s latency=%s success=%s url=%s openapi=%dB\n",
			a.Source, a.Owner, a.Slug, a.Host, a.Version, a.Category, a.Title, a.Pricing, f(a.Popularity), subs, f(a.LatencyMS), f(a.SuccessRate), a.URL, len(a.OpenAPI))
		eps, err := s.Endpoints(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range eps {
			cur := " "
			if e.IsCurrent {
				cur = "*"
			}
			fmt.Fprintf(&b, "  %s%s %s %s %s name=%q", cur, e.Version, e.Method, e.Host, e.Route, e.Name)
			if e.ContentType != "" {
				fmt.Fprintf(&b, " content=%s body=%s", e.ContentType, e.BodyExample)
			}
			b.WriteByte('\n')
			for _, p := range e.Params {
				req := "optional"
				if p.Required {
					req = "required"
				}
				fmt.Fprintf(&b, "    %s %s %s %s", p.Location, p.Name, p.Type, req)
				if p.Example != "" {
					fmt.Fprintf(&b, " example=%q", p.Example)
				}
				if p.Default != "" {
					fmt.Fprintf(&b, " default=%q", p.Default)
				}
				b.WriteByte('\n')
			}
		}
	}
	counts, err := s.DecisionCounts(ctx, Stage)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(&b, "decision %s (%d)\n", k, counts[k])
	}
	return b.String()
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "golden", name), []byte(got), *update)
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	inW, inG := map[string]int{}, map[string]int{}
	for _, l := range w {
		inW[l]++
	}
	for _, l := range g {
		inG[l]++
	}
	var b strings.Builder
	for _, l := range w {
		if inG[l] == 0 {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range g {
		if inW[l] == 0 {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}

func TestCrawlSnapshotGolden(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	srv := startHub(t, replay.RapidAPIOptions{})
	var sl sleeps
	sum, err := Run(ctx, s, hubOptions(srv, &sl))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "snapshot.txt", readableDump(t, s))
	if reps := srv.Log.Repeats(); len(reps) != 0 {
		t.Errorf("requested more than once: %v", reps)
	}
	cat := loadCatalog(t)
	if sum.Saved != len(cat.APIs) || sum.Targets != len(cat.APIs)+3 || sum.Bad != 3 || sum.Retries != 2 {
		t.Errorf("summary = %+v; want %d saved of %d targets, 3 bad (no data, truncated, robots), 2 retries", sum, len(cat.APIs), len(cat.APIs)+3)
	}
	// The 429 said Retry-After: 3; the 500 had none, so backoff: 1s plus jitter
	// (the test's jitter picks the middle of its [0, 0.5s) range).
	if got := fmt.Sprint(sl.all()); got != "[3s 1.25s]" {
		t.Errorf("waits = %s, want [3s 1.25s]", got)
	}
	for _, r := range srv.Log.All() {
		if !strings.HasPrefix(r.Header.Get("User-Agent"), "sccg-crawler/") {
			t.Fatalf("request %s sent User-Agent %q", r.Path, r.Header.Get("User-Agent"))
		}
		if strings.HasPrefix(r.Path, "/internal-tools/") {
			t.Errorf("fetched %s although robots.txt disallows it", r.Path)
		}
	}
	for _, a := range cat.APIs {
		api, err := s.APIBySlug(ctx, a.Owner, a.Slug)
		if err != nil {
			t.Fatal(err)
		}
		if err := ValidateOpenAPI(ctx, []byte(api.OpenAPI)); err != nil {
			t.Errorf("%s/%s stored OpenAPI: %v", a.Owner, a.Slug, err)
		}
	}

	// A second run fetches nothing and changes nothing.
	before := storetest.MustDump(t, s)
	n := srv.Log.Len()
	sum2, err := Run(ctx, s, hubOptions(srv, &sl))
	if err != nil {
		t.Fatal(err)
	}
	after := storetest.MustDump(t, s)
	if srv.Log.Len() != n || sum2.Fetched != 0 || sum2.Skipped != len(cat.APIs) {
		t.Errorf("rerun made %d requests, summary %+v", srv.Log.Len()-n, sum2)
	}
	if before != after {
		t.Errorf("rerun changed the store:\n%s", lineDiff(before, after))
	}
}

// cancelAfter is a progress counter that cancels the crawl after n units.
type cancelAfter struct {
	mu     sync.Mutex
	n      int64
	cancel context.CancelFunc
}

func (c *cancelAfter) SetTotal(int64) {}
func (c *cancelAfter) Done()          {}
func (c *cancelAfter) Add(k int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n -= k
	if c.n <= 0 {
		c.cancel()
	}
}

func TestCrawlResumesAfterCancel(t *testing.T) {
	ctx := context.Background()
	var sl sleeps

	whole := storetest.Open(t)
	if _, err := Run(ctx, whole, hubOptions(startHub(t, replay.RapidAPIOptions{}), &sl)); err != nil {
		t.Fatal(err)
	}
	want, err := whole.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}

	for _, stopAfter := range []int64{1, 11, 20} {
		t.Run(fmt.Sprintf("cancel after %d pages", stopAfter), func(t *testing.T) {
			s := storetest.Open(t)
			srv := startHub(t, replay.RapidAPIOptions{})
			cctx, cancel := context.WithCancel(ctx)
			defer cancel()
			o := hubOptions(srv, &sl)
			o.Progress = &cancelAfter{n: stopAfter, cancel: cancel}
			sum, err := Run(cctx, s, o)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted run: %v, want context.Canceled", err)
			}
			if sum.Saved == 0 {
				t.Fatalf("interrupted run saved nothing")
			}
			if _, err := Run(ctx, s, hubOptions(srv, &sl)); err != nil {
				t.Fatal(err)
			}
			got, err := s.Dump(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("resumed store differs from an uninterrupted crawl:\n%s", lineDiff(want, got))
			}
			if reps := srv.Log.Repeats(); len(reps) != 0 {
				t.Errorf("resumed crawl refetched: %v", reps)
			}
		})
	}
}

func TestCrawlNamedAPIs(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		apis      []string
		wantSaved int
		wantBad   int
		wantErr   error
	}{
		{"owner/slug", []string{"skyward-labs/weatherstack-forecast"}, 1, 0, nil},
		{"playground url and duplicate", []string{"https://rapidapi.com/jokester/api/dad-jokes-daily/playground", "jokester/dad-jokes-daily"}, 1, 0, nil},
		{"redirected page", []string{"travelgo/hotel-search-engine"}, 1, 0, nil},
		{"bad reference goes on", []string{"not-a-ref", "mailcheck/email-verifier"}, 1, 1, nil},
		{"unknown api", []string{"nobody/nothing"}, 0, 1, ErrNothingCrawled},
		{"only bad pages", []string{"ghostdev/retired-api", "brokenco/half-page-api"}, 0, 2, ErrNothingCrawled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := storetest.Open(t)
			srv := startHub(t, replay.RapidAPIOptions{})
			var sl sleeps
			o := hubOptions(srv, &sl)
			o.APIs = tc.apis
			sum, err := Run(ctx, s, o)
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if sum.Saved != tc.wantSaved || sum.Bad != tc.wantBad {
				t.Errorf("saved %d bad %d, want %d %d (%+v)", sum.Saved, sum.Bad, tc.wantSaved, tc.wantBad, sum)
			}
			for _, r := range srv.Log.All() {
				if strings.HasPrefix(r.Path, "/gateway/") {
					t.Errorf("named crawl used discovery: %s", r.Path)
				}
			}
		})
	}
}

func TestCrawlDiscovery(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		opts func(*Options)
		want []string
	}{
		{"graphql category", func(o *Options) { o.Categories = []string{"Sports"} },
			[]string{"f1data/formula-one-results", "hoopsapi/basketball-stats", "sportsdata/football-live-scores"}},
		{"graphql keyword", func(o *Options) { o.Queries = []string{"trends"} },
			[]string{"trendlab/realtime-google-trends", "trendlab2/google-realtime-trends-data-api"}},
		{"category pages", func(o *Options) { o.Categories = []string{"Sports"}; o.Discovery = "pages"; o.PageSize = 2 },
			[]string{"f1data/formula-one-results", "hoopsapi/basketball-stats", "sportsdata/football-live-scores"}},
		{"search pages", func(o *Options) { o.Queries = []string{"weather"}; o.Discovery = "pages" },
			[]string{"airq/air-quality-index", "meteo-hub/open-meteo-data", "skyward-labs/weatherstack-forecast"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := storetest.Open(t)
			srv := startHub(t, replay.RapidAPIOptions{PageSize: 2})
			var sl sleeps
			o := hubOptions(srv, &sl)
			tc.opts(&o)
			if _, err := Run(ctx, s, o); err != nil {
				t.Fatal(err)
			}
			apis, _ := s.APIs(ctx)
			var got []string
			for _, a := range apis {
				got = append(got, a.Owner+"/"+a.Slug)
			}
			sort.Strings(got)
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("crawled %v, want %v", got, tc.want)
			}
			if reps := srv.Log.Repeats(); len(reps) != 0 {
				t.Errorf("requested more than once: %v", reps)
			}
		})
	}
}

func TestCrawlRetriesGiveUp(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	page := replay.PlaygroundPath("airq", "air-quality-index")
	srv := startHub(t, replay.RapidAPIOptions{Faults: map[string][]replay.Fault{
		page: {{Status: 503}, {Status: 503}, {Status: 503}, {Status: 503}, {Status: 503}},
	}})
	var sl sleeps
	o := hubOptions(srv, &sl)
	o.APIs = []string{"airq/air-quality-index", "airq/air-quality-index", "jokester/dad-jokes-daily"}
	sum, err := Run(ctx, s, o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Saved != 1 || sum.Bad != 1 || sum.Retries != 3 {
		t.Errorf("summary %+v, want 1 saved, 1 bad, 3 retries", sum)
	}
	ds, _ := s.Decisions(ctx, "page", PlaygroundURL("airq", "air-quality-index"))
	if len(ds) != 1 || ds[0].Verdict != store.Failed || ds[0].Reason != "HTTP 503 after 4 attempt(s)" {
		t.Errorf("decisions = %+v", ds)
	}
	// 1s, 2s, 4s backoff, each plus the middle of its [0, d/2) jitter range.
	if got := fmt.Sprint(sl.all()); got != "[1.25s 2.5s 5s]" {
		t.Errorf("waits = %s", got)
	}
}

// A server asking to wait longer than MaxRetryAfter does not stall the crawl: the
// page fails with the wait it asked for, and the rest goes on.
func TestCrawlRefusesOverlongRetryAfter(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	page := replay.PlaygroundPath("airq", "air-quality-index")
	srv := startHub(t, replay.RapidAPIOptions{Faults: map[string][]replay.Fault{
		page: {{Status: 429, RetryAfter: "86400"}},
	}})
	var sl sleeps
	o := hubOptions(srv, &sl)
	o.MaxRetryAfter = time.Hour
	o.APIs = []string{"airq/air-quality-index", "jokester/dad-jokes-daily"}
	sum, err := Run(ctx, s, o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Saved != 1 || sum.Bad != 1 {
		t.Errorf("summary %+v, want 1 saved and 1 bad", sum)
	}
	if len(sl.all()) != 0 {
		t.Errorf("waited %v, want no wait", sl.all())
	}
	ds, _ := s.Decisions(ctx, "page", PlaygroundURL("airq", "air-quality-index"))
	if len(ds) != 1 || !strings.Contains(ds[0].Reason, "retry after 24h0m0s") {
		t.Errorf("decisions = %+v, want one naming the 24h wait", ds)
	}
}

// --refresh of one source leaves the others' done units alone.
func TestCrawlRefreshIsPerSource(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	if err := s.Update(ctx, func(tx *store.Tx) error { return tx.MarkDone(ctx, Stage, SourceOpenAPI+":/docs/a.yaml", 0) }); err != nil {
		t.Fatal(err)
	}
	srv := startHub(t, replay.RapidAPIOptions{})
	var sl sleeps
	o := hubOptions(srv, &sl)
	o.APIs = []string{"coinlore/crypto-prices-live"}
	o.Refresh = true
	if _, err := Run(ctx, s, o); err != nil {
		t.Fatal(err)
	}
	done, _ := s.DoneUnits(ctx, Stage)
	if !done[SourceOpenAPI+":/docs/a.yaml"] || !done[SourceRapidAPI+":coinlore/crypto-prices-live"] {
		t.Errorf("done units after a rapidapi refresh: %v", done)
	}
}

func TestCrawlRefreshUsesETags(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	srv := startHub(t, replay.RapidAPIOptions{})
	var sl sleeps
	o := hubOptions(srv, &sl)
	o.APIs = []string{"coinlore/crypto-prices-live"}
	if _, err := Run(ctx, s, o); err != nil {
		t.Fatal(err)
	}
	before := storetest.MustDump(t, s, "apis", "endpoints", "params")
	o.Refresh = true
	sum, err := Run(ctx, s, o)
	if err != nil {
		t.Fatal(err)
	}
	after := storetest.MustDump(t, s, "apis", "endpoints", "params")
	if sum.Saved != 1 || sum.Fetched == 0 || before != after {
		t.Errorf("refresh: summary %+v, store changed: %v", sum, before != after)
	}
	last := srv.Log.All()[srv.Log.Len()-1]
	if last.Status != 304 || last.Header.Get("If-None-Match") == "" {
		t.Errorf("refresh of an unchanged page: %d with If-None-Match %q, want a 304", last.Status, last.Header.Get("If-None-Match"))
	}
}

func TestCrawlRespectsRobotsForDiscovery(t *testing.T) {
	ctx := context.Background()
	index, err := fs.ReadFile(replay.RapidAPIFS(), "index.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := startHub(t, replay.RapidAPIOptions{NoFaults: true, FS: fstest.MapFS{
		"index.json": {Data: index},
		"robots.txt": {Data: []byte("User-agent: sccg-crawler\nDisallow: /gateway/\n\nUser-agent: *\nAllow: /\n")},
	}})
	s := storetest.Open(t)
	var sl sleeps
	sum, err := Run(ctx, s, hubOptions(srv, &sl))
	if !errors.Is(err, ErrNothingCrawled) || sum.Bad != 1 {
		t.Fatalf("err %v, summary %+v; want one failed discovery and nothing crawled", err, sum)
	}
	for _, r := range srv.Log.All() {
		if strings.HasPrefix(r.Path, "/gateway/") {
			t.Errorf("requested %s although robots.txt disallows it for sccg-crawler", r.Path)
		}
	}
	ds, _ := s.Decisions(ctx, "search", discovery{}.subject())
	if len(ds) != 1 || !strings.Contains(ds[0].Reason, "disallowed by robots.txt") {
		t.Errorf("decisions = %+v", ds)
	}
}

// dropOnce closes the connection of the first request to path without answering.
type dropOnce struct {
	next    http.Handler
	path    string
	mu      sync.Mutex
	dropped bool
}

func (d *dropOnce) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	drop := r.URL.Path == d.path && !d.dropped
	d.dropped = d.dropped || drop
	d.mu.Unlock()
	if drop {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	d.next.ServeHTTP(w, r)
}

func TestCrawlRetriesDroppedConnections(t *testing.T) {
	ctx := context.Background()
	h, err := replay.RapidAPI(replay.RapidAPIOptions{NoFaults: true})
	if err != nil {
		t.Fatal(err)
	}
	page := replay.PlaygroundPath("airq", "air-quality-index")
	srv := replay.Start(&dropOnce{next: h, path: page})
	t.Cleanup(srv.Close)
	s := storetest.Open(t)
	var sl sleeps
	o := hubOptions(srv, &sl)
	o.APIs = []string{"airq/air-quality-index"}
	// Without keep-alives, so net/http's own retry of requests on reused
	// connections does not hide the drop.
	o.Transport = &http.Transport{DisableKeepAlives: true}
	sum, err := Run(ctx, s, o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Saved != 1 || sum.Retries != 1 || len(sl.all()) != 1 {
		t.Errorf("summary %+v, waits %v; want the page saved after one retry", sum, sl.all())
	}
}
