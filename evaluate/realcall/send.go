package realcall

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/time/rate"

	"sccg/internal/backoff"
)

// maxBody is how much of a body is read (and hashed); the rest is not.
const maxBody = 8 << 20

// errPrivate refuses a dial to an address that is not public.
var errPrivate = errors.New("refused: not a public address")

// errBudget stops a call when the budget of calls has run out.
var errBudget = errors.New("the budget of calls ran out")

// nonPublic are IPv4 ranges IsPrivate and its kin do not cover: this network,
// shared address space (CGNAT), IETF protocol assignments, benchmarking, reserved.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"), netip.MustParsePrefix("100.64.0.0/10"), netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"), netip.MustParsePrefix("240.0.0.0/4"), netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"), netip.MustParsePrefix("2002::/16"),
}

// publicAddr reports whether a may be dialled: not loopback, private, link-local,
// multicast, unspecified or reserved.
func publicAddr(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// sender sends calls safely: the address dialled is checked (not the name), hosts
// are rate-limited, redirects stay on the host, retries honour Retry-After, and
// every request sent is taken from the budget.
type sender struct {
	client   *http.Client
	resolve  map[string]*url.URL
	rate     rate.Limit
	retries  int
	maxWait  time.Duration
	backoff  time.Duration
	sleep    func(context.Context, time.Duration) error
	now      func() time.Time
	budget   *budget
	mu       sync.Mutex
	limiters map[string]*rate.Limiter
}

// budget is the total number of requests that may be sent.
type budget struct {
	max, used int
}

func (b *budget) take() bool {
	if b.used >= b.max {
		return false
	}
	b.used++
	return true
}

func newSender(o *Options, resolve map[string]*url.URL, b *budget) *sender {
	mapped := map[string]bool{}
	for _, u := range resolve {
		mapped[hostPort(u)] = true
	}
	d := &net.Dialer{Timeout: 10 * time.Second}
	guarded := &net.Dialer{Timeout: 10 * time.Second, Control: func(network, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return fmt.Errorf("%w: %s", errPrivate, address)
		}
		a, err := netip.ParseAddr(host)
		if err != nil || !publicAddr(a) {
			return fmt.Errorf("%w: %s", errPrivate, host)
		}
		return nil
	}}
	tr := &http.Transport{
		Proxy: nil, // a proxy would dial for us, unchecked
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if mapped[addr] {
				return d.DialContext(ctx, network, addr)
			}
			return guarded.DialContext(ctx, network, addr)
		},
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: o.Timeout,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       30 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	return &sender{client: &http.Client{Transport: tr, Timeout: o.Timeout}, resolve: resolve, rate: rate.Limit(o.Rate),
		retries: o.Retries, maxWait: o.MaxWait, backoff: o.Backoff, sleep: o.Sleep, now: o.Now, budget: b,
		limiters: map[string]*rate.Limiter{}}
}

func (s *sender) close() { s.client.CloseIdleConnections() }

func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "http" {
		return net.JoinHostPort(u.Hostname(), "80")
	}
	return net.JoinHostPort(u.Hostname(), "443")
}

func (s *sender) limiter(host string) *rate.Limiter {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.limiters[host]
	if l == nil {
		l = rate.NewLimiter(s.rate, 1)
		s.limiters[host] = l
	}
	return l
}

// target is where a request goes: its URL with the host mapped by Resolve (the
// Host header then keeps the original host).
func (s *sender) target(r *request) (*url.URL, string) {
	u := *r.URL
	base := s.resolve[r.Host]
	if base == nil {
		return &u, ""
	}
	u.Scheme, u.Host = base.Scheme, base.Host
	u.Path = strings.TrimSuffix(base.Path, "/") + r.URL.Path
	if r.URL.RawPath != "" {
		u.RawPath = strings.TrimSuffix(base.Path, "/") + r.URL.RawPath
	}
	return &u, r.URL.Host
}

// send sends one call, retrying 429 and 5xx answers while the budget lasts, and
// records the last outcome in c. It fails only when ctx ends.
func (s *sender) send(ctx context.Context, r *request, c *Call) error {
	for attempt := 0; ; attempt++ {
		if !s.budget.take() {
			if c.Attempts == 0 {
				return errBudget
			}
			c.Notes = append(c.Notes, "no retry: the budget ran out")
			return nil
		}
		if err := s.limiter(r.Host).Wait(ctx); err != nil {
			s.budget.used-- // not sent
			return err
		}
		c.Attempts++
		c.Sent = true
		retryAfter, err := s.once(ctx, r, c)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil || !(c.Status == http.StatusTooManyRequests || c.Status >= 500) || attempt >= s.retries {
			return nil
		}
		wait := s.backoff << attempt
		if retryAfter != "" {
			d, ok := backoff.RetryAfter(retryAfter, s.now())
			if ok {
				wait = d
			}
		}
		if wait > s.maxWait {
			c.Notes = append(c.Notes, fmt.Sprintf("no retry: Retry-After %s is longer than %s", retryAfter, s.maxWait))
			return nil
		}
		if err := s.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// once sends one attempt and fills c's outcome; it returns the answer's
// Retry-After.
func (s *sender) once(ctx context.Context, r *request, c *Call) (string, error) {
	u, origHost := s.target(r)
	req, err := http.NewRequestWithContext(ctx, r.Method, u.String(), nil)
	if err != nil {
		c.Status, c.Error = 0, fmt.Sprintf("build request: %v", err)
		return "", err
	}
	req.Header = r.Header.Clone()
	if origHost != "" {
		req.Host = origHost
	}
	var refused string
	client := *s.client
	client.CheckRedirect = func(next *http.Request, via []*http.Request) error {
		first := via[0]
		logical := func(q *http.Request) string {
			if q.Host != "" {
				return strings.ToLower(q.Host)
			}
			return strings.ToLower(q.URL.Host)
		}
		// An absolute redirect to the original name of a mapped host goes to the
		// mapped address, as the first request did.
		if base := s.resolve[strings.ToLower(next.URL.Hostname())]; base != nil && origHost != "" {
			next.Host = next.URL.Host
			next.URL.Scheme, next.URL.Host = base.Scheme, base.Host
		}
		switch {
		case logical(next) != logical(first) || next.URL.Host != first.URL.Host:
			refused = "redirect to another host refused: " + next.URL.Redacted()
		case first.URL.Scheme == "https" && next.URL.Scheme != "https":
			refused = "redirect from https to http refused"
		case len(via) >= 5:
			refused = "more than 5 redirects"
		case !s.budget.take():
			refused = "redirect not followed: the budget ran out"
		}
		if refused != "" {
			return http.ErrUseLastResponse
		}
		c.Attempts++
		return nil
	}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		c.Status, c.LatencyMS, c.BodySHA256, c.BodyBytes = 0, ms(time.Since(start)), "", 0
		c.Error = describe(err)
		return "", err
	}
	defer resp.Body.Close()
	h := sha256.New()
	n, rerr := io.Copy(h, io.LimitReader(resp.Body, maxBody))
	c.LatencyMS = ms(time.Since(start))
	c.Status, c.BodyBytes, c.Error = resp.StatusCode, n, ""
	c.BodySHA256 = hex.EncodeToString(h.Sum(nil))
	if rerr != nil {
		c.Error = "body cut off: " + describe(rerr)
	} else if n == maxBody {
		c.Error = fmt.Sprintf("body longer than %d bytes: hashed the first %d", maxBody, maxBody)
	}
	if refused != "" {
		c.Error = refused
	}
	return resp.Header.Get("Retry-After"), nil
}

// describe is an error as one line that names no address the user did not give
// beyond what is needed: the refusal of a private address says which.
func describe(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, errPrivate) {
		var op *net.OpError
		if errors.As(err, &op) && op.Err != nil {
			return op.Err.Error()
		}
	}
	return err.Error()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
