package mine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/google/go-github/v62/github"
	"golang.org/x/time/rate"
)

// Rate-limit resources, as X-RateLimit-Resource names them.
const (
	resSearch = "search"
	resCore   = "core"
)

// secondaryWait is the least a bare secondary limit (a 429, or a 403 that says so
// without Retry-After) is waited out, as GitHub asks.
const secondaryWait = 60 * time.Second

// errGaveUp says the retries for one request ran out.
var errGaveUp = errors.New("gave up after repeated rate limits")

// tokenState is one token's budget: a pacing limiter for code search and the time
// until which each resource is known to be exhausted.
type tokenState struct {
	token   string // never logged or stored
	search  *rate.Limiter
	blocked map[string]time.Time
	strikes int  // consecutive secondary limits
	primed  bool // its search budget was read from /rate_limit
}

// pool rotates requests over the tokens so that none is sent that would be refused.
type pool struct {
	tokens []*tokenState
	next   int
	clock  Clock
	rng    *rand.Rand
	stats  *Stats
	// prime reads each token's code-search budget before the first search (a
	// budget an earlier process may have spent); nil skips it.
	prime func(ctx context.Context, token string) (remaining int, reset time.Time, err error)
}

func newPool(tokens []string, searchPerMinute int, clock Clock, seed uint64, stats *Stats) *pool {
	p := &pool{clock: clock, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), stats: stats}
	if len(tokens) == 0 {
		tokens = []string{""}
	}
	for _, t := range tokens {
		ts := &tokenState{token: t, blocked: map[string]time.Time{}}
		if searchPerMinute > 0 {
			// Burst 1: GitHub counts in fixed one-minute windows, so evenly paced
			// requests never exceed the budget of any window.
			ts.search = rate.NewLimiter(rate.Every(time.Minute/time.Duration(searchPerMinute)), 1)
		}
		p.tokens = append(p.tokens, ts)
	}
	return p
}

// acquire picks the token that can send a request for resource soonest and waits
// until it may.
func (p *pool) acquire(ctx context.Context, resource string) (*tokenState, error) {
	if resource == resSearch && p.prime != nil {
		for _, ts := range p.tokens {
			if ts.primed {
				continue
			}
			ts.primed = true
			remaining, reset, err := p.prime(ctx, ts.token)
			if err != nil {
				return nil, err
			}
			if remaining == 0 && reset.After(ts.blocked[resSearch]) {
				ts.blocked[resSearch] = reset
			}
		}
	}
	now := p.clock.Now()
	var best *tokenState
	var bestAt time.Time
	for i := range p.tokens {
		ts := p.tokens[(p.next+i)%len(p.tokens)]
		at := ts.blocked[resource]
		if best == nil || at.Before(bestAt) {
			best, bestAt = ts, at
		}
	}
	p.next = (p.next + 1) % len(p.tokens)
	if d := bestAt.Sub(now); d > 0 {
		p.stats.Waited += d
		if err := p.clock.Sleep(ctx, d); err != nil {
			return nil, err
		}
	}
	if resource == resSearch && best.search != nil {
		now = p.clock.Now()
		r := best.search.ReserveN(now, 1)
		if d := r.DelayFrom(now); d > 0 {
			p.stats.Waited += d
			if err := p.clock.Sleep(ctx, d); err != nil {
				r.CancelAt(now)
				return nil, err
			}
		}
	}
	return best, nil
}

// observe reads the rate headers of a response into the token's budget.
func (p *pool) observe(ts *tokenState, resource string, resp *github.Response) {
	if resp == nil || resp.Response == nil {
		return
	}
	if r := resp.Header.Get("X-RateLimit-Resource"); r != "" {
		resource = r
		if resource == "code_search" {
			resource = resSearch
		}
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" && !resp.Rate.Reset.Time.IsZero() {
		ts.blocked[resource] = resp.Rate.Reset.Time
	}
}

// classify turns a request error into how long the token must rest before the next
// try, or ok=false when the error is not a rate limit.
func (p *pool) classify(ts *tokenState, err error) (wait time.Duration, secondary, ok bool) {
	now := p.clock.Now()
	var rl *github.RateLimitError
	var ab *github.AbuseRateLimitError
	var er *github.ErrorResponse
	switch {
	case errors.As(err, &rl):
		reset := rl.Rate.Reset.Time
		if reset.IsZero() || !reset.After(now) {
			return time.Second, false, true
		}
		return reset.Sub(now) + time.Second, false, true
	case errors.As(err, &ab):
		if ab.RetryAfter != nil && *ab.RetryAfter > 0 {
			return *ab.RetryAfter, true, true
		}
		return p.backoff(ts), true, true
	case errors.As(err, &er) && er.Response != nil &&
		(er.Response.StatusCode == http.StatusTooManyRequests ||
			er.Response.StatusCode == http.StatusForbidden && strings.Contains(strings.ToLower(er.Message), "secondary rate limit")):
		return p.backoff(ts), true, true
	}
	return 0, false, false
}

// backoff is at least a minute, doubling with each consecutive secondary limit of
// the token, plus up to a quarter of jitter.
func (p *pool) backoff(ts *tokenState) time.Duration {
	d := secondaryWait << min(ts.strikes, 5)
	return d + time.Duration(p.rng.Int64N(int64(d/4)+1))
}

// do sends one request through the pool, waiting out rate limits and retrying server
// errors, until it gets another answer or maxTries tries have failed.
func (p *pool) do(ctx context.Context, resource string, maxTries int, send func(token string) (*github.Response, error)) (*github.Response, error) {
	tries := 0
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ts, err := p.acquire(ctx, resource)
		if err != nil {
			return nil, err
		}
		resp, err := send(ts.token)
		p.stats.Requests++
		p.observe(ts, resource, resp)
		if err == nil {
			ts.strikes = 0
			return resp, nil
		}
		wait, secondary, limited := p.classify(ts, err)
		if !limited {
			var er *github.ErrorResponse
			if !errors.As(err, &er) || er.Response == nil || er.Response.StatusCode < 500 {
				return resp, err
			}
			// A server error: retry after a short, growing pause.
			p.stats.ServerErrors++
			tries++
			if tries >= maxTries {
				return resp, err
			}
			if err := p.clock.Sleep(ctx, time.Second<<min(tries, 6)); err != nil {
				return nil, err
			}
			continue
		}
		p.stats.RateLimited++
		tries++
		if secondary {
			ts.strikes++
		}
		if tries >= maxTries {
			return resp, fmt.Errorf("%w (%d tries): %v", errGaveUp, tries, err)
		}
		if until := p.clock.Now().Add(wait); until.After(ts.blocked[resource]) {
			ts.blocked[resource] = until
		}
	}
}
