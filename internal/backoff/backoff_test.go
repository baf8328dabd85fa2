package backoff

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		v    string
		want time.Duration
		ok   bool
	}{
		{"3", 3 * time.Second, true},
		{" 1.5 ", 1500 * time.Millisecond, true},
		{"0", 0, true},
		{"Mon, 30 Nov 2026 12:00:10 GMT", 10 * time.Second, true},
		{"Mon, 30 Nov 2026 11:00:00 GMT", 0, true}, // in the past: no wait
		{"", 0, false},
		{"-1", 0, false},
		{"soon", 0, false},
	}
	for _, tc := range tests {
		got, ok := RetryAfter(tc.v, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("RetryAfter(%q) = %v, %v; want %v, %v", tc.v, got, ok, tc.want, tc.ok)
		}
	}
}

func TestSleepEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep on a cancelled context = %v", err)
	}
	if err := Sleep(context.Background(), 0); err != nil {
		t.Errorf("Sleep(0) = %v", err)
	}
}

func TestJitter(t *testing.T) {
	for range 100 {
		if j := Jitter(10 * time.Millisecond); j < 0 || j > 10*time.Millisecond {
			t.Fatalf("Jitter = %v, out of [0, 10ms]", j)
		}
	}
	if Jitter(0) != 0 || Jitter(-time.Second) != 0 {
		t.Error("Jitter of a non-positive max is not 0")
	}
}
