package javascript

import (
	"regexp"
	"slices"
	"strings"

	"sccg/lang"
)

// scope is where an expression is evaluated: a function (nil at module level), the
// position of the use, and — when a helper is analysed on behalf of a caller — the
// caller's arguments bound to the helper's parameters.
type scope struct {
	m    *module
	fn   *fnInfo
	at   uint32
	args map[string]argRef
	// bind is the function whose parameters args binds (a helper analysed for a
	// caller); its callbacks see the same arguments.
	bind  *fnInfo
	depth int
	// defaults makes parameters without an argument take their default value
	// (when a method reads a field its constructor set from a parameter).
	defaults bool
}

// argRef is an argument expression and the scope it is evaluated in.
type argRef struct {
	n  *node
	sc *scope
}

const maxEvalDepth = 16

// sval is a statically evaluated string: placeholders {name} stand for parts that
// could not be resolved; complete is true when there are none.
type sval struct {
	s        string
	complete bool
	// parts are the pieces s was joined from when it holds a parameter of the
	// function the facts are about (a generic wrapper's path, lang.WholePathParam);
	// nil when s is one piece of text.
	parts []lang.URLPiece
}

func hole(name string) sval {
	if name == "" {
		name = "param"
	}
	return sval{s: "{" + name + "}"}
}

func lit(s string) sval { return sval{s: s, complete: true} }

func (a sval) cat(b sval) sval {
	return sval{s: a.s + b.s, complete: a.complete && b.complete, parts: joinPieces(a, b)}
}

// paramHole is the placeholder for a parameter of the function the facts are
// about, kept as a piece of its own.
func paramHole(name string) sval {
	h := hole(name)
	h.parts = []lang.URLPiece{{Param: name, Text: h.s}}
	return h
}

// pieces are the parts of s, or s as one piece of text.
func (a sval) pieces() []lang.URLPiece {
	if a.parts != nil {
		return a.parts
	}
	if a.s == "" {
		return nil
	}
	return []lang.URLPiece{{Text: a.s}}
}

// joinPieces are the pieces of a followed by those of b; nil when that is one
// piece of text.
func joinPieces(a, b sval) []lang.URLPiece {
	ps := slices.Concat(a.pieces(), b.pieces())
	if len(ps) == 0 || len(ps) == 1 && ps[0].Param == "" {
		return nil
	}
	return ps
}

// flat makes a value one piece of text unless it holds a parameter: a name bound
// to a base URL built from several pieces is read as one base, whatever its parts.
func (a sval) flat() sval {
	if !slices.ContainsFunc(a.parts, func(p lang.URLPiece) bool { return p.Param != "" }) {
		a.parts = nil
	}
	return a
}

// slashed ends a value with one slash, part of its last piece of text.
func (a sval) slashed() sval {
	ps := a.pieces()
	if len(ps) > 0 && ps[len(ps)-1].Param == "" {
		last := ps[len(ps)-1].Text
		ps = append(slices.Clip(ps[:len(ps)-1]), lang.URLPiece{Text: strings.TrimRight(last, "/") + "/"})
	} else {
		ps = append(slices.Clip(ps), lang.URLPiece{Text: "/"})
	}
	out := sval{s: strings.TrimRight(a.s, "/") + "/", complete: a.complete}
	if len(ps) > 1 || ps[0].Param != "" {
		out.parts = ps
	}
	return out
}

// text makes a value one piece of text: what it was made of is lost (a changed
// string, an encoded component).
func (a sval) text() sval {
	a.parts = nil
	return a
}

func (sc *scope) with(at uint32) *scope {
	c := *sc
	c.at = at
	c.depth++
	return &c
}

func (sc *scope) moduleScope() *scope { return &scope{m: sc.m, depth: sc.depth + 1} }

// scopeAt is the scope of the function holding n, just after n.
func (sc *scope) scopeAt(n *node) *scope {
	return &scope{m: sc.m, fn: sc.m.funcAt(n), at: n.End, depth: sc.depth + 1, args: sc.args, bind: sc.bind}
}

// lookup finds what name means at sc: an expression and the scope to evaluate it
// in; nil when it is a parameter without an argument or a name with no value.
func (sc *scope) lookup(name string) (*node, *scope) {
	if sc.depth > maxEvalDepth {
		return nil, nil
	}
	for f, at := sc.fn, sc.at; f != nil; f, at = f.parent, f.node.Start {
		if ls := f.locals[name]; len(ls) > 0 {
			var last *assign
			for i := range ls {
				if ls[i].pos <= at {
					last = &ls[i]
				}
			}
			if last == nil {
				last = &ls[0]
			}
			if last.aug != "" || last.value == nil {
				return nil, nil
			}
			return last.value, &scope{m: sc.m, fn: f, at: last.pos, args: sc.args, bind: sc.bind, depth: sc.depth + 1}
		}
		for _, p := range f.params {
			if p.name != name {
				continue
			}
			if f == sc.bind || (sc.bind == nil && f == sc.fn) {
				if a, ok := sc.args[name]; ok && a.n != nil {
					return a.n, a.sc.with(a.sc.at)
				}
				if p.def != nil && (sc.args != nil || sc.defaults || urlLikeDefault(p.def, sc.m.src)) {
					return p.def, sc.moduleScope()
				}
			}
			return nil, nil
		}
	}
	if v := sc.m.moduleValue(name); v != nil {
		return v, sc.moduleScope()
	}
	return nil, nil
}

// stateName names the component state n reads when n is a name bound, in its
// function or one around it, from a state hook (assign.state); "" otherwise.
func (sc *scope) stateName(n *node) string {
	n = unwrap(n)
	if n == nil || n.Type != "identifier" {
		return ""
	}
	name := n.Text(sc.m.src)
	for f, at := sc.fn, sc.at; f != nil; f, at = f.parent, f.node.Start {
		ls := f.locals[name]
		if len(ls) == 0 {
			if slices.ContainsFunc(f.params, func(p param) bool { return p.name == name }) {
				return ""
			}
			continue
		}
		last := &ls[0]
		for i := range ls {
			if ls[i].pos <= at {
				last = &ls[i]
			}
		}
		if last.state {
			return name
		}
		return ""
	}
	return ""
}

var hostLike = regexp.MustCompile(`^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$`)

// urlLikeDefault reports a parameter default that is a URL, a path or a host: the
// value the function calls when nobody overrides it.
func urlLikeDefault(def *node, src []byte) bool {
	if def.Type != "string" {
		return false
	}
	v := stringValue(def, src)
	return strings.Contains(v, "://") || (strings.HasPrefix(v, "/") && len(v) > 1) || hostLike.MatchString(v) && strings.Count(v, ".") >= 2
}

// augmented evaluates a name whose last definition is `name += value`.
func (sc *scope) augmented(name string) (sval, bool) {
	f := sc.fn
	if f == nil {
		return sval{}, false
	}
	ls := f.locals[name]
	idx := -1
	for i := range ls {
		if ls[i].pos <= sc.at {
			idx = i
		}
	}
	if idx < 0 || ls[idx].aug != "+=" {
		return sval{}, false
	}
	right := sc.with(ls[idx].pos).str(ls[idx].value)
	if idx == 0 {
		return sc.unresolved(name).cat(right), true
	}
	prev := sc.with(ls[idx-1].pos)
	return prev.strName(name).cat(right), true
}

func (sc *scope) strName(name string) sval {
	if v, ok := sc.augmented(name); ok {
		return v
	}
	v, vs := sc.lookup(name)
	if v == nil {
		return sc.unresolved(name)
	}
	out := vs.str(v).flat()
	if u := unwrap(v); u != nil && u.Type == "new_expression" && sc.fn != nil && isCtor(u, "URL", sc.m.src) {
		out = sc.searchParams(name, out)
	}
	return out
}

// unresolved is the placeholder for a name without a value at sc: a piece of its
// own when it is a parameter of the function the facts are about.
func (sc *scope) unresolved(name string) sval {
	if sc.ownParam(name) {
		return paramHole(name)
	}
	return hole(name)
}

// ownParam reports whether name is a parameter of the function the facts are
// about (the function sc binds no caller's arguments for), seen from sc.
func (sc *scope) ownParam(name string) bool {
	if sc.bind == nil || sc.args != nil {
		return false
	}
	for f := sc.fn; f != nil; f = f.parent {
		if slices.ContainsFunc(f.params, func(p param) bool { return p.name == name }) {
			return f == sc.bind
		}
		if len(f.locals[name]) > 0 {
			return false
		}
	}
	return false
}

func isCtor(n *node, name string, src []byte) bool {
	c := n.Child("constructor")
	return c != nil && (c.Text(src) == name || strings.HasSuffix(c.Text(src), "."+name))
}

// searchParams appends the url.searchParams.append/set(k, v) calls made on the
// URL variable name before the use to its query.
func (sc *scope) searchParams(name string, u sval) sval {
	src := sc.m.src
	sc.m.scan(sc.fn.node, func(n *node) bool {
		if n.Start >= sc.at {
			return false
		}
		if n.Type != "call_expression" {
			return true
		}
		fn := n.Child("function")
		if fn == nil || fn.Type != "member_expression" {
			return true
		}
		m := fn.Child("property").Text(src)
		if m != "append" && m != "set" {
			return true
		}
		if strings.Join(strings.Fields(fn.Child("object").Text(src)), "") != name+".searchParams" {
			return true
		}
		a := positional(n)
		if len(a) < 2 {
			return true
		}
		k := sc.str(a[0])
		if !k.complete {
			return true
		}
		v := sc.with(n.Start).str(a[1])
		if !v.complete {
			v = hole(k.s)
		}
		sep := "?"
		if strings.Contains(u.s, "?") {
			sep = "&"
		}
		u = u.cat(lit(sep + k.s + "=")).cat(v)
		return true
	})
	return u
}

// positional returns a call's (or new expression's) arguments, comments left out.
func positional(call *node) []*node {
	args := call.Child("arguments")
	if args == nil {
		return nil
	}
	var out []*node
	for _, a := range args.NamedKids() {
		if a.Type != "comment" {
			out = append(out, a)
		}
	}
	return out
}

// str evaluates n as a string.
func (sc *scope) str(n *node) sval {
	if n == nil || sc.depth > maxEvalDepth {
		return hole("")
	}
	src := sc.m.src
	switch n.Type {
	case "string":
		return lit(stringValue(n, src))
	case "template_string":
		out := lit("")
		for _, c := range n.Children {
			switch c.Type {
			case "string_fragment":
				out = out.cat(lit(c.Text(src)))
			case "escape_sequence":
				out = out.cat(lit(unescape(c.Text(src))))
			case "template_substitution":
				if k := c.NamedKids(); len(k) > 0 {
					out = out.cat(sc.str(k[0]))
				} else {
					out = out.cat(hole(""))
				}
			}
		}
		return out
	case "number", "true", "false", "null":
		return lit(n.Text(src))
	case "parenthesized_expression", "await_expression", "as_expression", "non_null_expression",
		"satisfies_expression", "type_assertion":
		if u := unwrap(n); u != n {
			return sc.str(u)
		}
	case "binary_expression":
		l, r := n.Child("left"), n.Child("right")
		switch n.Child("operator").Text(src) {
		case "+":
			return sc.str(l).cat(sc.str(r))
		case "||", "??":
			// process.env.API_URL || "https://…": the default when the first is unknown
			lv := sc.str(l)
			if lv.complete {
				return lv
			}
			if rv := sc.str(r); rv.complete && rv.s != "" {
				return rv
			}
			return lv
		}
	case "ternary_expression":
		return sc.str(n.Child("consequence"))
	case "identifier", "shorthand_property_identifier":
		if n.Text(src) == "undefined" {
			break
		}
		return sc.strName(n.Text(src))
	case "member_expression":
		return sc.member(n)
	case "subscript_expression":
		if k := n.Child("index"); k != nil {
			if key := sc.str(k); key.complete {
				if v, vs := sc.field(n.Child("object"), key.s); v != nil {
					return vs.str(v).flat()
				}
			}
		}
	case "call_expression":
		return sc.call(n)
	case "new_expression":
		return sc.newExpr(n)
	}
	return hole(placeholderName(n, src))
}

// placeholderName names the hole for an expression that cannot be resolved.
func placeholderName(n *node, src []byte) string {
	n = unwrap(n)
	if n == nil {
		return "param"
	}
	switch n.Type {
	case "identifier":
		return n.Text(src)
	case "member_expression":
		return n.Child("property").Text(src)
	case "subscript_expression":
		if k := n.Child("index"); k != nil && k.Type == "string" {
			return stringValue(k, src)
		}
		return placeholderName(n.Child("object"), src)
	case "call_expression":
		return placeholderName(n.Child("function"), src)
	}
	return "param"
}

var escapes = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\'`, `'`, `\"`, `"`, `\/`, `/`, `\r`, "\r", "\\`", "`", `\$`, `$`)

func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	return escapes.Replace(s)
}

// member evaluates obj.prop: process.env.X is the placeholder {X}; this.x is the
// class's field; an object the file defines gives its pair's value.
func (sc *scope) member(n *node) sval {
	src := sc.m.src
	obj := unwrap(n.Child("object"))
	prop := n.Child("property").Text(src)
	objText := strings.Join(strings.Fields(obj.Text(src)), "")
	switch {
	case objText == "process.env" || objText == "import.meta.env" || objText == "Deno.env":
		return hole(prop)
	case prop == "href" || prop == "toString":
		if obj.Type == "identifier" {
			return sc.str(obj)
		}
	}
	if v, vs := sc.field(obj, prop); v != nil {
		return vs.str(v).flat()
	}
	return hole(prop)
}

// field finds the value of key in the object expression obj: an object literal, a
// name bound to one, or this (the class's fields).
func (sc *scope) field(obj *node, key string) (*node, *scope) {
	obj = unwrap(obj)
	if obj == nil || sc.depth > maxEvalDepth {
		return nil, nil
	}
	if obj.Type == "this" && sc.fn != nil {
		if ci := enclosingClass(sc.fn); ci != nil {
			vs := ci.attrs[key]
			for _, v := range vs {
				if v.Type == "string" || v.Type == "template_string" || v.Type == "binary_expression" {
					return v, &scope{m: sc.m, fn: sc.m.funcAt(v), at: v.Start, depth: sc.depth + 1, defaults: true}
				}
			}
			if len(vs) > 0 {
				return vs[0], &scope{m: sc.m, fn: sc.m.funcAt(vs[0]), at: vs[0].Start, depth: sc.depth + 1, defaults: true}
			}
		}
		return nil, nil
	}
	for _, e := range sc.dict(obj) {
		if e.key == key {
			return e.val, e.sc
		}
	}
	return nil, nil
}

// call evaluates the calls that build strings: encodeURIComponent, String,
// toString, join, concat, trim, case changes, path joins and query encoders.
func (sc *scope) call(n *node) sval {
	src := sc.m.src
	fn := unwrap(n.Child("function"))
	args := positional(n)
	if fn == nil {
		return hole("")
	}
	d := sc.m.dotted(fn, sc.fn)
	switch d {
	case "encodeURI", "String", "decodeURIComponent":
		if len(args) == 1 {
			return sc.str(args[0])
		}
	case "encodeURIComponent", "escape":
		// an encoded slash: a segment or a query value, never a whole path
		if len(args) == 1 {
			return sc.str(args[0]).text()
		}
	case "path.join", "path.posix.join", "url-join", "urljoin", "urlJoin", "joinURL":
		if len(args) > 0 {
			out := sc.str(args[0])
			for i, a := range args[1:] {
				if i > 0 {
					out = out.slashed() // a segment: the join puts a slash after it
				}
				out = joinPath(out, sc.str(a))
			}
			return out
		}
	case "querystring.stringify", "qs.stringify", "query-string.stringify", "querystring.encode":
		if len(args) >= 1 {
			if q, ok := sc.encodeQuery(args[0]); ok {
				return q
			}
		}
	case "url.resolve":
		if len(args) == 2 {
			return urlJoin(sc.str(args[0]), sc.str(args[1]))
		}
	}
	if fn.Type == "member_expression" {
		obj := fn.Child("object")
		switch method := fn.Child("property").Text(src); method {
		case "toString", "valueOf", "trim", "trimEnd", "trimStart":
			v := sc.str(obj)
			if t := strings.TrimSpace(v.s); method != "toString" && method != "valueOf" && t != v.s {
				v = sval{s: t, complete: v.complete}
			}
			return v
		case "toLowerCase", "toUpperCase":
			v := sc.str(obj)
			if v.complete {
				if method == "toLowerCase" {
					v.s = strings.ToLower(v.s)
				} else {
					v.s = strings.ToUpper(v.s)
				}
				v = v.text()
			}
			return v
		case "join":
			if o := unwrap(obj); o != nil && o.Type == "array" {
				sep := lit(",")
				if len(args) == 1 {
					sep = sc.str(args[0])
				}
				out := lit("")
				for i, e := range o.NamedKids() {
					if i > 0 {
						out = out.cat(sep)
					}
					out = out.cat(sc.str(e))
				}
				return out
			}
		case "concat":
			out := sc.str(obj)
			for _, a := range args {
				out = out.cat(sc.str(a))
			}
			return out
		case "replace", "replaceAll":
			// "/users/:id".replace(":id", id)
			v := sc.str(obj)
			if len(args) == 2 && args[0].Type == "string" {
				old := stringValue(args[0], src)
				nw := sc.str(args[1])
				if old != "" && strings.Contains(v.s, old) {
					v.s = strings.Replace(v.s, old, nw.s, 1)
					if method == "replaceAll" {
						v.s = strings.ReplaceAll(v.s, old, nw.s)
					}
					v.complete = v.complete && nw.complete
					v = v.text()
				}
			}
			return v
		}
	}
	return hole(placeholderName(n, src))
}

// newExpr evaluates new URL(path, base) and new URLSearchParams({...}).
func (sc *scope) newExpr(n *node) sval {
	src := sc.m.src
	args := positional(n)
	switch {
	case isCtor(n, "URL", src) && len(args) == 2:
		return urlJoin(sc.str(args[1]), sc.str(args[0]))
	case isCtor(n, "URL", src) && len(args) == 1:
		return sc.str(args[0])
	case isCtor(n, "URLSearchParams", src):
		if len(args) == 0 {
			return lit("")
		}
		if q, ok := sc.encodeQuery(args[0]); ok {
			return q
		}
		if args[0].Type == "string" || args[0].Type == "template_string" {
			return sc.str(args[0])
		}
	case isCtor(n, "String", src) && len(args) == 1:
		return sc.str(args[0])
	}
	return hole(placeholderName(n.Child("constructor"), src))
}

// encodeQuery renders an object as a query string: {q, n: 5} → q={q}&n=5.
func (sc *scope) encodeQuery(n *node) (sval, bool) {
	entries := sc.dict(n)
	if len(entries) == 0 {
		return sval{}, false
	}
	out := lit("")
	for i, e := range entries {
		if i > 0 {
			out = out.cat(lit("&"))
		}
		v := e.sc.str(e.val)
		if !v.complete {
			v = hole(e.key)
		}
		out = out.cat(lit(e.key + "=")).cat(v)
	}
	return out, true
}

// kv is one key of a statically visible object and its value expression.
type kv struct {
	key     string
	keyNode *node
	val     *node
	sc      *scope
}

// dict returns the entries of an object expression: a literal (spreads and
// shorthand included), new Headers/URLSearchParams/FormData({...}),
// JSON.stringify({...}), Object.assign, or a name bound to one (with later
// o.k = v, o[k] = v, o.append/set(k, v) in the same function).
func (sc *scope) dict(n *node) []kv {
	n = unwrap(n)
	if n == nil || sc.depth > maxEvalDepth {
		return nil
	}
	src := sc.m.src
	switch n.Type {
	case "object":
		var out []kv
		for _, c := range n.NamedKids() {
			switch c.Type {
			case "pair":
				k := c.Child("key")
				key := ""
				if k != nil && k.Type == "computed_property_name" {
					if kk := k.NamedKids(); len(kk) == 1 {
						if v := sc.str(kk[0]); v.complete {
							key = v.s
						}
					}
				} else if k != nil {
					key = keyText(k, src)
				}
				if key != "" {
					out = append(out, kv{key: key, keyNode: k, val: c.Child("value"), sc: sc})
				}
			case "shorthand_property_identifier":
				out = append(out, kv{key: c.Text(src), keyNode: c, val: c, sc: sc})
			case "spread_element":
				if k := c.NamedKids(); len(k) == 1 {
					out = append(out, sc.with(sc.at).dict(k[0])...)
				}
			}
		}
		return out
	case "new_expression":
		if isCtor(n, "Headers", src) || isCtor(n, "URLSearchParams", src) || isCtor(n, "FormData", src) || isCtor(n, "Map", src) ||
			isCtor(n, "HttpHeaders", src) {
			if a := positional(n); len(a) == 1 {
				return sc.with(sc.at).dict(a[0])
			}
		}
		// Angular's new HttpParams({ fromObject: {...} })
		if isCtor(n, "HttpParams", src) {
			if a := positional(n); len(a) == 1 {
				if v, vs := sc.get(a[0], "fromObject"); v != nil {
					return vs.dict(v)
				}
			}
		}
	case "call_expression":
		d := sc.m.dotted(n.Child("function"), sc.fn)
		args := positional(n)
		switch d {
		case "JSON.stringify", "querystring.stringify", "qs.stringify":
			if len(args) >= 1 {
				return sc.with(sc.at).dict(args[0])
			}
		case "Object.assign":
			var out []kv
			for _, a := range args {
				out = append(out, sc.with(sc.at).dict(a)...)
			}
			return out
		}
		if fn := unwrap(n.Child("function")); fn != nil && fn.Type == "member_expression" {
			switch fn.Child("property").Text(src) {
			case "toString":
				return sc.with(sc.at).dict(fn.Child("object"))
			case "set", "append":
				// new HttpParams().set("q", q).set("n", 5): immutable builders
				if a := positional(n); len(a) == 2 {
					if k := sc.str(a[0]); k.complete {
						return append(sc.with(sc.at).dict(fn.Child("object")), kv{key: k.s, val: a[1], sc: sc})
					}
				}
			default:
				// this.headers(): what a method of the class returns
				if o := unwrap(fn.Child("object")); o != nil && o.Type == "this" && sc.fn != nil {
					if ci := enclosingClass(sc.fn); ci != nil {
						if g := ci.methods[fn.Child("property").Text(src)]; g != nil {
							return sc.returned(g)
						}
					}
				}
			}
		}
	case "identifier", "shorthand_property_identifier":
		name := n.Text(src)
		v, vs := sc.lookup(name)
		var out []kv
		if v != nil {
			out = vs.dict(v)
		}
		if sc.fn != nil {
			out = append(out, sc.mutations(name)...)
		}
		return out
	case "member_expression":
		if v, vs := sc.field(n.Child("object"), n.Child("property").Text(src)); v != nil {
			return vs.dict(v)
		}
	}
	return nil
}

// returned is the object a function returns (its first return of one).
func (sc *scope) returned(g *fnInfo) []kv {
	var out []kv
	gs := &scope{m: sc.m, fn: g, at: g.node.End, depth: sc.depth + 1, defaults: true}
	body := g.node.Child("body")
	if body != nil && body.Type != "statement_block" {
		return gs.dict(body)
	}
	g.node.Walk(func(n *node) bool {
		if out != nil || (n != g.node && functionTypes[n.Type]) {
			return false
		}
		if n.Type == "return_statement" {
			if k := n.NamedKids(); len(k) > 0 {
				out = gs.dict(k[0])
			}
			return false
		}
		return true
	})
	return out
}

// mutations finds o.k = v, o[k] = v and o.append/set(k, v) on the name before
// sc.at, in the function that uses it.
func (sc *scope) mutations(name string) []kv {
	src := sc.m.src
	var out []kv
	var root *node
	for f := sc.fn; f != nil; f = f.parent {
		if len(f.locals[name]) > 0 {
			root = f.node
			break
		}
	}
	if root == nil {
		root = sc.fn.node
	}
	sc.m.scan(root, func(n *node) bool {
		if n.Start >= sc.at {
			return false
		}
		switch n.Type {
		case "assignment_expression":
			l := n.Child("left")
			if l == nil || (l.Type != "member_expression" && l.Type != "subscript_expression") {
				return true
			}
			if o := l.Child("object"); o == nil || o.Type != "identifier" || o.Text(src) != name {
				return true
			}
			key := ""
			if l.Type == "member_expression" {
				key = l.Child("property").Text(src)
			} else if k := sc.str(l.Child("index")); k.complete {
				key = k.s
			}
			if key != "" {
				out = append(out, kv{key: key, val: n.Child("right"), sc: sc.scopeAt(n)})
			}
		case "call_expression":
			fn := n.Child("function")
			if fn == nil || fn.Type != "member_expression" {
				return true
			}
			if o := fn.Child("object"); o == nil || o.Type != "identifier" || o.Text(src) != name {
				return true
			}
			switch fn.Child("property").Text(src) {
			case "append", "set":
				if a := positional(n); len(a) >= 2 {
					if k := sc.str(a[0]); k.complete {
						out = append(out, kv{key: k.s, val: a[1], sc: sc.scopeAt(n)})
					}
				}
			}
		}
		return true
	})
	return out
}

// joinPath joins two URL pieces with exactly one slash between them.
func joinPath(a, b sval) sval {
	if b.s == "" {
		return a
	}
	if a.s == "" {
		return b
	}
	return sval{s: lang.JoinPath(a.s, b.s), complete: a.complete && b.complete, parts: joinPieces(a, b)}
}

// urlJoin resolves ref against base (lang.ResolveURL).
func urlJoin(base, ref sval) sval {
	if strings.Contains(ref.s, "://") {
		return ref
	}
	return sval{s: lang.ResolveURL(base.s, ref.s), complete: base.complete && ref.complete, parts: joinPieces(base, ref)}
}
