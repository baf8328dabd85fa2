package python

import (
	"context"
	"errors"
	"sccg/lang"
	"slices"
	"strings"
	"testing"
	"time"
)

// extractOne extracts src and returns the function named qual.
func extractOne(t *testing.T, src, qual string) lang.Function {
	t.Helper()
	res, err := Extract(context.Background(), []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range res.Functions {
		if f.QualName == qual {
			return f
		}
		names = append(names, f.QualName)
	}
	t.Fatalf("no function %s among %v", qual, names)
	return lang.Function{}
}

func TestURLResolution(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		url      string
		resolved bool
		method   string
		host     string
		path     string
	}{
		{"literal", `import requests
def f():
    return requests.get("https://a.p.rapidapi.com/x/y")`, "https://a.p.rapidapi.com/x/y", true, "GET", "a.p.rapidapi.com", "/x/y"},
		{"concatenation with a constant", `import requests
BASE = "https://a.example.com"
def f(q):
    return requests.post(BASE + "/search/" + q)`, "https://a.example.com/search/{q}", false, "POST", "a.example.com", "/search/{q}"},
		{"f-string", `import requests
HOST = "b.p.rapidapi.com"
def f(city):
    url = f"https://{HOST}/forecast/{city}"
    return requests.get(url)`, "https://b.p.rapidapi.com/forecast/{city}", false, "GET", "b.p.rapidapi.com", "/forecast/{city}"},
		{"format", `import requests
def f(w):
    return requests.get("https://c.com/{}/defs/{kind}".format(w, kind="noun"))`, "https://c.com/{w}/defs/noun", false, "GET", "c.com", "/{w}/defs/noun"},
		{"percent", `import requests
def f(s):
    return requests.get("https://d.com/q/%s?x=%d" % (s, 3))`, "https://d.com/q/{s}?x=3", false, "GET", "d.com", "/q/{s}"},
		{"urljoin", `import requests
from urllib.parse import urljoin
BASE = "https://e.com/api/v1/"
def f():
    return requests.get(urljoin(BASE, "items"))`, "https://e.com/api/v1/items", true, "GET", "e.com", "/api/v1/items"},
		{"augmented", `import requests
def f():
    url = "https://g.com"
    url += "/a"
    return requests.get(url)`, "https://g.com/a", true, "GET", "g.com", "/a"},
		{"requests.request method", `import requests
def f():
    return requests.request("delete", "https://h.com/x")`, "https://h.com/x", true, "DELETE", "h.com", "/x"},
		{"http.client", `import http.client
def f(sym):
    conn = http.client.HTTPSConnection("i.p.rapidapi.com")
    conn.request("GET", "/quote/" + sym, headers={})
    return conn.getresponse().read()`, "https://i.p.rapidapi.com/quote/{sym}", false, "GET", "i.p.rapidapi.com", "/quote/{sym}"},
		{"session base url", `import httpx
def f():
    with httpx.Client(base_url="https://j.com/v2") as c:
        return c.put("/things/1")`, "https://j.com/v2/things/1", true, "PUT", "j.com", "/v2/things/1"},
		{"urllib Request with data", `import urllib.request
def f(body):
    req = urllib.request.Request("https://k.com/send", data=body)
    return urllib.request.urlopen(req).read()`, "https://k.com/send", true, "POST", "k.com", "/send"},
		{"helper bound arguments", `import requests
BASE = "https://l.com"
def _get(path, **kw):
    return requests.get(BASE + path, **kw)
def f(id):
    return _get(f"/users/{id}")`, "https://l.com/users/{id}", false, "GET", "l.com", "/users/{id}"},
		{"class attribute and self session", `import requests
class C:
    URL = "https://m.com/api"
    def __init__(self):
        self.s = requests.Session()
    def f(self):
        return self.s.get(self.URL + "/x")`, "https://m.com/api/x", true, "GET", "m.com", "/api/x"},
		{"host only from header", `import requests
def f(url):
    return requests.get(url, headers={"X-RapidAPI-Host": "n.p.rapidapi.com"})`, "", false, "GET", "n.p.rapidapi.com", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			qual := "f"
			if strings.Contains(tc.src, "class C") {
				qual = "C.f"
			}
			f := extractOne(t, tc.src, qual)
			if len(f.Facts.Calls) != 1 {
				t.Fatalf("got %d calls, want 1", len(f.Facts.Calls))
			}
			c := f.Facts.Calls[0]
			if c.URL != tc.url || c.URLResolved != tc.resolved || c.Method != tc.method || c.Host != tc.host || c.Path != tc.path {
				t.Errorf("got url %q resolved %v method %q host %q path %q\nwant url %q resolved %v method %q host %q path %q",
					c.URL, c.URLResolved, c.Method, c.Host, c.Path, tc.url, tc.resolved, tc.method, tc.host, tc.path)
			}
		})
	}
}

func TestHeadersAndParams(t *testing.T) {
	f := extractOne(t, `import requests
KEY = "abc123"
HEADERS = {"x-RapidAPI-KEY": KEY, "X-RAPIDAPI-HOST": "o.p.rapidapi.com", "X-Token": tok()}
def f(city):
    params = {"q": city, "units": "metric"}
    params["lang"] = "en"
    return requests.get("https://o.p.rapidapi.com/w/{id}?a=1".format(id=7), headers=HEADERS, params=params, json={"x": 1})
`, "f")
	c := f.Facts.Calls[0]
	if !c.HasRapidAPIKey || c.RapidAPIKey != "abc123" || !c.HasRapidAPIHost || c.RapidAPIHost != "o.p.rapidapi.com" {
		t.Errorf("rapidapi headers: %+v", c)
	}
	if c.Headers["X-Token"] != "" || c.HeaderExprs["X-Token"] != "tok()" {
		t.Errorf("non-literal header: value %q expr %q", c.Headers["X-Token"], c.HeaderExprs["X-Token"])
	}
	var got []string
	for _, p := range c.Params {
		s := p.Location + ":" + p.Name
		if p.Literal {
			s += "=" + p.Example
		}
		got = append(got, s)
	}
	want := "query:a=1 query:q query:units=metric query:lang=en json:x=1 header:X-Token"
	if strings.Join(got, " ") != want {
		t.Errorf("params = %s\nwant     %s", strings.Join(got, " "), want)
	}
}

func TestCandidatesAndRejections(t *testing.T) {
	src := `import requests, aiohttp

def plain():
    return requests.get("https://a.com").json()

@app.route("/x")
def view():
    return plain()

class Api:
    async def fetch(self):
        async with aiohttp.ClientSession() as s:
            async with s.get("https://b.com") as r:
                return await r.json()

def outer():
    def inner():
        return requests.get("https://c.com")
    return 1

def no_request():
    return 2

def bad(:
    return requests.get("https://d.com")

def after_bad():
    return requests.get("https://e.com")

r = requests.get("https://f.com")
`
	res, err := Extract(context.Background(), []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Functions {
		s := f.QualName + ":" + f.Status
		if f.IsAsync {
			s += ":async"
		}
		got = append(got, s)
	}
	want := "plain:candidate view:candidate Api.fetch:candidate:async outer.inner:candidate bad:rejected after_bad:candidate <module>:rejected"
	if strings.Join(got, " ") != want {
		t.Errorf("functions = %s\nwant        %s", strings.Join(got, " "), want)
	}
	if res.SyntaxOK {
		t.Error("file with a syntax error reported as syntax_ok")
	}
}

func TestCodeHashIgnoresCommentsWhitespaceAndQuotes(t *testing.T) {
	base := `import requests
def f(q):
    return requests.get("https://a.com/s", params={"q": q})
`
	tests := []struct {
		name string
		src  string
		same bool
	}{
		{"comments and docstring", `import requests
# a comment
def f(q):
    """Search."""
    # another
    return requests.get("https://a.com/s", params={"q": q})  # trailing
`, true},
		{"whitespace", `import requests


def f( q ):
    return requests.get( "https://a.com/s" ,params = { "q" : q } )
`, true},
		{"quotes", `import requests
def f(q):
    return requests.get('https://a.com/s', params={'q': q})
`, true},
		{"different route", `import requests
def f(q):
    return requests.get("https://a.com/t", params={"q": q})
`, false},
	}
	want := extractOne(t, base, "f").CodeHash
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := extractOne(t, tc.src, "f").CodeHash
			if (got == want) != tc.same {
				t.Errorf("hash equal = %v, want %v", got == want, tc.same)
			}
		})
	}
}

func TestSelfContainedContext(t *testing.T) {
	f := extractOne(t, `import os
import json
from config import *
import requests

API = "https://a.com"
UNUSED = 1
HEADERS = {"k": os.getenv("K")}

def _get(p):
    return requests.get(API + p, headers=HEADERS)

def f():
    return _get("/x").json(), settings.TIMEOUT
`, "f")
	wantCode := `import os
from config import *
import requests

API = "https://a.com"
HEADERS = {"k": os.getenv("K")}


def _get(p):
    return requests.get(API + p, headers=HEADERS)


def f():
    return _get("/x").json(), settings.TIMEOUT
`
	if f.Code != wantCode {
		t.Errorf("code:\n%s\nwant:\n%s", f.Code, wantCode)
	}
	if strings.Join(f.Facts.Unresolved, ",") != "settings" {
		t.Errorf("unresolved = %v, want [settings]", f.Facts.Unresolved)
	}
	var pulled []string
	for _, p := range f.Facts.PulledIn {
		pulled = append(pulled, p.Name)
	}
	if strings.Join(pulled, ",") != "API,HEADERS,_get" {
		t.Errorf("pulled in %v, want API, HEADERS, _get", pulled)
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name    string
		content []byte
		opts    Options
		err     error
		enc     string
	}{
		{"binary", []byte("PK\x03\x04\x00\x00 requests.get"), Options{}, lang.ErrBinary, ""},
		{"latin-1", []byte("# caf\xe9\nimport requests\ndef f():\n    return requests.get('https://a.com')\n"), Options{}, nil, "latin-1"},
		{"timeout", []byte(strings.Repeat("x = [1, 2, (3, {4: 5})]\n", 200000)), Options{Timeout: time.Microsecond}, lang.ErrTimeout, ""},
		{"empty", nil, Options{}, nil, "utf-8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Extract(context.Background(), tc.content, tc.opts)
			if !errors.Is(err, tc.err) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if err == nil && res.Encoding != tc.enc {
				t.Errorf("encoding = %q, want %q", res.Encoding, tc.enc)
			}
		})
	}
}

func TestURLEncodeBuildsTheQuery(t *testing.T) {
	f := extractOne(t, `import requests
from urllib.parse import urlencode
def f(q):
    return requests.get("https://a.com/s?" + urlencode({"q": q, "n": 5}))
`, "f")
	c := f.Facts.Calls[0]
	if c.Query != "q={q}&n=5" || len(c.Params) != 2 || c.Params[1].Example != "5" {
		t.Errorf("query %q params %+v, want q={q}&n=5 with n=5", c.Query, c.Params)
	}
}

func TestCommentsPlaceholderAndGoal(t *testing.T) {
	tests := []struct {
		name              string
		comments          string
		placeholder, goal bool
	}{
		{"generated steps", "    # Define the target RapidAPI endpoint URL\n    # Send the GET request to the API\n", true, false},
		{"todo only", "    # TODO: cache this\n", true, false},
		{"real intent", "    # fetch tomorrow's forecast for the user's city\n", false, true},
		{"intent among steps", "    # Set up the query parameters\n    # look up the cheapest flight for the trip\n", false, true},
		{"no comments", "", false, false},
		{"a section header", "    # ---------- Fetch weather ----------\n", false, false},
		{"a title in capitals", "    # GET WEATHER DATA\n", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "import requests\ndef f():\n" + tc.comments + "    return requests.get('https://a.com')\n"
			fa := extractOne(t, src, "f").Facts
			if fa.CommentsPlaceholder != tc.placeholder || fa.CommentsStateGoal != tc.goal {
				t.Errorf("placeholder=%v goal=%v, want %v %v", fa.CommentsPlaceholder, fa.CommentsStateGoal, tc.placeholder, tc.goal)
			}
		})
	}
}

func TestIndentationIssue(t *testing.T) {
	tests := []struct {
		name string
		body string
		want bool
	}{
		{"spaces", "    h = {\n        'a': 1}\n    return requests.get('https://a.com', headers=h)\n", false},
		{"tab inside brackets", "    h = {\n    \t'a': 1}\n    return requests.get('https://a.com', headers=h)\n", false},
		{"tabs and spaces", "    h = 1\n    if h:\n\t\treturn requests.get('https://a.com')\n", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := extractOne(t, "import requests\ndef f():\n"+tc.body, "f")
			if got := f.Facts.Quality.Checks.HasIndentationIssue; got != tc.want {
				t.Errorf("has_indentation_issue = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDefinitionsAfterAnUnclosedBracketAreSalvaged(t *testing.T) {
	src := `import requests

HEADERS = {"X-RapidAPI-Key": "k"}


def parse(text)
    # TODO finish this
    legs = []
    for line in text.splitlines():
        parts = line.split("/"
        legs.append(parts)
    return legs


def lookup(q):
    return requests.get("https://a.p.rapidapi.com/search", headers=HEADERS, params={"q": q}).json()


@cache
def cached(q):
    return requests.get("https://a.p.rapidapi.com/item/" + q).json()
`
	res, err := Extract(context.Background(), []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.SyntaxOK {
		t.Error("broken file reported as syntax_ok")
	}
	var got []string
	for _, f := range res.Functions {
		got = append(got, f.QualName+":"+f.Status)
	}
	if strings.Join(got, " ") != "lookup:candidate cached:candidate" {
		t.Fatalf("functions = %v, want lookup and cached kept", got)
	}
	f := res.Functions[0]
	if len(f.Facts.PulledIn) != 1 || f.Facts.PulledIn[0].Name != "HEADERS" || !strings.HasPrefix(f.Code, "import requests\n") {
		t.Errorf("context not pulled in from the broken file:\n%s", f.Code)
	}
}

// TestCommentsNarrationIsNoGoal: only a docstring or a leading comment speaks for
// the whole function; a run of step comments among the statements never does,
// whatever verbs they use.
func TestCommentsNarrationIsNoGoal(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		goal   bool
		inline int
	}{
		{"step comments among the statements", `def main():
    # prints first pokemon
    r = requests.get("https://pokeapi.co/api/v2/pokemon/1")
    # get the name of the pokemon from the response
    name = r.json()["name"]
    # Clears the terminal
    os.system("clear")
    return name
`, false, 3},
		{"an opening comment followed by more step comments", `def main():
    # fetch the first pokemon
    r = requests.get("https://pokeapi.co/api/v2/pokemon/1")
    # returns its name
    return r.json()["name"]
`, false, 2},
		{"an opening block set apart by a blank line", `def main():
    # fetch the first pokemon and show its name

    r = requests.get("https://pokeapi.co/api/v2/pokemon/1")
    # the name field
    return r.json()["name"]
`, true, 1},
		{"a comment above the definition", `# Fetch the first pokemon's name
def main():
    r = requests.get("https://pokeapi.co/api/v2/pokemon/1")
    # pick the name
    return r.json()["name"]
`, true, 1},
		{"a docstring with step comments", `def main():
    """Return the name of the first pokemon."""
    # call the api
    r = requests.get("https://pokeapi.co/api/v2/pokemon/1")
    return r.json()["name"]
`, true, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fa := extractOne(t, "import os\nimport requests\n\n"+tc.src, "main").Facts
			inline := 0
			for _, c := range fa.Comments {
				if c.Inline {
					inline++
				}
			}
			if fa.CommentsStateGoal != tc.goal || inline != tc.inline {
				t.Errorf("goal=%v inline=%d, want %v %d (comments %+v)", fa.CommentsStateGoal, inline, tc.goal, tc.inline, fa.Comments)
			}
		})
	}
}

func TestRepoModules(t *testing.T) {
	paths := []string{"app/weather.py", "app/models.py", "app/auth/__init__.py", "app/auth/tokens.py", "schema.py",
		"src/pkg/core.py", "tests/test_weather.py", "setup.py", "docs/conf.py", "app/__init__.py", "my-scripts/run.py"}
	got := RepoModules("app/weather.py", paths)
	want := []string{"app", "auth", "docs", "models", "pkg", "schema", "setup", "src", "tests", "weather"}
	if !slices.Equal(got, want) {
		t.Errorf("RepoModules = %v, want %v", got, want)
	}
}

// TestImportsOfTheRepository: a module of the repository's own files is local,
// even when PyPI has a package of that name; the standard library is not
// third-party.
func TestImportsOfTheRepository(t *testing.T) {
	src := `import json
import requests
import schema
from models import Forecast
from .auth import token

def get(city):
    return Forecast(requests.get("https://a.com/x", params={"q": city, "f": schema.F, "t": token(), "j": json.dumps(1)}).json())
`
	res, err := Extract(context.Background(), []byte(src), Options{LocalModules: []string{"models", "schema", "weather"}})
	if err != nil || len(res.Functions) != 1 {
		t.Fatalf("extract: %v (%d functions)", err, len(res.Functions))
	}
	im := res.Functions[0].Facts.Imports
	if !slices.Equal(im.ThirdParty, []string{"requests"}) || !slices.Equal(im.Stdlib, []string{"json"}) ||
		!slices.Contains(im.Local, "models") || !slices.Contains(im.Local, "schema") {
		t.Errorf("imports = %+v, want third-party [requests], stdlib [json], models and schema local", im)
	}
}
