package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sccg/internal/backoff"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
		ok     bool
	}{
		{"none", nil, 0, false},
		{"seconds", map[string]string{"Retry-After": "7"}, 7 * time.Second, true},
		{"fractional seconds", map[string]string{"Retry-After": "0.5"}, 500 * time.Millisecond, true},
		{"HTTP date", map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second, true},
		{"HTTP date in the past", map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0, true},
		{"milliseconds win", map[string]string{"Retry-After-Ms": "250", "Retry-After": "9"}, 250 * time.Millisecond, true},
		{"huge is capped, not overflowed", map[string]string{"Retry-After": "1e300"}, time.Duration(1e9) * time.Second, true},
		{"garbage", map[string]string{"Retry-After": "soon"}, 0, false},
		{"negative", map[string]string{"Retry-After": "-3"}, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tc.header {
				h.Set(k, v)
			}
			got, ok := retryAfter(h, now)
			if got != tc.want || ok != tc.ok {
				t.Fatalf("retryAfter = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestBackoffGrowsAndIsCapped(t *testing.T) {
	c := &Client{cfg: Config{MaxRetryWait: 5 * time.Second}, jitter: func(max time.Duration) time.Duration { return max }}
	var got []time.Duration
	for n := 1; n <= 5; n++ {
		got = append(got, c.backoff(n))
	}
	want := []time.Duration{1500 * time.Millisecond, 3 * time.Second, 5 * time.Second, 5 * time.Second, 5 * time.Second}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("backoffs with full jitter = %v, want %v", got, want)
		}
	}
}

func TestSleepEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := backoff.Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("sleep of a cancelled context = %v, want context.Canceled", err)
	}
	if err := backoff.Sleep(context.Background(), 0); err != nil {
		t.Fatalf("sleep 0 = %v", err)
	}
}

// Cancelling the context during the wait for a retry ends the call at once, with
// the cancellation, and sends nothing more.
func TestCancelEndsTheRetryWait(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Retry-After", "60")
		http.Error(w, "busy", http.StatusTooManyRequests)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	c, err := New(Config{BaseURL: srv.URL + "/v1", Model: "m"}, WithSleep(func(ctx context.Context, d time.Duration) error {
		cancel() // the user presses ^C while the client waits out the 60 s
		return backoff.Sleep(ctx, d)
	}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Chat(ctx, ChatRequest{Messages: []Message{User("x")}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if hits.Load() != 1 {
		t.Errorf("server saw %d requests, want 1", hits.Load())
	}
	if u := c.Usage(); u.Failures != 0 || u.Retries != 1 {
		t.Errorf("Usage = %+v: a cancelled call is not a failure", u)
	}
}

func TestCappedBodyFailsPastItsLimit(t *testing.T) {
	b := &cappedBody{rc: io.NopCloser(strings.NewReader("0123456789")), left: 4}
	got, err := io.ReadAll(b)
	if string(got) != "0123" || !errors.Is(err, errTooLarge) {
		t.Fatalf("read %q, %v; want the first 4 bytes and errTooLarge", got, err)
	}
}

// An error body is read only up to its limit and its message is kept short.
func TestErrorBodyIsBounded(t *testing.T) {
	big := strings.Repeat("x", 2*maxErrorBody)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, big, http.StatusBadRequest)
	}))
	defer srv.Close()
	c, err := New(Config{BaseURL: srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Chat(context.Background(), ChatRequest{Messages: []Message{User("x")}})
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != 400 || len(ae.Message) > 600 {
		t.Fatalf("err = %.200v, want a 400 with a short message", err)
	}
}
