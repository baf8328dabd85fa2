package evaluate

import (
	"encoding/json"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"sccg/internal/route"
	"sccg/release"
)

// GroundTruth is a sample's g = ⟨h, e, m, P⟩ as the scorer uses it.
type GroundTruth struct {
	// Hosts are the accepted hosts: the API host and the host of the documented URL
	// when that differs (lower case, no port).
	Hosts []string `json:"hosts"`
	// Route is the endpoint template ("/forecast/{location}"), without a query
	// string; empty when the sample has no endpoint (host_only without a path).
	Route  string `json:"route,omitempty"`
	Method string `json:"method"`
	// Params are the parameter keys; ParamsSource says where they come from:
	// "documented", "code" (observed in the real call) or "" (none known yet; the
	// evaluator then falls back to the keys the gold code sends).
	Params       []string `json:"params"`
	ParamsSource string   `json:"params_source,omitempty"`

	route *route.Route // nil when the ground truth has no endpoint
}

// HasEndpoint reports whether the sample's ground truth names an endpoint.
func (g *GroundTruth) HasEndpoint() bool { return g.Route != "" }

// TruthOf derives the ground truth of a published record.
func TruthOf(r release.Record) GroundTruth {
	m := r.APIMetadata
	g := GroundTruth{Method: strings.ToUpper(strings.TrimSpace(m.Method))}
	if g.Method == "" {
		g.Method = "GET"
	}
	addHost := func(h string) {
		h = normHost(h)
		if h == "" {
			return
		}
		for _, x := range g.Hosts {
			if x == h {
				return
			}
		}
		g.Hosts = append(g.Hosts, h)
	}
	addHost(r.APIHost)
	tmpl := strings.TrimSpace(m.Route)
	if strings.Contains(tmpl, "://") {
		// a tmpl recorded as a whole URL: its host is accepted, its path is the tmpl
		u := strings.TrimPrefix(tmpl, "/")
		if pu, err := url.Parse(u); err == nil {
			addHost(pu.Host)
			tmpl = pu.Path
		}
	}
	if m.URL != "" {
		if pu, err := url.Parse(withScheme(m.URL)); err == nil {
			addHost(pu.Host)
			if tmpl == "" && pu.Path != "" && pu.Path != "/" {
				tmpl = pu.Path
			}
		}
	}
	g.Route = normRoute(tmpl)
	if g.Route != "" {
		g.route = route.Compile(g.Route)
	}

	if ps := documentedParams(m); len(ps) > 0 {
		g.Params, g.ParamsSource = ps, "documented"
	} else if ps := codeParams(m.CodeParams); len(ps) > 0 {
		g.Params, g.ParamsSource = ps, "code"
	}
	return g
}

func withScheme(u string) string {
	u = strings.TrimSpace(u)
	if strings.HasPrefix(u, "//") {
		return "https:" + u
	}
	if !strings.Contains(u, "://") {
		return "https://" + u
	}
	return u
}

func normHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	h = strings.TrimSuffix(h, ".")
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(h[i:], "]") {
		h = h[:i]
	}
	return h
}

// normRoute drops a documented query string, a fragment and a trailing slash.
func normRoute(r string) string {
	r = strings.TrimSpace(r)
	if i := strings.IndexAny(r, "?#"); i >= 0 {
		r = r[:i]
	}
	if r == "" {
		return ""
	}
	if !strings.HasPrefix(r, "/") {
		r = "/" + r
	}
	for len(r) > 1 && strings.HasSuffix(r, "/") {
		r = strings.TrimSuffix(r, "/")
	}
	return r
}

// holeRE finds the {param} holes of a route template.
var holeRE = regexp.MustCompile(`\{[^{}/]*\}`)

// documentedParams reads parameter names from the documented lists: a list of
// names, a list of objects with a name, or an object keyed by name.
func documentedParams(m release.Metadata) []string {
	var out []string
	for _, raw := range []json.RawMessage{m.Params, m.PathParams, m.Payload} {
		out = append(out, paramNames(raw)...)
	}
	return uniqSorted(out)
}

func paramNames(raw json.RawMessage) []string {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		var out []string
		for _, it := range list {
			var s string
			if json.Unmarshal(it, &s) == nil {
				out = append(out, s)
				continue
			}
			var obj map[string]json.RawMessage
			if json.Unmarshal(it, &obj) == nil {
				for _, k := range []string{"name", "key", "param", "field"} {
					if v, ok := obj[k]; ok && json.Unmarshal(v, &s) == nil && s != "" {
						out = append(out, s)
						break
					}
				}
			}
		}
		return out
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) == nil {
		// a JSON-schema-like payload: {"properties": {...}} or a plain example object
		if p, ok := obj["properties"]; ok {
			var props map[string]json.RawMessage
			if json.Unmarshal(p, &props) == nil {
				obj = props
			}
		}
		return slices.Collect(maps.Keys(obj))
	}
	return nil
}

// dictKeyRE finds the string keys of dict literals in a code snippet.
var dictKeyRE = regexp.MustCompile(`["']([A-Za-z_$][\w.\-\[\]$]*)["']\s*:`)

// codeParams reads the parameter keys observed in the real call: an explicit
// "params" list, or the dict-literal keys of the params / querystring / payload
// snippets (never the headers).
func codeParams(raw json.RawMessage) []string {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return paramNames(raw)
	}
	var out []string
	if p, ok := obj["params"]; ok {
		out = append(out, paramNames(p)...)
	}
	for k, v := range obj {
		if !strings.HasSuffix(k, "_code") || strings.Contains(k, "header") {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			continue
		}
		for _, m := range dictKeyRE.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
	}
	return uniqSorted(out)
}

func uniqSorted(xs []string) []string {
	var out []string
	for _, x := range xs {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Agreement is how one captured request agrees with a ground truth.
type Agreement struct {
	Host, Endpoint, Method bool
}

// Hit reports a Mock hit: host, endpoint (when the truth has one) and method agree.
func (a Agreement) Hit(g *GroundTruth) bool {
	return a.Host && a.Method && (a.Endpoint || !g.HasEndpoint())
}

// Agree compares a captured request with the ground truth the way the scorer does.
func (g *GroundTruth) Agree(c Captured) Agreement {
	m := g.compare(c)
	return Agreement{Host: m.host, Endpoint: m.endpoint, Method: m.method}
}

// Best returns the index of the captured request that agrees most with the ground
// truth (host, then endpoint, then method; the first on ties), or -1 for none.
func (g *GroundTruth) Best(cs []Captured) int {
	i, _ := g.best(cs)
	return i
}
