package align

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"sccg/internal/synthapi"
	"sccg/lang"
	"sccg/store"
)

const (
	codeHost = "api.codehost.test"
	chatHost = "chat.example.test"
)

// largeEndpoints documents ops on host for API api, ids from firstID.
func largeEndpoints(api int64, host, base string, ops []synthapi.Operation, firstID int64) []store.Endpoint {
	var eps []store.Endpoint
	for i, op := range ops {
		eps = append(eps, store.Endpoint{ID: firstID + int64(i), APIID: api, Version: "1", IsCurrent: true, Host: host,
			Method: op.Method, Route: base + op.Path})
	}
	return eps
}

// largeCatalog is a 1,000-path code-hosting API and a chat API with /users/@me.
func largeCatalog() *Catalog {
	eps := largeEndpoints(1, codeHost, "", synthapi.CodeHost(1000), 1)
	eps = append(eps, largeEndpoints(2, chatHost, synthapi.ChatBase, synthapi.Chat(), 100000)...)
	return NewCatalog(eps, store.API{ID: 1, Source: "openapi", Slug: "codehost"}, store.API{ID: 2, Source: "openapi", Slug: "chat"})
}

func TestAlignLargeAPI(t *testing.T) {
	cat := largeCatalog()
	tests := []struct {
		name, method, url string
		wantType          string
		wantRoute         string
		wantFit           string // RouteFit.String()
		wantLost          string // what the first route alternative lost on, when any
	}{
		{"placeholder spans owner and repo", "GET", "https://" + codeHost + "/repos/{repository}/commits", MatchRoute,
			"/repos/{owner}/{repo}/commits", "2 literal segment(s), {owner}/{repo}={repository}", "literal segment matches"},
		{"placeholder alone spans owner and repo", "GET", "https://" + codeHost + "/repos/{repository}", MatchRoute,
			"/repos/{owner}/{repo}", "1 literal segment(s), {owner}/{repo}={repository}", ""},
		{"owner and repo as written", "DELETE", "https://" + codeHost + "/repos/{owner}/{name}/pulls/{n}", MatchRoute,
			"/repos/{owner}/{repo}/pulls/{pulls_id}", "2 literal segment(s), {owner}={owner} {repo}={name} {pulls_id}={n}", ""},
		{"spanning placeholder then item", "GET", "https://" + codeHost + "/repos/{full_name}/commits/{sha}/comments", MatchRoute,
			"/repos/{owner}/{repo}/commits/{commits_id}/comments", "3 literal segment(s), {owner}/{repo}={full_name} {commits_id}={sha}", ""},
		{"literal beside a template", "GET", "https://" + chatHost + "/api/v10/users/@me", MatchRoute,
			"/api/v10/users/@me", "4 literal segment(s)", "literal segment matches"},
		{"literal beside a template, deeper", "GET", "https://" + chatHost + "/api/v10/users/@me/guilds", MatchRoute,
			"/api/v10/users/@me/guilds", "5 literal segment(s)", ""},
		{"id fills the template", "GET", "https://" + chatHost + "/api/v10/users/80351110224678912", MatchRoute,
			"/api/v10/users/{user_id}", "3 literal segment(s), {user_id}=80351110224678912", ""},
		{"placeholder never fills a literal", "GET", "https://" + chatHost + "/api/v10/users/{uid}", MatchRoute,
			"/api/v10/users/{user_id}", "3 literal segment(s), {user_id}={uid}", ""},
		{"a placeholder alone spans nothing", "GET", "https://" + codeHost + "/{endpoint}", MatchHostOnly, "", "", ""},
		{"undocumented path", "GET", "https://" + codeHost + "/meta/zen", MatchHostOnly, "/meta/zen", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			host, path := splitURL(tt.url)
			c := lang.Call{Line: 3, Callee: "requests.get", Method: tt.method, URL: tt.url, Host: host, Path: path, Scheme: "https"}
			as, _ := AlignFunction(`requests.get(url)`, &lang.Facts{Calls: []lang.Call{c}}, cat)
			if len(as) != 1 {
				t.Fatalf("alignments = %d", len(as))
			}
			a := as[0]
			if a.DocMatchType != tt.wantType || a.Route != tt.wantRoute {
				t.Fatalf("aligned %s %s, want %s %s", a.DocMatchType, a.Route, tt.wantType, tt.wantRoute)
			}
			var ev Evidence
			if err := json.Unmarshal(a.Evidence, &ev); err != nil {
				t.Fatal(err)
			}
			if got := ev.RouteFit.String(); got != tt.wantFit {
				t.Errorf("fit = %q, want %q", got, tt.wantFit)
			}
			choice := RouteChoice(a)
			if tt.wantType == MatchHostOnly {
				if len(choice) != 0 {
					t.Errorf("a host_only alignment lists route candidates %q", choice)
				}
				return
			}
			if len(choice) == 0 || !strings.HasPrefix(choice[0], tt.method+" "+tt.wantRoute+": ") || !strings.HasSuffix(choice[0], "chosen") {
				t.Errorf("choice = %q, want the chosen route first", choice)
			}
			if tt.wantLost != "" && (len(choice) < 2 || !strings.HasSuffix(choice[1], "lost on "+tt.wantLost)) {
				t.Errorf("choice = %q, want a runner-up that lost on %s", choice, tt.wantLost)
			}
		})
	}
}

var pathParamRe = regexp.MustCompile(`\{[^{}]+\}`)

// largeCalls are n calls of random documented endpoints of eps as code writes
// them: parameters as values, as placeholders, and {owner}/{repo} as one.
func largeCalls(eps []store.Endpoint, n int, seed uint64) []lang.Call {
	r := rand.New(rand.NewPCG(seed, 7))
	calls := make([]lang.Call, n)
	for i := range calls {
		ep := eps[r.IntN(len(eps))]
		p := strings.Replace(ep.Route, "{owner}/{repo}", "{repository}", r.IntN(2))
		p = pathParamRe.ReplaceAllStringFunc(p, func(s string) string {
			if r.IntN(2) == 0 || s == "{repository}" {
				return s
			}
			return fmt.Sprint(r.IntN(1000))
		})
		calls[i] = lang.Call{Line: 1, Method: ep.Method, URL: "https://" + ep.Host + p, Host: ep.Host, Path: p, Scheme: "https"}
	}
	return calls
}

// TestAlignLargeAPIFindsEveryEndpoint aligns a call of each of the 1,000-path
// API's endpoints, written with values and placeholders, to that endpoint.
func TestAlignLargeAPIFindsEveryEndpoint(t *testing.T) {
	cat := largeCatalog()
	eps := largeEndpoints(1, codeHost, "", synthapi.CodeHost(1000), 1)
	for _, ep := range eps {
		p := strings.Replace(ep.Route, "{owner}/{repo}", "{repository}", 1)
		c := lang.Call{Line: 1, Method: ep.Method, URL: "https://" + codeHost + p, Host: codeHost, Path: p}
		as, _ := AlignFunction("", &lang.Facts{Calls: []lang.Call{c}}, cat)
		if len(as) != 1 || as[0].EndpointID != ep.ID {
			t.Errorf("%s %s aligned to %+v, want endpoint %d", ep.Method, p, as, ep.ID)
		}
	}
}

// benchAlign aligns calls against a catalog of the given endpoints and reports
// the catalog's build time, the time per call and the heap the catalog holds.
func benchAlign(b *testing.B, eps []store.Endpoint, apis []store.API) {
	calls := largeCalls(eps, 10000, 1)
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	cat := NewCatalog(eps, apis...)
	runtime.GC()
	runtime.ReadMemStats(&ms1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := calls[i%len(calls)]
		if as, _ := AlignFunction("", &lang.Facts{Calls: []lang.Call{c}}, cat); len(as) != 1 || as[0].DocMatchType != MatchRoute {
			b.Fatalf("%s %s did not align to a route", c.Method, c.URL)
		}
	}
	b.ReportMetric(float64(ms1.HeapAlloc-min(ms0.HeapAlloc, ms1.HeapAlloc))/(1<<20), "catalog-MB")
	runtime.KeepAlive(cat)
}

// BenchmarkAlignLargeAPI aligns calls of a 1,000-path API (about 2,000 operations).
func BenchmarkAlignLargeAPI(b *testing.B) {
	benchAlign(b, largeEndpoints(1, codeHost, "", synthapi.CodeHost(1000), 1), []store.API{{ID: 1, Source: "openapi", Slug: "codehost"}})
}

// BenchmarkAlign10kEndpoints aligns calls against 10,000 endpoints on five hosts.
func BenchmarkAlign10kEndpoints(b *testing.B) {
	var eps []store.Endpoint
	var apis []store.API
	for h := range 5 {
		ops := synthapi.CodeHost(1000)[:2000]
		eps = append(eps, largeEndpoints(int64(h+1), fmt.Sprintf("api%d.codehost.test", h), "", ops, int64(h*10000+1))...)
		apis = append(apis, store.API{ID: int64(h + 1), Source: "openapi", Slug: fmt.Sprint("codehost", h)})
	}
	benchAlign(b, eps, apis)
}

// BenchmarkCatalog10kEndpoints builds the catalog of 10,000 endpoints.
func BenchmarkCatalog10kEndpoints(b *testing.B) {
	var eps []store.Endpoint
	for h := range 5 {
		eps = append(eps, largeEndpoints(int64(h+1), fmt.Sprintf("api%d.codehost.test", h), "", synthapi.CodeHost(1000)[:2000], int64(h*10000+1))...)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		NewCatalog(eps)
	}
}
