package python

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
	ReasonTopLevel      = lang.ReasonTopLevel
	ReasonSyntax        = "syntax error in the function (tree-sitter ERROR/MISSING nodes)"
	ReasonPython2       = "Python 2 syntax"
	ReasonExtractedCode = "extracted code does not parse on its own"
)

// ModuleQualName is the qualname of the pseudo-function that holds top-level
// script requests.
const ModuleQualName = lang.ModuleQualName

// Options tune Extract.
type Options struct {
	Stars, Forks int           // repository signals for the quality score
	Timeout      time.Duration // per file; 0 means 20s
	// LocalModules are the top-level modules the file's repository provides to it
	// (RepoModules): imports of them are the repository's own, not third-party.
	LocalModules []string
}

// Extract finds the request functions of one Python file. It never panics on any
// input: a panic inside is returned as an error.
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
	if opts.Timeout == 0 {
		opts.Timeout = 20 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	root, err := parse(ctx, src)
	if err != nil {
		return nil, err
	}
	res = &lang.Result{Language: lang.Python, Encoding: enc, SyntaxOK: true}
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
	if !res.SyntaxOK {
		recoverDefs(ctx, src, root)
	}
	m := newModule(src, root)
	x := &extractor{m: m, opts: opts, ctx: ctx, filePy2: python2(root, src), fileOK: res.SyntaxOK}
	x.findSites()
	for _, f := range m.funcs {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%w: %w", errParseTimeout, err)
		}
		if !x.makesRequests(f, map[*fnInfo]bool{}) {
			continue
		}
		fn, err := x.function(f, enc)
		if err != nil {
			return nil, err
		}
		res.Functions = append(res.Functions, *fn)
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
		res.Functions[i].Facts.Language = lang.Python
	}
	return res, nil
}

type extractor struct {
	m        *module
	opts     Options
	ctx      context.Context
	topSites []*reqSite
	memo     map[*fnInfo]bool
	filePy2  string // a Python 2-only construct of the file, if any
	fileOK   bool   // the file parsed without ERROR or MISSING nodes
}

// findSites records every request call and every same-file helper call, each in
// its innermost function.
func (x *extractor) findSites() {
	m := x.m
	var visit func(n *node, f *fnInfo)
	visit = func(n *node, f *fnInfo) {
		for _, c := range n.Children {
			inner := f
			d := c
			if c.Type == "decorated_definition" {
				d = c.Child("definition")
			}
			if d != nil && d.Type == "function_definition" {
				for _, g := range m.funcs {
					if g.def == d {
						inner = g
						break
					}
				}
				if c.Type == "decorated_definition" {
					for _, k := range c.Children {
						if k.Type == "decorator" {
							visit(k, f)
						}
					}
				}
				visit(d, inner)
				continue
			}
			if c.Type == "call" {
				if rs := m.requestSite(c, f); rs != nil {
					if f == nil {
						x.topSites = append(x.topSites, rs)
					} else {
						f.reqs = append(f.reqs, rs)
					}
				} else if f != nil {
					if h, method := x.helperOf(c, f); h != nil && h != f {
						f.helpers = append(f.helpers, helperUse{call: c, callee: h, method: method})
					}
				}
			}
			visit(c, f)
		}
	}
	visit(m.root, nil)
}

// helperOf resolves a call to a function of the same file: a nested function, a
// module-level function, or a method of the same class called through self/cls.
func (x *extractor) helperOf(call *node, f *fnInfo) (*fnInfo, bool) { return x.m.sameFileFunc(call, f) }

// sameFileFunc resolves a call made in f to a function of the same file (see
// helperOf); method reports a method called through self or cls.
func (m *module) sameFileFunc(call *node, f *fnInfo) (g *fnInfo, method bool) {
	fn := call.Child("function")
	switch fn.Type {
	case "identifier":
		name := fn.Text(m.src)
		for _, g := range m.funcs {
			if g.parent == f && g.name == name {
				return g, false
			}
		}
		if g, ok := m.topFuncs[name]; ok {
			return g, false
		}
	case "attribute":
		obj := fn.Child("object")
		if obj.Type == "identifier" && (obj.Text(m.src) == "self" || obj.Text(m.src) == "cls") {
			if ci := enclosingClass(f); ci != nil {
				if g, ok := ci.methods[fn.Child("attribute").Text(m.src)]; ok {
					return g, true
				}
			}
		}
	}
	return nil, false
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
// the caller's arguments bound to their parameters. via is the chain of helpers
// that led to f, outermost first.
func (x *extractor) calls(f *fnInfo, sc *scope, via []string, depth int, seen map[*fnInfo]bool) []lang.Call {
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
			c := sc.facts(it.rs)
			c.PathFrom = sc.pathParam(it.rs)
			if len(via) > 0 {
				c.InHelper, c.Via = via[len(via)-1], via
			}
			out = append(out, c)
			continue
		}
		h := it.h
		args := sc.bindArgs(h.call, h.callee, h.method)
		hsc := &scope{m: x.m, fn: h.callee, at: h.callee.def.End, args: args, depth: sc.depth + 1}
		seen[h.callee] = true
		out = append(out, x.calls(h.callee, hsc, append(slices.Clip(via), h.callee.qual), depth+1, seen)...)
		delete(seen, h.callee)
	}
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
	sc := &scope{m: m, fn: f, at: f.def.End}
	facts.Calls = x.calls(f, sc, nil, 0, map[*fnInfo]bool{f: true})
	if facts.Calls == nil {
		facts.Calls = []lang.Call{}
	}
	facts.Signature = signature(f.def, src)
	for _, p := range f.params {
		facts.Parameters = append(facts.Parameters, p.name)
	}
	if f.outer.Type == "decorated_definition" {
		for _, c := range f.outer.Children {
			if c.Type == "decorator" {
				facts.Decorators = append(facts.Decorators, strings.TrimSpace(strings.TrimPrefix(c.Text(src), "@")))
			}
		}
	}
	if f.parent != nil {
		facts.Parent = f.parent.qual
	}
	x.comments(f, facts)
	facts.EffectiveLOC = effectiveLOC(src, f.outer, facts.Docstring)

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
	py2 := python2(f.outer, src)
	if py2 == "" && x.filePy2 != "" {
		py2 = x.filePy2 + " elsewhere in the file"
	}

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
	case py2 != "":
		fn.Status, fn.RejectReason = lang.StatusRejected, ReasonPython2+" ("+py2+")"
	case !codeOK:
		fn.Status, fn.RejectReason = lang.StatusRejected, ReasonExtractedCode
	}
	facts.Quality = x.quality(f, facts, prog.imports)
	return fn, nil
}

// topLevel builds the rejected pseudo-function for requests made by module code.
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
	var texts []string
	for _, st := range stmts {
		texts = append(texts, st.LineText(src))
	}
	fn := &lang.Function{
		Name: ModuleQualName, QualName: ModuleQualName,
		StartLine: stmts[0].Row + 1, EndLine: stmts[len(stmts)-1].EndRow + 1,
		Source: strings.Join(texts, "\n"),
		Status: lang.StatusRejected, RejectReason: ReasonTopLevel,
	}
	facts := &fn.Facts
	facts.Encoding = enc
	sc := &scope{m: m}
	for _, rs := range x.topSites {
		facts.Calls = append(facts.Calls, sc.facts(rs))
	}
	facts.SyntaxOK = true
	for _, st := range stmts {
		if st.HasError() {
			facts.SyntaxOK = false
		}
	}
	prog := x.assembleRoots(stmts, nil)
	fn.Code = prog.code
	facts.PulledIn, facts.Unresolved, facts.Imports = prog.pulled, prog.unresolved, prog.imports
	_, hash, err := x.checkCode(prog)
	if err != nil {
		return nil, err
	}
	fn.CodeHash = hash
	facts.EffectiveLOC = len(strings.Split(strings.TrimSpace(fn.Source), "\n"))
	// script code is rejected; its quality is recorded as zero in every component
	facts.Quality = lang.ZeroQuality()
	return fn, nil
}

// checkCode reports whether a program parses on its own as Python 3 and returns its
// normalized hash. In a file that parsed cleanly, a program made of the file's
// statements (possibly dedented, or a class reduced to some of its members) is
// checked and hashed on the file's tree: it parsed there, so it parses alone, with
// the same tokens. Otherwise the program is parsed again.
func (x *extractor) checkCode(p *program) (bool, string, error) {
	// in a file with syntax errors an error next to a function can change how it
	// parses alone, so only a clean file's tree vouches for its pieces
	plain := p.nodes != nil && x.fileOK
	for _, n := range p.nodes {
		if n.Col != 0 && !p.rewritten {
			plain = false // not where a module-level statement can start
		}
	}
	if plain {
		ok := true
		for _, n := range p.nodes {
			if n.HasError() || python2(n, x.m.src) != "" {
				ok = false
			}
		}
		return ok, codeHash(x.m.src, p.nodes...), nil
	}
	src := []byte(p.code)
	t, err := parse(x.ctx, src)
	if err != nil {
		return false, "", err
	}
	return !t.HasError() && python2(t, src) == "", codeHash(src, t), nil
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

var statusAttrs = map[string]bool{"status_code": true, "raise_for_status": true, "ok": true, "status": true, "getcode": true}

func (x *extractor) statusCheck(fs []*fnInfo) bool {
	found := false
	for _, f := range fs {
		f.def.Walk(func(n *node) bool {
			if n.Type == "attribute" && statusAttrs[n.Child("attribute").Text(x.m.src)] {
				found = true
			}
			return !found
		})
	}
	return found
}

// exceptionHandling reports a try statement (with an except clause) around a
// request made by f or by a helper, or around f's call of that helper.
func (x *extractor) exceptionHandling(f *fnInfo, helpers []*fnInfo) bool {
	inTry := func(n *node, g *fnInfo) bool {
		for p := n.Parent; p != nil && p != g.def; p = p.Parent {
			if p.Type == "block" && p.Parent != nil && p.Parent.Type == "try_statement" && p.Field == "body" {
				for _, c := range p.Parent.Children {
					if c.Type == "except_clause" || c.Type == "except_group_clause" {
						return true
					}
				}
			}
		}
		return false
	}
	for _, g := range append([]*fnInfo{f}, helpers...) {
		for _, rs := range g.reqs {
			if inTry(rs.call, g) {
				return true
			}
		}
		for _, h := range g.helpers {
			if inTry(h.call, g) && x.makesRequests(h.callee, map[*fnInfo]bool{}) {
				return true
			}
		}
	}
	return false
}

// python2 names a Python 2-only construct in n, or returns "".
func python2(n *node, src []byte) string {
	what := ""
	n.Walk(func(c *node) bool {
		if what != "" {
			return false
		}
		switch c.Type {
		case "print_statement":
			what = "print statement"
		case "exec_statement":
			what = "exec statement"
		case "integer":
			t := c.Text(src)
			if strings.HasSuffix(t, "L") || strings.HasSuffix(t, "l") || (len(t) > 1 && t[0] == '0' && strings.Trim(t, "0") != "" && t[1] >= '0' && t[1] <= '9') {
				what = "Python 2 integer literal"
			}
		case "<>":
			what = "<> operator"
		case "string_start":
			if p := strings.ToLower(strings.TrimRight(c.Text(src), `'"`)); strings.Contains(p, "u") && strings.Contains(p, "r") {
				what = "ur string prefix"
			}
		}
		return what == ""
	})
	return what
}

// signature renders a def line on one line, without the trailing colon.
func signature(def *node, src []byte) string {
	body := def.Child("body")
	end := def.End
	if body != nil {
		end = body.Start
	}
	s := strings.TrimSpace(string(src[def.Start:end]))
	s = strings.TrimSuffix(s, ":")
	// comments between the header and the body
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if i := strings.Index(l, "#"); i >= 0 && !strings.ContainsAny(l[:i], `'"`) {
			l = l[:i]
		}
		lines = append(lines, l)
	}
	s = strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
	s = strings.ReplaceAll(strings.ReplaceAll(s, "( ", "("), " )", ")")
	return strings.TrimSuffix(strings.TrimSpace(s), ":")
}

// codeHash hashes the token stream of a parsed program, leaving out comments and
// docstrings, ignoring whitespace and the quote style of string literals.
func codeHash(src []byte, roots ...*node) string {
	return tstree.HashTokens(src, func(n *node) (string, bool) {
		switch n.Type {
		case "comment":
			return "", true
		case "expression_statement":
			return "", isDocstring(n)
		case "string":
			prefix := strings.ReplaceAll(stringPrefix(n, src), "u", "")
			inner := ""
			if len(n.Children) >= 2 {
				inner = string(src[n.Children[0].End:n.Children[len(n.Children)-1].Start])
			}
			inner = strings.NewReplacer(`\'`, `'`, `\"`, `"`).Replace(inner)
			return fmt.Sprintf("S%s:%s\x00", prefix, inner), true
		}
		return "", false
	}, roots...)
}

// isDocstring reports an expression statement that is only a string and is the
// first statement of a block or module.
func isDocstring(n *node) bool {
	k := n.NamedKids()
	if len(k) != 1 || k[0].Type != "string" || n.Parent == nil {
		return false
	}
	for _, s := range n.Parent.Children {
		if s.Type == "comment" {
			continue
		}
		return s == n
	}
	return false
}
