package python

import (
	"regexp"
	"sccg/lang"
	"slices"
	"strconv"
	"strings"
)

// scope is where an expression is evaluated: a function (nil at module level), the
// position of the use, and — when a helper is analysed on behalf of a caller — the
// caller's arguments bound to the helper's parameters.
type scope struct {
	m     *module
	fn    *fnInfo
	at    uint32
	args  map[string]argRef
	depth int
	// defaults makes parameters without an argument take their default value
	// (when a method reads an attribute its constructor set from a parameter).
	defaults bool
	// loopKey fixes the key a `for k, v in d.items()` loop variable stands for
	// (clients[k] = … read back as clients["weather"]).
	loopKey map[string]string
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
}

func hole(name string) sval {
	if name == "" {
		name = "param"
	}
	return sval{s: "{" + name + "}"}
}

func (a sval) cat(b sval) sval { return sval{s: a.s + b.s, complete: a.complete && b.complete} }

func (sc *scope) with(at uint32) *scope {
	c := *sc
	c.at = at
	c.depth++
	return &c
}

func (sc *scope) moduleScope() *scope {
	return &scope{m: sc.m, depth: sc.depth + 1}
}

// lookup finds what name means at sc: an expression and the scope to evaluate it
// in. A parameter without a bound argument, or a name with no definition, yields
// (nil, nil, true/false) — ok tells whether the name was found at all.
func (sc *scope) lookup(name string) (*node, *scope, bool) {
	if sc.depth > maxEvalDepth {
		return nil, nil, false
	}
	for f, at := sc.fn, sc.at; f != nil; f, at = f.parent, f.def.Start {
		// url = build(url): before its first assignment a parameter is the parameter.
		if ls := f.locals[name]; len(ls) > 0 && !(ls[0].pos > at && f.hasParam(name)) {
			var last *assign
			for i := range ls {
				if ls[i].pos <= at {
					last = &ls[i]
				}
			}
			if last == nil {
				last = &ls[0]
			}
			if last.aug == "for" {
				// for x in [a, b]: x stands for the first element
				fsc := &scope{m: sc.m, fn: f, at: last.pos, args: sc.argsFor(f), depth: sc.depth + 1}
				if e, esc := fsc.firstElement(last.value); e != nil {
					return e, esc, true
				}
				return nil, nil, true
			}
			if last.aug == "for-items" {
				fsc := &scope{m: sc.m, fn: f, at: last.pos, args: sc.argsFor(f), depth: sc.depth + 1}
				entries := fsc.dict(last.value)
				want, fixed := sc.loopKey[last.vars[0]]
				for _, e := range entries {
					if fixed && e.key != want {
						continue
					}
					if last.idx == 0 {
						return e.keyNode, e.sc, true
					}
					return e.val, e.sc, true
				}
				return nil, nil, true
			}
			if last.aug != "" {
				return nil, nil, true // resolved by str via augmented chain
			}
			if last.value == nil {
				return nil, nil, true
			}
			return last.value, &scope{m: sc.m, fn: f, at: last.pos, args: sc.argsFor(f), depth: sc.depth + 1}, true
		}
		for _, p := range f.params {
			if p.name != name {
				continue
			}
			if f == sc.fn {
				if a, ok := sc.args[name]; ok && a.n != nil {
					return a.n, a.sc.with(a.sc.at), true
				}
				if p.def != nil && (sc.args != nil || sc.defaults || urlLikeDefault(p.def, sc.m.src)) {
					return p.def, sc.moduleScope(), true
				}
			}
			return nil, nil, true
		}
	}
	if v := sc.m.moduleValue(name); v != nil {
		return v, sc.moduleScope(), true
	}
	return nil, nil, len(sc.m.bindings[name]) > 0
}

func (sc *scope) argsFor(f *fnInfo) map[string]argRef {
	if f == sc.fn {
		return sc.args
	}
	return nil
}

// hostLike matches a bare host name.
var hostLike = regexp.MustCompile(`^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$`)

// urlLikeDefault reports a parameter default that is a URL, a path or a host: the
// value the function calls when nobody overrides it, so it is used in place of a
// {name} placeholder.
func urlLikeDefault(def *node, src []byte) bool {
	if def.Type != "string" || hasInterpolation(def) {
		return false
	}
	v := stringBody(def, src)
	return strings.Contains(v, "://") || (strings.HasPrefix(v, "/") && len(v) > 1) || hostLike.MatchString(v) && strings.Count(v, ".") >= 2
}

// follow resolves n through the names it is bound to (`b = a`, `a = [...]`), at
// most four of them, to the first value that is not a name, with the scope that
// value is evaluated in; nil when a name is unbound or the chain is longer.
func (sc *scope) follow(n *node) (*node, *scope) {
	for i := 0; n != nil && i < 4; i++ {
		if n.Type != "identifier" {
			return n, sc
		}
		v, vs, _ := sc.lookup(n.Text(sc.m.src))
		if v == nil {
			return nil, nil
		}
		n, sc = v, vs
	}
	return nil, nil
}

// firstElement returns the first element of a list or tuple expression (or of a
// name bound to one), for loop variables.
func (sc *scope) firstElement(n *node) (*node, *scope) {
	n, sc = sc.follow(n)
	if n == nil {
		return nil, nil
	}
	switch n.Type {
	case "list", "tuple", "set":
		if k := n.NamedKids(); len(k) > 0 && k[0].Type != "comment" {
			return k[0], sc
		}
	}
	return nil, nil
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
	prev := sc.with(ls[idx].pos - 1)
	if ls[idx].pos == 0 || idx == 0 {
		return hole(name).cat(sc.with(ls[idx].pos).str(ls[idx].value)), true
	}
	prev.at = ls[idx-1].pos
	left := prev.strName(name)
	return left.cat(sc.with(ls[idx].pos).str(ls[idx].value)), true
}

func (sc *scope) strName(name string) sval {
	if v, ok := sc.augmented(name); ok {
		return v
	}
	v, vs, _ := sc.lookup(name)
	if v == nil {
		return hole(name)
	}
	return vs.str(v)
}

// str evaluates n as a string.
func (sc *scope) str(n *node) sval {
	if n == nil || sc.depth > maxEvalDepth {
		return hole("")
	}
	src := sc.m.src
	switch n.Type {
	case "string":
		return sc.stringLit(n)
	case "concatenated_string":
		out := sval{complete: true}
		for _, c := range n.NamedKids() {
			out = out.cat(sc.str(c))
		}
		return out
	case "integer", "float":
		return sval{s: n.Text(src), complete: true}
	case "true", "false", "none":
		return sval{s: n.Text(src), complete: true}
	case "parenthesized_expression":
		if k := n.NamedKids(); len(k) == 1 {
			return sc.str(k[0])
		}
	case "binary_operator":
		op := n.Child("operator").Text(src)
		switch op {
		case "+":
			return sc.str(n.Child("left")).cat(sc.str(n.Child("right")))
		case "%":
			return sc.percent(n.Child("left"), n.Child("right"))
		}
	case "identifier":
		return sc.strName(n.Text(src))
	case "attribute":
		return sc.attr(n)
	case "subscript":
		return sc.subscript(n)
	case "call":
		return sc.call(n)
	case "conditional_expression":
		if k := n.NamedKids(); len(k) > 0 {
			return sc.str(k[0])
		}
	case "await":
		if k := n.NamedKids(); len(k) == 1 {
			return sc.str(k[0])
		}
	}
	return hole(placeholderName(n, src))
}

// placeholderName names the hole for an expression that cannot be resolved.
func placeholderName(n *node, src []byte) string {
	switch n.Type {
	case "identifier":
		return n.Text(src)
	case "attribute":
		return n.Child("attribute").Text(src)
	case "subscript":
		if s := n.Child("subscript"); s != nil && s.Type == "string" {
			return strings.Trim(stringBody(s, src), " ")
		}
		return placeholderName(n.Child("value"), src)
	case "call":
		return placeholderName(n.Child("function"), src)
	}
	return "param"
}

// stringBody returns the raw text between the quotes of a plain string node.
func stringBody(n *node, src []byte) string {
	var b strings.Builder
	for _, c := range n.Children {
		if c.Type == "string_content" || c.Type == "escape_sequence" {
			b.WriteString(c.Text(src))
		}
	}
	return b.String()
}

// stringPrefix returns the lower-cased prefix letters of a string (f, r, b, u, rb…).
func stringPrefix(n *node, src []byte) string {
	if len(n.Children) == 0 || n.Children[0].Type != "string_start" {
		return ""
	}
	return strings.ToLower(strings.TrimRight(n.Children[0].Text(src), `'"`))
}

func (sc *scope) stringLit(n *node) sval {
	src := sc.m.src
	prefix := stringPrefix(n, src)
	raw := strings.Contains(prefix, "r")
	fstr := strings.Contains(prefix, "f")
	out := sval{complete: true}
	for _, c := range n.Children {
		switch c.Type {
		case "string_content":
			// escape sequences may be children of the content node
			t := c.Text(src)
			if fstr {
				t = strings.NewReplacer("{{", "{", "}}", "}").Replace(t)
			}
			if !raw {
				t = unescape(t)
			}
			out.s += t
		case "escape_sequence":
			if raw {
				out.s += c.Text(src)
			} else {
				out.s += unescape(c.Text(src))
			}
		case "interpolation":
			if e := c.Child("expression"); e != nil {
				out = out.cat(sc.str(e))
			} else {
				out = out.cat(hole(""))
			}
		}
	}
	return out
}

var escapes = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\'`, `'`, `\"`, `"`, `\/`, `/`, `\r`, "\r")

func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	return escapes.Replace(s)
}

func (sc *scope) attr(n *node) sval {
	src := sc.m.src
	obj := n.Child("object")
	name := n.Child("attribute").Text(src)
	if obj != nil && obj.Type == "identifier" {
		o := obj.Text(src)
		var ci *classInfo
		if (o == "self" || o == "cls") && sc.fn != nil {
			ci = enclosingClass(sc.fn)
		} else if c, ok := sc.m.topClass[o]; ok {
			ci = c
		}
		if ci != nil {
			if vs := ci.attrs[name]; len(vs) > 0 && sc.depth < maxEvalDepth {
				// a method may have set it from a parameter: evaluate in that
				// method's scope with no arguments bound
				v := vs[0]
				for _, cand := range vs {
					if cand.Type == "string" || cand.Type == "binary_operator" || cand.Type == "concatenated_string" {
						v = cand
						break
					}
				}
				f := sc.m.funcAt(v)
				return (&scope{m: sc.m, fn: f, at: v.Start, depth: sc.depth + 1, defaults: true}).str(v)
			}
		}
	}
	return hole(name)
}

// enclosingClass returns the class a function (or its enclosing function) is a method of.
func enclosingClass(f *fnInfo) *classInfo {
	for ; f != nil; f = f.parent {
		if f.class != nil {
			return f.class
		}
	}
	return nil
}

// funcAt returns the innermost function containing n, or nil.
func (m *module) funcAt(n *node) *fnInfo {
	var best *fnInfo
	for _, f := range m.funcs {
		if f.def.Start <= n.Start && n.End <= f.def.End {
			if best == nil || f.def.Start >= best.def.Start {
				best = f
			}
		}
	}
	return best
}

func (sc *scope) subscript(n *node) sval {
	src := sc.m.src
	key := n.Child("subscript")
	if key != nil && key.Type == "string" {
		k := sc.str(key)
		if k.complete {
			for _, kv := range sc.dict(n.Child("value")) {
				if kv.key == k.s {
					return kv.sc.str(kv.val)
				}
			}
		}
	}
	return hole(placeholderName(n, src))
}

var percentVerb = regexp.MustCompile(`%(\([^)]*\))?[-#0 +]*\d*(\.\d+)?[sdirfgxXeEc%]`)

func (sc *scope) percent(left, right *node) sval {
	l := sc.str(left)
	var args []*node
	var dict []kv
	switch right.Type {
	case "tuple", "parenthesized_expression":
		args = right.NamedKids()
	case "dictionary":
		dict = sc.dict(right)
	default:
		args = []*node{right}
	}
	out := sval{complete: l.complete}
	i := 0
	out.s = percentVerb.ReplaceAllStringFunc(l.s, func(v string) string {
		if v == "%%" {
			return "%"
		}
		if strings.HasPrefix(v, "%(") {
			key := v[2:strings.Index(v, ")")]
			for _, e := range dict {
				if e.key == key {
					r := e.sc.str(e.val)
					out.complete = out.complete && r.complete
					return r.s
				}
			}
			out.complete = false
			return "{" + key + "}"
		}
		if i >= len(args) {
			out.complete = false
			return "{param}"
		}
		r := sc.str(args[i])
		i++
		out.complete = out.complete && r.complete
		return r.s
	})
	return out
}

var formatField = regexp.MustCompile(`\{\{|\}\}|\{([^{}!:]*)(![rsa])?(:[^{}]*)?\}`)

// call evaluates the calls that build strings: .format, urljoin, os.path.join,
// "/".join, str(), quote(), os.getenv and a few string methods.
func (sc *scope) call(n *node) sval {
	src := sc.m.src
	fn := n.Child("function")
	args := n.Child("arguments")
	var pos []*node
	kw := map[string]*node{}
	if args != nil {
		for _, a := range args.NamedKids() {
			switch a.Type {
			case "keyword_argument":
				kw[a.Child("name").Text(src)] = a.Child("value")
			case "comment":
			default:
				pos = append(pos, a)
			}
		}
	}
	d := sc.m.dotted(fn, sc.fn)
	last := d
	if i := strings.LastIndex(d, "."); i >= 0 {
		last = d[i+1:]
	}
	switch {
	case last == "urljoin" && len(pos) >= 2:
		return urlJoin(sc.str(pos[0]), sc.str(pos[1]))
	case last == "urlencode" && len(pos) >= 1:
		// urlencode({"q": q, "n": 5}) → q={q}&n=5
		entries := sc.dict(pos[0])
		if len(entries) == 0 {
			break
		}
		out := sval{complete: true}
		for i, e := range entries {
			if i > 0 {
				out.s += "&"
			}
			v := e.sc.str(e.val)
			if !v.complete {
				v = hole(e.key)
			}
			out = out.cat(sval{s: e.key + "=", complete: true}).cat(v)
		}
		return out
	case (d == "os.path.join" || d == "posixpath.join") && len(pos) > 0:
		out := sc.str(pos[0])
		for _, p := range pos[1:] {
			out = joinPath(out, sc.str(p))
		}
		return out
	case d == "str" || d == "quote" || d == "urllib.parse.quote" || d == "quote_plus" || d == "urllib.parse.quote_plus" || d == "urllib.quote":
		if len(pos) == 1 {
			return sc.str(pos[0])
		}
	case d == "os.getenv" || d == "os.environ.get" || d == "getenv" || d == "environ.get" || d == "config" || d == "decouple.config":
		def := kw["default"]
		if len(pos) > 1 {
			def = pos[1]
		}
		if def != nil {
			if v := sc.str(def); v.complete && v.s != "" && v.s != "None" {
				return v
			}
		}
		if len(pos) > 0 && pos[0].Type == "string" {
			return hole(stringBody(pos[0], src))
		}
	}
	if fn != nil && fn.Type == "attribute" {
		obj := fn.Child("object")
		method := fn.Child("attribute").Text(src)
		switch method {
		case "format":
			return sc.format(sc.str(obj), pos, kw)
		case "join":
			if obj.Type == "string" && len(pos) == 1 && (pos[0].Type == "list" || pos[0].Type == "tuple") {
				sep := sc.str(obj)
				out := sval{complete: sep.complete}
				for i, e := range pos[0].NamedKids() {
					if i > 0 {
						out = out.cat(sep)
					}
					out = out.cat(sc.str(e))
				}
				return out
			}
		case "strip", "rstrip", "lstrip":
			v := sc.str(obj)
			cut := " \t\n"
			if len(pos) == 1 {
				if c := sc.str(pos[0]); c.complete {
					cut = c.s
				}
			}
			switch method {
			case "strip":
				v.s = strings.Trim(v.s, cut)
			case "rstrip":
				v.s = strings.TrimRight(v.s, cut)
			default:
				v.s = strings.TrimLeft(v.s, cut)
			}
			return v
		case "lower", "upper":
			v := sc.str(obj)
			if v.complete {
				if method == "lower" {
					v.s = strings.ToLower(v.s)
				} else {
					v.s = strings.ToUpper(v.s)
				}
			}
			return v
		case "get":
			// CONFIG.get("url", default) on a dict we can see, os.environ.get handled above
			if len(pos) >= 1 && pos[0].Type == "string" {
				k := stringBody(pos[0], src)
				for _, e := range sc.dict(obj) {
					if e.key == k {
						return e.sc.str(e.val)
					}
				}
				return hole(k)
			}
		}
	}
	if ret, hsc := sc.returned(n); ret != nil {
		// a same-file helper that builds the URL: def _build_url(self, t): return BASE + t
		if v := hsc.str(ret); strings.Trim(placeholders.ReplaceAllString(v.s, ""), "/") != "" {
			return v
		}
	}
	return hole(placeholderName(n, src))
}

// placeholders matches the {name} holes of an evaluated string.
var placeholders = regexp.MustCompile(`\{[^{}]*\}`)

func (sc *scope) format(tmpl sval, pos []*node, kw map[string]*node) sval {
	out := sval{complete: tmpl.complete}
	auto := 0
	out.s = formatField.ReplaceAllStringFunc(tmpl.s, func(f string) string {
		if f == "{{" {
			return "{"
		}
		if f == "}}" {
			return "}"
		}
		m := formatField.FindStringSubmatch(f)
		name := m[1]
		base := name
		if i := strings.IndexAny(base, ".["); i >= 0 {
			base = base[:i]
		}
		var arg *node
		switch {
		case base == "":
			if auto < len(pos) {
				arg = pos[auto]
			}
			auto++
		default:
			if i, err := strconv.Atoi(base); err == nil {
				if i < len(pos) {
					arg = pos[i]
				}
			} else {
				arg = kw[base]
			}
		}
		if arg == nil || base != name {
			out.complete = false
			if base == "" {
				return "{param}"
			}
			return "{" + base + "}"
		}
		r := sc.str(arg)
		out.complete = out.complete && r.complete
		return r.s
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
	return sval{s: lang.JoinPath(a.s, b.s), complete: a.complete && b.complete}
}

// urlJoin resolves ref against base (lang.ResolveURL).
func urlJoin(base, ref sval) sval {
	if strings.Contains(ref.s, "://") {
		return ref
	}
	return sval{s: lang.ResolveURL(base.s, ref.s), complete: base.complete && ref.complete}
}

// hasParam reports whether f has a parameter called name.
func (f *fnInfo) hasParam(name string) bool {
	return slices.ContainsFunc(f.params, func(p param) bool { return p.name == name })
}
