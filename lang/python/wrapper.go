package python

import (
	"strconv"
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
		switch n.Child("operator").Text(src) {
		case "+":
			return append(sc.urlPieces(n.Child("left"), depth+1), sc.urlPieces(n.Child("right"), depth+1)...)
		case "%":
			if ps := sc.percentPieces(n.Child("left"), n.Child("right"), depth); hasParam(ps) {
				return ps
			}
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
		if ps := sc.returnPieces(n, depth); hasParam(ps) {
			return ps
		}
		if fn := n.Child("function"); fn != nil && fn.Type == "attribute" && fn.Child("attribute").Text(src) == "format" {
			pos, kw := splitArgs(n, src)
			if ps := sc.formatPieces(fn.Child("object"), pos, kw, depth); hasParam(ps) {
				return ps
			}
		}
	case "identifier":
		name := n.Text(src)
		if ps, ok := sc.augmentedPieces(name, depth); ok {
			return ps
		}
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

// augmentedPieces are the pieces of a name whose last definition before the scope's
// position is `name += value`: those of its definition before, then the value's
// ("url = BASE + path" then "url += '?' + query"); ok is false for any other name.
func (sc *scope) augmentedPieces(name string, depth int) ([]lang.URLPiece, bool) {
	if sc.fn == nil {
		return nil, false
	}
	ls := sc.fn.locals[name]
	idx := -1
	for i := range ls {
		if ls[i].pos <= sc.at {
			idx = i
		}
	}
	if idx <= 0 || ls[idx].aug != "+=" {
		return nil, false
	}
	prev := sc.with(ls[idx-1].pos)
	var left []lang.URLPiece
	switch ls[idx-1].aug {
	case "+=":
		left, _ = prev.augmentedPieces(name, depth+1)
	case "":
		left = prev.urlPieces(ls[idx-1].value, depth+1)
	default:
		return nil, false
	}
	return append(left, sc.with(ls[idx].pos).urlPieces(ls[idx].value, depth+1)...), true
}

// formatPieces are the pieces of tmpl.format(pos..., kw...): the template's text
// between its fields, each field the pieces of its argument.
func (sc *scope) formatPieces(tmpl *node, pos []*node, kw map[string]*node, depth int) []lang.URLPiece {
	t := sc.str(tmpl)
	if !t.complete {
		return nil
	}
	var out []lang.URLPiece
	auto, last := 0, 0
	for _, m := range formatField.FindAllStringSubmatchIndex(t.s, -1) {
		f := t.s[m[0]:m[1]]
		if f == "{{" || f == "}}" {
			continue
		}
		out = append(out, lang.URLPiece{Text: t.s[last:m[0]]})
		last = m[1]
		name := t.s[m[2]:m[3]]
		var arg *node
		if i, err := strconv.Atoi(name); err == nil && i < len(pos) {
			arg = pos[i]
		} else if name == "" && auto < len(pos) {
			arg = pos[auto]
			auto++
		} else {
			arg = kw[name]
		}
		if arg == nil {
			return nil
		}
		out = append(out, sc.urlPieces(arg, depth+1)...)
	}
	return append(out, lang.URLPiece{Text: t.s[last:]})
}

// percentPieces are the pieces of tmpl % args: the template's text between its
// %s verbs, each verb the pieces of its argument ("https://%s%s" % (host, path)).
func (sc *scope) percentPieces(tmpl, args *node, depth int) []lang.URLPiece {
	t := sc.str(tmpl)
	if !t.complete || args == nil {
		return nil
	}
	var vals []*node
	switch args.Type {
	case "tuple", "parenthesized_expression":
		vals = args.NamedKids()
	case "dictionary":
		return nil
	default:
		vals = []*node{args}
	}
	var out []lang.URLPiece
	i, last := 0, 0
	for _, m := range percentVerb.FindAllStringIndex(t.s, -1) {
		v := t.s[m[0]:m[1]]
		if v == "%%" || strings.HasPrefix(v, "%(") || i >= len(vals) {
			return nil
		}
		out = append(out, lang.URLPiece{Text: t.s[last:m[0]]})
		out = append(out, sc.urlPieces(vals[i], depth+1)...)
		i, last = i+1, m[1]
	}
	return append(out, lang.URLPiece{Text: t.s[last:]})
}

// returnPieces are the pieces of what a same-file function called at n returns
// (sc.returned), nil for any other call.
func (sc *scope) returnPieces(n *node, depth int) []lang.URLPiece {
	ret, hsc := sc.returned(n)
	if ret == nil {
		return nil
	}
	return hsc.urlPieces(ret, depth+1)
}

// returned is what a same-file function called at n returns, when its body
// returns one expression (def _build_url(self, target): return "https://%s%s" %
// (self._host, target)), with the scope that binds its parameters to the call's
// arguments; nil for any other call.
func (sc *scope) returned(n *node) (*node, *scope) {
	g, method := sc.m.sameFileFunc(n, sc.fn)
	if g == nil || g == sc.fn || sc.depth > maxEvalDepth {
		return nil, nil
	}
	var ret *node
	returns := 0
	g.def.Child("body").Walk(func(r *node) bool {
		if r.Type == "function_definition" || r.Type == "class_definition" || r.Type == "lambda" {
			return false
		}
		if r.Type == "return_statement" {
			returns++
			if k := r.NamedKids(); len(k) == 1 {
				ret = k[0]
			}
			return false
		}
		return true
	})
	if returns != 1 || ret == nil {
		return nil, nil
	}
	return ret, &scope{m: sc.m, fn: g, at: g.def.End, args: sc.bindArgs(n, g, method), depth: sc.depth + 1}
}

// bindArgs binds the parameters of callee (self or cls left out of a method's)
// to the arguments of call, made in sc: by keyword, else by position, else none.
func (sc *scope) bindArgs(call *node, callee *fnInfo, method bool) map[string]argRef {
	pos, kw := splitArgs(call, sc.m.src)
	caller := sc.with(call.Start)
	params := callee.params
	if method && len(params) > 0 {
		params = params[1:]
	}
	args := map[string]argRef{}
	for i, p := range params {
		switch {
		case kw[p.name] != nil:
			args[p.name] = argRef{n: kw[p.name], sc: caller}
		case i < len(pos):
			args[p.name] = argRef{n: pos[i], sc: caller}
		default:
			args[p.name] = argRef{}
		}
	}
	return args
}

func hasParam(ps []lang.URLPiece) bool {
	for _, p := range ps {
		if p.Param != "" {
			return true
		}
	}
	return false
}
