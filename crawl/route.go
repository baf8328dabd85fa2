package crawl

import (
	"regexp"
	"strings"
)

// CompileRoute compiles a normalized route template (/forecast/{location}) into a
// regular expression that matches concrete request paths: each {name} matches one
// non-empty path segment (captured under its name, sanitized to a valid group name),
// literal parts match exactly, and one trailing slash is allowed.
func CompileRoute(template string) *regexp.Regexp {
	route, _ := NormalizeRoute(template)
	var b strings.Builder
	b.WriteString("^")
	last := 0
	for _, m := range braceParam.FindAllStringSubmatchIndex(route, -1) {
		b.WriteString(regexp.QuoteMeta(route[last:m[0]]))
		name := nonIdent.ReplaceAllString(route[m[2]:m[3]], "_")
		b.WriteString("(?P<" + name + ">[^/]+)")
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(route[last:]))
	if route != "/" {
		b.WriteString("/?")
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// MatchRoute reports whether path (without query string) fits the route template and
// returns the values of its path parameters by (sanitized) name.
func MatchRoute(template, path string) (map[string]string, bool) {
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	re := CompileRoute(template)
	m := re.FindStringSubmatch(path)
	if m == nil {
		return nil, false
	}
	out := map[string]string{}
	for i, n := range re.SubexpNames() {
		if n != "" {
			out[n] = m[i]
		}
	}
	return out, true
}
