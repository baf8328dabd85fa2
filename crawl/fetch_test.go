package crawl

import (
	"testing"
	"time"

	"sccg/internal/backoff"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header string
		want   time.Duration
		ok     bool
	}{
		{"seconds", "3", 3 * time.Second, true},
		{"zero", "0", 0, true},
		{"http date", "Mon, 30 Nov 2026 12:00:42 GMT", 42 * time.Second, true},
		{"date in the past", "Mon, 30 Nov 2026 11:00:00 GMT", 0, true},
		{"absent", "", 0, false},
		{"negative", "-5", 0, false},
		{"garbage", "soon", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := backoff.RetryAfter(tc.header, now)
			if got != tc.want || ok != tc.ok {
				t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", tc.header, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestBackoffGrowsAndCaps(t *testing.T) {
	f := &fetcher{jitter: func(max time.Duration) time.Duration { return max }}
	tests := []struct {
		attempt int
		want    time.Duration
	}{
		{1, 1500 * time.Millisecond},
		{2, 3 * time.Second},
		{3, 6 * time.Second},
		{7, 90 * time.Second},  // 64s capped to 60s, plus 30s jitter
		{40, 90 * time.Second}, // no overflow
	}
	for _, tc := range tests {
		if got := f.backoff(tc.attempt); got != tc.want {
			t.Errorf("backoff(%d) = %v, want %v", tc.attempt, got, tc.want)
		}
	}
}

func TestParseAPIRef(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"owner/slug", "skyward-labs/weatherstack-forecast", "skyward-labs/weatherstack-forecast"},
		{"playground url", "https://rapidapi.com/skyward-labs/api/weatherstack-forecast/playground", "skyward-labs/weatherstack-forecast"},
		{"endpoint playground url", "https://rapidapi.com/travelgo/api/hotel-search-engine/playground/apiendpoint_1", "travelgo/hotel-search-engine"},
		{"api page url", "https://rapidapi.com/a/api/b", "a/b"},
		{"not an api url", "https://rapidapi.com/search/weather", "error"},
		{"no slash", "weather", "error"},
		{"too many parts", "a/b/c", "error"},
		{"empty owner", "/b", "error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, s, err := ParseAPIRef(tc.in)
			got := o + "/" + s
			if err != nil {
				got = "error"
			}
			if got != tc.want {
				t.Errorf("ParseAPIRef(%q) = %s (%v), want %s", tc.in, got, err, tc.want)
			}
		})
	}
}
