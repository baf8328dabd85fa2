package mine

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"sccg/store"
)

// Target is one API to mine for, with the endpoints its queries use.
type Target struct {
	API       store.API
	Host      string // lower-cased
	Endpoints []store.Endpoint
}

// Query is one code search: the layer it belongs to and its text.
type Query struct {
	Layer string
	Text  string
	Route string // the route prefix it names, for endpoint_url and route_host
}

// staticPrefix is the part of a route template before its first path parameter,
// without a trailing slash: /forecast/daily/{location} → /forecast/daily.
func staticPrefix(route string) string {
	if i := strings.IndexByte(route, '{'); i >= 0 {
		route = route[:i]
	}
	if i := strings.IndexByte(route, '?'); i >= 0 {
		route = route[:i]
	}
	return strings.TrimRight(route, "/")
}

var versionSegment = regexp.MustCompile(`^v\d+(\.\d+)*$`)

// genericSegments name too many unrelated routes to narrow a search on their own.
var genericSegments = map[string]bool{"api": true, "search": true, "list": true, "get": true, "data": true,
	"query": true, "info": true, "index": true, "status": true, "all": true, "random": true, "rest": true}

// distinctiveRoute reports whether a route prefix narrows a host search enough to be
// worth its own query: at least one segment of four or more characters that is not
// a version or a generic word.
func distinctiveRoute(prefix string) bool {
	for _, seg := range strings.Split(prefix, "/") {
		s := strings.ToLower(seg)
		if len(s) >= 4 && !versionSegment.MatchString(s) && !genericSegments[s] {
			return true
		}
	}
	return false
}

const pyQualifier = " language:python"

// Queries returns the searches for t from the strictest layer to the loosest, using
// at most endpointsPerAPI endpoints (current ones first, as the store lists them).
func Queries(t Target, endpointsPerAPI int) []Query {
	var urls, routes []Query
	seen := map[string]bool{}
	n := 0
	for _, e := range t.Endpoints {
		if !e.IsCurrent && len(t.Endpoints) > 0 && t.Endpoints[0].IsCurrent {
			continue
		}
		p := staticPrefix(e.Route)
		if p == "" || seen[p] {
			continue
		}
		if endpointsPerAPI > 0 && n >= endpointsPerAPI {
			break
		}
		seen[p] = true
		n++
		urls = append(urls, Query{Layer: store.LayerEndpointURL, Text: fmt.Sprintf("%q", "https://"+t.Host+p) + pyQualifier, Route: p})
		if distinctiveRoute(p) {
			routes = append(routes, Query{Layer: store.LayerRouteHost, Text: fmt.Sprintf("%q %q", t.Host, p) + pyQualifier, Route: p})
		}
	}
	qs := append(urls, routes...)
	h := fmt.Sprintf("%q", t.Host)
	qs = append(qs,
		Query{Layer: store.LayerHost, Text: h + pyQualifier},
		Query{Layer: store.LayerHeader, Text: `"x-rapidapi-host" ` + h + pyQualifier},
		Query{Layer: store.LayerLibrary, Text: h + " requests" + pyQualifier},
		Query{Layer: store.LayerLibrary, Text: h + " httpx" + pyQualifier},
		Query{Layer: store.LayerFunction, Text: h + " def" + pyQualifier},
	)
	return qs
}

// LocalLayer is the strongest layer whose evidence content holds for t, as the
// queries of that layer would have found it, with the query; ok is false when the
// content does not contain the host at all.
func LocalLayer(t Target, content []byte, endpointsPerAPI int) (Query, bool) {
	lower := bytes.ToLower(content)
	if !HostIn(lower, t.Host) {
		return Query{}, false
	}
	qs := Queries(t, endpointsPerAPI)
	for _, q := range qs {
		switch q.Layer {
		case store.LayerEndpointURL:
			if urlIn(lower, "://"+t.Host+strings.ToLower(q.Route)) {
				return q, true
			}
		case store.LayerRouteHost:
			if urlIn(lower, strings.ToLower(q.Route)) {
				return q, true
			}
		case store.LayerHost:
			return q, true
		}
	}
	return Query{}, false
}

// HostIn reports whether content (lower-cased) names host as a whole host, not as
// the tail or head of a longer one: archive-api.open-meteo.com does not name
// api.open-meteo.com, nor api.open-meteo.com.example.org.
func HostIn(content []byte, host string) bool {
	b := []byte(host)
	if len(b) == 0 {
		return false
	}
	for i := 0; ; {
		j := bytes.Index(content[i:], b)
		if j < 0 {
			return false
		}
		if HostBounded(content, i+j, i+j+len(b)) {
			return true
		}
		i += j + 1
	}
}

// HostBounded reports whether content[start:end] stands as a whole host: the byte
// before it is no host byte ([a-z0-9.-]: "//", "@", a quote or a space is fine),
// and the one after neither continues a label nor starts a further one.
func HostBounded(content []byte, start, end int) bool {
	if start > 0 && isHostByte(content[start-1]) {
		return false
	}
	if end < len(content) {
		c := content[end]
		if isLabelByte(c) || c == '.' && end+1 < len(content) && isLabelByte(content[end+1]) {
			return false
		}
	}
	return true
}

func isLabelByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

func isHostByte(c byte) bool { return isLabelByte(c) || c == '.' }

// urlIn reports whether s occurs in content followed by a character that cannot
// continue a path segment (so /current does not match /currently).
func urlIn(content []byte, s string) bool {
	b := []byte(s)
	for i := 0; ; {
		j := bytes.Index(content[i:], b)
		if j < 0 {
			return false
		}
		end := i + j + len(b)
		if end == len(content) || !isSegmentByte(content[end]) {
			return true
		}
		i += j + 1
	}
}

func isSegmentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}
