package javascript

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"sccg/lang"
	"sccg/lang/internal/tstree"
)

// Reject reasons.
const (
	ReasonSyntax        = "syntax error in the function (tree-sitter ERROR/MISSING nodes)"
	ReasonExtractedCode = "extracted code does not parse on its own"
)

// Options tune Extract.
type Options struct {
	Dialect lang.Dialect
	Stars   int
	Forks   int
	Timeout time.Duration // per file; 0 means lang.DefaultTimeout
	// Path is the file's path in its repository and RepoPaths the repository's
	// other files: imports of them are the repository's own.
	Path      string
	RepoPaths []string
}

// Extract finds the request functions of one JavaScript or TypeScript file. It
// never panics on any input: a panic inside is returned as an error.
func Extract(ctx context.Context, content []byte, opts Options) (res *lang.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("extractor panic: %v", r)
		}
	}()
	src, enc, err := lang.Decode(content)
	if err != nil {
		return nil, err
	}
	timeout := lang.DefaultTimeout
	if opts.Timeout > 0 {
		timeout = opts.Timeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if opts.Dialect == "" {
		opts.Dialect = lang.DialectJS
	}
	g := grammarOf(opts.Dialect)
	root, err := parse(ctx, g, src)
	if err != nil {
		return nil, err
	}
	language := lang.JavaScript
	if opts.Dialect == lang.DialectTS || opts.Dialect == lang.DialectTSX {
		language = lang.TypeScript
	}
	res = &lang.Result{Language: language, Encoding: enc, SyntaxOK: true}
	root.Walk(func(n *node) bool {
		if n.Type == "ERROR" || n.Missing {
			res.SyntaxOK = false
			if len(res.SyntaxErrors) < 20 {
				res.SyntaxErrors = append(res.SyntaxErrors, n.Row+1)
			}
			return false
		}
		return true
	})
	m := newModule(ctx, src, root)
	x := &extractor{m: m, opts: opts, ctx: ctx, g: g, fileOK: res.SyntaxOK}
	x.findSites()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", lang.ErrTimeout, err)
	}
	for _, f := range m.funcs {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%w: %w", lang.ErrTimeout, err)
		}
		if !f.named || !x.makesRequests(f, map[*fnInfo]bool{}) {
			continue
		}
		fn, err := x.function(f, enc)
		if err != nil {
			return nil, err
		}
		res.Functions = append(res.Functions, *fn)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", lang.ErrTimeout, err)
	}
	if len(x.topSites) > 0 {
		fn, err := x.topLevel(enc)
		if err != nil {
			return nil, err
		}
		res.Functions = append(res.Functions, *fn)
	}
	sort.SliceStable(res.Functions, func(i, j int) bool { return res.Functions[i].StartLine < res.Functions[j].StartLine })
	for i := range res.Functions {
		res.Functions[i].Facts.Language = language
		res.Functions[i].Facts.Dialect = opts.Dialect
	}
	return res, nil
}

type extractor struct {
	m        *module
	opts     Options
	ctx      context.Context
	g        grammar
	topSites []*reqSite
	memo     map[*fnInfo]bool
	fileOK   bool
}

// findSites records every request call in the named function it belongs to (the
// innermost named function around it: anonymous callbacks lend theirs), and every
// call of a same-file helper.
func (x *extractor) findSites() {
	m := x.m
	var visit func(n *node, f *fnInfo)
	visit = func(n *node, f *fnInfo) {
		for _, c := range n.Children {
			inner := f
			if g, ok := m.byNode[c]; ok {
				inner = g
			}
			if c.Type == "call_expression" {
				owner := f.owner()
				if rs := m.requestSite(c, f); rs != nil {
					if owner == nil {
						x.topSites = append(x.topSites, rs)
					} else {
						owner.reqs = append(owner.reqs, rs)
					}
				} else if owner != nil {
					if h := x.helperOf(c, f); h != nil && h != owner {
						owner.helpers = append(owner.helpers, helperUse{call: c, callee: h})
					}
				}
			}
			visit(c, inner)
		}
	}
	visit(m.root, nil)
}

// helperOf resolves a call to a named function of the same file: a local or
// module-level function, a method of the same class called through this, or a
// method of a module-level object (api.getUser()).
func (x *extractor) helperOf(call *node, f *fnInfo) *fnInfo {
	m := x.m
	fn := unwrap(call.Child("function"))
	if fn == nil {
		return nil
	}
	switch fn.Type {
	case "identifier":
		name := fn.Text(m.src)
		for g := f; g != nil; g = g.parent {
			if h := m.nested[g][name]; h != nil {
				return h
			}
			if len(g.locals[name]) > 0 {
				return nil
			}
		}
		if h, ok := m.topFuncs[name]; ok {
			return h
		}
	case "member_expression":
		obj := unwrap(fn.Child("object"))
		prop := fn.Child("property").Text(m.src)
		switch {
		case obj.Type == "this":
			if ci := enclosingClass(f); ci != nil {
				return ci.methods[prop]
			}
			// an object's method calling a sibling (Vue's methods: this.load())
			if o := f.owner(); o != nil {
				if lit := objectOf(o); lit != nil {
					for _, g := range m.funcs {
						if g.named && g.name == prop && objectOf(g) != nil && within(objectOf(g), lit) {
							return g
						}
					}
				}
			}
		case obj.Type == "identifier" && !bound(f, obj.Text(m.src)):
			if ms, ok := m.objects[obj.Text(m.src)]; ok {
				return ms[prop]
			}
			if ci, ok := m.topClass[obj.Text(m.src)]; ok {
				return ci.methods[prop]
			}
		}
	}
	return nil
}

func (x *extractor) makesRequests(f *fnInfo, seen map[*fnInfo]bool) bool {
	if len(f.reqs) > 0 {
		return true
	}
	if x.memo == nil {
		x.memo = map[*fnInfo]bool{}
	}
	if v, ok := x.memo[f]; ok {
		return v
	}
	if seen[f] {
		return false
	}
	seen[f] = true
	r := slices.ContainsFunc(f.helpers, func(h helperUse) bool { return x.makesRequests(h.callee, seen) })
	x.memo[f] = r
	return r
}

// calls evaluates the request sites of f in source order, following helpers with
// the caller's arguments bound to their parameters.
func (x *extractor) calls(f *fnInfo, args map[string]argRef, via []string, depth int, seen map[*fnInfo]bool) []lang.Call {
	type item struct {
		pos uint32
		rs  *reqSite
		h   *helperUse
	}
	var items []item
	for _, rs := range f.reqs {
		items = append(items, item{pos: rs.call.Start, rs: rs})
	}
	for i := range f.helpers {
		h := &f.helpers[i]
		if !seen[h.callee] && depth < 4 && x.makesRequests(h.callee, map[*fnInfo]bool{}) {
			items = append(items, item{pos: h.call.Start, h: h})
		}
	}
	sort.Slice(items, func(i, j int) bool { return items[i].pos < items[j].pos })
	var out []lang.Call
	for _, it := range items {
		if it.rs != nil {
			sc := &scope{m: x.m, fn: it.rs.fn, at: it.rs.call.Start, depth: depth, args: args, bind: f}
			c := sc.facts(it.rs)
			if len(via) > 0 {
				c.InHelper, c.Via = via[len(via)-1], via
			}
			out = append(out, c)
			continue
		}
		h := it.h
		caller := &scope{m: x.m, fn: x.m.funcAt(h.call), at: h.call.Start, depth: depth, args: args, bind: f}
		pos := positional(h.call)
		bound := map[string]argRef{}
		for _, p := range h.callee.params {
			var a *node
			if p.index < len(pos) {
				a = pos[p.index]
			}
			if a != nil && p.field != "" {
				if v, vs := caller.get(a, p.field); v != nil {
					bound[p.name] = argRef{n: v, sc: vs}
					continue
				}
				a = nil
			}
			if a != nil {
				bound[p.name] = argRef{n: a, sc: caller}
			} else {
				bound[p.name] = argRef{}
			}
		}
		seen[h.callee] = true
		out = append(out, x.calls(h.callee, bound, append(slices.Clip(via), h.callee.qual), depth+1, seen)...)
		delete(seen, h.callee)
	}
	return out
}

// helperClosure lists the request-making helpers f calls, transitively.
func (x *extractor) helperClosure(f *fnInfo) []*fnInfo {
	var out []*fnInfo
	seen := map[*fnInfo]bool{f: true}
	var visit func(g *fnInfo)
	visit = func(g *fnInfo) {
		for _, h := range g.helpers {
			if !seen[h.callee] && x.makesRequests(h.callee, map[*fnInfo]bool{}) {
				seen[h.callee] = true
				out = append(out, h.callee)
				visit(h.callee)
			}
		}
	}
	visit(f)
	return out
}

func (x *extractor) function(f *fnInfo, enc string) (*lang.Function, error) {
	m := x.m
	src := m.src
	fn := &lang.Function{
		Name:      f.name,
		QualName:  f.qual,
		StartLine: f.outer.Row + 1,
		EndLine:   f.outer.EndRow + 1,
		IsAsync:   f.async,
		Source:    lang.Dedent(f.outer.LineText(src), f.outer.Col),
		Status:    lang.StatusCandidate,
	}
	if f.class != nil {
		fn.ClassName = f.class.name
	}
	facts := &fn.Facts
	facts.Encoding = enc
	facts.Calls = x.calls(f, nil, nil, 0, map[*fnInfo]bool{f: true})
	if facts.Calls == nil {
		facts.Calls = []lang.Call{}
	}
	facts.Signature = signature(f, src)
	for _, p := range f.params {
		facts.Parameters = append(facts.Parameters, p.name)
	}
	facts.Decorators = decorators(f, src)
	if o := f.parent.owner(); o != nil {
		facts.Parent = o.qual
	}
	x.comments(f, facts)
	facts.EffectiveLOC = effectiveLines(f.outer.LineText(src))
	helpers := x.helperClosure(f)
	facts.StatusCheck = x.statusCheck(append([]*fnInfo{f}, helpers...))
	facts.ExceptionHandling = x.exceptionHandling(f, helpers)
	facts.SyntaxOK = true
	f.outer.Walk(func(n *node) bool {
		if n.Type == "ERROR" || n.Missing {
			facts.SyntaxOK = false
			facts.SyntaxErrors = append(facts.SyntaxErrors, n.Row+1)
			return false
		}
		return true
	})
	prog := x.assemble(f)
	fn.Code = prog.code
	facts.PulledIn, facts.Unresolved, facts.Imports = prog.pulled, prog.unresolved, prog.imports
	codeOK, hash, err := x.checkCode(prog)
	if err != nil {
		return nil, err
	}
	fn.CodeHash = hash
	switch {
	case !facts.SyntaxOK:
		fn.Status, fn.RejectReason = lang.StatusRejected, ReasonSyntax
	case !codeOK:
		fn.Status, fn.RejectReason = lang.StatusRejected, ReasonExtractedCode
	}
	facts.Quality = x.quality(f, facts)
	return fn, nil
}

// topLevel builds the rejected pseudo-function for requests made by module code
// (top-level statements, and callbacks no named function holds).
func (x *extractor) topLevel(enc string) (*lang.Function, error) {
	m := x.m
	src := m.src
	var stmts []*node
	seen := map[*node]bool{}
	for _, rs := range x.topSites {
		st := rs.call
		for st.Parent != nil && st.Parent != m.root {
			st = st.Parent
		}
		if !seen[st] {
			seen[st] = true
			stmts = append(stmts, st)
		}
	}
	// a request built over several statements (xhr.setRequestHeader, req.query,
	// req.end) is made by all of them
	for _, rs := range x.topSites {
		name := rs.receiver
		if rs.style == styleChain {
			name = m.varName(rs.call)
		}
		if name == "" || !IsIdentifier(name) {
			continue
		}
		for _, st := range m.root.Children {
			if st.Type != "expression_statement" || seen[st] {
				continue
			}
			if k := st.NamedKids(); len(k) > 0 && statementBase(k[0], src) == name {
				seen[st] = true
				stmts = append(stmts, st)
			}
		}
	}
	sort.Slice(stmts, func(i, j int) bool { return stmts[i].Start < stmts[j].Start })
	var texts []string
	for _, st := range stmts {
		texts = append(texts, st.LineText(src))
	}
	fn := &lang.Function{
		Name: lang.ModuleQualName, QualName: lang.ModuleQualName,
		StartLine: stmts[0].Row + 1, EndLine: stmts[len(stmts)-1].EndRow + 1,
		Source: strings.Join(texts, "\n"),
		Status: lang.StatusRejected, RejectReason: lang.ReasonTopLevel,
	}
	facts := &fn.Facts
	facts.Encoding = enc
	for _, rs := range x.topSites {
		sc := &scope{m: m, fn: rs.fn, at: rs.call.Start}
		facts.Calls = append(facts.Calls, sc.facts(rs))
	}
	facts.SyntaxOK = true
	for _, st := range stmts {
		if st.HasError() {
			facts.SyntaxOK = false
		}
	}
	prog := x.build(stmts, &piece{start: stmts[0].Start, text: strings.Join(texts, "\n"), kind: "target", row: stmts[0].Row}, nil, nil)
	fn.Code = prog.code
	facts.PulledIn, facts.Unresolved, facts.Imports = prog.pulled, prog.unresolved, prog.imports
	prog.nodes = nil // script statements may start mid-line
	_, hash, err := x.checkCode(prog)
	if err != nil {
		return nil, err
	}
	fn.CodeHash = hash
	facts.EffectiveLOC = effectiveLines(fn.Source)
	facts.Quality = lang.ZeroQuality()
	return fn, nil
}

// statementBase is the name an expression statement works on: the object of
// the method it calls or of the member it assigns.
func statementBase(e *node, src []byte) string {
	switch e.Type {
	case "call_expression":
		if fn := e.Child("function"); fn != nil && fn.Type == "member_expression" {
			return baseName(fn, src)
		}
	case "assignment_expression":
		if l := e.Child("left"); l != nil && l.Type != "identifier" {
			return baseName(l, src)
		}
	}
	return ""
}

// checkCode reports whether the program parses on its own in the file's dialect
// and returns its normalized hash. A program of whole top-level statements of a
// file that parsed cleanly is judged and hashed on the file's tree: each parsed
// there as a statement, and the program puts them on lines of their own.
func (x *extractor) checkCode(p *program) (bool, string, error) {
	if x.fileOK && len(p.nodes) > 0 {
		return true, codeHash(x.m.src, p.nodes...), nil
	}
	b := []byte(p.code)
	t, err := parse(x.ctx, x.g, b)
	if err != nil {
		return false, "", err
	}
	return !t.HasError(), codeHash(b, t), nil
}

// statusAttrs are the response properties whose reading checks the status.
var statusAttrs = map[string]bool{"ok": true, "status": true, "statusCode": true}

// statusKeys are the client options that decide which statuses fail.
var statusKeys = map[string]bool{"validateStatus": true, "throwHttpErrors": true, "simple": true, "ok": true}

// statusCheck reports a status check in the functions: response.ok,
// response.status / statusCode read (not called: res.status(500) answers), a
// validateStatus or throwHttpErrors option.
func (x *extractor) statusCheck(fs []*fnInfo) bool {
	src := x.m.src
	found := false
	for _, f := range fs {
		f.node.Walk(func(n *node) bool {
			switch n.Type {
			case "member_expression":
				if statusAttrs[n.Child("property").Text(src)] && !(n.Parent != nil && n.Parent.Type == "call_expression" && n.Field == "function") {
					found = true
				}
			case "pair":
				if k := n.Child("key"); k != nil && statusKeys[keyText(k, src)] && keyText(k, src) != "ok" {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// exceptionHandling reports a try/catch around a request made by f or a helper
// (or around f's call of that helper), or a .catch(…) on the request's promise
// chain.
func (x *extractor) exceptionHandling(f *fnInfo, helpers []*fnInfo) bool {
	src := x.m.src
	guarded := func(n *node, g *fnInfo) bool {
		for p := n; p != nil && p != g.node; p = p.Parent {
			if p.Type == "statement_block" && p.Field == "body" && p.Parent != nil && p.Parent.Type == "try_statement" && p.Parent.Child("handler") != nil {
				return true
			}
			// fetch(u).then(…).catch(…)
			if p.Type == "member_expression" && p.Child("property").Text(src) == "catch" && p.Parent != nil && p.Parent.Type == "call_expression" {
				return true
			}
		}
		return false
	}
	for _, g := range append([]*fnInfo{f}, helpers...) {
		for _, rs := range g.reqs {
			if guarded(rs.call, g) {
				return true
			}
		}
		for _, h := range g.helpers {
			if guarded(h.call, g) && x.makesRequests(h.callee, map[*fnInfo]bool{}) {
				return true
			}
		}
	}
	return false
}

// signature renders a function's head on one line: "async function get(city)",
// "const get = async (city) =>", "async get(id: number): Promise<T>".
func signature(f *fnInfo, src []byte) string {
	n := f.node
	start := n.Start
	switch {
	case f.outer.Type == "pair" || f.outer.Type == "field_definition" || f.outer.Type == "public_field_definition":
		start = f.outer.Start
	case n.Parent != nil && n.Parent.Type == "variable_declarator":
		if d := n.Parent.Parent; d != nil {
			start = d.Start
		}
	case n.Parent != nil && n.Parent.Type == "assignment_expression":
		start = n.Parent.Start
	}
	if p := n.Parent; p != nil && p.Type == "export_statement" {
		start = p.Start
	} else if d := n.Parent; d != nil && d.Type == "variable_declarator" && d.Parent != nil && d.Parent.Parent != nil && d.Parent.Parent.Type == "export_statement" {
		start = d.Parent.Parent.Start
	}
	end := n.End
	if b := n.Child("body"); b != nil {
		end = b.Start
	}
	s := stripComments(string(src[start:end]))
	s = strings.Join(strings.Fields(s), " ")
	s = strings.ReplaceAll(strings.ReplaceAll(s, "( ", "("), " )", ")")
	return strings.TrimSpace(s)
}

// decorators lists a method's or class field's TypeScript decorators as written.
func decorators(f *fnInfo, src []byte) []string {
	var out []string
	for _, c := range f.outer.Children {
		if c.Type == "decorator" {
			out = append(out, strings.TrimSpace(strings.TrimPrefix(c.Text(src), "@")))
		}
	}
	// a class member's decorators are the class body's children before it
	if p := f.outer.Parent; p != nil && p.Type == "class_body" {
		i := slices.Index(p.Children, f.outer)
		var before []string
		for j := i - 1; j >= 0 && p.Children[j].Type == "decorator"; j-- {
			before = append([]string{strings.TrimSpace(strings.TrimPrefix(p.Children[j].Text(src), "@"))}, before...)
		}
		out = append(before, out...)
	}
	return out
}

// codeHash hashes the token stream of a parsed program, leaving out comments,
// ignoring whitespace, semicolons' absence and the quote style of strings.
func codeHash(src []byte, roots ...*node) string {
	return tstree.HashTokens(src, func(n *node) (string, bool) {
		switch n.Type {
		case "comment", "html_comment", ";":
			return "", true
		case "string":
			return fmt.Sprintf("S:%s\x00", strings.NewReplacer(`\'`, `'`, `\"`, `"`).Replace(stringValue(n, src))), true
		}
		return "", len(n.Children) == 0 && n.End <= n.Start
	}, roots...)
}

// objectOf is the object literal a method or pair function is a member of, or nil.
func objectOf(f *fnInfo) *node {
	n := f.node.Parent
	if n != nil && n.Type == "pair" {
		n = n.Parent
	}
	if n != nil && n.Type == "object" && f.class == nil {
		return n
	}
	return nil
}

// within reports whether the object literal a is b or nested in b's members'
// objects (Vue's methods and computed live side by side in the component).
func within(a, b *node) bool {
	top := func(n *node) *node {
		for n.Parent != nil && (n.Parent.Type == "pair" || n.Parent.Type == "object") {
			n = n.Parent
		}
		return n
	}
	return top(a) == top(b)
}
