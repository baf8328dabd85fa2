package lang

import (
	"slices"
	"testing"
)

func TestSplitAndResolveURL(t *testing.T) {
	for _, tc := range []struct{ in, host, path, query string }{
		{"https://API.example.com:8443/v1/x?q={q}&n=2#frag", "api.example.com", "/v1/x", "q={q}&n=2"},
		{"https://{host}/v1/x", "", "/v1/x", ""},
		{"https://api.example.com{path}", "api.example.com", "", ""},
		{"{BASE_URL}/items/{id}", "", "/items/{id}", ""},
		{"w.p.rapidapi.com/search", "w.p.rapidapi.com", "/search", ""},
	} {
		u := SplitURL(tc.in)
		if u.Host != tc.host || u.Path != tc.path || u.Query != tc.query {
			t.Errorf("SplitURL(%q) = %+v", tc.in, u)
		}
	}
	for _, tc := range []struct{ base, ref, want string }{
		{"https://a.example.com/v1/", "items", "https://a.example.com/v1/items"},
		{"https://a.example.com/v1/x", "/items", "https://a.example.com/items"},
		{"https://a.example.com/v1", "https://b.example.com/z", "https://b.example.com/z"},
	} {
		if got := ResolveURL(tc.base, tc.ref); got != tc.want {
			t.Errorf("ResolveURL(%q, %q) = %q, want %q", tc.base, tc.ref, got, tc.want)
		}
	}
	if got := JoinPath("https://a.example.com/v1/", "/items"); got != "https://a.example.com/v1/items" {
		t.Errorf("JoinPath = %q", got)
	}
}

func TestCallHeadersAndParams(t *testing.T) {
	var c Call
	c.SetURL("{base}/v1/q?city={city}&units=metric", false)
	c.SetHeader("X-RapidAPI-Host", "w.p.rapidapi.com", true, "")
	c.SetHeader("X-RapidAPI-Key", "", false, "process.env.KEY")
	c.HostFromRapidAPI()
	if c.Host != "w.p.rapidapi.com" || !c.HasRapidAPIKey || c.RapidAPIKey != "" || c.HeaderExprs["X-RapidAPI-Key"] != "process.env.KEY" {
		t.Errorf("call %+v", c)
	}
	ps := DedupParams(append(URLParams("/v1/{id}", c.Query), CallParam{Name: "units", Location: LocQuery, Example: "si", Literal: true}))
	var got []string
	for _, p := range ps {
		got = append(got, p.Location+":"+p.Name+"="+p.Example)
	}
	if want := []string{"path:id=", "query:city=", "query:units=si"}; !slices.Equal(got, want) {
		t.Errorf("params %q, want %q", got, want)
	}
}

func TestJudgeCommentsAndScore(t *testing.T) {
	never := func(string) bool { return false }
	ph, goal := JudgeComments([]Text{{Text: "TODO"}, {Text: "Set the request headers"}}, "", PlaceholderText)
	if !ph || goal {
		t.Errorf("placeholders judged %v %v", ph, goal)
	}
	if _, goal := JudgeComments([]Text{{Text: "fetches the forecast for a city", Inline: true}}, "", never); goal {
		t.Error("an inline comment stated the goal")
	}
	if _, goal := JudgeComments(nil, "Returns the latest quote.", never); !goal {
		t.Error("a docstring did not state the goal")
	}
	q := Score(Checks{IsSyntacticallyValid: true, HasAPICall: true, HasResponseHandling: true},
		QualitySignals{Try: true, EffectiveLOC: 10})
	if q.Score != 75 || len(q.Components) != len(QualityComponents) {
		t.Errorf("score %v %v", q.Score, q.Components)
	}
}

// TestWholePathParam checks which URL pieces take the whole path from a parameter:
// base URLs, slashes and unresolved names may come before it, a collection or a
// query may not; a query may come after it.
func TestWholePathParam(t *testing.T) {
	p := func(name string) URLPiece { return URLPiece{Param: name} }
	x := func(text string) URLPiece { return URLPiece{Text: text} }
	for _, tc := range []struct {
		name string
		ps   []URLPiece
		want string
	}{
		{"the whole URL", []URLPiece{p("url")}, "url"},
		{"after a base URL", []URLPiece{x("https://h.test/api/v10"), p("path")}, "path"},
		{"after a host's root", []URLPiece{x("https://h.test/"), p("path")}, "path"},
		{"after a base and a slash", []URLPiece{x("https://h.test/api"), x("/"), p("endpoint")}, "endpoint"},
		{"after an unresolved base", []URLPiece{x("{BASE_URL}/"), p("path")}, "path"},
		{"empty text after", []URLPiece{x("https://h.test"), p("path"), x("")}, "path"},
		{"after a scheme and a host apart", []URLPiece{x("https://"), x("api.codehost.test/"), p("target")}, "target"},
		{"an item of a collection", []URLPiece{x("https://h.test/users/"), p("id")}, ""},
		{"a versioned collection is no host", []URLPiece{x("https://h.test/"), x("v1.0/"), p("id")}, ""},
		{"a segment after a collection", []URLPiece{x("https://h.test"), x("/users/"), p("id")}, ""},
		{"a query value", []URLPiece{x("https://h.test/search?q="), p("q")}, ""},
		{"a query after the parameter", []URLPiece{x("https://h.test"), p("path"), x("?key=1")}, "path"},
		{"a query built after the parameter", []URLPiece{x("https://h.test/v1"), p("path"), x("?"), x("{urlencode}")}, "path"},
		{"a path after the parameter", []URLPiece{x("https://h.test"), p("path"), x("/items")}, ""},
		{"two parameters", []URLPiece{p("base"), p("path")}, ""},
		{"no parameter", []URLPiece{x("https://h.test/x")}, ""},
		{"nothing", nil, ""},
	} {
		if got := WholePathParam(tc.ps); got != tc.want {
			t.Errorf("%s: WholePathParam(%v) = %q, want %q", tc.name, tc.ps, got, tc.want)
		}
	}
}
