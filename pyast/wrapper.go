package pyast

import (
	"strings"

	"sccg/lang"
)

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
	sc = sc.with(rs.call.Start)
	if rs.lib == "urllib" {
		if req, rsc := sc.resolveCall(n, "Request"); req != nil {
			n, sc = argsOf(req, sc.m.src).get(0, "url"), rsc
		}
	}
	return lang.WholePathParam(sc.urlPieces(n, 0))
}

// urlPieces splits a URL expression into its parts: concatenation, f-strings,
// implicit string concatenation and urljoin are followed, and so are names bound
// to such expressions when they lead to a parameter of the analysed function;
// anything else is one piece of text, its value as far as it resolves.
func (sc *scope) urlPieces(n *node, depth int) []lang.URLPiece {
	if n == nil || depth > maxPieceDepth || sc.depth > maxEvalDepth {
		return nil
	}
	src := sc.m.src
	opaque := func() []lang.URLPiece { return []lang.URLPiece{{Text: sc.str(n).s}} }
	switch n.Type {
	case "parenthesized_expression":
		if k := n.NamedKids(); len(k) == 1 {
			return sc.urlPieces(k[0], depth+1)
		}
	case "binary_operator":
		if n.Child("operator").Text(src) == "+" {
			return append(sc.urlPieces(n.Child("left"), depth+1), sc.urlPieces(n.Child("right"), depth+1)...)
		}
	case "concatenated_string":
		var out []lang.URLPiece
		for _, c := range n.NamedKids() {
			out = append(out, sc.urlPieces(c, depth+1)...)
		}
		return out
	case "string":
		if !strings.Contains(stringPrefix(n, src), "f") {
			return []lang.URLPiece{{Text: sc.stringLit(n).s}}
		}
		var out []lang.URLPiece
		for _, c := range n.Children {
			switch c.Type {
			case "string_content", "escape_sequence":
				out = append(out, lang.URLPiece{Text: unescape(c.Text(src))})
			case "interpolation":
				out = append(out, sc.urlPieces(c.Child("expression"), depth+1)...)
			}
		}
		return out
	case "call":
		if d := sc.m.dotted(n.Child("function"), sc.fn); d == "urljoin" || strings.HasSuffix(d, ".urljoin") {
			if pos, _ := splitArgs(n, src); len(pos) == 2 {
				return append(sc.urlPieces(pos[0], depth+1), sc.urlPieces(pos[1], depth+1)...)
			}
		}
	case "identifier":
		name := n.Text(src)
		v, vsc, _ := sc.lookup(name)
		if v == nil {
			if sc.ownParam(name) {
				return []lang.URLPiece{{Param: name}}
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

func hasParam(ps []lang.URLPiece) bool {
	for _, p := range ps {
		if p.Param != "" {
			return true
		}
	}
	return false
}
