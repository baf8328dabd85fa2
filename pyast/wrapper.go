package pyast

import (
	"strings"
)

// urlPiece is one part of a URL expression, in order: a parameter of the function
// the facts are about, or text (a literal, or the value of a name or attribute the
// code joins in, as far as it resolves).
type urlPiece struct {
	param string // the function's own parameter, or ""
	text  string
}

// maxPieceDepth bounds how far urlPieces follows names to their assignments.
const maxPieceDepth = 8

// pathParam names the parameter of the analysed function that a request's whole
// path — everything after its base URL — or whole URL comes from: the request of a
// generic wrapper, which asks for whatever endpoint its caller names
// (def get_json(url): requests.get(BASE + url); def fetch(uri): requests.get(uri)).
// It is "" when the code writes some of the path itself, when the parameter is
// one of several, or when the URL cannot be read. sc is the scope the request is
// evaluated in: a helper's parameters lead, through its caller's arguments, back
// to the analysed function, so a caller that passes a concrete path is no wrapper
// and one that passes its own parameter on is.
func (sc *scope) pathParam(rs *reqSite) string {
	args := argsOf(rs.call, sc.m.src)
	n := args.get(rs.urlAt, "url")
	if n == nil {
		return ""
	}
	sc = sc.with(rs.call.start)
	if rs.lib == "urllib" {
		if req, rsc := sc.resolveCall(n, "Request"); req != nil {
			n, sc = argsOf(req, sc.m.src).get(0, "url"), rsc
		}
	}
	ps := sc.urlPieces(n, 0)
	for len(ps) > 0 && ps[len(ps)-1].param == "" && ps[len(ps)-1].text == "" {
		ps = ps[:len(ps)-1]
	}
	if len(ps) == 0 || ps[len(ps)-1].param == "" {
		return ""
	}
	for _, p := range ps[:len(ps)-1] {
		if p.param != "" || !baseText(p.text) {
			return ""
		}
	}
	return ps[len(ps)-1].param
}

// baseText reports whether text before a path parameter can be a base URL and no
// part of an endpoint's path: slashes, an unresolved name, a scheme and host, or a
// base path that does not end in a slash (the parameter then carries its own
// leading slash: a path, not a segment). "https://h/users/" and "/users/" name a
// collection the parameter is an item of; text with a query names more.
func baseText(t string) bool {
	if strings.ContainsAny(t, "?#=&") {
		return false
	}
	if strings.Trim(t, "/") == "" || !strings.HasSuffix(t, "/") {
		return true
	}
	if i := strings.Index(t, "://"); i >= 0 {
		rest := t[i+3:]
		j := strings.IndexByte(rest, '/')
		return j < 0 || strings.Trim(rest[j:], "/") == ""
	}
	return isHole(strings.TrimRight(t, "/"))
}

// isHole reports text that is one unresolved {name}.
func isHole(t string) bool {
	return strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") && strings.Count(t, "{") == 1
}

// urlPieces splits a URL expression into its parts: concatenation, f-strings,
// implicit string concatenation and urljoin are followed, and so are names bound
// to such expressions when they lead to a parameter of the analysed function;
// anything else is one piece of text, its value as far as it resolves.
func (sc *scope) urlPieces(n *node, depth int) []urlPiece {
	if n == nil || depth > maxPieceDepth || sc.depth > maxEvalDepth {
		return nil
	}
	src := sc.m.src
	opaque := func() []urlPiece { return []urlPiece{{text: sc.str(n).s}} }
	switch n.typ {
	case "parenthesized_expression":
		if k := n.namedKids(); len(k) == 1 {
			return sc.urlPieces(k[0], depth+1)
		}
	case "binary_operator":
		if n.child("operator").text(src) == "+" {
			return append(sc.urlPieces(n.child("left"), depth+1), sc.urlPieces(n.child("right"), depth+1)...)
		}
	case "concatenated_string":
		var out []urlPiece
		for _, c := range n.namedKids() {
			out = append(out, sc.urlPieces(c, depth+1)...)
		}
		return out
	case "string":
		if !strings.Contains(stringPrefix(n, src), "f") {
			return []urlPiece{{text: sc.stringLit(n).s}}
		}
		var out []urlPiece
		for _, c := range n.children {
			switch c.typ {
			case "string_content", "escape_sequence":
				out = append(out, urlPiece{text: unescape(c.text(src))})
			case "interpolation":
				out = append(out, sc.urlPieces(c.child("expression"), depth+1)...)
			}
		}
		return out
	case "call":
		if d := sc.m.dotted(n.child("function"), sc.fn); d == "urljoin" || strings.HasSuffix(d, ".urljoin") {
			if pos, _ := splitArgs(n, src); len(pos) == 2 {
				return append(sc.urlPieces(pos[0], depth+1), sc.urlPieces(pos[1], depth+1)...)
			}
		}
	case "identifier":
		name := n.text(src)
		v, vsc, _ := sc.lookup(name)
		if v == nil {
			if sc.ownParam(name) {
				return []urlPiece{{param: name}}
			}
			return opaque()
		}
		if ps := vsc.urlPieces(v, depth+1); hasParam(ps) {
			return ps
		}
	}
	return opaque()
}

// ownParam reports a parameter of the analysed function itself: a parameter of the
// scope's function when no caller bound arguments to it.
func (sc *scope) ownParam(name string) bool {
	if sc.fn == nil || sc.args != nil {
		return false
	}
	for _, p := range sc.fn.params {
		if p.name == name {
			return true
		}
	}
	return false
}

func hasParam(ps []urlPiece) bool {
	for _, p := range ps {
		if p.param != "" {
			return true
		}
	}
	return false
}
