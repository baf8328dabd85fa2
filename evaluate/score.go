package evaluate

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"maps"
	"net/url"
	"sccg/frontends"
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

// Dependencies is the Dep metric's knowledge: the import names of known
// distributions (the standard library is pyfacts').
type Dependencies struct {
	known map[string]bool
}

// DefaultDependencies is the shipped list.
func DefaultDependencies() *Dependencies {
	d := &Dependencies{known: map[string]bool{}}
	sc := bufio.NewScanner(strings.NewReader(knownPackagesList))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 1 && !strings.HasPrefix(f[0], "#") {
			d.known[f[0]] = true
		}
	}
	return d
}

// pyFrontend is the frontend whose module lists the dependency checks use.
var pyFrontend = frontends.MustFor(lang.Python)

// httpClients are the modules that count as importing an HTTP client.
var httpClients = map[string]bool{"requests": true, "httpx": true, "aiohttp": true, "urllib": true,
	"urllib3": true, "http": true}

// Valid reports whether every import is a standard-library module or a known
// distribution (relative imports are not) and an HTTP client is imported.
func (d *Dependencies) Valid(imports []string) bool {
	client := false
	for _, imp := range imports {
		if strings.HasPrefix(imp, ".") || imp == "" {
			return false
		}
		top := strings.SplitN(imp, ".", 2)[0]
		if current, _ := pyFrontend.Builtin(top); !current && !d.known[top] {
			return false
		}
		if httpClients[top] && (top != "urllib" || imp == "urllib.request" || imp == "urllib") &&
			(top != "http" || imp == "http.client") {
			client = true
		}
	}
	return client
}

// ThirdParty lists the top-level modules of imports that are neither standard
// library (pyfacts) nor relative, sorted and without repeats: the dependencies
// DepRecall counts.
func ThirdParty(imports []string) []string {
	var out []string
	for _, imp := range imports {
		if imp == "" || strings.HasPrefix(imp, ".") {
			continue
		}
		top, _, _ := strings.Cut(imp, ".")
		if current, _ := pyFrontend.Builtin(top); !current {
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

// DepRecall is the share of gold (third-party top-level modules) that the imports
// of a completion include; 1 when gold is empty.
func DepRecall(gold, imports []string) float64 {
	if len(gold) == 0 {
		return 1
	}
	have := map[string]bool{}
	for _, imp := range imports {
		top, _, _ := strings.Cut(imp, ".")
		have[top] = true
	}
	n := 0
	for _, g := range gold {
		if have[g] {
			n++
		}
	}
	return float64(n) / float64(len(gold))
}
