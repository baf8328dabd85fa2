package jsbox

import (
	"net/url"
	"slices"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"

	"sccg/evaluate/sandbox"
)

// param is what the dummy arguments of one parameter are chosen by: its name, how
// the body uses it (kind: "num", "str", "arr", "obj", "fn" or ""), the keys of a
// destructured object, whether it has a default and whether it is a rest parameter.
type param struct {
	Name string   `json:"name"`
	Kind string   `json:"kind,omitempty"`
	Keys []string `json:"keys,omitempty"`
	Opt  []string `json:"opt,omitempty"` // keys with a default
	Def  bool     `json:"def,omitempty"`
	Rest bool     `json:"rest,omitempty"`
	// Cut is the text a "url" parameter is cut at or searched for ("github.com/";
	// "" for one parsed with new URL).
	Cut string `json:"cut,omitempty"`
	// Fields are the string literals the code compares the parameter's fields
	// with (req.method !== 'POST': method POST); a stub dummy carries them.
	Fields map[string]string `json:"fields,omitempty"`
}

// def is one callable definition of the module: a function, Class.method or
// obj.method, with its parameters.
type def struct {
	Name   string
	Params []param
}

// analysis is what the syntax tree tells before the code runs.
type analysis struct {
	facts sandbox.Facts
	defs  []def
	ctors map[string][]param // class name → constructor parameters
	// exported maps a name the module exports to the local definition behind it
	// (esbuild's __export(m, {name: () => local})), e.g. default → main_default.
	exported map[string]string
	// globals are the free names the code reads other than as `typeof x`: each is
	// bound before the code runs (a recorder for a known client, else a stub).
	globals []string
	// lazy are the harness's made-on-demand globals the code names.
	lazy []string
	// pageQuery is the page's query string (location.search without its "?"):
	// the keys the code reads with .get or .has, each with the value a user's page
	// would carry for it (fieldValue), so new URLSearchParams(location.search)
	// .get('id') answers as a real page's link would.
	pageQuery string
	// elements are names the code declares only inside a function or block: a
	// read of one outside its scope is, in a browser, the element of that id
	// (searchTerms.value for <input id="searchTerms">), so each is bound to one,
	// which the declarations shadow where they hold.
	elements []string
}

// Names the status check of a response reads.
var statusNames = map[string]bool{"ok": true, "status": true, "statusCode": true, "validateStatus": true}

// Methods that make a parameter a string, an array or (by elimination) an object.
var (
	strMethods = map[string]bool{"split": true, "trim": true, "toLowerCase": true, "toUpperCase": true, "replace": true,
		"replaceAll": true, "startsWith": true, "endsWith": true, "substring": true, "substr": true, "charAt": true,
		"padStart": true, "padEnd": true, "trimStart": true, "trimEnd": true, "normalize": true, "match": true,
		"charCodeAt": true, "localeCompare": true, "toLocaleLowerCase": true}
	arrMethods = map[string]bool{"map": true, "forEach": true, "filter": true, "reduce": true, "join": true, "push": true,
		"some": true, "every": true, "find": true, "findIndex": true, "flatMap": true, "sort": true, "pop": true,
		"shift": true, "splice": true, "flat": true}
	numOps = map[token.Token]bool{token.MINUS: true, token.MULTIPLY: true, token.SLASH: true, token.REMAINDER: true,
		token.LESS: true, token.GREATER: true, token.LESS_OR_EQUAL: true, token.GREATER_OR_EQUAL: true,
		token.EXPONENT: true}
)

// analyze reads the facts, definitions and free names off the module body (the
// wrapper's own statements and esbuild's helpers left out). builtins are the
// names the runtime defines.
func analyze(body []ast.Statement, builtins, lazy map[string]bool) analysis {
	w := &walker{declared: map[string]bool{}, mentioned: map[string]bool{}, typeofOnly: map[string]bool{},
		props: map[string]bool{}, assigned: map[string]bool{}, functions: map[string]bool{}, queryKeys: map[string]bool{}}
	a := analysis{facts: sandbox.Facts{Syntax: true}, ctors: map[string][]param{}, exported: map[string]string{}}
	var own []ast.Statement
	for i, st := range body {
		if i == 0 && isLookupCall(st) || isDirective(st) {
			continue
		}
		if isHelperDecl(st) {
			for _, b := range st.(*ast.VariableStatement).List {
				w.declare(b.Target)
			}
			continue
		}
		own = append(own, st)
	}
	for _, st := range own {
		w.stmt(st)
	}
	for _, st := range own {
		a.topDefs(st)
	}
	a.facts.Imports = w.imports
	a.facts.HasTry = w.hasTry
	a.facts.HasStatusCheck = w.hasStatus
	for _, d := range a.defs {
		a.facts.Defs = append(a.facts.Defs, d.Name)
	}
	for n := range lazy {
		// named, or read off an object that may be the global one (globalThis.URL)
		if (w.mentioned[n] && !w.declared[n]) || w.props[n] {
			a.lazy = append(a.lazy, n)
		}
	}
	top := topDeclared(own)
	for n := range w.mentioned {
		if builtins[n] || moduleNames[n] {
			continue
		}
		if w.declared[n] {
			if !top[n] && !w.assigned[n] && !w.typeofOnly[n] && !w.functions[n] {
				// declared only inside a function or block: read anywhere else, it
				// is a page's element of that id, as a browser names it
				a.elements = append(a.elements, n)
			}
			continue
		}
		a.facts.Free = append(a.facts.Free, n)
		if !w.typeofOnly[n] {
			a.globals = append(a.globals, n)
		}
	}
	slices.Sort(a.facts.Free)
	slices.Sort(a.globals)
	slices.Sort(a.elements)
	a.pageQuery = pageQuery(w.queryKeys)
	slices.Sort(a.lazy)
	return a
}

// pageQuery is a query string of keys, sorted, each with its fieldValue.
func pageQuery(keys map[string]bool) string {
	q := url.Values{}
	for k := range keys {
		q.Set(k, fieldValue(k))
	}
	return q.Encode()
}

// topDeclared are the names the module's own statements declare at its top level
// (functions, classes, variables, imports as esbuild leaves them), the body of a
// module that awaits at its top level included.
func topDeclared(own []ast.Statement) map[string]bool {
	w := &walker{declared: map[string]bool{}}
	var add func(st ast.Statement)
	add = func(st ast.Statement) {
		switch s := st.(type) {
		case *ast.FunctionDeclaration:
			if s.Function.Name != nil && s.Function.Name.Name == mainName && s.Function.Body != nil {
				for _, inner := range s.Function.Body.List {
					add(inner)
				}
				return
			}
			if s.Function.Name != nil {
				w.declared[string(s.Function.Name.Name)] = true
			}
		case *ast.ClassDeclaration:
			if s.Class.Name != nil {
				w.declared[string(s.Class.Name.Name)] = true
			}
		case *ast.VariableStatement:
			for _, b := range s.List {
				w.declare(b.Target)
			}
		case *ast.LexicalDeclaration:
			for _, b := range s.List {
				w.declare(b.Target)
			}
		}
	}
	for _, st := range own {
		add(st)
	}
	return w.declared
}

// moduleNames are the wrapper's parameters and the names every script has.
var moduleNames = map[string]bool{"exports": true, "require": true, "module": true, "__filename": true,
	"__dirname": true, lookupParam: true, "arguments": true, "undefined": true, "eval": true}

func isLookupCall(st ast.Statement) bool {
	es, ok := st.(*ast.ExpressionStatement)
	if !ok {
		return false
	}
	c, ok := es.Expression.(*ast.CallExpression)
	if !ok {
		return false
	}
	id, ok := c.Callee.(*ast.Identifier)
	return ok && id.Name == lookupParam
}

func isDirective(st ast.Statement) bool {
	es, ok := st.(*ast.ExpressionStatement)
	if !ok {
		return false
	}
	s, ok := es.Expression.(*ast.StringLiteral)
	return ok && s.Value == "use strict"
}

// isHelperDecl: a declaration of esbuild's runtime helpers (var __toESM = ...).
func isHelperDecl(st ast.Statement) bool {
	vs, ok := st.(*ast.VariableStatement)
	if !ok || len(vs.List) == 0 {
		return false
	}
	for _, b := range vs.List {
		id, ok := b.Target.(*ast.Identifier)
		if !ok || !strings.HasPrefix(string(id.Name), "__") {
			return false
		}
	}
	return true
}

// topDefs adds the callable definitions of one top-level statement.
func (a *analysis) topDefs(st ast.Statement) {
	switch s := st.(type) {
	case *ast.FunctionDeclaration:
		if s.Function.Name != nil && s.Function.Name.Name == mainName && s.Function.Body != nil {
			// a module that awaits at its top level: its statements are in here
			for _, inner := range s.Function.Body.List {
				a.topDefs(inner)
			}
			return
		}
		if s.Function.Name != nil {
			a.addFunc(string(s.Function.Name.Name), s.Function.ParameterList, s.Function.Body)
		}
	case *ast.ClassDeclaration:
		a.addClass(s.Class)
	case *ast.VariableStatement:
		a.bindingDefs(s.List)
	case *ast.LexicalDeclaration:
		a.bindingDefs(s.List)
	case *ast.ExpressionStatement:
		if c, ok := s.Expression.(*ast.CallExpression); ok && isIdent(c.Callee, "__export") && len(c.ArgumentList) == 2 {
			a.exports(c.ArgumentList[1])
			return
		}
		if c, ok := s.Expression.(*ast.CallExpression); ok {
			a.namespace(c)
		}
		// exports.f = function ..., module.exports.f = ..., module.exports = {...}
		as, ok := s.Expression.(*ast.AssignExpression)
		if !ok || as.Operator != token.ASSIGN {
			return
		}
		d, ok := as.Left.(*ast.DotExpression)
		if !ok {
			return
		}
		name := string(d.Identifier.Name)
		switch {
		case isExports(d.Left):
			a.valueDef(name, as.Right)
		case name == "exports" && isIdent(d.Left, "module"):
			if o, ok := as.Right.(*ast.ObjectLiteral); ok {
				a.objectDefs("", o)
			} else {
				a.valueDef("default", as.Right)
			}
		default:
			// a handler set on an object: button.onclick = () => ..., api.load = function ...
			if path := dotPath(d); path != "" {
				switch as.Right.(type) {
				case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
					a.valueDef(path, as.Right)
				}
			}
		}
	}
}

// dotPath is the path of a member expression of names only ("a.b.c"), "" for any
// other expression.
func dotPath(e ast.Expression) string {
	switch x := e.(type) {
	case *ast.Identifier:
		return string(x.Name)
	case *ast.DotExpression:
		if l := dotPath(x.Left); l != "" {
			return l + "." + string(x.Identifier.Name)
		}
	}
	return ""
}

// exports reads esbuild's export table: {name: () => local, ...}.
func (a *analysis) exports(e ast.Expression) {
	o, ok := e.(*ast.ObjectLiteral)
	if !ok {
		return
	}
	for _, p := range o.Value {
		pk, ok := p.(*ast.PropertyKeyed)
		if !ok {
			continue
		}
		if f, ok := pk.Value.(*ast.ArrowFunctionLiteral); ok {
			if b, ok := f.Body.(*ast.ExpressionBody); ok {
				if id, ok := b.Expression.(*ast.Identifier); ok {
					a.exported[literalKey(pk.Key)] = string(id.Name)
				}
			}
		}
	}
}

func isIdent(e ast.Expression, name string) bool {
	id, ok := e.(*ast.Identifier)
	return ok && string(id.Name) == name
}

func isExports(e ast.Expression) bool {
	if isIdent(e, "exports") {
		return true
	}
	d, ok := e.(*ast.DotExpression)
	return ok && d.Identifier.Name == "exports" && isIdent(d.Left, "module")
}

func (a *analysis) bindingDefs(list []*ast.Binding) {
	for _, b := range list {
		id, ok := b.Target.(*ast.Identifier)
		if !ok || b.Initializer == nil || strings.HasPrefix(string(id.Name), "import_") {
			continue
		}
		a.valueDef(string(id.Name), b.Initializer)
	}
}

// valueDef adds name when v is a function or class, and name.m for each method of
// an object literal.
func (a *analysis) valueDef(name string, v ast.Expression) {
	switch f := v.(type) {
	case *ast.FunctionLiteral:
		a.addFunc(name, f.ParameterList, f.Body)
	case *ast.ArrowFunctionLiteral:
		a.addFunc(name, f.ParameterList, f.Body)
	case *ast.ClassLiteral:
		a.addClassNamed(name, f)
	case *ast.ObjectLiteral:
		a.objectDefs(name, f)
	}
}

func (a *analysis) objectDefs(owner string, o *ast.ObjectLiteral) {
	for _, p := range o.Value {
		pk, ok := p.(*ast.PropertyKeyed)
		if !ok || pk.Computed {
			continue
		}
		key := literalKey(pk.Key)
		if key == "" {
			continue
		}
		name := key
		if owner != "" {
			name = owner + "." + key
		}
		switch f := pk.Value.(type) {
		case *ast.FunctionLiteral:
			a.addFunc(name, f.ParameterList, f.Body)
		case *ast.ArrowFunctionLiteral:
			a.addFunc(name, f.ParameterList, f.Body)
		}
	}
}

func literalKey(e ast.Expression) string {
	switch k := e.(type) {
	case *ast.StringLiteral:
		return string(k.Value)
	case *ast.Identifier:
		return string(k.Name)
	}
	return ""
}

func (a *analysis) addClass(c *ast.ClassLiteral) {
	if c.Name != nil {
		a.addClassNamed(string(c.Name.Name), c)
	}
}

func (a *analysis) addClassNamed(name string, c *ast.ClassLiteral) {
	for _, el := range c.Body {
		switch m := el.(type) {
		case *ast.MethodDefinition:
			key := literalKey(m.Key)
			if m.Computed || key == "" || m.Kind != ast.PropertyKindMethod {
				continue
			}
			if key == "constructor" {
				a.ctors[name] = params(m.Body.ParameterList, m.Body.Body)
				continue
			}
			a.addFunc(name+"."+key, m.Body.ParameterList, m.Body.Body)
		case *ast.FieldDefinition:
			// class fields holding arrow functions (lowered by esbuild, kept here for ESNext)
			key := literalKey(m.Key)
			if f, ok := m.Initializer.(*ast.ArrowFunctionLiteral); ok && key != "" && !m.Computed {
				a.addFunc(name+"."+key, f.ParameterList, f.Body)
			}
		}
	}
}

// namespace reads a TypeScript namespace as esbuild writes it,
// ((N) => { function f() {…} N.f = f; })(N || (N = {})), into a definition
// N.f for each function it exports, so the driver finds f on N.
func (a *analysis) namespace(c *ast.CallExpression) {
	if len(c.ArgumentList) != 1 {
		return
	}
	or, ok := c.ArgumentList[0].(*ast.BinaryExpression)
	if !ok || or.Operator != token.LOGICAL_OR {
		return
	}
	ns, ok := or.Left.(*ast.Identifier)
	if !ok {
		return
	}
	var pl *ast.ParameterList
	var body *ast.BlockStatement
	switch f := c.Callee.(type) {
	case *ast.ArrowFunctionLiteral:
		pl = f.ParameterList
		body, _ = f.Body.(*ast.BlockStatement)
	case *ast.FunctionLiteral:
		pl, body = f.ParameterList, f.Body
	}
	if pl == nil || body == nil || len(pl.List) != 1 {
		return
	}
	inner, ok := pl.List[0].Target.(*ast.Identifier)
	if !ok {
		return
	}
	funcs := map[string]*ast.FunctionLiteral{}
	for _, st := range body.List {
		switch x := st.(type) {
		case *ast.FunctionDeclaration:
			if x.Function.Name != nil {
				funcs[string(x.Function.Name.Name)] = x.Function
			}
		case *ast.ExpressionStatement:
			as, ok := x.Expression.(*ast.AssignExpression)
			if !ok || as.Operator != token.ASSIGN {
				continue
			}
			d, ok := as.Left.(*ast.DotExpression)
			if !ok || !isIdent(d.Left, string(inner.Name)) {
				continue
			}
			if id, ok := as.Right.(*ast.Identifier); ok {
				if f := funcs[string(id.Name)]; f != nil {
					a.addFunc(string(ns.Name)+"."+string(d.Identifier.Name), f.ParameterList, f.Body)
				}
			}
		}
	}
}

func (a *analysis) addFunc(name string, pl *ast.ParameterList, body ast.Node) {
	for _, d := range a.defs {
		if d.Name == name {
			return
		}
	}
	a.defs = append(a.defs, def{Name: name, Params: params(pl, body)})
}

// params describes a parameter list, each parameter's kind read from its uses in
// body.
func params(pl *ast.ParameterList, body ast.Node) []param {
	if pl == nil {
		return nil
	}
	var out []param
	names := map[string]int{}
	for _, b := range pl.List {
		p := param{Def: b.Initializer != nil}
		switch t := b.Target.(type) {
		case *ast.Identifier:
			p.Name = string(t.Name)
			names[p.Name] = len(out)
		case *ast.ObjectPattern:
			p.Name = "options"
			for _, pr := range t.Properties {
				switch q := pr.(type) {
				case *ast.PropertyShort:
					p.Keys = append(p.Keys, string(q.Name.Name))
					if q.Initializer != nil {
						p.Opt = append(p.Opt, string(q.Name.Name))
					}
				case *ast.PropertyKeyed:
					if k := literalKey(q.Key); k != "" {
						p.Keys = append(p.Keys, k)
						if _, ok := q.Value.(*ast.AssignExpression); ok {
							p.Opt = append(p.Opt, k)
						}
					}
				}
			}
		case *ast.ArrayPattern:
			p.Name = "items"
			p.Kind = "arr"
		}
		out = append(out, p)
	}
	if pl.Rest != nil {
		out = append(out, param{Name: "rest", Rest: true})
	}
	if len(names) > 0 && body != nil {
		u := &uses{names: names, kinds: map[string]string{}, cuts: map[string]string{}, spans: map[string]bool{}}
		u.node(body)
		for n, i := range names {
			if k, ok := u.kinds[n]; ok && out[i].Kind == "" {
				out[i].Kind = k
			}
			if c, ok := u.cuts[n]; ok {
				out[i].Kind, out[i].Cut = "url", c
			} else if u.spans[n] {
				out[i].Kind = "span"
			}
			out[i].Fields = u.fields[n]
		}
	}
	return out
}
