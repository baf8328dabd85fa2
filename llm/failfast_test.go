package llm_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sccg/internal/replay"
	"sccg/llm"
)

// askAll sends n chats at once and returns their errors.
func askAll(c *llm.Client, n int) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			_, errs[i] = c.Chat(context.Background(), ask(fmt.Sprint("prompt ", i)))
		})
	}
	wg.Wait()
	return errs
}

func TestFailFast(t *testing.T) {
	t.Run("refused connection: one attempt, every call fails at once", func(t *testing.T) {
		url, err := replay.RefusedURL()
		if err != nil {
			t.Fatal(err)
		}
		w := &waits{}
		c, err := llm.New(llm.Config{BaseURL: url, Model: "m"}, llm.WithSleep(w.sleep))
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range askAll(c, 8) {
			if !llm.Fatal(err) || !strings.Contains(err.Error(), "cannot reach the server") {
				t.Errorf("error %v, want a fatal cannot-reach error", err)
			}
		}
		if u := c.Usage(); u.Requests != 1 || u.Retries != 0 || len(w.ds) != 0 {
			t.Errorf("usage %+v, waits %v: want one request, no retry", u, w.ds)
		}
	})
	t.Run("unknown host is not retried", func(t *testing.T) {
		c, err := llm.New(llm.Config{BaseURL: "http://no-such-host.invalid/v1", Model: "m"}, llm.WithSleep((&waits{}).sleep))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Chat(context.Background(), ask("x"))
		if !llm.Fatal(err) || c.Usage().Retries != 0 {
			t.Errorf("error %v (fatal %v), %d retries; want fatal, none", err, llm.Fatal(err), c.Usage().Retries)
		}
	})
	t.Run("a wrong key stops every call after the first", func(t *testing.T) {
		c, _, srv, _ := setup(t, replay.LLMOptions{APIKey: "sk-right"}, llm.Config{})
		for _, err := range askAll(c, 6) {
			if !llm.Fatal(err) || !strings.Contains(err.Error(), "401") {
				t.Errorf("error %v, want a fatal 401", err)
			}
		}
		if srv.Log.Len() != 1 {
			t.Errorf("%d requests, want 1", srv.Log.Len())
		}
	})
	t.Run("an unknown model: one request, then none, and the models the server lists", func(t *testing.T) {
		c, _, srv, _ := setup(t, replay.LLMOptions{Models: []string{"qwen2.5-coder:7b", "bge-m3"}, OnlyModels: true}, llm.Config{Model: "qwen-coder"})
		errs := askAll(c, 5)
		for _, err := range errs {
			if !llm.Fatal(err) || !strings.Contains(err.Error(), `model "qwen-coder" not found (the server lists qwen2.5-coder:7b, bge-m3)`) {
				t.Errorf("error %v", err)
			}
		}
		// the first chat, the models list, and the chats already in flight when
		// the first 404 came back
		chats := 0
		for _, r := range srv.Log.All() {
			if strings.HasSuffix(r.Path, "/chat/completions") {
				chats++
			}
		}
		if chats > 1+llm.DefaultConcurrency {
			t.Errorf("%d chats sent for an unknown model, want at most %d", chats, 1+llm.DefaultConcurrency)
		}
		before := srv.Log.Len()
		if _, err := c.Chat(context.Background(), ask("later")); !llm.Fatal(err) || srv.Log.Len() != before {
			t.Errorf("a later call sent %d requests (%v)", srv.Log.Len()-before, err)
		}
	})
	t.Run("429 and 500 are still retried", func(t *testing.T) {
		c, h, _, w := setup(t, replay.LLMOptions{}, llm.Config{})
		h.On("busy", replay.Fail(429, "1"), replay.Fail(500, ""), replay.Answer("ok"))
		resp, err := c.Chat(context.Background(), ask("busy"))
		if err != nil || resp.Text() != "ok" || len(w.ds) != 2 {
			t.Errorf("answer %v, %v after waits %v; want ok after two", resp, err, w.ds)
		}
	})
	t.Run("the breaker stops the client after failures in a row", func(t *testing.T) {
		c, h, srv, _ := setup(t, replay.LLMOptions{}, llm.Config{MaxRetries: -1, BreakAfter: 3, Concurrency: 1})
		h.Default(replay.Fail(500, ""))
		var errs []error
		for i := range 6 {
			_, err := c.Chat(context.Background(), ask(fmt.Sprint("p", i)))
			errs = append(errs, err)
		}
		var be *llm.BreakerError
		if !errors.As(errs[5], &be) || be.Failures != 3 || !llm.Fatal(errs[5]) || srv.Log.Len() != 3 {
			t.Errorf("after %d requests: %v", srv.Log.Len(), errs[5])
		}
		if !strings.Contains(errs[5].Error(), "stopped after 3 requests in a row failed") {
			t.Errorf("breaker error %q", errs[5])
		}
	})
	t.Run("a success resets the count", func(t *testing.T) {
		c, h, srv, _ := setup(t, replay.LLMOptions{}, llm.Config{MaxRetries: -1, BreakAfter: 2, Concurrency: 1})
		h.On("bad", replay.Fail(500, ""))
		for _, p := range []string{"bad 1", "good 1", "bad 2", "good 2", "bad 3"} {
			c.Chat(context.Background(), ask(p))
		}
		if srv.Log.Len() != 5 {
			t.Errorf("%d requests, want 5 (never two failures in a row)", srv.Log.Len())
		}
	})
}

// The models list asked after a 404 holds no lock the other calls need: a call
// for a model the server has is answered while the list is held back, and the
// list is asked once for any number of unknown models.
func TestModelsListBlocksNoOtherCall(t *testing.T) {
	ctx := context.Background()
	h := replay.NewLLM(replay.LLMOptions{Models: []string{"replay-chat"}, OnlyModels: true})
	var lists atomic.Int32
	var gaveUp atomic.Bool // the client stopped waiting for the list
	asked := make(chan struct{}, 4)
	release := make(chan struct{})
	srv := replay.Start(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/models" {
			lists.Add(1)
			asked <- struct{}{}
			select {
			case <-release:
			case <-r.Context().Done():
				gaveUp.Store(true)
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)
	c, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: "replay-chat", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Chat(ctx, ask("first")); err != nil { // the first call goes alone
		t.Fatal(err)
	}
	gone := make(chan error, 2)
	for _, m := range []string{"nope-1", "nope-2"} {
		go func() {
			req := ask("which " + m)
			req.Model = m
			_, err := c.Chat(ctx, req)
			gone <- err
		}()
	}
	<-asked
	done := make(chan error, 1)
	go func() {
		_, err := c.Chat(ctx, ask("meanwhile"))
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("a call while the models list is held back: %v", err)
		}
		if gaveUp.Load() {
			t.Fatal("a call waited for another call's models list until the client gave up on it")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a call waited for another call's models list")
	}
	free()
	for range 2 {
		if err := <-gone; !llm.Fatal(err) || !strings.Contains(err.Error(), "not found (the server lists replay-chat)") {
			t.Errorf("unknown model: %v", err)
		}
	}
	if n := lists.Load(); n != 1 {
		t.Errorf("the models list was asked %d times, want once", n)
	}
}
