package replay

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestServices(t *testing.T) {
	h, err := Services(ServicesOptions{Key: "demo", Down: []string{"email-verifier.p.rapidapi.com"},
		Faults: map[string][]Fault{"dad-jokes-daily.p.rapidapi.com": {{Status: 429, RetryAfter: "1"}}}})
	if err != nil {
		t.Fatal(err)
	}
	srv := Start(h)
	defer srv.Close()
	rapid := func(host string) map[string]string {
		return map[string]string{"X-RapidAPI-Key": "demo", "X-RapidAPI-Host": host}
	}
	fb := "football-live-scores.p.rapidapi.com"
	tests := []struct {
		name, method, host, path string
		header                   map[string]string
		want                     int
		retryAfter               string
	}{
		{"documented endpoint", "GET", fb, "/fixtures?league=39&season=2024", rapid(fb), 200, ""},
		{"route with a hole", "GET", fb, "/teams/33/statistics?season=2024&league=39", rapid(fb), 200, ""},
		{"HEAD of a GET endpoint", "HEAD", fb, "/standings?league=39&season=2024", rapid(fb), 200, ""},
		{"unknown endpoint", "GET", fb, "/players", rapid(fb), 404, ""},
		{"wrong method", "POST", fb, "/standings", rapid(fb), 405, ""},
		{"no key", "GET", fb, "/fixtures", map[string]string{"X-RapidAPI-Host": fb}, 401, ""},
		{"wrong key", "GET", fb, "/fixtures", map[string]string{"X-RapidAPI-Key": "x", "X-RapidAPI-Host": fb}, 401, ""},
		{"host header missing", "GET", fb, "/fixtures", map[string]string{"X-RapidAPI-Key": "demo"}, 403, ""},
		{"unknown service", "GET", "nope.p.rapidapi.com", "/", rapid("nope.p.rapidapi.com"), 404, ""},
		{"down", "GET", "email-verifier.p.rapidapi.com", "/verify?email=a@b.c", rapid("email-verifier.p.rapidapi.com"), 503, ""},
		{"scripted 429", "GET", "dad-jokes-daily.p.rapidapi.com", "/random/joke", rapid("dad-jokes-daily.p.rapidapi.com"), 429, "1"},
		{"then served", "GET", "dad-jokes-daily.p.rapidapi.com", "/random/joke", rapid("dad-jokes-daily.p.rapidapi.com"), 200, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
			req.Host = tc.host
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.want || resp.Header.Get("Retry-After") != tc.retryAfter {
				t.Errorf("%s %s%s: %d (Retry-After %q) %s, want %d", tc.method, tc.host, tc.path, resp.StatusCode,
					resp.Header.Get("Retry-After"), strings.TrimSpace(string(b)), tc.want)
			}
		})
	}
}
