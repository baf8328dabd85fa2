// Package replay serves local stand-ins for sccg's live sources — the RapidAPI Hub,
// the GitHub REST API and OpenAI-compatible LLM endpoints — from files under
// testdata/, embedded so `sccg demo` can use them too. Every server records each
// request it receives, so tests can assert that nothing was requested twice, and can
// be scripted to fail (429, Retry-After, 403 secondary limits, truncated pages).
package replay

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
)

// Request is one request a replay server received.
type Request struct {
	Method string
	Path   string // path and query, as sent
	Header http.Header
	Body   string
	Status int // what the server answered
}

// Key is how repeated requests are recognized: method, path and query, plus the body
// for POSTs (GraphQL queries differ only in their bodies).
func (r Request) Key() string {
	if r.Body != "" {
		return r.Method + " " + r.Path + " " + r.Body
	}
	return r.Method + " " + r.Path
}

// Log is a concurrency-safe list of received requests.
type Log struct {
	mu   sync.Mutex
	reqs []Request
}

// Add appends one request.
func (l *Log) Add(r Request) {
	l.mu.Lock()
	l.reqs = append(l.reqs, r)
	l.mu.Unlock()
}

// All returns a copy of the requests in arrival order.
func (l *Log) All() []Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Request(nil), l.reqs...)
}

// Len is the number of requests received.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.reqs)
}

// Repeats lists the request keys received more than once that were answered with
// the same status each time (a retried 429 followed by a 200 is not a repeat).
func (l *Log) Repeats() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	seen := map[string]int{}
	for _, r := range l.reqs {
		if r.Status == http.StatusTooManyRequests || r.Status >= 500 || r.Status == http.StatusForbidden {
			continue // faults are meant to be retried
		}
		seen[r.Key()]++
	}
	var out []string
	for k, n := range seen {
		if n > 1 {
			out = append(out, fmt.Sprintf("%dx %s", n, k))
		}
	}
	sort.Strings(out)
	return out
}

// recorder wraps a handler and logs each request with the status it got.
type recorder struct {
	log  *Log
	next http.Handler
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (rc recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body string
	if r.Body != nil && r.Method != http.MethodGet {
		var sb strings.Builder
		buf := make([]byte, 32<<10)
		for {
			n, err := r.Body.Read(buf)
			sb.Write(buf[:n])
			if err != nil || sb.Len() > 1<<20 {
				break
			}
		}
		body = sb.String()
		r.Body = readCloser{strings.NewReader(body)}
	}
	sw := &statusWriter{ResponseWriter: w}
	rc.next.ServeHTTP(sw, r)
	if sw.status == 0 {
		sw.status = http.StatusOK
	}
	rc.log.Add(Request{Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), Body: body, Status: sw.status})
}

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }

// Server is a running replay server.
type Server struct {
	*httptest.Server
	Log *Log
}

// Start serves h on a loopback address, logging every request.
func Start(h http.Handler) *Server {
	l := &Log{}
	return &Server{Server: httptest.NewServer(recorder{log: l, next: h}), Log: l}
}
