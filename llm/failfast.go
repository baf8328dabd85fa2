package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"
)

// DefaultBreakAfter is how many calls in a row may fail (each after its retries)
// before a Client stops sending: the server is down or refuses every request.
const DefaultBreakAfter = 5

// checkTimeout bounds the request for the models a server lists.
const checkTimeout = 10 * time.Second

// BreakerError is the answer of a Client whose last calls all failed: it sends
// nothing more.
type BreakerError struct {
	// Failures is how many calls in a row failed.
	Failures int
	// Last is the last failure.
	Last error
}

// Error says that the client stopped, and why.
func (e *BreakerError) Error() string {
	return fmt.Sprintf("stopped after %d requests in a row failed (last: %v)", e.Failures, e.Last)
}

// Unwrap is the last failure.
func (e *BreakerError) Unwrap() error { return e.Last }

// Fatal reports whether err is one that no later request to the same server can
// escape: the server cannot be reached (connection refused, unknown host), it
// refuses the key (401, 403), it does not serve the model (404), or the client
// stopped after failures in a row. A run should stop at once on one, and not
// advise trying again.
func Fatal(err error) bool {
	var te *TransportError
	if errors.As(err, &te) && te.Unreachable {
		return true
	}
	var ae *APIError
	if errors.As(err, &ae) {
		switch ae.Status {
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
			return true
		}
	}
	var be *BreakerError
	return errors.As(err, &be)
}

// unreachable reports whether err means nothing answers at the address: the
// connection was refused, or the host name does not resolve. Neither is retried.
func unreachable(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return !dns.IsTimeout
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH)
}

// begin lets the client's first call go alone: the others wait for its outcome,
// so a server that cannot be reached, or refuses the key, fails every call at
// once with one clear error instead of a request and its retries per call. It
// reports whether this call is the first (which must call end).
func (c *Client) begin(ctx context.Context) (bool, error) {
	c.checkMu.Lock()
	if !c.started {
		c.started = true
		c.firstDone = make(chan struct{})
		c.checkMu.Unlock()
		return true, nil
	}
	done := c.firstDone
	c.checkMu.Unlock()
	select {
	case <-done:
	case <-ctx.Done():
		return false, ctx.Err()
	}
	c.checkMu.Lock()
	defer c.checkMu.Unlock()
	return false, c.checkErr
}

// end records the first call's outcome and lets the others go: a failure no
// retry can cure for any request (unreachable, 401, 403) fails them all.
func (c *Client) end(err error) {
	c.checkMu.Lock()
	defer c.checkMu.Unlock()
	var te *TransportError
	var ae *APIError
	switch {
	case errors.As(err, &te) && te.Unreachable:
		c.checkErr = err
	case errors.As(err, &ae) && (ae.Status == http.StatusUnauthorized || ae.Status == http.StatusForbidden):
		c.checkErr = err
	}
	close(c.firstDone)
}

// modelGone is the error of an earlier request for model that the server
// answered 404: every later one fails at once with it.
func (c *Client) modelGone(model string) error {
	c.checkMu.Lock()
	defer c.checkMu.Unlock()
	return c.gone[model]
}

// unknownModel turns a 404 of a request for model into an error naming the
// models the server lists (one GET of /models, only then), and remembers it so no
// other request for model is sent. Other errors are returned as they are.
func (c *Client) unknownModel(ctx context.Context, err error, model string) error {
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != http.StatusNotFound {
		return err
	}
	if prev := c.modelGone(model); prev != nil {
		return prev
	}
	// Asked without checkMu held: the calls that only need the breaker or the
	// first call's outcome go on while the server answers.
	c.servedOnce.Do(func() { c.served = c.listModels(ctx) })
	var e error
	if len(c.served) == 0 {
		e = fmt.Errorf("model %q not found: %w", model, err)
	} else {
		served := c.served
		if len(served) > 10 {
			served = append(served[:10:10], "…")
		}
		e = fmt.Errorf("model %q not found (the server lists %s): %w", model, strings.Join(served, ", "), err)
	}
	c.checkMu.Lock()
	defer c.checkMu.Unlock()
	if prev := c.gone[model]; prev != nil {
		return prev
	}
	if c.gone == nil {
		c.gone = map[string]error{}
	}
	c.gone[model] = e
	return e
}

// listModels asks the server for the models it serves; none (an empty list) when
// it does not say.
func (c *Client) listModels(ctx context.Context) []string {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), min(checkTimeout, c.cfg.Timeout))
	defer cancel()
	u := c.base.JoinPath("models")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return []string{}
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	c.requests.Add(1)
	res, err := c.http.Do(req)
	if err != nil {
		return []string{}
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
	if res.StatusCode != http.StatusOK {
		return []string{}
	}
	return modelIDs(body)
}

// modelIDs reads the ids of a models list ({"data": [{"id": …}]}).
func modelIDs(body []byte) []string {
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	ids := []string{}
	if json.Unmarshal(body, &list) != nil {
		return ids
	}
	for _, m := range list.Data {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

// trip counts a call that failed (and, past the limit, stops the client) or one
// that succeeded (and starts the count again).
func (c *Client) trip(err error) {
	c.checkMu.Lock()
	defer c.checkMu.Unlock()
	if err == nil {
		c.inARow = 0
		return
	}
	c.inARow++
	if c.cfg.BreakAfter > 0 && c.inARow >= c.cfg.BreakAfter && c.broken == nil {
		c.broken = &BreakerError{Failures: c.inARow, Last: err}
	}
}

// open is the breaker's error once it has tripped, else nil.
func (c *Client) open() error {
	c.checkMu.Lock()
	defer c.checkMu.Unlock()
	if c.broken != nil {
		return c.broken
	}
	return nil
}
