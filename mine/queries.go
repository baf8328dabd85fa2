package mine

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"sccg/lang"
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
	// Language is the language the query's qualifier searches.
	Language lang.Name
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

// searchLanguage is how code search names one language (GitHub's linguist names)
// and the words of its library and function layers.
type searchLanguage struct {
	name       lang.Name
	qualifiers []string // GitHub's language: values (TypeScript's .tsx files are linguist's TSX)
	libraries  []string
	function   string
}

// searchLanguages are the languages the queries cover, in the order they run.
var searchLanguages = []searchLanguage{
	{lang.Python, []string{"python"}, []string{"requests", "httpx"}, "def"},
	{lang.JavaScript, []string{"JavaScript"}, []string{"fetch", "axios"}, "function"},
	{lang.TypeScript, []string{"TypeScript", "TSX"}, []string{"fetch", "axios"}, "function"},
}

// qualifierExtensions are the file extensions GitHub counts under each language
// qualifier, for splitting a saturated query by extension.
var qualifierExtensions = map[string][]string{
	"python":     {"py", "pyi", "pyw"},
	"javascript": {"js", "cjs", "mjs", "jsx"},
	"typescript": {"ts", "cts", "mts"},
	"tsx":        {"tsx"},
}

// qualified is one language qualifier of the selected languages.
type qualified struct {
	lang      searchLanguage
	qualifier string
}

// selected lists the qualifiers of langs (nil: every language) in query order.
func selected(langs []lang.Name) []qualified {
	var out []qualified
	for _, sl := range searchLanguages {
		if len(langs) > 0 && !slices.Contains(langs, sl.name) {
			continue
		}
		for _, q := range sl.qualifiers {
			out = append(out, qualified{sl, q})
		}
	}
	return out
}

// Queries returns the searches for t in the languages langs (nil: every language)
// from the strictest layer to the loosest, each layer's queries in every language
// before the next layer's, using at most endpointsPerAPI endpoints (current ones
// first, as the store lists them).
func Queries(t Target, endpointsPerAPI int, langs []lang.Name) []Query {
	qs := selected(langs)
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
		for _, q := range qs {
			urls = append(urls, q.query(store.LayerEndpointURL, fmt.Sprintf("%q", "https://"+t.Host+p), p))
		}
		if distinctiveRoute(p) {
			for _, q := range qs {
				routes = append(routes, q.query(store.LayerRouteHost, fmt.Sprintf("%q %q", t.Host, p), p))
			}
		}
	}
	out := append(urls, routes...)
	h := fmt.Sprintf("%q", t.Host)
	for _, layer := range []string{store.LayerHost, store.LayerHeader, store.LayerLibrary, store.LayerFunction} {
		for _, q := range qs {
			switch layer {
			case store.LayerHost:
				out = append(out, q.query(layer, h, ""))
			case store.LayerHeader:
				out = append(out, q.query(layer, `"x-rapidapi-host" `+h, ""))
			case store.LayerLibrary:
				for _, l := range q.lang.libraries {
					out = append(out, q.query(layer, h+" "+l, ""))
				}
			case store.LayerFunction:
				out = append(out, q.query(layer, h+" "+q.lang.function, ""))
			}
		}
	}
	return out
}

func (q qualified) query(layer, text, route string) Query {
	return Query{Layer: layer, Text: text + " language:" + q.qualifier, Route: route, Language: q.lang.name}
}

// queryQualifier reads a query's language: qualifier, lower-cased ("" when none).
func queryQualifier(text string) string {
	for _, f := range strings.Fields(text) {
		if v, ok := strings.CutPrefix(f, "language:"); ok {
			return strings.ToLower(v)
		}
	}
	return ""
}

// LocalLayer is the strongest layer whose evidence content, a file of language n,
// holds for t, as the queries of that layer in n would have found it, with the
// query; ok is false when the content does not contain the host at all.
func LocalLayer(t Target, n lang.Name, content []byte, endpointsPerAPI int) (Query, bool) {
	lower := bytes.ToLower(content)
	if !HostIn(lower, t.Host) {
		return Query{}, false
	}
	qs := Queries(t, endpointsPerAPI, []lang.Name{n})
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
