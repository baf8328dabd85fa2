package mine

import (
	"strings"
	"testing"

	"sccg/lang"
	"sccg/store"
)

func TestQueries(t *testing.T) {
	tgt := Target{Host: "w.p.rapidapi.com", Endpoints: []store.Endpoint{
		{IsCurrent: true, Route: "/forecast/daily/{location}"},
		{IsCurrent: true, Route: "/v1/aqi"},
		{IsCurrent: true, Route: "/forecast/daily/{location}/extra"}, // same prefix: one query
		{IsCurrent: true, Route: "/search"},
		{IsCurrent: false, Route: "/old/route"},
	}}
	var got []string
	for _, q := range Queries(tgt, 3, []lang.Name{lang.Python}) {
		got = append(got, q.Layer+" "+q.Text)
	}
	want := []string{
		`endpoint_url "https://w.p.rapidapi.com/forecast/daily" language:python`,
		`endpoint_url "https://w.p.rapidapi.com/v1/aqi" language:python`,
		`endpoint_url "https://w.p.rapidapi.com/search" language:python`,
		`route_host "w.p.rapidapi.com" "/forecast/daily" language:python`,
		`host "w.p.rapidapi.com" language:python`,
		`header "x-rapidapi-host" "w.p.rapidapi.com" language:python`,
		`library "w.p.rapidapi.com" requests language:python`,
		`library "w.p.rapidapi.com" httpx language:python`,
		`function "w.p.rapidapi.com" def language:python`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := len(Queries(tgt, 1, []lang.Name{lang.Python})); n != 7 {
		t.Errorf("one endpoint per API: %d queries, want 7", n)
	}
}

// Every language gets the queries of every layer, a layer's queries in every
// language before the next layer's; TypeScript searches both of GitHub's names
// for it (.tsx files are linguist's TSX).
func TestQueriesLanguages(t *testing.T) {
	tgt := Target{Host: "w.p.rapidapi.com", Endpoints: []store.Endpoint{{IsCurrent: true, Route: "/forecast/daily/{location}"}}}
	var got []string
	for _, q := range Queries(tgt, 5, nil) {
		got = append(got, q.Layer+" "+string(q.Language)+" "+q.Text)
	}
	want := []string{
		`endpoint_url python "https://w.p.rapidapi.com/forecast/daily" language:python`,
		`endpoint_url javascript "https://w.p.rapidapi.com/forecast/daily" language:JavaScript`,
		`endpoint_url typescript "https://w.p.rapidapi.com/forecast/daily" language:TypeScript`,
		`endpoint_url typescript "https://w.p.rapidapi.com/forecast/daily" language:TSX`,
		`route_host python "w.p.rapidapi.com" "/forecast/daily" language:python`,
		`route_host javascript "w.p.rapidapi.com" "/forecast/daily" language:JavaScript`,
		`route_host typescript "w.p.rapidapi.com" "/forecast/daily" language:TypeScript`,
		`route_host typescript "w.p.rapidapi.com" "/forecast/daily" language:TSX`,
		`host python "w.p.rapidapi.com" language:python`,
		`host javascript "w.p.rapidapi.com" language:JavaScript`,
		`host typescript "w.p.rapidapi.com" language:TypeScript`,
		`host typescript "w.p.rapidapi.com" language:TSX`,
		`header python "x-rapidapi-host" "w.p.rapidapi.com" language:python`,
		`header javascript "x-rapidapi-host" "w.p.rapidapi.com" language:JavaScript`,
		`header typescript "x-rapidapi-host" "w.p.rapidapi.com" language:TypeScript`,
		`header typescript "x-rapidapi-host" "w.p.rapidapi.com" language:TSX`,
		`library python "w.p.rapidapi.com" requests language:python`,
		`library python "w.p.rapidapi.com" httpx language:python`,
		`library javascript "w.p.rapidapi.com" fetch language:JavaScript`,
		`library javascript "w.p.rapidapi.com" axios language:JavaScript`,
		`library typescript "w.p.rapidapi.com" fetch language:TypeScript`,
		`library typescript "w.p.rapidapi.com" axios language:TypeScript`,
		`library typescript "w.p.rapidapi.com" fetch language:TSX`,
		`library typescript "w.p.rapidapi.com" axios language:TSX`,
		`function python "w.p.rapidapi.com" def language:python`,
		`function javascript "w.p.rapidapi.com" function language:JavaScript`,
		`function typescript "w.p.rapidapi.com" function language:TypeScript`,
		`function typescript "w.p.rapidapi.com" function language:TSX`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	js := Queries(tgt, 5, []lang.Name{lang.JavaScript})
	if len(js) != 7 || js[0].Text != `"https://w.p.rapidapi.com/forecast/daily" language:JavaScript` {
		t.Errorf("javascript only: %d queries, first %q", len(js), js[0].Text)
	}
}

func TestLocalLayer(t *testing.T) {
	tgt := Target{Host: "w.p.rapidapi.com", Endpoints: []store.Endpoint{
		{IsCurrent: true, Route: "/current"}, {IsCurrent: true, Route: "/forecast/daily/{loc}"}}}
	tests := []struct {
		name, content, layer string
		ok                   bool
	}{
		{"full url", `requests.get("https://w.p.rapidapi.com/current?q=1")`, store.LayerEndpointURL, true},
		{"url with path parameter", `f"https://W.P.RapidAPI.com/forecast/daily/{city}"`, store.LayerEndpointURL, true},
		{"longer route is not the route", `"https://w.p.rapidapi.com/currently"`, store.LayerHost, true},
		{"route and host apart", "HOST = 'w.p.rapidapi.com'\nget(HOST, '/current')", store.LayerRouteHost, true},
		{"host only", "HOST = 'w.p.rapidapi.com'", store.LayerHost, true},
		{"no host", "get('/current')", "", false},
		{"a longer host that ends in the host", `requests.get("https://sub-w.p.rapidapi.com/current")`, "", false},
		{"the longer host beside the host itself", "A = 'https://x.w.p.rapidapi.com/current'\nB = 'https://w.p.rapidapi.com/current'", store.LayerEndpointURL, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, ok := LocalLayer(tgt, lang.Python, []byte(tt.content), 5)
			if ok != tt.ok || q.Layer != tt.layer {
				t.Errorf("got %q %v, want %q %v", q.Layer, ok, tt.layer, tt.ok)
			}
		})
	}
}

func TestSplitQuery(t *testing.T) {
	tests := []struct {
		name, query string
		want        []string
	}{
		{"unsized: size ranges and the oversized rest", `"h" language:python`, []string{
			`"h" language:python size:0..1023`, `"h" language:python size:1024..4095`, `"h" language:python size:4096..16383`,
			`"h" language:python size:16384..65535`, `"h" language:python size:65536..262143`,
			`"h" language:python size:262144..1048576`, `"h" language:python size:>1048576`}},
		{"bounded: halves", `"h" size:0..1023`, []string{`"h" size:0..511`, `"h" size:512..1023`}},
		{"one size: by extension", `"h" language:python size:7..7`, []string{`"h" language:python size:7..7 extension:py`, `"h" language:python size:7..7 extension:pyi`, `"h" language:python size:7..7 extension:pyw`}},
		{"one size: by the language's extensions", `"h" language:JavaScript size:7..7`, []string{`"h" language:JavaScript size:7..7 extension:js`,
			`"h" language:JavaScript size:7..7 extension:cjs`, `"h" language:JavaScript size:7..7 extension:mjs`, `"h" language:JavaScript size:7..7 extension:jsx`}},
		{"one size, no language: no further", `"h" size:7..7`, nil},
		{"one size and extension: no further", `"h" size:7..7 extension:py`, nil},
		{"open range: no further", `"h" size:>1048576`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := splitQuery(tt.query, 1<<20)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	if got := minSize(`"h" size:>1048576`); got != 1048577 {
		t.Errorf("minSize: got %d", got)
	}
}

func TestHostIn(t *testing.T) {
	const host = "api.open-meteo.com"
	tests := []struct {
		content string
		want    bool
	}{
		{`requests.get("https://api.open-meteo.com/v1/forecast")`, true},
		{`url = "https://archive-api.open-meteo.com/v1/archive"`, false},
		{`url = "https://geocoding-api.open-meteo.com/v1/search"`, false},
		{`BASE = "http://user@api.open-meteo.com"`, true},
		{`HOST = 'api.open-meteo.com'`, true},
		{`# see api.open-meteo.com.`, true},
		{`"https://api.open-meteo.com.example.org/"`, false},
		{`"https://api.open-meteo.community/"`, false},
		{`"https://archive-api.open-meteo.com/x" and then "https://api.open-meteo.com/y"`, true},
		{`api.open-meteo.com`, true},
	}
	for _, tt := range tests {
		if got := HostIn([]byte(tt.content), host); got != tt.want {
			t.Errorf("HostIn(%q) = %v, want %v", tt.content, got, tt.want)
		}
	}
}
