package crawl

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"sccg/internal/replay"
)

// catalog is the replay snapshot's planning list: what the pages must document.
type catalog struct {
	APIs []struct {
		Owner, Slug, Category, Title, Host string
		Endpoints                          []struct {
			Method, Route, Name string
			Params              []struct {
				Name     string
				In       string
				Type     string
				Required bool
			}
		}
	} `json:"apis"`
}

func loadCatalog(t testing.TB) catalog {
	t.Helper()
	b, err := os.ReadFile("../internal/replay/testdata/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	var c catalog
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func readPage(t testing.TB, owner, slug string) []byte {
	t.Helper()
	b, err := fs.ReadFile(replay.RapidAPIFS(), "pages/"+owner+"/"+slug+".html")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func paramKey(name, in, typ string, req bool) string {
	return fmt.Sprintf("%s:%s:%s:%v", in, name, typ, req)
}

// TestParsePlaygroundMatchesCatalog parses every catalog API's page and checks that
// each catalog endpoint comes out, normalized, with the same method, route, host and
// parameters.
func TestParsePlaygroundMatchesCatalog(t *testing.T) {
	for _, a := range loadCatalog(t).APIs {
		t.Run(a.Owner+"/"+a.Slug, func(t *testing.T) {
			doc, err := ParsePlayground(readPage(t, a.Owner, a.Slug), "https://rapidapi.com"+replay.PlaygroundPath(a.Owner, a.Slug))
			if err != nil {
				t.Fatal(err)
			}
			Normalize(doc)
			if doc.API.Owner != a.Owner || doc.API.Slug != a.Slug || doc.API.Category != a.Category || doc.API.Host != a.Host {
				t.Errorf("API = %s/%s %q %s, want %s/%s %q %s", doc.API.Owner, doc.API.Slug, doc.API.Category, doc.API.Host, a.Owner, a.Slug, a.Category, a.Host)
			}
			got := map[string][]string{}
			for _, e := range doc.Endpoints {
				if !e.IsCurrent {
					continue
				}
				if e.Host != a.Host {
					t.Errorf("%s %s host %s, want %s", e.Method, e.Route, e.Host, a.Host)
				}
				var ps []string
				for _, p := range e.Params {
					ps = append(ps, paramKey(p.Name, p.Location, p.Type, p.Required))
				}
				sort.Strings(ps)
				got[e.Method+" "+e.Route] = ps
			}
			for _, ce := range a.Endpoints {
				var want []string
				for _, p := range ce.Params {
					want = append(want, paramKey(p.Name, p.In, p.Type, p.Required))
				}
				sort.Strings(want)
				k := ce.Method + " " + ce.Route
				ps, ok := got[k]
				if !ok {
					t.Errorf("endpoint %s missing; have %v", k, slices.Sorted(maps.Keys(got)))
					continue
				}
				if strings.Join(ps, " ") != strings.Join(want, " ") {
					t.Errorf("%s params\n got %v\nwant %v", k, ps, want)
				}
			}
		})
	}
}

func TestParsePlaygroundBadPages(t *testing.T) {
	tests := []struct {
		name string
		page []byte
		want error
	}{
		{"no API data", readPage(t, "ghostdev", "retired-api"), ErrNoAPIData},
		{"truncated snapshot page", readPage(t, "brokenco", "half-page-api"), ErrTruncated},
		{"no flight chunks", []byte("<html><body>Not found</body></html>"), ErrNoAPIData},
		{"cut before any chunk", []byte("<html><head><title>x"), ErrTruncated},
		{"cut inside an escape", []byte(`<script>self.__next_f.push([1,"0:{\"a\":\`), ErrTruncated},
		{"api without versions", []byte(`<script>self.__next_f.push([1,"4:[{\"dehydratedAt\":1,\"queryKey\":[\"getApiBySlug\"],\"state\":{\"data\":{\"slug\":\"x\"}}}]\n"])</script></html>`), ErrNoEndpoints},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := ParsePlayground(tc.page, "u")
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v (doc %v), want %v", err, doc, tc.want)
			}
		})
	}
}

func TestParsePlaygroundShapes(t *testing.T) {
	t.Run("two versions, current marked", func(t *testing.T) {
		doc, err := ParsePlayground(readPage(t, "skyward-labs", "weatherstack-forecast"), "u")
		if err != nil {
			t.Fatal(err)
		}
		Normalize(doc)
		versions := map[string]bool{}
		for _, e := range doc.Endpoints {
			versions[e.Version] = e.IsCurrent
		}
		if doc.API.Version != "v2" || len(versions) != 2 || !versions["v2"] || versions["v1"] {
			t.Errorf("version %q, versions %v; want v2 current and v1 kept", doc.API.Version, versions)
		}
	})
	t.Run("unknown param shape is a problem, endpoint kept", func(t *testing.T) {
		doc, err := ParsePlayground(readPage(t, "mailcheck", "email-verifier"), "u")
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Problems) != 1 || !strings.Contains(doc.Problems[0].Reason, "unknown parameter shape") {
			t.Fatalf("problems = %v", doc.Problems)
		}
		found := false
		for _, e := range doc.Endpoints {
			found = found || (e.Route == "/health" && len(e.Params) == 0)
		}
		if !found {
			t.Error("/health endpoint dropped")
		}
	})
	t.Run("payload content types", func(t *testing.T) {
		want := map[string]string{"iban-validator": "application/x-www-form-urlencoded", "sms-sender": "multipart/form-data", "sentiment-analyzer": "application/json"}
		owners := map[string]string{"iban-validator": "bankcheck", "sms-sender": "smsgate", "sentiment-analyzer": "nlpworks"}
		for slug, ct := range want {
			doc, err := ParsePlayground(readPage(t, owners[slug], slug), "u")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range doc.Endpoints {
				got = append(got, e.ContentType)
				if e.ContentType == "application/json" && !json.Valid([]byte(e.BodyExample)) {
					t.Errorf("%s body example is not JSON: %q", slug, e.BodyExample)
				}
			}
			if got[0] != ct {
				t.Errorf("%s content types %v, want %s first", slug, got, ct)
			}
		}
	})
}

func TestFlightStreamUnescapes(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", `self.__next_f.push([1,"abc"])`, "abc"},
		{"json escapes", `self.__next_f.push([1,"a\"b\\c\nd\/e"])`, "a\"b\\c\nd/e"},
		{"unicode", `self.__next_f.push([1,"\u003cb\u003e \u2014 \ud83d\ude00"])`, "<b> — 😀"},
		{"hex and braces", `self.__next_f.push([1,"\x3c\u{1F600}"])`, "<😀"},
		{"single quotes", `self.__next_f.push([1,'it\'s'])`, "it's"},
		{"chunks concatenated, bootstrap skipped", `(self.__next_f=self.__next_f||[]).push([0]) self.__next_f.push([1,"ab"]) self.__next_f.push([1, "cd"])`, "abcd"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FlightStream([]byte(tc.in))
			if err != nil || string(got) != tc.want {
				t.Errorf("FlightStream = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// BenchmarkParsePlayground parses every snapshot page per iteration and reports
// pages per second and allocations per page.
func BenchmarkParsePlayground(b *testing.B) {
	var pages [][]byte
	var bytes int
	for _, a := range loadCatalog(b).APIs {
		p := readPage(b, a.Owner, a.Slug)
		pages = append(pages, p)
		bytes += len(p)
	}
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pages {
			doc, err := ParsePlayground(p, "u")
			if err != nil {
				b.Fatal(err)
			}
			Normalize(doc)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	n := float64(b.N * len(pages))
	b.ReportMetric(n/b.Elapsed().Seconds(), "pages/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/page")
}
