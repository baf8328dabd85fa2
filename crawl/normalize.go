package crawl

import (
	"net/url"
	"regexp"
	"strings"

	"sccg/store"
)

// Doc is one API as a source documents it, before normalization: the API facts and
// the endpoints of every version the source shows.
type Doc struct {
	API       store.API
	Endpoints []store.Endpoint
	// Problems are non-fatal issues met while reading the source (an endpoint with an
	// unknown parameter shape, say); each becomes a "changed" decision.
	Problems []Problem
	// Warnings are problems of a description file that were repaired or ignored;
	// each becomes a "warning" decision on the API.
	Warnings []Warning
}

// Problem is a non-fatal issue with one part of a document.
type Problem struct {
	Subject string // endpoint or field it concerns
	Reason  string
}

// colonParam matches an Express-style path parameter segment (:id).
var colonParam = regexp.MustCompile(`^:([A-Za-z_][A-Za-z0-9_.-]*)$`)

// angleParam matches a Flask-style path parameter segment (<id> or <int:id>).
var angleParam = regexp.MustCompile(`^<(?:[a-z]+:)?([A-Za-z_][A-Za-z0-9_]*)>$`)

// braceParam finds {name} path parameters in a route template.
var braceParam = regexp.MustCompile(`\{([^{}/]+)\}`)

// NormalizeRoute turns a documented route into the template sccg stores: a leading
// slash, {name} path parameters (":name" and "<name>" are rewritten), no trailing
// slash, no repeated slashes. A query string embedded in the route ("/search?q=")
// is split off and returned as query parameters, with their example values.
func NormalizeRoute(route string) (string, []store.Param) {
	route = strings.TrimSpace(route)
	if i := strings.Index(route, "://"); i >= 0 { // a full URL: keep the path
		rest := route[i+3:]
		if j := strings.IndexAny(rest, "/?"); j >= 0 {
			route = rest[j:]
		} else {
			route = "/"
		}
	}
	if i := strings.IndexByte(route, '#'); i >= 0 {
		route = route[:i]
	}
	var query []store.Param
	if i := strings.IndexByte(route, '?'); i >= 0 {
		query = queryParams(route[i+1:])
		route = route[:i]
	}
	segs := strings.Split(route, "/")
	out := make([]string, 0, len(segs))
	for _, s := range segs {
		if s == "" {
			continue
		}
		if m := colonParam.FindStringSubmatch(s); m != nil {
			s = "{" + m[1] + "}"
		} else if m := angleParam.FindStringSubmatch(s); m != nil {
			s = "{" + m[1] + "}"
		}
		out = append(out, s)
	}
	return "/" + strings.Join(out, "/"), query
}

func queryParams(raw string) []store.Param {
	var out []store.Param
	seen := map[string]bool{}
	for _, kv := range strings.Split(raw, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		if uk, err := url.QueryUnescape(k); err == nil {
			k = uk
		}
		if uv, err := url.QueryUnescape(v); err == nil {
			v = uv
		}
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		if strings.HasPrefix(v, "{") && strings.HasSuffix(v, "}") { // ?q={q}: a placeholder, not an example
			v = ""
		}
		out = append(out, store.Param{Name: k, Location: "query", Type: "string", Example: v})
	}
	return out
}

// PathParams lists the {name} parameters of a route template in order.
func PathParams(route string) []string {
	var out []string
	for _, m := range braceParam.FindAllStringSubmatch(route, -1) {
		out = append(out, m[1])
	}
	return out
}

// NormalizeHost lower-cases a host and strips a scheme, path and default port.
func NormalizeHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if i := strings.Index(h, "://"); i >= 0 {
		h = h[i+3:]
	}
	if i := strings.IndexAny(h, "/?#"); i >= 0 {
		h = h[:i]
	}
	h = strings.TrimSuffix(h, ":443")
	return strings.TrimSuffix(h, ".")
}

// NormalizeMethod upper-cases an HTTP method; an empty one means GET.
func NormalizeMethod(m string) string {
	m = strings.ToUpper(strings.TrimSpace(m))
	if m == "" {
		return "GET"
	}
	return m
}

// OpenAPIType maps a source's parameter type name (RapidAPI's STRING, NUMBER, ENUM,
// GEOPOINT…, ToolBench's "str", "int"…, JSON Schema's own) to an OpenAPI type. ok is
// false for names it does not know, which map to "string".
func OpenAPIType(t string) (typ string, ok bool) {
	t, _, _ = strings.Cut(t, " (") // RapidAPI writes "DATE (YYYY-MM-DD)", "TIME (24-hour HH:MM)"
	switch strings.ToLower(strings.TrimSpace(t)) {
	case "string", "str", "text", "enum", "date", "date-time", "datetime", "time", "geopoint", "file", "binary",
		"password", "email", "url", "uuid", "", "char":
		return "string", true
	case "integer", "int", "int32", "int64", "long", "short":
		return "integer", true
	case "number", "float", "double", "decimal", "numeric":
		return "number", true
	case "boolean", "bool":
		return "boolean", true
	case "array", "list", "tuple":
		return "array", true
	case "object", "json", "dict", "map":
		return "object", true
	}
	return "string", false
}

// locations maps a source's parameter location to the one sccg stores.
func normalizeLocation(l string) string {
	switch strings.ToLower(strings.TrimSpace(l)) {
	case "path", "route", "url":
		return "path"
	case "header", "headers":
		return "header"
	case "body", "json", "payload":
		return "body"
	case "form", "formdata", "form_data", "form-data", "urlencoded":
		return "form"
	default:
		return "query"
	}
}

// Normalize rewrites doc in place into the shape the store keeps: hosts lower-cased,
// methods upper-cased, route templates normalized (query strings in routes become
// query parameters), parameter types mapped to OpenAPI types, every path parameter
// of a route documented and required, duplicate endpoints of one version and host collapsed
// (their parameters merged), and exactly one version marked current. It reports what
// it changed as problems only when information was lost or invented.
func Normalize(doc *Doc) {
	doc.API.Host = NormalizeHost(doc.API.Host)
	current := doc.API.Version
	if current == "" {
		for _, e := range doc.Endpoints {
			if e.IsCurrent {
				current = e.Version
				break
			}
		}
	}
	if current == "" && len(doc.Endpoints) > 0 {
		current = doc.Endpoints[0].Version
	}
	doc.API.Version = current
	type key struct{ version, host, method, route string }
	index := map[key]int{}
	out := doc.Endpoints[:0:0]
	for _, e := range doc.Endpoints {
		e.Host = NormalizeHost(e.Host)
		if e.Host == "" {
			e.Host = doc.API.Host
		}
		e.Method = NormalizeMethod(e.Method)
		route, fromQuery := NormalizeRoute(e.Route)
		e.Route = route
		e.IsCurrent = e.Version == current
		params := make([]store.Param, 0, len(e.Params)+len(fromQuery))
		params = append(params, e.Params...)
		params = append(params, fromQuery...)
		for _, name := range PathParams(route) {
			params = append(params, store.Param{Name: name, Location: "path", Type: "string", Required: true})
		}
		e.Params = normalizeParams(params)
		k := key{e.Version, e.Host, e.Method, e.Route}
		if i, dup := index[k]; dup {
			merged := &out[i]
			merged.Params = normalizeParams(append(merged.Params, e.Params...))
			if merged.Description == "" {
				merged.Description = e.Description
			}
			if merged.BodyExample == "" {
				merged.BodyExample, merged.ContentType = e.BodyExample, e.ContentType
			}
			continue
		}
		index[k] = len(out)
		out = append(out, e)
	}
	doc.Endpoints = out
	if doc.API.Host == "" {
		for _, e := range doc.Endpoints {
			if e.IsCurrent && e.Host != "" {
				doc.API.Host = e.Host
				break
			}
		}
	}
}

// normalizeParams maps types and locations and drops repeats of (location, name),
// keeping the first, most documented one (a later repeat only fills blanks). Path
// parameters are always required.
func normalizeParams(ps []store.Param) []store.Param {
	out := make([]store.Param, 0, len(ps))
	index := map[string]int{}
	for _, p := range ps {
		p.Name = strings.TrimSpace(p.Name)
		if p.Name == "" {
			continue
		}
		p.Location = normalizeLocation(p.Location)
		p.Type, _ = OpenAPIType(p.Type)
		if p.Location == "path" {
			p.Required = true
		}
		k := p.Location + "\x00" + p.Name
		if p.Location == "header" { // header names are case-insensitive
			k = strings.ToLower(k)
		}
		if i, ok := index[k]; ok {
			q := &out[i]
			q.Required = q.Required || p.Required
			if q.Description == "" {
				q.Description = p.Description
			}
			if q.Example == "" {
				q.Example = p.Example
			}
			if q.Default == "" {
				q.Default = p.Default
			}
			continue
		}
		index[k] = len(out)
		out = append(out, p)
	}
	return out
}
