package crawl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gocolly/colly/v2"
	"github.com/temoto/robotstxt"
	"golang.org/x/time/rate"

	"sccg/internal/backoff"
	"sccg/store"
)

// HubURL is the public base of the RapidAPI Hub. Stored URLs always use it, whatever
// server --base-url sends the requests to, so a crawl of a replay server stores the
// same rows as a crawl of the hub.
const HubURL = "https://rapidapi.com"

// DefaultUserAgent says who is crawling and why.
const DefaultUserAgent = "sccg-crawler/1.0 (+https://github.com/sccg; research benchmark of API documentation; 1 req/s)"

// StatusError is a response that was not a success after every retry.
type StatusError struct {
	URL      string
	Status   int
	Attempts int
	// RetryAfter is set when the server asked to wait longer than the crawler will.
	RetryAfter time.Duration
}

func (e *StatusError) Error() string { return "GET " + e.URL + ": " + e.Reason() }

// Reason says what went wrong without the URL, for a decision about that URL.
func (e *StatusError) Reason() string {
	if e.RetryAfter > 0 {
		return fmt.Sprintf("HTTP %d asks to retry after %s, longer than allowed", e.Status, e.RetryAfter)
	}
	return fmt.Sprintf("HTTP %d after %d attempt(s)", e.Status, e.Attempts)
}

// response is what a fetch gives back, from the network or from the store.
type response struct {
	URL      string // canonical URL (HubURL based)
	FinalURL string // canonical URL after redirects
	Status   int
	Header   http.Header
	Body     []byte
	SHA256   string
	Reused   bool // served from the store, no request made
}

// fetcher makes every HTTP request of a crawl: through one colly collector (user
// agent, transport, cookies, redirects), rate-limited, retried with exponential
// backoff and jitter on 429 and 5xx (honouring Retry-After), with each response
// recorded in the store and stored successes reused instead of refetched.
type fetcher struct {
	s        *store.Store
	runID    int64
	base     *url.URL // where requests go; nil means HubURL itself
	c        *colly.Collector
	limiter  *rate.Limiter
	sleep    func(context.Context, time.Duration) error
	jitter   func(time.Duration) time.Duration
	now      func() time.Time
	attempts int
	maxWait  time.Duration // longest Retry-After waited out
	refresh  bool
	ua       string

	mu     sync.Mutex
	last   *colly.Response
	robots map[string]*robotstxt.RobotsData

	// counters
	fetched, reused, retries int
}

func newFetcher(ctx context.Context, s *store.Store, runID int64, o *Options) (*fetcher, error) {
	f := &fetcher{s: s, runID: runID, sleep: o.Sleep, jitter: o.Jitter, now: o.Now, attempts: o.MaxAttempts,
		maxWait: o.MaxRetryAfter, refresh: o.Refresh, ua: o.UserAgent, robots: map[string]*robotstxt.RobotsData{}}
	if o.BaseURL != "" && strings.TrimRight(o.BaseURL, "/") != HubURL {
		u, err := url.Parse(strings.TrimRight(o.BaseURL, "/"))
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("base url %q: want scheme://host", o.BaseURL)
		}
		f.base = u
	}
	lim := rate.Inf
	if o.RPS > 0 {
		lim = rate.Limit(o.RPS)
	}
	f.limiter = rate.NewLimiter(lim, 1)
	f.c = colly.NewCollector(
		colly.UserAgent(f.ua),
		colly.StdlibContext(ctx),
		colly.AllowURLRevisit(),
		colly.ParseHTTPErrorResponse(),
		colly.IgnoreRobotsTxt(), // robots.txt is fetched and kept like any page, see allowed
		colly.MaxBodySize(32<<20),
	)
	if o.Transport != nil {
		f.c.WithTransport(o.Transport)
	}
	f.c.SetRequestTimeout(60 * time.Second)
	f.c.OnResponse(func(r *colly.Response) {
		f.mu.Lock()
		f.last = r
		f.mu.Unlock()
	})
	return f, nil
}

// target maps a canonical URL to where the request really goes.
func (f *fetcher) target(canonical string) string {
	if f.base == nil {
		return canonical
	}
	u, err := url.Parse(canonical)
	if err != nil {
		return canonical
	}
	u.Scheme, u.Host = f.base.Scheme, f.base.Host
	u.Path = strings.TrimRight(f.base.Path, "/") + u.Path
	u.Fragment = ""
	return u.String()
}

// canonical maps a real URL back to its HubURL-based form.
func (f *fetcher) canonical(real string) string {
	if f.base == nil {
		return real
	}
	u, err := url.Parse(real)
	if err != nil || u.Host != f.base.Host {
		return real
	}
	hub, _ := url.Parse(HubURL)
	u.Scheme, u.Host = hub.Scheme, hub.Host
	u.Path = strings.TrimPrefix(u.Path, strings.TrimRight(f.base.Path, "/"))
	return u.String()
}

// stored returns the newest successful stored response for key, if reuse is allowed.
func (f *fetcher) stored(ctx context.Context, key string) (*response, *store.Fetch, error) {
	prev, err := f.s.LatestFetch(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	// A 304 is recorded with the content it confirmed, so it counts as a success.
	if (prev.Status != http.StatusOK && prev.Status != http.StatusNotModified) || prev.SHA256 == "" {
		return nil, prev, nil
	}
	body, err := f.s.Blob(ctx, prev.SHA256)
	if err != nil {
		return nil, nil, err
	}
	h := http.Header{}
	for k, v := range prev.Headers {
		h.Set(k, v)
	}
	final := prev.Headers["Final-Url"]
	if final == "" {
		final = key
	}
	return &response{URL: key, FinalURL: final, Status: http.StatusOK, Header: h, Body: body, SHA256: prev.SHA256, Reused: true}, prev, nil
}

// get fetches the canonical URL key (GET), reusing a stored success unless the
// crawl refreshes; on refresh a stored ETag makes the request conditional.
func (f *fetcher) get(ctx context.Context, key string) (*response, error) {
	return f.do(ctx, http.MethodGet, key, key, nil, nil, true)
}

// do performs one logical request: key names it in the store (a URL, plus a
// fragment for POSTs), canonical is the URL it goes to. reuse says a stored success
// may stand in for it.
func (f *fetcher) do(ctx context.Context, method, key, canonical string, body []byte, hdr http.Header, reuse bool) (*response, error) {
	var cached *response
	if reuse {
		r, _, err := f.stored(ctx, key)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", method, key, err)
		}
		if r != nil && !f.refresh {
			f.reused++
			return r, nil
		}
		cached = r
	}
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := f.limiter.Wait(ctx); err != nil {
			return nil, err
		}
		h := http.Header{}
		for k, v := range hdr {
			h[k] = v
		}
		h.Set("User-Agent", f.ua)
		if cached != nil && cached.Header.Get("Etag") != "" {
			h.Set("If-None-Match", cached.Header.Get("Etag"))
		}
		resp, err := f.roundTrip(method, f.target(canonical), body, h)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if attempt >= f.attempts {
				return nil, fmt.Errorf("%s %s: %w", method, key, err)
			}
			f.retries++
			if err := f.sleep(ctx, f.backoff(attempt)); err != nil {
				return nil, err
			}
			continue
		}
		f.fetched++
		out := &response{URL: key, FinalURL: f.canonical(resp.Request.URL.String()), Status: resp.StatusCode, Header: *resp.Headers, Body: resp.Body}
		if out.Status == http.StatusNotModified && cached != nil {
			// Unchanged: the fetch record points at the content we have.
			out.Body = cached.Body
			if out.FinalURL == key {
				out.FinalURL = cached.FinalURL
			}
		}
		if err := f.record(ctx, out); err != nil {
			return nil, err
		}
		if out.Status == http.StatusNotModified && cached != nil {
			out.Status = http.StatusOK
			return out, nil
		}
		if out.Status == http.StatusTooManyRequests || out.Status >= 500 {
			if attempt >= f.attempts {
				return out, &StatusError{URL: key, Status: out.Status, Attempts: attempt}
			}
			f.retries++
			d, ok := backoff.RetryAfter(out.Header.Get("Retry-After"), f.now())
			if !ok {
				d = f.backoff(attempt)
			} else if d > f.maxWait {
				return out, &StatusError{URL: key, Status: out.Status, Attempts: attempt, RetryAfter: d}
			}
			if err := f.sleep(ctx, d); err != nil {
				return nil, err
			}
			continue
		}
		if out.Status != http.StatusOK {
			return out, &StatusError{URL: key, Status: out.Status, Attempts: attempt}
		}
		return out, nil
	}
}

// roundTrip sends one request through the collector and returns its response.
func (f *fetcher) roundTrip(method, u string, body []byte, h http.Header) (*colly.Response, error) {
	f.mu.Lock()
	f.last = nil
	f.mu.Unlock()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	if err := f.c.Request(method, u, rd, nil, h); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.last == nil {
		return nil, fmt.Errorf("%s %s: no response", method, u)
	}
	return f.last, nil
}

// keptHeaders are the response headers a fetch record keeps.
var keptHeaders = []string{"Etag", "Last-Modified", "Content-Type", "Retry-After"}

// record keeps one response in the store. It does not stop for a cancelled
// context: a response that arrived is kept, so a rerun need not fetch it again.
func (f *fetcher) record(ctx context.Context, r *response) error {
	h := map[string]string{}
	for _, k := range keptHeaders {
		if v := r.Header.Get(k); v != "" {
			h[k] = v
		}
	}
	if r.FinalURL != r.URL {
		h["Final-Url"] = r.FinalURL
	}
	body := r.Body
	if body == nil {
		body = []byte{}
	}
	fe := &store.Fetch{URL: r.URL, Status: r.Status, Headers: h, RunID: f.runID}
	err := f.s.Update(context.WithoutCancel(ctx), func(tx *store.Tx) error {
		return tx.RecordFetch(context.WithoutCancel(ctx), fe, body)
	})
	if err != nil {
		return fmt.Errorf("record fetch %s: %w", r.URL, err)
	}
	r.SHA256 = fe.SHA256
	return nil
}

// backoff is the wait before retry number attempt: 1s, 2s, 4s … capped at a minute,
// plus up to half as much jitter.
func (f *fetcher) backoff(attempt int) time.Duration {
	d := time.Second << min(attempt-1, 6)
	d = min(d, time.Minute)
	return d + f.jitter(d/2)
}

// allowed reports whether robots.txt of the hub lets the crawler fetch key. A
// robots.txt that cannot be fetched allows everything, as crawlers conventionally do.
func (f *fetcher) allowed(ctx context.Context, key string) (bool, error) {
	u, err := url.Parse(key)
	if err != nil {
		return false, fmt.Errorf("robots: %w", err)
	}
	f.mu.Lock()
	rd, ok := f.robots[u.Host]
	f.mu.Unlock()
	if !ok {
		robotsURL := u.Scheme + "://" + u.Host + "/robots.txt"
		r, err := f.get(ctx, robotsURL)
		var se *StatusError
		switch {
		case errors.As(err, &se):
			rd, _ = robotstxt.FromStatusAndBytes(se.Status, nil)
		case err != nil:
			return false, err
		default:
			rd, err = robotstxt.FromStatusAndBytes(r.Status, r.Body)
			if err != nil {
				rd, _ = robotstxt.FromStatusAndBytes(http.StatusNotFound, nil)
			}
		}
		if rd == nil { // FromStatusAndBytes gives nil only with an error: be conservative
			rd, _ = robotstxt.FromString("User-agent: *\nDisallow: /\n")
		}
		f.mu.Lock()
		f.robots[u.Host] = rd
		f.mu.Unlock()
	}
	path := u.EscapedPath()
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	return rd.TestAgent(path, f.ua), nil
}
