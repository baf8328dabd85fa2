package align

import (
	"strings"

	"sccg/internal/route"
)

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
	for _, seg := range strings.Split(route.NormalizePath(p), "/") {
		if seg == "" {
			continue
		}
		if !(strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") && strings.Count(seg, "{") == 1) {
			return true
		}
	}
	return false
}
