package replay

import (
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/cookiejar"
	"os"
	"strings"
	"testing"
)

func startRapidAPI(t *testing.T, opts RapidAPIOptions) (*Server, *http.Client) {
	t.Helper()
	h, err := RapidAPI(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := Start(h)
	t.Cleanup(srv.Close)
	jar, _ := cookiejar.New(nil)
	return srv, &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func get(t *testing.T, c *http.Client, url string) (*http.Response, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestRapidAPISnapshotCoversTheCatalog(t *testing.T) {
	var cat struct {
		APIs []struct{ Owner, Slug, Host string } `json:"apis"`
	}
	raw, err := os.ReadFile("testdata/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &cat); err != nil {
		t.Fatal(err)
	}
	for _, a := range cat.APIs {
		page, err := fs.ReadFile(RapidAPIFS(), "pages/"+a.Owner+"/"+a.Slug+".html")
		if err != nil {
			t.Errorf("no page for %s/%s: %v", a.Owner, a.Slug, err)
			continue
		}
		// Records span chunks: glue the chunks back before looking for the host.
		joined := strings.ReplaceAll(string(page), "\"])</script>\n<script>self.__next_f.push([1,\"", "")
		if !strings.Contains(strings.ToLower(joined), a.Host) {
			t.Errorf("page of %s/%s does not name host %s", a.Owner, a.Slug, a.Host)
		}
	}
}

func TestRapidAPIFaultsAreOneShot(t *testing.T) {
	srv, c := startRapidAPI(t, RapidAPIOptions{})
	url := srv.URL + PlaygroundPath("finstream", "realtime-stock-quotes")
	tests := []struct {
		name       string
		want       int
		retryAfter string
	}{
		{"scripted 429", http.StatusTooManyRequests, "3"},
		{"then the page", http.StatusOK, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := get(t, c, url)
			if resp.StatusCode != tc.want || resp.Header.Get("Retry-After") != tc.retryAfter {
				t.Fatalf("got %d Retry-After %q, want %d %q", resp.StatusCode, resp.Header.Get("Retry-After"), tc.want, tc.retryAfter)
			}
			if tc.want == http.StatusOK && !strings.Contains(body, "self.__next_f.push") {
				t.Errorf("page has no flight data")
			}
		})
	}
	if reps := srv.Log.Repeats(); len(reps) != 0 {
		t.Errorf("a 429 then a 200 counted as a repeat: %v", reps)
	}
}

func TestRapidAPIRedirectAndConditionalGet(t *testing.T) {
	srv, c := startRapidAPI(t, RapidAPIOptions{NoFaults: true})
	resp, _ := get(t, c, srv.URL+PlaygroundPath("travelgo", "hotel-search-engine"))
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusFound || !strings.HasPrefix(loc, PlaygroundPath("travelgo", "hotel-search-engine")+"/apiendpoint_") {
		t.Fatalf("got %d Location %q, want a 302 to an endpoint playground", resp.StatusCode, loc)
	}
	resp, _ = get(t, c, srv.URL+loc)
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != http.StatusOK || etag == "" {
		t.Fatalf("redirect target: %d, ETag %q", resp.StatusCode, etag)
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+loc, nil)
	req.Header.Set("If-None-Match", etag)
	resp2, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusNotModified {
		t.Errorf("conditional GET = %d, want 304", resp2.StatusCode)
	}
}

func TestRapidAPIGraphQLSearch(t *testing.T) {
	srv, c := startRapidAPI(t, RapidAPIOptions{PageSize: 2})
	post := func(body string) (int, map[string]any) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/gateway/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("csrf-token", CSRFToken)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	if code, _ := post(`{"operationName":"searchApis"}`); code != http.StatusForbidden {
		t.Fatalf("without the CSRF cookie: %d, want 403", code)
	}
	get(t, c, srv.URL+"/gateway/csrf")
	var slugs []string
	after := ""
	for range 5 {
		code, out := post(`{"operationName":"searchApis","variables":{"searchApiWhereInput":{"term":"","categoryNames":["Weather"]},"paginationInput":{"first":2,"after":"` + after + `"}}}`)
		if code != http.StatusOK {
			t.Fatalf("searchApis = %d %v", code, out)
		}
		res := out["data"].(map[string]any)["searchApis"].(map[string]any)
		for _, n := range res["nodes"].([]any) {
			slugs = append(slugs, n.(map[string]any)["slug"].(string))
		}
		pi := res["pageInfo"].(map[string]any)
		if !pi["hasNextPage"].(bool) {
			break
		}
		after = pi["endCursor"].(string)
	}
	want := "weatherstack-forecast,open-meteo-data,air-quality-index"
	if got := strings.Join(slugs, ","); got != want {
		t.Errorf("Weather APIs = %s, want %s", got, want)
	}
}
