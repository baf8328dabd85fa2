// Package route matches request paths against documented route templates
// ("/forecast/{location}"). It is the one definition every stage uses: align binds
// observed calls with it and evaluate scores captured requests with it, so the two
// can never disagree about what "the same endpoint" means.
package route

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// Route is a compiled route template. A {name} part (a whole segment or part of
// one, as in "/v1/{id}.json") and a ":name" segment match one non-empty path
// segment; everything else matches literally and case-sensitively. An empty
// segment between two slashes of a path ("/repos//x/issues", from a variable that
// held "") is the empty value of a whole-segment parameter, never a literal; a path
// is matched both with its empty segments so bound and with its slashes collapsed
// (the "https://h/" + "/path" of a careless join), and fits when either does.
type Route struct {
	Template string
	pattern  string // the regexp, compiled on the first Match
	once     sync.Once
	re       *regexp.Regexp
	params   int // number of parameter parts
	literal  int // number of literal characters, for specificity
}

// Compile compiles a route template. Query strings, fragments, repeated and
// trailing slashes in the template are ignored, as they are in the paths it is
// matched against. The matcher is built on the first Match, so a catalog of many
// routes that are only looked up through an Index costs little.
func Compile(template string) *Route {
	norm := NormalizePath(template)
	r := &Route{Template: template}
	var b strings.Builder
	b.WriteString("^")
	for i, seg := range strings.Split(norm, "/") {
		if i > 0 {
			b.WriteByte('/')
		}
		if len(seg) > 1 && seg[0] == ':' {
			b.WriteString(`[^/]+`)
			r.params++
			continue
		}
		pat, literal, params := segmentPattern(seg)
		b.WriteString(pat)
		r.literal += literal
		r.params += params
	}
	b.WriteString("$")
	r.pattern = b.String()
	return r
}

// Match reports whether path matches the route. The path may carry a query string,
// a trailing slash, percent-escapes, or {name} placeholders for parts that could not
// be resolved statically; a placeholder only matches a template parameter, never a
// literal segment. Match is safe for concurrent use.
func (r *Route) Match(path string) bool {
	r.once.Do(func() { r.re = regexp.MustCompile(r.pattern) })
	if r.re.MatchString(NormalizePath(path)) {
		return true
	}
	raw, ok := emptySegments(path)
	return ok && r.re.MatchString(raw)
}

// EmptySegment stands for an empty segment of a path in the form emptySegments
// gives it: it fills a parameter ("[^/]+") and equals no literal of a template.
const EmptySegment = "\x00"

// emptySegments is the path in the form routes are compared in, but with each
// empty segment kept as EmptySegment; ok is false when the path has none.
func emptySegments(p string) (string, bool) {
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if strings.Contains(p, "%") {
		if u, err := url.PathUnescape(p); err == nil {
			p = u
		}
	}
	p = strings.TrimRight(p, "/")
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	if !strings.Contains(p, "//") {
		return "", false
	}
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		if s == "" {
			segs[i] = EmptySegment
		}
	}
	return "/" + strings.Join(segs, "/"), true
}

// Params is the number of parameter parts in the template.
func (r *Route) Params() int { return r.params }

// Specificity orders routes that match the same path: more literal characters and
// fewer parameters is more specific ("/forecast/daily" before "/forecast/{day}").
func (r *Route) Specificity() int { return r.literal*16 - r.params }

// NormalizePath reduces a URL path to the form routes are compared in: the query
// string and fragment are dropped, percent-escapes decoded, repeated slashes
// collapsed, the trailing slash removed and a leading slash ensured. An empty path
// is "/".
func NormalizePath(p string) string {
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if strings.Contains(p, "%") {
		if u, err := url.PathUnescape(p); err == nil {
			p = u
		}
	}
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	p = strings.TrimRight(p, "/")
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return p
}
