package lang

import (
	"regexp"
	"strings"
)

// URLPiece is one part of a request's URL expression, in source order, as a
// frontend splits it to find a generic wrapper: a parameter of the function the
// facts are about (Param), or text (Text: a literal, or the value of a name the
// code joins in as far as it resolves, {name} where it does not).
type URLPiece struct {
	Param string
	Text  string
}

// WholePathParam names the parameter a URL's whole path, or whole URL, comes from
// (Call.PathFrom): the last non-empty piece of the path is a parameter and every
// piece before it is BaseText. The path ends where a piece of text starts a query
// or fragment ("?" + urlencode(params) appended after the parameter). It is "" when
// the code writes some of the path itself, when the parameter is one of several,
// or when there is no parameter at the end.
func WholePathParam(ps []URLPiece) string {
	for i, p := range ps {
		if p.Param != "" {
			continue
		}
		if j := strings.IndexAny(p.Text, "?#"); j >= 0 {
			ps = append(ps[:i:i], URLPiece{Text: p.Text[:j]})
			break
		}
	}
	for len(ps) > 0 && ps[len(ps)-1].Param == "" && ps[len(ps)-1].Text == "" {
		ps = ps[:len(ps)-1]
	}
	if len(ps) == 0 || ps[len(ps)-1].Param == "" {
		return ""
	}
	for _, p := range ps[:len(ps)-1] {
		if p.Param != "" || !BaseText(p.Text) {
			return ""
		}
	}
	return ps[len(ps)-1].Param
}

// BaseText reports whether text before a path parameter can be a base URL and no
// part of an endpoint's path: slashes, an unresolved name, a scheme and host, or a
// base path that does not end in a slash (the parameter then carries its own
// leading slash: a path, not a segment), or a host alone after a scheme written
// apart ("https://%s%s" % (host, path)). "https://h/users/" and "/users/" name a
// collection the parameter is an item of; text with a query names more.
func BaseText(t string) bool {
	if strings.ContainsAny(t, "?#=&") {
		return false
	}
	if strings.Trim(t, "/") == "" || !strings.HasSuffix(t, "/") {
		return true
	}
	if hostText.MatchString(t) {
		return true // a host and its slash, the scheme in a piece before it
	}
	if i := strings.Index(t, "://"); i >= 0 {
		rest := t[i+3:]
		j := strings.IndexByte(rest, '/')
		return j < 0 || strings.Trim(rest[j:], "/") == ""
	}
	return isHole(strings.TrimRight(t, "/"))
}

// hostText is a host name alone, with an optional trailing slash: "api.github.com/".
var hostText = regexp.MustCompile(`^(?i)[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}/*$`)

// isHole reports text that is one unresolved {name}.
func isHole(t string) bool {
	return strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") && strings.Count(t, "{") == 1
}
