package crawl

import (
	"reflect"
	"testing"

	"sccg/store"
)

func TestNormalizeRoute(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		wantRoute string
		wantQuery []string
	}{
		{"braces kept", "/forecast/{location}", "/forecast/{location}", nil},
		{"colon params", "/words/:word/definitions", "/words/{word}/definitions", nil},
		{"angle params", "/users/<int:user_id>", "/users/{user_id}", nil},
		{"trailing slash", "/symbols/", "/symbols", nil},
		{"root stays root", "/", "/", nil},
		{"empty is root", "", "/", nil},
		{"missing leading slash", "v1/aqi", "/v1/aqi", nil},
		{"double slashes", "//v1//headlines", "/v1/headlines", nil},
		{"embedded query", "/joke/search?term=", "/joke/search", []string{"term="}},
		{"embedded query with examples", "/search?q=cats&num=10&q=dogs", "/search", []string{"q=cats", "num=10"}},
		{"placeholder value is not an example", "/search?q={q}", "/search", []string{"q="}},
		{"full url", "https://api.example.com/v2/trending?country=us", "/v2/trending", []string{"country=us"}},
		{"fragment dropped", "/docs#section", "/docs", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			route, q := NormalizeRoute(tc.in)
			var got []string
			for _, p := range q {
				if p.Location != "query" {
					t.Errorf("param %s location %q, want query", p.Name, p.Location)
				}
				got = append(got, p.Name+"="+p.Example)
			}
			if route != tc.wantRoute || !reflect.DeepEqual(got, tc.wantQuery) {
				t.Errorf("NormalizeRoute(%q) = %q %v, want %q %v", tc.in, route, got, tc.wantRoute, tc.wantQuery)
			}
		})
	}
}

func TestNormalizeHostMethodType(t *testing.T) {
	hosts := []struct{ name, in, want string }{
		{"upper case", "Flight-Tracker-Live.P.RapidAPI.com", "flight-tracker-live.p.rapidapi.com"},
		{"scheme and path", "https://x.p.rapidapi.com/v1/", "x.p.rapidapi.com"},
		{"default port", "x.p.rapidapi.com:443", "x.p.rapidapi.com"},
		{"spaces", "  a.b.c  ", "a.b.c"},
	}
	for _, tc := range hosts {
		t.Run("host/"+tc.name, func(t *testing.T) {
			if got := NormalizeHost(tc.in); got != tc.want {
				t.Errorf("NormalizeHost(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
	methods := []struct{ name, in, want string }{
		{"lower", "get", "GET"},
		{"mixed", "Post", "POST"},
		{"empty", "", "GET"},
	}
	for _, tc := range methods {
		t.Run("method/"+tc.name, func(t *testing.T) {
			if got := NormalizeMethod(tc.in); got != tc.want {
				t.Errorf("NormalizeMethod(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
	types := []struct {
		name, in, want string
		known          bool
	}{
		{"rapidapi string", "STRING", "string", true},
		{"rapidapi number", "NUMBER", "number", true},
		{"integer", "INTEGER", "integer", true},
		{"toolbench int", "int", "integer", true},
		{"enum is string", "ENUM", "string", true},
		{"geopoint is string", "GEOPOINT", "string", true},
		{"date is string", "DATE (YYYY-MM-DD)", "string", true},
		{"bool", "bool", "boolean", true},
		{"json is object", "JSON", "object", true},
		{"list is array", "list", "array", true},
		{"unknown", "HOLOGRAM", "string", false},
	}
	for _, tc := range types {
		t.Run("type/"+tc.name, func(t *testing.T) {
			got, known := OpenAPIType(tc.in)
			if got != tc.want || known != tc.known {
				t.Errorf("OpenAPIType(%q) = %q, %v; want %q, %v", tc.in, got, known, tc.want, tc.known)
			}
		})
	}
}

func TestNormalizeDoc(t *testing.T) {
	p := func(name, loc, typ string, req bool) store.Param {
		return store.Param{Name: name, Location: loc, Type: typ, Required: req}
	}
	tests := []struct {
		name    string
		in      Doc
		want    []string // "version current METHOD route host | loc:name:type:required ..."
		wantAPI string   // host and current version
	}{
		{
			name: "duplicates collapse and merge params",
			in: Doc{API: store.API{Host: "A.p.rapidapi.com"}, Endpoints: []store.Endpoint{
				{Method: "get", Route: "/search", Params: []store.Param{p("q", "query", "STRING", true)}},
				{Method: "GET", Route: "/search/", Params: []store.Param{p("q", "query", "STRING", false), p("num", "query", "INTEGER", false)}},
			}},
			want:    []string{" true GET /search a.p.rapidapi.com | query:q:string:true query:num:integer:false"},
			wantAPI: "a.p.rapidapi.com ",
		},
		{
			name: "versions kept apart, current marked",
			in: Doc{API: store.API{Host: "w.p.rapidapi.com", Version: "v2"}, Endpoints: []store.Endpoint{
				{Version: "v2", Method: "GET", Route: "/forecast/{city}"},
				{Version: "v1", Method: "GET", Route: "/forecast/:city"},
			}},
			want: []string{
				"v2 true GET /forecast/{city} w.p.rapidapi.com | path:city:string:true",
				"v1 false GET /forecast/{city} w.p.rapidapi.com | path:city:string:true",
			},
			wantAPI: "w.p.rapidapi.com v2",
		},
		{
			name: "query string in route becomes params, documented one wins",
			in: Doc{API: store.API{Host: "j.p.rapidapi.com"}, Endpoints: []store.Endpoint{
				{Version: "v1", IsCurrent: true, Method: "GET", Route: "/joke/search?term=&lang=en", Params: []store.Param{p("term", "query", "STRING", true)}},
			}},
			want:    []string{"v1 true GET /joke/search j.p.rapidapi.com | query:term:string:true query:lang:string:false"},
			wantAPI: "j.p.rapidapi.com v1",
		},
		{
			name: "undocumented path param added, header case-insensitive, host from endpoint",
			in: Doc{Endpoints: []store.Endpoint{
				{Host: "H.P.RAPIDAPI.COM", Method: "post", Route: "/items/{id}/", Params: []store.Param{
					p("X-Token", "header", "", true), p("x-token", "headers", "STRING", false), p("body", "payload", "JSON", false)}},
			}},
			want:    []string{" true POST /items/{id} h.p.rapidapi.com | header:X-Token:string:true body:body:object:false path:id:string:true"},
			wantAPI: "h.p.rapidapi.com ",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := tc.in
			Normalize(&doc)
			var got []string
			for _, e := range doc.Endpoints {
				line := e.Version + " " + map[bool]string{true: "true", false: "false"}[e.IsCurrent] + " " + e.Method + " " + e.Route + " " + e.Host + " |"
				for _, p := range e.Params {
					line += " " + p.Location + ":" + p.Name + ":" + p.Type + ":" + map[bool]string{true: "true", false: "false"}[p.Required]
				}
				got = append(got, line)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("endpoints:\n got %q\nwant %q", got, tc.want)
			}
			if api := doc.API.Host + " " + doc.API.Version; api != tc.wantAPI {
				t.Errorf("api = %q, want %q", api, tc.wantAPI)
			}
		})
	}
}
