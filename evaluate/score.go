package evaluate

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"maps"
	"net/url"
	"sccg/lang/frontends"
	"slices"
	"strings"

	"sccg/evaluate/sandbox"
	"sccg/lang"
	"sccg/release"
)

// Captured is one request the code tried to send, parsed for scoring.
type Captured struct {
	Lib      string            `json:"lib"`
	Method   string            `json:"method"`
	URL      string            `json:"url"`
	Host     string            `json:"host"`
	Path     string            `json:"path"`
	Query    []string          `json:"query,omitempty"`     // keys in the URL's query string
	Params   []string          `json:"params,omitempty"`    // keys of params=
	JSONKeys []string          `json:"json_keys,omitempty"` // keys of a JSON body
	BodyKeys []string          `json:"body_keys,omitempty"` // keys of a form or string body
	Keys     []string          `json:"param_keys"`          // all of the above, for ParamF1
	Headers  map[string]string `json:"headers,omitempty"`   // secret-looking values redacted
	// Replay is what a real call rebuilding the request needs beyond the above;
	// nil in results written before sccg eval kept it.
	Replay *Replay `json:"replay,omitempty"`
}

// Replay is what the sandbox saw of a request's values, for a bounded real call
// (sccg realcall) to send it again: the query pairs of params= and a string
// params, and whether the request carried a body (which a real call never sends).
type Replay struct {
	ParamValues [][2]string `json:"param_values,omitempty"`
	ParamsRaw   string      `json:"params_raw,omitempty"`
	Body        bool        `json:"body,omitempty"`
}

// ParseRequest turns a request the sandbox recorded into host (lower case, no port),
// path and parameter keys, as the scorer compares them with the ground truth.
func ParseRequest(q sandbox.Request) Captured {
	c := Captured{Lib: q.Lib, Method: strings.ToUpper(q.Method), URL: q.URL, Headers: q.Headers,
		Replay: &Replay{ParamValues: q.ParamValues, ParamsRaw: q.ParamsRaw,
			Body: len(q.JSON) > 0 || len(q.Data) > 0 || len(q.Files) > 0}}
	if u, err := url.Parse(withScheme(q.URL)); err == nil {
		c.Host = normHost(u.Host)
		c.Path = u.Path
		if c.Path == "" {
			c.Path = "/"
		}
		c.Query = slices.AppendSeq(c.Query, maps.Keys(u.Query()))
	}
	c.Params = rawKeys(q.Params)
	if q.ParamsRaw != "" {
		if v, err := url.ParseQuery(strings.TrimPrefix(q.ParamsRaw, "?")); err == nil {
			c.Params = slices.AppendSeq(c.Params, maps.Keys(v))
		}
	}
	c.JSONKeys = rawKeys(q.JSON)
	c.BodyKeys = bodyKeys(q.Data)
	c.Query, c.Params, c.JSONKeys, c.BodyKeys = uniqSorted(c.Query), uniqSorted(c.Params), uniqSorted(c.JSONKeys), uniqSorted(c.BodyKeys)
	var keys []string
	for _, ks := range [][]string{c.Query, c.Params, c.JSONKeys, c.BodyKeys} {
		keys = append(keys, ks...)
	}
	c.Keys = uniqSorted(keys)
	if c.Keys == nil {
		c.Keys = []string{}
	}
	return c
}

// rawKeys reads a recorded list of keys; anything else (a string body) has none.
func rawKeys(raw json.RawMessage) []string {
	var ks []string
	if len(raw) > 0 && json.Unmarshal(raw, &ks) == nil {
		return ks
	}
	return nil
}

// bodyKeys reads the keys of a form body: a recorded key list, or a string that is
// a JSON object or a form-encoded body.
func bodyKeys(raw json.RawMessage) []string {
	if ks := rawKeys(raw); ks != nil {
		return ks
	}
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return nil
	}
	s = strings.TrimSpace(s)
	var obj map[string]json.RawMessage
	if strings.HasPrefix(s, "{") && json.Unmarshal([]byte(s), &obj) == nil {
		return slices.Collect(maps.Keys(obj))
	}
	if strings.Contains(s, "=") && !strings.ContainsAny(s, " \n{") {
		if v, err := url.ParseQuery(s); err == nil {
			return slices.Collect(maps.Keys(v))
		}
	}
	return nil
}

// match is how one captured request compares with the ground truth.
type match struct {
	host, endpoint, method bool
}

func (m match) rank() int {
	r := 0
	if m.host {
		r += 4
	}
	if m.endpoint {
		r += 2
	}
	if m.method {
		r++
	}
	return r
}

func (g *GroundTruth) compare(c Captured) match {
	var m match
	for _, h := range g.Hosts {
		if c.Host == h {
			m.host = true
		}
	}
	if g.route != nil {
		m.endpoint = g.route.Match(c.Path)
	}
	m.method = c.Method == g.Method
	return m
}

// best picks the captured request that agrees most with the ground truth (host,
// then endpoint, then method); the first on ties. It returns -1 for none.
func (g *GroundTruth) best(cs []Captured) (int, match) {
	bi, bm := -1, match{}
	for i, c := range cs {
		m := g.compare(c)
		if bi < 0 || m.rank() > bm.rank() {
			bi, bm = i, m
		}
	}
	return bi, bm
}

// pathParams are the names of the route's {param} holes.
func pathParams(route string) []string {
	var out []string
	for _, h := range holeRE.FindAllString(route, -1) {
		out = append(out, strings.Trim(h, "{}"))
	}
	return out
}

//go:embed known_packages.txt
var knownPackagesList string

//go:embed known_npm_packages.txt
var knownNPMList string

// Dependencies is the Dep metric's knowledge, per language family: the packages
// an import may name besides the runtime's own modules (a frontend's Builtin),
// and what counts as an HTTP client.
//
// Python: every import is a standard-library module or a known PyPI
// distribution's import name (known_packages.txt), and one of them is an HTTP
// client (requests, httpx, aiohttp, urllib.request, urllib3, http.client).
//
// JavaScript and TypeScript: every import is a Node built-in module or a known
// npm package (known_npm_packages.txt, by package name: "@scope/name" for a
// scoped one), relative imports failing as Python's do. fetch and XMLHttpRequest
// are globals of browsers and of Node 18 and later, so the code needs no import
// for a client: the client condition holds when it imports a client package
// (axios, node-fetch, got, …, or Node's http and https) or names a global client.
type Dependencies struct {
	known map[lang.Name]map[string]bool
}

// DefaultDependencies is the shipped lists.
func DefaultDependencies() *Dependencies {
	return &Dependencies{known: map[lang.Name]map[string]bool{
		lang.Python:     readPackageList(knownPackagesList),
		lang.JavaScript: readPackageList(knownNPMList),
	}}
}

func readPackageList(list string) map[string]bool {
	known := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(list))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 1 && !strings.HasPrefix(f[0], "#") {
			known[f[0]] = true
		}
	}
	return known
}

// Package is the package (Python: top-level module) an import names; "" for a
// relative import. JavaScript's node: prefix is dropped.
func Package(n lang.Name, imp string) string {
	if imp == "" || strings.HasPrefix(imp, ".") || strings.HasPrefix(imp, "/") {
		return ""
	}
	if lang.Of(string(n)).Family() != lang.JavaScript {
		top, _, _ := strings.Cut(imp, ".")
		return top
	}
	imp = strings.TrimPrefix(imp, "node:")
	parts := strings.SplitN(imp, "/", 3)
	if strings.HasPrefix(imp, "@") && len(parts) >= 2 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// builtin reports whether the language's runtime provides package p; false when
// no frontend reads the language.
func builtin(n lang.Name, p string) bool {
	f, err := frontends.For(n)
	if err != nil {
		return false
	}
	current, _ := f.Builtin(p)
	return current
}

// Valid reports whether every import of code in language n is one of the
// runtime's modules or a known package (relative imports are not) and an HTTP
// client is imported, or, where the language has them, named as a global
// (names are the code's identifiers the frontend's GlobalClients name).
func (d *Dependencies) Valid(n lang.Name, imports []string, names map[string]bool) bool {
	n = lang.Of(string(n)).Family()
	fe, err := frontends.For(n)
	if err != nil {
		return false
	}
	known := d.known[n]
	client := false
	for _, imp := range imports {
		top := Package(n, imp)
		if top == "" {
			return false
		}
		if !builtin(n, top) && !known[top] {
			return false
		}
		client = client || fe.HTTPClient(imp)
	}
	for _, g := range fe.GlobalClients() {
		client = client || names[g]
	}
	return client
}

// ThirdParty lists the packages of imports of code in language n that are
// neither the runtime's own nor relative, sorted and without repeats: the
// dependencies DepRecall counts.
func ThirdParty(n lang.Name, imports []string) []string {
	var out []string
	for _, imp := range imports {
		top := Package(n, imp)
		if top != "" && !builtin(n, top) {
			out = append(out, top)
		}
	}
	return uniqSorted(out)
}

// RecordDependencies are the third-party modules a built record names as its
// code's dependencies (its "dependencies": neither the standard library nor its
// repository's own modules); ok is false when the record names none, as a
// published release's do not.
func RecordDependencies(r *release.Record) (deps []string, ok bool) {
	raw, has := r.Extra["dependencies"]
	if !has || json.Unmarshal(raw, &deps) != nil {
		return nil, false
	}
	return uniqSorted(deps), true
}

// DepRecall is the share of gold (third-party packages) that the imports of a
// completion in language n include; 1 when gold is empty.
func DepRecall(n lang.Name, gold, imports []string) float64 {
	if len(gold) == 0 {
		return 1
	}
	have := map[string]bool{}
	for _, imp := range imports {
		have[Package(n, imp)] = true
	}
	hits := 0
	for _, g := range gold {
		if have[g] {
			hits++
		}
	}
	return float64(hits) / float64(len(gold))
}
