package align

import (
	"net/url"
	"regexp"
	"strings"
)

// Route is a compiled route template: "/forecast/{location}" matches any path whose
// segments equal the template's, where a {name} segment (or part of a segment)
// matches one non-empty path segment.
type Route struct {
	Template string
	re       *regexp.Regexp
	params   int // number of {name} parts
	literal  int // number of literal characters, for specificity
}

// CompileRoute compiles a route template. Trailing slashes, query strings and
// fragments in the template are ignored, as they are in the paths it is matched
// against.
func CompileRoute(template string) *Route {
	norm := NormalizePath(template)
	var b strings.Builder
	b.WriteString("^")
	r := &Route{Template: template}
	rest := norm
	for rest != "" {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			b.WriteString(regexp.QuoteMeta(rest))
			r.literal += len(rest)
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			b.WriteString(regexp.QuoteMeta(rest))
			r.literal += len(rest)
			break
		}
		b.WriteString(regexp.QuoteMeta(rest[:i]))
		r.literal += i
		b.WriteString(`[^/]+`)
		r.params++
		rest = rest[i+j+1:]
	}
	b.WriteString("$")
	r.re = regexp.MustCompile(b.String())
	return r
}

// Match reports whether path (as observed in code: possibly with a query string, a
// trailing slash, or {name} placeholders for parts that could not be resolved)
// matches the route. An unresolved placeholder in the path only matches a template
// parameter, never a literal segment.
func (r *Route) Match(path string) bool {
	return r.re.MatchString(NormalizePath(path))
}

// Specificity orders routes that match the same path: more literal characters and
// fewer parameters is more specific ("/forecast/daily" before "/forecast/{day}").
func (r *Route) Specificity() int { return r.literal*16 - r.params }

// NormalizePath reduces a URL path to the form routes are compared in: the query
// string and fragment are dropped, repeated slashes collapsed, the trailing slash
// removed, and a leading slash ensured. An empty path is "/".
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

// splitURL splits an absolute or host-relative URL as the extractor renders it
// ("https://h.p.rapidapi.com/a/{x}?q=1", "{BASE}/a/b") into lower-cased host
// (when present and literal) and path (without query).
func splitURL(raw string) (host, path string) {
	s := raw
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
		j := strings.IndexAny(s, "/?#")
		if j < 0 {
			return strings.ToLower(hostOnly(s)), "/"
		}
		host, s = strings.ToLower(hostOnly(s[:j])), s[j:]
	} else if strings.HasPrefix(s, "{") {
		// An unresolved base: "{BASE_URL}/current".
		j := strings.IndexByte(s, '}')
		if j < 0 {
			return "", ""
		}
		s = s[j+1:]
		if !strings.HasPrefix(s, "/") {
			return "", ""
		}
	}
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	return host, s
}

// hostOnly strips credentials and port from a URL authority.
func hostOnly(a string) string {
	if i := strings.LastIndexByte(a, '@'); i >= 0 {
		a = a[i+1:]
	}
	if i := strings.LastIndexByte(a, ':'); i >= 0 && !strings.Contains(a[i:], "}") {
		a = a[:i]
	}
	return a
}

// resolvablePath reports whether an observed path says something: at least one
// literal (non-placeholder) segment, or the bare root of a resolved URL.
func resolvablePath(p string) bool {
	for _, seg := range strings.Split(NormalizePath(p), "/") {
		if seg == "" {
			continue
		}
		if !(strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") && strings.Count(seg, "{") == 1) {
			return true
		}
	}
	return false
}
