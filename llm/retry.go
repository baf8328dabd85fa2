package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"sccg/internal/backoff"

	"github.com/openai/openai-go/v3/option"
)

// APIError is an error answer of the server (an HTTP status of 400 or more) that
// was not retried or was still an error after every retry.
type APIError struct {
	// Endpoint is the method and URL, e.g. "POST http://localhost:11434/v1/chat/completions".
	Endpoint string
	// Status is the HTTP status code of the last answer.
	Status int
	// Type, Code and Message come from the body's error object, when it has one;
	// Message is the start of the body otherwise. The API key is cut out of it.
	Type, Code, Message string
	// Attempts is how many requests were sent.
	Attempts int
	// RetryAfter is set when the server asked to wait longer than MaxRetryWait, so
	// the call gave up instead of retrying early.
	RetryAfter time.Duration
}

// Error names the endpoint, the status, the attempts and the server's message.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: HTTP %d", e.Endpoint, e.Status)
	if t := http.StatusText(e.Status); t != "" {
		b.WriteString(" " + t)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " asks to retry after %s, longer than allowed", e.RetryAfter)
	} else {
		fmt.Fprintf(&b, " after %d attempt(s)", e.Attempts)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	return b.String()
}

// Retryable reports whether the status is one that is worth retrying later (429,
// 408 or 5xx): a caller may requeue the work.
func (e *APIError) Retryable() bool { return retryableStatus(e.Status) }

// TransportError is a request that got no HTTP answer after every retry: the
// connection failed, or the server took longer than the timeout.
type TransportError struct {
	Endpoint string
	Attempts int
	// Timeout is true when the last attempt ran out of time.
	Timeout bool
	// Unreachable is true when nothing answers at the address (connection
	// refused, unknown host): not retried.
	Unreachable bool
	Err         error
}

// Error names the endpoint, what went wrong and the attempts.
func (e *TransportError) Error() string {
	what := "no answer"
	switch {
	case e.Timeout:
		what = "timed out"
	case e.Unreachable:
		return fmt.Sprintf("%s: cannot reach the server (is it running, is the URL right?): %v", e.Endpoint, e.Err)
	}
	return fmt.Sprintf("%s: %s after %d attempt(s): %v", e.Endpoint, what, e.Attempts, e.Err)
}

// Unwrap is the last attempt's error (context.DeadlineExceeded for a timeout).
func (e *TransportError) Unwrap() error { return e.Err }

// ResponseError is a success status whose body could not be read as the answer
// (not JSON, cut off, too large). It is not retried.
type ResponseError struct {
	Endpoint string
	Status   int
	Err      error
}

// Error names the endpoint and why the answer could not be read.
func (e *ResponseError) Error() string {
	return fmt.Sprintf("%s: unreadable HTTP %d answer: %v", e.Endpoint, e.Status, e.Err)
}

// Unwrap is the decoding error.
func (e *ResponseError) Unwrap() error { return e.Err }

func retryableStatus(s int) bool {
	return s == http.StatusTooManyRequests || s == http.StatusRequestTimeout || s >= 500
}

// attempt is what the middleware saw of one request's answer.
type attempt struct {
	status  int
	header  http.Header
	errBody []byte // the start of an error answer's body
}

// middleware records the answer's status and headers, whatever error the SDK makes
// of the answer, and bounds what the SDK reads: an error body is cut to its first
// maxErrorBody bytes (kept for the message), a success body fails past maxBody.
func (a *attempt) middleware(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(req)
	if err != nil || res == nil {
		return res, err
	}
	a.status, a.header = res.StatusCode, res.Header.Clone()
	if res.StatusCode >= 400 {
		b, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		res.Body.Close()
		a.errBody = b
		res.Body = io.NopCloser(bytes.NewReader(b))
		return res, nil
	}
	res.Body = &cappedBody{rc: res.Body, left: maxBody}
	return res, nil
}

// cappedBody fails a read past its limit instead of reading on.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
}

var errTooLarge = fmt.Errorf("answer larger than %d MiB", maxBody>>20)

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

// do runs call, one HTTP request, until it succeeds or fails for good. Each
// attempt holds a concurrency slot (not while waiting to retry) and has its own
// timeout. 429, 408, 5xx, timeouts and connection errors are retried after the
// server's Retry-After, or else after an exponential backoff with jitter.
//
// The SDK's own retries are turned off: they cannot be counted, they measure an
// HTTP-date Retry-After against the wall clock and sleep on a real timer (so a
// test cannot use a fake clock), and an attempt that hits its per-request timeout
// is returned, not retried.
//
// The client's first call goes alone, and its outcome decides for the others
// (see begin); after BreakAfter calls in a row failed it sends nothing more.
func (c *Client) do(ctx context.Context, path string, call func(context.Context, option.RequestOption) error) error {
	if err := c.open(); err != nil {
		return err
	}
	first, err := c.begin(ctx)
	if err != nil {
		return err
	}
	err = c.attempts(ctx, path, call)
	if first {
		c.end(err)
	}
	if ctx.Err() == nil {
		c.trip(err)
	}
	return err
}

// attempts sends call until it succeeds or fails for good.
func (c *Client) attempts(ctx context.Context, path string, call func(context.Context, option.RequestOption) error) error {
	ep := c.endpoint(path)
	for n := 1; ; n++ {
		if err := c.acquire(ctx); err != nil {
			return err
		}
		actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
		var a attempt
		c.requests.Add(1)
		err := call(actx, option.WithMiddleware(a.middleware))
		timedOut := actx.Err() != nil
		cancel()
		c.release()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var fail error
		retry, wait, told := false, time.Duration(0), false
		switch {
		case a.status >= 400:
			ae := c.apiError(ep, n, &a)
			fail, retry = ae, retryableStatus(a.status)
			wait, told = retryAfter(a.header, c.now())
			if retry && n <= c.cfg.MaxRetries && told && wait > c.cfg.MaxRetryWait {
				ae.RetryAfter = wait
				return ae
			}
		case timedOut:
			fail, retry = &TransportError{Endpoint: ep, Attempts: n, Timeout: true, Err: context.DeadlineExceeded}, true
		case unreachable(err):
			return &TransportError{Endpoint: ep, Attempts: n, Unreachable: true, Err: c.scrubErr(err)}
		case isTransport(err):
			fail, retry = &TransportError{Endpoint: ep, Attempts: n, Err: c.scrubErr(err)}, true
		default:
			return &ResponseError{Endpoint: ep, Status: a.status, Err: c.scrubErr(err)}
		}
		if !retry || n > c.cfg.MaxRetries {
			return fail
		}
		if !told {
			wait = c.backoff(n)
		}
		c.retries.Add(1)
		c.log.LogAttrs(ctx, slog.LevelInfo, "llm: retrying", slog.String("endpoint", ep),
			slog.Int("attempt", n), slog.String("reason", reason(&a, timedOut)), slog.Duration("wait", wait))
		if err := c.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// reason says in a few words why an attempt failed, for the retry log.
func reason(a *attempt, timedOut bool) string {
	switch {
	case a.status != 0:
		return "HTTP " + strconv.Itoa(a.status)
	case timedOut:
		return "timeout"
	}
	return "connection error"
}

// isTransport reports whether err means the request got no answer.
func isTransport(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF)
}

// apiError reads the error object of an error answer: OpenAI's {"error": {...}},
// Ollama's {"error": "..."}, or else the body's text.
func (c *Client) apiError(ep string, n int, a *attempt) *APIError {
	e := &APIError{Endpoint: ep, Status: a.status, Attempts: n}
	var body struct {
		Error json.RawMessage `json:"error"`
		// some servers put the message at the top level
		Message string `json:"message"`
	}
	if json.Unmarshal(a.errBody, &body) == nil && (len(body.Error) > 0 || body.Message != "") {
		var obj struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		}
		var s string
		switch {
		case json.Unmarshal(body.Error, &obj) == nil:
			e.Message, e.Type = obj.Message, obj.Type
			if obj.Code != nil {
				e.Code = fmt.Sprint(obj.Code)
			}
		case json.Unmarshal(body.Error, &s) == nil:
			e.Message = s
		}
		if e.Message == "" {
			e.Message = body.Message
		}
	} else {
		e.Message = strings.TrimSpace(string(a.errBody))
	}
	e.Message = c.scrub(truncate(e.Message, 500))
	return e
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// scrub cuts the API key out of a text that came from the network.
func (c *Client) scrub(s string) string {
	if c.key == "" || !strings.Contains(s, c.key) {
		return s
	}
	return strings.ReplaceAll(s, c.key, "[redacted]")
}

// scrubErr is err, or a plain error with the key cut out of its text if it holds it.
func (c *Client) scrubErr(err error) error {
	if c.key == "" || !strings.Contains(err.Error(), c.key) {
		return err
	}
	return errors.New(c.scrub(err.Error()))
}

// backoff is the wait before retry number n when the server named none: 1s, 2s,
// 4s … capped at MaxRetryWait, plus up to half as much jitter.
func (c *Client) backoff(n int) time.Duration {
	d := time.Second << min(n-1, 10)
	d = min(d, c.cfg.MaxRetryWait)
	return min(d+c.jitter(d/2), c.cfg.MaxRetryWait)
}

// retryAfter reads how long the server asks to wait: Retry-After-Ms (OpenAI), or
// Retry-After as delay-seconds or an HTTP date measured against now.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	return backoff.RetryAfter(h.Get("Retry-After"), now)
}
