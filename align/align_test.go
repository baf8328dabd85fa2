package align

import (
	"encoding/json"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"sccg/internal/golden"
	"sccg/lang"
	"sccg/store"
)

var update = flag.Bool("update", false, "rewrite golden files")

const (
	wxHost  = "weatherstack-forecast.p.rapidapi.com"
	wx2Host = "weatherstack-forecast-v2.p.rapidapi.com"
	newHost = "news-feed.p.rapidapi.com"
)

// alignTestCatalog is a small documentation catalog: a weather API with two
// versions on one host (and a second host), and a news API with an undocumented
// parameter list.
func alignTestCatalog() *Catalog {
	p := func(name, loc string) store.Param { return store.Param{Name: name, Location: loc, Type: "string"} }
	return NewCatalog([]store.Endpoint{
		{ID: 1, APIID: 10, Version: "v1", IsCurrent: true, Host: wxHost, Method: "GET", Route: "/forecast/daily/{location}",
			Params: []store.Param{p("location", "path"), p("units", "query")}},
		{ID: 2, APIID: 10, Version: "v1", IsCurrent: true, Host: wxHost, Method: "GET", Route: "/current",
			Params: []store.Param{p("q", "query"), p("lang", "query")}},
		{ID: 3, APIID: 10, Version: "v1", IsCurrent: true, Host: wxHost, Method: "GET", Route: "/forecast/daily/today"},
		{ID: 4, APIID: 10, Version: "v0", IsCurrent: false, Host: wxHost, Method: "GET", Route: "/current/",
			Params: []store.Param{p("city", "query")}},
		{ID: 5, APIID: 11, Version: "v2", IsCurrent: true, Host: wx2Host, Method: "GET", Route: "/current",
			Params: []store.Param{p("q", "query")}},
		{ID: 6, APIID: 20, Version: "1", IsCurrent: true, Host: newHost, Method: "POST", Route: "/search"},
		{ID: 7, APIID: 20, Version: "1", IsCurrent: true, Host: newHost, Method: "GET", Route: "/search"},
		{ID: 8, APIID: 20, Version: "1", IsCurrent: true, Host: newHost, Method: "GET", Route: "/"},
	})
}

func TestAlignFunctionGolden(t *testing.T) {
	cat := alignTestCatalog()
	gkey := "AIza" + "SyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW" // assembled: no credential-shaped literal in the repository
	tests := []struct {
		name  string
		code  string
		calls []lang.Call
	}{
		{
			name: "url literal",
			code: `requests.get("https://weatherstack-forecast.p.rapidapi.com/current", params={"q": city})`,
			calls: []lang.Call{{Line: 3, Callee: "requests.get", Method: "GET", URL: "https://" + wxHost + "/current", URLResolved: true,
				Scheme: "https", Host: wxHost, Path: "/current", Params: []lang.CallParam{{Name: "q", Location: "query"}}}},
		},
		{
			name: "template route in f-string",
			code: `requests.get(f"https://weatherstack-forecast.p.rapidapi.com/forecast/daily/{city}")`,
			calls: []lang.Call{{Line: 4, Callee: "requests.get", Method: "GET", URL: "https://" + wxHost + "/forecast/daily/{city}",
				Scheme: "https", Host: wxHost, Path: "/forecast/daily/{city}"}},
		},
		{
			name: "template route prefers the literal route",
			code: `requests.get("https://weatherstack-forecast.p.rapidapi.com/forecast/daily/today")`,
			calls: []lang.Call{{Line: 4, Callee: "requests.get", Method: "GET", URL: "https://" + wxHost + "/forecast/daily/today",
				URLResolved: true, Scheme: "https", Host: wxHost, Path: "/forecast/daily/today"}},
		},
		{
			name: "route from base url plus path",
			code: "BASE = \"https://weatherstack-forecast.p.rapidapi.com\"\nrequests.get(BASE + \"/current\")",
			calls: []lang.Call{{Line: 5, Callee: "requests.get", Method: "GET", URLExpr: `BASE + "/current"`, URL: "https://" + wxHost + "/current",
				URLResolved: true, Scheme: "https", Host: wxHost, Path: "/current"}},
		},
		{
			name: "route with host from header only",
			code: `requests.get(API_BASE + "/current", headers={"X-RapidAPI-Host": "weatherstack-forecast.p.rapidapi.com"})`,
			calls: []lang.Call{{Line: 6, Callee: "requests.get", Method: "GET", URLExpr: `API_BASE + "/current"`, URL: "{API_BASE}/current",
				HasRapidAPIHost: true, RapidAPIHost: "weatherstack-forecast.p.rapidapi.com"}},
		},
		{
			name:  "trailing slash",
			code:  `requests.get("https://weatherstack-forecast.p.rapidapi.com/current/")`,
			calls: []lang.Call{{Line: 2, Method: "GET", URL: "https://" + wxHost + "/current/", URLResolved: true, Scheme: "https", Host: wxHost, Path: "/current/"}},
		},
		{
			name: "embedded query string",
			code: `requests.get("https://weatherstack-forecast.p.rapidapi.com/current?q=London&lang=en")`,
			calls: []lang.Call{{Line: 2, Method: "GET", URL: "https://" + wxHost + "/current?q=London&lang=en", URLResolved: true,
				Scheme: "https", Host: wxHost, Path: "/current", Query: "q=London&lang=en",
				Params: []lang.CallParam{{Name: "q", Location: "query", Example: "London", Literal: true}, {Name: "lang", Location: "query", Example: "en", Literal: true}}}},
		},
		{
			name: "two versions choose by evidence",
			code: `requests.get("https://weatherstack-forecast.p.rapidapi.com/current", params={"city": c})`,
			calls: []lang.Call{{Line: 2, Method: "GET", URL: "https://" + wxHost + "/current", URLResolved: true, Scheme: "https", Host: wxHost, Path: "/current",
				Params: []lang.CallParam{{Name: "city", Location: "query"}}}},
		},
		{
			name: "two hosts url host wins over header",
			code: `requests.get("https://weatherstack-forecast-v2.p.rapidapi.com/current", headers={"x-rapidapi-host": "weatherstack-forecast.p.rapidapi.com"})`,
			calls: []lang.Call{{Line: 2, Method: "GET", URL: "https://" + wx2Host + "/current", URLResolved: true, Scheme: "https", Host: wx2Host, Path: "/current",
				HasRapidAPIHost: true, RapidAPIHost: wxHost}},
		},
		{
			name: "two requests in one function",
			code: "requests.get(BASE + '/search')\nrequests.get('https://weatherstack-forecast.p.rapidapi.com/current')",
			calls: []lang.Call{
				{Line: 2, Method: "GET", URL: "{BASE}/search", HasRapidAPIHost: true, RapidAPIHost: newHost},
				{Line: 3, Method: "GET", URL: "https://" + wxHost + "/current", URLResolved: true, Scheme: "https", Host: wxHost, Path: "/current"},
			},
		},
		{
			name: "two equal requests first is primary",
			code: "requests.get('https://weatherstack-forecast.p.rapidapi.com/current')\nrequests.get('https://weatherstack-forecast.p.rapidapi.com/forecast/daily/x')",
			calls: []lang.Call{
				{Line: 2, Method: "GET", URL: "https://" + wxHost + "/current", URLResolved: true, Scheme: "https", Host: wxHost, Path: "/current"},
				{Line: 3, Method: "GET", URL: "https://" + wxHost + "/forecast/daily/x", URLResolved: true, Scheme: "https", Host: wxHost, Path: "/forecast/daily/x"},
			},
		},
		{
			name: "method picks among routes",
			code: `requests.post("https://news-feed.p.rapidapi.com/search", json={"query": q})`,
			calls: []lang.Call{{Line: 2, Method: "POST", URL: "https://" + newHost + "/search", URLResolved: true, Scheme: "https", Host: newHost, Path: "/search",
				Params: []lang.CallParam{{Name: "query", Location: "json"}}}},
		},
		{
			name:  "root route as a url literal",
			code:  `requests.get("https://news-feed.p.rapidapi.com/", params={"q": q})`,
			calls: []lang.Call{{Line: 2, Method: "GET", URL: "https://" + newHost + "/", URLResolved: true, Scheme: "https", Host: newHost, Path: "/"}},
		},
		{
			name:  "path parameter filled by percent format is a url literal",
			code:  `requests.get("https://weatherstack-forecast.p.rapidapi.com/forecast/daily/%s" % city)`,
			calls: []lang.Call{{Line: 2, Method: "GET", URL: "https://" + wxHost + "/forecast/daily/{city}", Scheme: "https", Host: wxHost, Path: "/forecast/daily/{city}"}},
		},
		{
			name:  "path parameter concatenated to the literal is a url",
			code:  `requests.get("https://weatherstack-forecast.p.rapidapi.com/forecast/daily/" + city)`,
			calls: []lang.Call{{Line: 2, Method: "GET", URL: "https://" + wxHost + "/forecast/daily/{city}", Scheme: "https", Host: wxHost, Path: "/forecast/daily/{city}"}},
		},
		{
			name:  "route assembled from base and path is a route",
			code:  "BASE = 'https://weatherstack-forecast.p.rapidapi.com'\nrequests.get(BASE + '/forecast/daily/' + city)",
			calls: []lang.Call{{Line: 2, Method: "GET", URL: "https://" + wxHost + "/forecast/daily/{city}", Scheme: "https", Host: wxHost, Path: "/forecast/daily/{city}"}},
		},
		{
			name: "credentials never reach the evidence",
			code: `requests.get("https://weatherstack-forecast.p.rapidapi.com/current?key=` + gkey + `")`,
			calls: []lang.Call{{Line: 2, Method: "GET", URLExpr: `"https://weatherstack-forecast.p.rapidapi.com/current?key=` + gkey + `"`,
				URL: "https://" + wxHost + "/current?key=" + gkey, URLResolved: true, Scheme: "https", Host: wxHost, Path: "/current"}},
		},
		{
			name: "host only with observed path",
			code: `requests.get("https://weatherstack-forecast.p.rapidapi.com/history/" + day, headers={"X-RapidAPI-Key": KEY})`,
			calls: []lang.Call{{Line: 7, Method: "GET", URL: "https://" + wxHost + "/history/{day}", Scheme: "https", Host: wxHost, Path: "/history/{day}",
				HasRapidAPIKey: true, Params: []lang.CallParam{{Name: "X-RapidAPI-Key", Location: "header"}, {Name: "Authorization", Location: "header", Example: "Bearer abc", Literal: true}}}},
		},
		{
			name:  "host only without path",
			code:  `requests.get(url, headers={"X-RapidAPI-Host": "weatherstack-forecast.p.rapidapi.com"})`,
			calls: []lang.Call{{Line: 9, Method: "GET", URLExpr: "url", HasRapidAPIHost: true, RapidAPIHost: wxHost}},
		},
		{
			name:  "whole path from a value the code does not write is refused",
			code:  `requests.get(f"https://weatherstack-forecast.p.rapidapi.com/{endpoint}")`,
			calls: []lang.Call{{Line: 9, Method: "GET", URL: "https://" + wxHost + "/{endpoint}", Scheme: "https", Host: wxHost, Path: "/{endpoint}"}},
		},
		{
			name:  "route under another method only: host only with the code's method",
			code:  `requests.delete("https://weatherstack-forecast.p.rapidapi.com/current")`,
			calls: []lang.Call{{Line: 2, Method: "DELETE", URL: "https://" + wxHost + "/current", URLResolved: true, Scheme: "https", Host: wxHost, Path: "/current"}},
		},
		{
			name: "host from a documented literal elsewhere in the code",
			code: "class Client:\n    def __init__(self, host='weatherstack-forecast.p.rapidapi.com'):\n        self.base = 'https://' + host\n    def current(self, q):\n        return self.session.get(self.base + '/current', params={'q': q})",
			calls: []lang.Call{{Line: 5, Method: "GET", URLExpr: "self.base + '/current'", URL: "{self.base}/current",
				Params: []lang.CallParam{{Name: "q", Location: "query"}}}},
		},
		{
			name: "unknown and missing hosts are skipped",
			code: `requests.get("https://api.github.com/user"); requests.get(u)`,
			calls: []lang.Call{
				{Line: 2, Method: "GET", URL: "https://api.github.com/user", URLResolved: true, Scheme: "https", Host: "api.github.com", Path: "/user"},
				{Line: 3, Method: "GET", URLExpr: "u"},
			},
		},
	}
	type result struct {
		Name       string            `json:"name"`
		Alignments []store.Alignment `json:"alignments"`
		Skips      []Skip            `json:"skips,omitempty"`
	}
	var got []result
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as, skips := AlignFunction(tt.code, &lang.Facts{Calls: tt.calls}, cat)
			primaries := 0
			for _, a := range as {
				if a.IsPrimary {
					primaries++
				}
				if a.DocMatchType == MatchHostOnly && a.EndpointID != 0 {
					t.Errorf("host_only alignment has endpoint %d: host_only never invents an endpoint", a.EndpointID)
				}
				if strings.Contains(string(a.Evidence), "AIzaSy") {
					t.Errorf("evidence carries a credential: %s", a.Evidence)
				}
				if a.EndpointSource == SourceNone && a.Route != "" {
					t.Errorf("endpoint_source none with route %q", a.Route)
				}
			}
			if len(as) > 0 && primaries != 1 {
				t.Errorf("%d primary alignments, want 1", primaries)
			}
			got = append(got, result{tt.name, as, skips})
		})
	}
	b, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "align.golden.json"), append(b, '\n'), *update)
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
