package verify

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sccg/evaluate/sandbox"
	"sccg/release"
)

// mk is a synthetic sample: its label (host, route, method) and its code.
func mk(id, split, matchType, host, route, method, fn, code string) Sample {
	r := release.Record{SampleID: id, APIHost: host, FunctionName: fn, Language: "python"}
	r.Code.CompleteFunction = code
	r.APIMetadata.Route, r.APIMetadata.Method, r.APIMetadata.DocMatchType = route, method, matchType
	r.APIMetadata.URL = "https://" + host + route
	return Sample{Record: r, Split: split}
}

const get = `import requests

def %s(city):
    r = requests.%s("https://%s%s", params={"q": city}, headers={"x-rapidapi-key": "k"})
    return r.json()
`

func getCode(fn, verb, host, path string) string {
	out := get
	for _, v := range []string{fn, verb, host, path} {
		out = strings.Replace(out, "%s", v, 1)
	}
	return out
}

func samplesForVerdicts() []Sample {
	return []Sample{
		mk("SCG-000001", "test", "url", "weather1.p.rapidapi.com", "/forecast/{city}", "GET", "forecast",
			getCode("forecast", "get", "weather1.p.rapidapi.com", "/forecast/paris")),
		mk("SCG-000002", "test", "url", "news9.p.rapidapi.com", "/news", "GET", "news",
			getCode("news", "get", "news9.p.rapidapi.com", "/news/search")),
		mk("SCG-000003", "test", "url", "news9.p.rapidapi.com", "/v2/for-sale", "GET", "sale",
			getCode("sale", "get", "news9.p.rapidapi.com", "/v2/for-sale-by-zipcode")),
		mk("SCG-000004", "test", "route", "tle.p.rapidapi.com", "/title", "GET", "title",
			getCode("title", "get", "capitalize-my-title.p.rapidapi.com", "/title")),
		mk("SCG-000005", "test", "url", "bing.p.rapidapi.com", "/search", "GET", "bing",
			getCode("bing", "get", "api.bing.microsoft.com", "/search")),
		mk("SCG-000006", "test", "url", "bin1.p.rapidapi.com", "/", "GET", "check",
			getCode("check", "post", "bin1.p.rapidapi.com", "/")),
		mk("SCG-000007", "test", "url", "tv1.p.rapidapi.com", "/shows", "GET", "shows",
			"import requests\n\ndef shows(q):\n    # r = requests.get('https://tv1.p.rapidapi.com/shows')\n    return None\n"),
		mk("SCG-000008", "test", "url", "tv1.p.rapidapi.com", "/shows", "GET", "broken",
			"import requests\n\ndef broken(q:\n    return requests.get('https://tv1.p.rapidapi.com/shows')\n"),
		mk("SCG-000009", "test", "url", "tv1.p.rapidapi.com", "/episodes", "GET", "episodes",
			"import requests\n\ndef episodes(q):\n    return fetch_json('https://tv1.p.rapidapi.com/episodes', q)\n"),
		mk("SCG-000010", "test", "route", "geo1.p.rapidapi.com", "/cities", "GET", "cities",
			"import requests\n\ndef cities(q):\n    return requests.get(BASE_URL + '/cities', params={'q': q}).json()\n"),
		mk("SCG-000011", "test", "url", "geo1.p.rapidapi.com", "/other", "GET", "other",
			getCode("other", "get", "geo1.p.rapidapi.com", "/cities")),
		// the labelled request sits behind a stubbed library's answer that no dummy
		// can make a date of: the run stops before it
		mk("SCG-000014", "test", "url", "history1.p.rapidapi.com", "/day/{month}/{day}", "GET", "born",
			"import requests, wikipedia\nfrom datetime import datetime\n\ndef born(name):\n    page = wikipedia.page(name)\n"+
				"    html = requests.get(page.url).text\n    day = datetime.strptime(page.birth_date, '%Y-%m-%d')\n"+
				"    return requests.get('https://history1.p.rapidapi.com/day/%d/%d' % (day.month, day.day)).json()\n"),
		// the only request sent went to the URL argument's dummy, not to a host the code names
		mk("SCG-000015", "test", "url", "events1.p.rapidapi.com", "/day/{day}", "GET", "events",
			"import requests, wikipedia\nfrom datetime import datetime\n\ndef events(page_url):\n    html = requests.get(page_url).text\n"+
				"    day = datetime.strptime(wikipedia.page(html).date, '%Y-%m-%d')\n"+
				"    return requests.get('https://events1.p.rapidapi.com/day/%d' % day.day).json()\n"),
		// exact and near copies of SCG-000001, one of them in another split
		mk("SCG-000012", "train", "url", "weather1.p.rapidapi.com", "/forecast/{city}", "GET", "forecast",
			getCode("forecast", "get", "weather1.p.rapidapi.com", "/forecast/paris")),
		mk("SCG-000013", "test", "url", "weather1.p.rapidapi.com", "/forecast/{city}", "GET", "forecast",
			strings.Replace(getCode("forecast", "get", "weather1.p.rapidapi.com", "/forecast/paris"), "return r.json()", "return r.json() or {}", 1)),
	}
}

func TestVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox")
	}
	smps := samplesForVerdicts()
	smps[0].Record.Comments = []release.Comment{{Text: "Calls https://weather1.p.rapidapi.com/forecast for a city."}}
	smps[0].Record.CommentsSource = "original"
	smps[1].Record.Comments = []release.Comment{{Text: "Search the latest headlines about a topic."}}
	smps[1].Record.CommentsSource = "original"
	rep, err := Verify(context.Background(), smps, Options{Fix: true, Workers: 2,
		Sandbox: sandbox.Options{Limits: sandbox.Limits{Timeout: 20 * time.Second}}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Verification{}
	for _, c := range rep.Samples {
		got[c.SampleID] = c.Verification
	}
	tests := []struct {
		id, verdict, detail, note string
	}{
		{"SCG-000001", Consistent, "", "hits the label"},
		{"SCG-000002", RouteTruncated, "", "/news/search"},
		{"SCG-000003", RouteTruncated, "", "/v2/for-sale-by-zipcode"},
		{"SCG-000004", HostMismatch, DetailInsideLongerHost, "capitalize-my-title.p.rapidapi.com"},
		{"SCG-000005", HostMismatch, "", "api.bing.microsoft.com"},
		{"SCG-000006", MethodMismatch, "", "sends POST"},
		{"SCG-000007", NoRequest, DetailCommentedOut, "line 4"},
		{"SCG-000008", CodeBroken, DetailSyntax, "does not parse"},
		{"SCG-000009", NotSelfContained, "", "fetch_json"},
		{"SCG-000010", NotSelfContained, "", "BASE_URL"},
		{"SCG-000011", RouteMismatch, "", "/cities"},
		{"SCG-000014", Unreached, "", "no run reaches the request call at line 8 (requests.get"},
		{"SCG-000015", Unreached, DetailStubDerived, "sent requests only to example.com"},
		{"SCG-000012", Consistent, "", ""},
		{"SCG-000013", Consistent, "", ""},
	}
	for _, tc := range tests {
		v, ok := got[tc.id]
		if !ok {
			t.Errorf("%s: not verified", tc.id)
			continue
		}
		if v.Verdict != tc.verdict || v.Detail != tc.detail || !strings.Contains(v.Evidence.Note, tc.note) {
			t.Errorf("%s: %s/%s (%q), want %s/%s with %q; evidence %+v", tc.id, v.Verdict, v.Detail, v.Evidence.Note,
				tc.verdict, tc.detail, tc.note, v.Evidence)
		}
	}

	// an unreached call's evidence: the call and the error that stopped the run
	for id, line := range map[string]int{"SCG-000014": 8, "SCG-000015": 7} {
		ev := got[id].Evidence
		if c := ev.UnreachedCall; c == nil || c.Line != line || !strings.Contains(ev.Error, "TypeError: strptime()") {
			t.Errorf("%s: unreached call %+v, error %q; want the call on line %d and the TypeError", id, c, ev.Error, line)
		}
	}

	// duplicates: the lowest id is the representative
	if v := got["SCG-000012"]; v.DuplicateOf != "SCG-000001" || v.DuplicateKind != DuplicateExact || !v.CrossSplit {
		t.Errorf("SCG-000012 duplicate = %q %q cross %v, want an exact cross-split copy of SCG-000001", v.DuplicateOf, v.DuplicateKind, v.CrossSplit)
	}
	if v := got["SCG-000013"]; v.DuplicateOf != "SCG-000001" || v.DuplicateKind != DuplicateNear || v.CrossSplit || v.Similarity >= 1 {
		t.Errorf("SCG-000013 duplicate = %q %q %.2f cross %v, want a near copy of SCG-000001 in the same split", v.DuplicateOf, v.DuplicateKind, v.Similarity, v.CrossSplit)
	}
	if v := got["SCG-000001"]; v.DuplicateOf != "" {
		t.Errorf("the representative is marked a duplicate of %s", v.DuplicateOf)
	}

	// a fix only where one request matches one known endpoint: SCG-000011 calls
	// /cities on geo1, which SCG-000010's label documents
	if f := got["SCG-000011"].Fix; f == nil || f.Route != "/cities" || f.Source != "benchmark" {
		t.Errorf("SCG-000011 fix = %+v, want /cities from the benchmark", f)
	}
	if f := got["SCG-000005"].Fix; f != nil {
		t.Errorf("SCG-000005 (an undocumented host) got a fix %+v", f)
	}

	if l := got["SCG-000001"].CommentLeak; l == nil || !l.Leaked {
		t.Errorf("SCG-000001's comment names the URL, comment_leak = %+v", l)
	}
	if l := got["SCG-000002"].CommentLeak; l != nil {
		t.Errorf("SCG-000002's comment gives nothing away, comment_leak = %+v", l)
	}

	s := rep.Summary
	if s.Samples != len(smps) || s.ByVerdict[Consistent] != 3 || s.Duplicates != 2 || s.CrossSplit != 1 || s.Clean != 1 || s.CommentLeaks["original"] != 1 {
		t.Errorf("summary %+v", s)
	}

	dir := t.TempDir()
	if err := rep.WriteFiles(dir, smps); err != nil {
		t.Fatal(err)
	}
	verified, err := release.ReadFile(filepath.Join(dir, "verified.json"))
	if err != nil || len(verified) != len(smps) {
		t.Fatalf("verified.json: %d records, %v", len(verified), err)
	}
	var vv Verification
	if err := json.Unmarshal(verified[1].Extra["verification"], &vv); err != nil || vv.Verdict != RouteTruncated {
		t.Errorf("verified.json record 2 verification = %+v, %v", vv, err)
	}
	clean, err := release.ReadFile(filepath.Join(dir, "clean.json"))
	if err != nil || len(clean) != 1 || clean[0].SampleID != "SCG-000001" {
		t.Errorf("clean.json = %d records, %v; want SCG-000001 alone", len(clean), err)
	}
	if _, ok := clean[0].Extra["verification"]; ok {
		t.Error("clean.json records carry the verification object; they should be as published")
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
		t.Error(err)
	}
}

func TestPrefixOf(t *testing.T) {
	tests := []struct {
		tmpl, path string
		want       bool
	}{
		{"/news", "/news/search", true},
		{"/v2/for-sale", "/v2/for-sale-by-zipcode", true},
		{"/news", "/news", false},
		{"/news", "/news/", false},
		{"/", "/anything", false},
		{"/shows/{id}", "/shows/12/episodes", true},
		{"/shows/{id}", "/shows", false},
		{"/a/b", "/a/c/d", false},
	}
	for _, tc := range tests {
		if got := prefixOf(tc.tmpl, tc.path); got != tc.want {
			t.Errorf("prefixOf(%q, %q) = %v, want %v", tc.tmpl, tc.path, got, tc.want)
		}
	}
}
