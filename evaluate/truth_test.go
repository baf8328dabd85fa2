package evaluate

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"sccg/evaluate/sandbox"
	"sccg/lang"
	"sccg/lang/frontends"
	"sccg/release"
)

func TestTruthOf(t *testing.T) {
	tests := []struct {
		name       string
		rec        release.Record
		wantHosts  []string
		wantRoute  string
		wantMethod string
		wantParams []string
		wantSource string
	}{
		{"url with documented params", release.Record{APIHost: "A.p.rapidapi.com", APIMetadata: release.Metadata{
			URL: "https://a.p.rapidapi.com/v1/x", Route: "/v1/x/", Method: "get",
			Params: json.RawMessage(`[{"name":"q"},{"name":"limit"}]`), PathParams: json.RawMessage(`["id"]`)}},
			[]string{"a.p.rapidapi.com"}, "/v1/x", "GET", []string{"id", "limit", "q"}, "documented"},
		{"route with a documented query string", release.Record{APIHost: "b.p.rapidapi.com", APIMetadata: release.Metadata{
			Route: "/search?q={q}", Method: "POST", CodeParams: json.RawMessage(`{"params": ["q", "page"]}`)}},
			[]string{"b.p.rapidapi.com"}, "/search", "POST", []string{"page", "q"}, "code"},
		{"route recorded as a whole URL", release.Record{APIHost: "c.p.rapidapi.com", APIMetadata: release.Metadata{
			Route: "/https://api.example.com/v1/os", Method: "GET",
			CodeParams: json.RawMessage(`{"headers_code": "h = {\"X-Key\": k}", "querystring_code": "qs = {\"os\": \"linux\", 'v': 2}"}`)}},
			[]string{"c.p.rapidapi.com", "api.example.com"}, "/v1/os", "GET", []string{"os", "v"}, "code"},
		{"host only without a path", release.Record{APIHost: "d.p.rapidapi.com", APIMetadata: release.Metadata{Method: "POST", DocMatchType: "host_only"}},
			[]string{"d.p.rapidapi.com"}, "", "POST", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := TruthOf(tt.rec)
			if !reflect.DeepEqual(g.Hosts, tt.wantHosts) || g.Route != tt.wantRoute || g.Method != tt.wantMethod ||
				!reflect.DeepEqual(g.Params, tt.wantParams) || g.ParamsSource != tt.wantSource {
				t.Errorf("got hosts %v route %q method %s params %v (%s); want %v %q %s %v (%s)", g.Hosts, g.Route, g.Method,
					g.Params, g.ParamsSource, tt.wantHosts, tt.wantRoute, tt.wantMethod, tt.wantParams, tt.wantSource)
			}
		})
	}
}

func TestParseRequest(t *testing.T) {
	q := sandbox.Request{Lib: "requests", Method: "get", URL: "HTTPS://X.p.rapidapi.com:443/a/b?z=1&y=2",
		Params: json.RawMessage(`["q"]`), JSON: json.RawMessage(`["body_key"]`), Data: json.RawMessage(`"{\"form\": 1}"`)}
	c := ParseRequest(q)
	if c.Host != "x.p.rapidapi.com" || c.Path != "/a/b" || c.Method != "GET" ||
		!reflect.DeepEqual(c.Keys, []string{"body_key", "form", "q", "y", "z"}) {
		t.Errorf("ParseRequest = %+v", c)
	}
	c = ParseRequest(sandbox.Request{Method: "POST", URL: "api.example.com/v2", ParamsRaw: "a=1&b=2"})
	if c.Host != "api.example.com" || c.Path != "/v2" || !reflect.DeepEqual(c.Keys, []string{"a", "b"}) {
		t.Errorf("scheme-less URL with string params: %+v", c)
	}
}

func TestDependencies(t *testing.T) {
	d := DefaultDependencies()
	tests := []struct {
		name    string
		imports []string
		want    bool
	}{
		{"requests and stdlib", []string{"requests", "os", "json", "datetime"}, true},
		{"known distributions", []string{"httpx", "pandas", "django.conf", "bs4"}, true},
		{"urllib.request is a client", []string{"urllib.request", "json"}, true},
		{"urllib.parse alone is not", []string{"urllib.parse", "json"}, false},
		{"http.client", []string{"http.client"}, true},
		{"no HTTP client", []string{"os", "json"}, false},
		{"unknown package", []string{"requests", "totally_made_up_pkg"}, false},
		{"relative import", []string{"requests", ".models"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := d.Valid(lang.Python, tt.imports, nil); got != tt.want {
				t.Errorf("Valid(%v) = %v, want %v", tt.imports, got, tt.want)
			}
		})
	}
}

func TestDependenciesJavaScript(t *testing.T) {
	d := DefaultDependencies()
	tests := []struct {
		name     string
		language lang.Name
		imports  []string
		names    []string // global names the code mentions
		want     bool
		builtins bool // needs the JavaScript frontend's list of Node's modules
	}{
		{"axios", lang.JavaScript, []string{"axios"}, nil, true, false},
		{"node-fetch and dotenv", lang.JavaScript, []string{"node-fetch", "dotenv"}, nil, true, false},
		{"global fetch, no import", lang.JavaScript, nil, []string{"fetch"}, true, false},
		{"global XMLHttpRequest with a known package", lang.TypeScript, []string{"uuid"}, []string{"XMLHttpRequest"}, true, false},
		{"axios from a page's script tag", lang.JavaScript, nil, []string{"axios"}, true, false},
		{"jQuery from a page's script tag", lang.JavaScript, nil, []string{"$"}, true, false},
		{"no client at all", lang.JavaScript, []string{"lodash"}, nil, false, false},
		{"nothing", lang.JavaScript, nil, nil, false, false},
		{"unknown package", lang.JavaScript, []string{"axios", "totally-made-up-pkg"}, nil, false, false},
		{"relative import", lang.TypeScript, []string{"axios", "./client"}, nil, false, false},
		{"scoped package by its name", lang.JavaScript, []string{"@octokit/rest"}, []string{"fetch"}, true, false},
		{"Node's https module is a client", lang.JavaScript, []string{"https"}, nil, true, true},
		{"node: prefix", lang.JavaScript, []string{"node:https", "node:fs/promises"}, nil, true, true},
		{"a Python module is no npm package", lang.JavaScript, []string{"requests"}, []string{"fetch"}, false, false},
	}
	_, noJS := frontends.For(lang.JavaScript)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.builtins && noJS != nil {
				t.Skipf("Node's built-in modules come from the JavaScript frontend: %v", noJS)
			}
			names := map[string]bool{}
			for _, n := range tt.names {
				names[n] = true
			}
			if got := d.Valid(tt.language, tt.imports, names); got != tt.want {
				t.Errorf("Valid(%s, %v, %v) = %v, want %v", tt.language, tt.imports, tt.names, got, tt.want)
			}
		})
	}
}

func TestParseGenerations(t *testing.T) {
	in := `{"sample_id": "A", "setting": "s", "model": "m", "sample_index": 0, "completion": "x"}
not json
{"setting": "s"}
{"sample_id": "A", "setting": "s", "model": "m", "sample_index": 0, "completion": "again"}

{"sample_id": "B", "setting": "s", "model": "m", "sample_index": 1, "completion": "y"}`
	gens, problems, err := ParseGenerations(strings.NewReader(in), "g.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(gens) != 2 || gens[0].Completion != "x" || gens[1].SampleID != "B" {
		t.Errorf("generations = %+v", gens)
	}
	want := []string{"g.jsonl line 2: not a generation", "g.jsonl line 3: not a generation: no sample_id", "g.jsonl line 4: duplicate of line 1"}
	if len(problems) != len(want) {
		t.Fatalf("problems = %q", problems)
	}
	for i, w := range want {
		if !strings.HasPrefix(problems[i], w) {
			t.Errorf("problem %d = %q, want prefix %q", i, problems[i], w)
		}
	}
	if n := Malformed(problems); n != 2 {
		t.Errorf("malformed = %d, want 2 (the duplicate is not)", n)
	}
}

func TestSecretScore(t *testing.T) {
	tests := []struct {
		name, code string
		want       float64
	}{
		{"placeholder key", `headers = {"X-RapidAPI-Key": "YOUR_RAPIDAPI_KEY"}`, 1},
		{"redacted key", `headers = {"X-RapidAPI-Key": "<REDACTED_RAPIDAPI_KEY>"}`, 1},
		{"key from the environment", `api_key = os.getenv("RAPIDAPI_KEY")`, 1},
		{"an e-mail is not a credential", `contact = "someone@company.io"`, 1},
		{"RapidAPI key literal", `headers = {"X-RapidAPI-Key": "9f8e7d6c5bmsh1234567890abcdep1a2b3cjsn0123456789ab"}`, 0},
		{"key-like variable", `API_KEY = "a1b2c3d4e5f6a7b8c9d0e1f2"`, 0},
	}
	py := frontends.MustFor(lang.Python)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, got, _ := analyze(context.Background(), py, lang.DialectPython, tt.code); got != tt.want {
				t.Errorf("secretScore(%s) = %v, want %v", tt.code, got, tt.want)
			}
		})
	}
}

// splitPath is a route's segments without the outer slashes.
func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}
