package jsbox

import (
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
	"strings"
)

// inspect calls f for n and, when f returns true, for each of its children in
// order, as go/ast.Inspect does. Names that are no reference (a property after a
// dot, a non-computed key, a label) are not visited.
func inspect(n ast.Node, f func(ast.Node) bool) {
	if isNil(n) || !f(n) {
		return
	}
	each := func(ns ...ast.Node) {
		for _, c := range ns {
			inspect(c, f)
		}
	}
	switch n := n.(type) {
	case *ast.YieldExpression:
		each(n.Argument)
	case *ast.AwaitExpression:
		each(n.Argument)
	case *ast.ArrayLiteral:
		for _, e := range n.Value {
			each(e)
		}
	case *ast.ArrayPattern:
		for _, e := range n.Elements {
			each(e)
		}
		each(n.Rest)
	case *ast.AssignExpression:
		each(n.Left, n.Right)
	case *ast.BinaryExpression:
		each(n.Left, n.Right)
	case *ast.BracketExpression:
		each(n.Left, n.Member)
	case *ast.CallExpression:
		each(n.Callee)
		for _, e := range n.ArgumentList {
			each(e)
		}
	case *ast.ConditionalExpression:
		each(n.Test, n.Consequent, n.Alternate)
	case *ast.DotExpression:
		each(n.Left)
	case *ast.PrivateDotExpression:
		each(n.Left)
	case *ast.OptionalChain:
		each(n.Expression)
	case *ast.Optional:
		each(n.Expression)
	case *ast.FunctionLiteral:
		if n.Name != nil {
			each(n.Name)
		}
		each(n.ParameterList, n.Body)
	case *ast.ClassLiteral:
		if n.Name != nil {
			each(n.Name)
		}
		each(n.SuperClass)
		for _, e := range n.Body {
			each(e)
		}
	case *ast.ExpressionBody:
		each(n.Expression)
	case *ast.ArrowFunctionLiteral:
		each(n.ParameterList, n.Body)
	case *ast.NewExpression:
		each(n.Callee)
		for _, e := range n.ArgumentList {
			each(e)
		}
	case *ast.ObjectLiteral:
		for _, p := range n.Value {
			each(p)
		}
	case *ast.ObjectPattern:
		for _, p := range n.Properties {
			each(p)
		}
		each(n.Rest)
	case *ast.ParameterList:
		for _, b := range n.List {
			each(b)
		}
		each(n.Rest)
	case *ast.Binding:
		each(n.Target, n.Initializer)
	case *ast.PropertyShort:
		id := n.Name
		each(&id, n.Initializer)
	case *ast.PropertyKeyed:
		if n.Computed {
			each(n.Key)
		}
		each(n.Value)
	case *ast.SpreadElement:
		each(n.Expression)
	case *ast.SequenceExpression:
		for _, e := range n.Sequence {
			each(e)
		}
	case *ast.TemplateLiteral:
		each(n.Tag)
		for _, e := range n.Expressions {
			each(e)
		}
	case *ast.UnaryExpression:
		each(n.Operand)
	case *ast.BlockStatement:
		for _, s := range n.List {
			each(s)
		}
	case *ast.CaseStatement:
		each(n.Test)
		for _, s := range n.Consequent {
			each(s)
		}
	case *ast.CatchStatement:
		each(n.Parameter, n.Body)
	case *ast.DoWhileStatement:
		each(n.Test, n.Body)
	case *ast.ExpressionStatement:
		each(n.Expression)
	case *ast.ForInStatement:
		each(n.Into, n.Source, n.Body)
	case *ast.ForOfStatement:
		each(n.Into, n.Source, n.Body)
	case *ast.ForStatement:
		each(n.Initializer, n.Test, n.Update, n.Body)
	case *ast.IfStatement:
		each(n.Test, n.Consequent, n.Alternate)
	case *ast.LabelledStatement:
		each(n.Statement)
	case *ast.ReturnStatement:
		each(n.Argument)
	case *ast.SwitchStatement:
		each(n.Discriminant)
		for _, c := range n.Body {
			each(c)
		}
	case *ast.ThrowStatement:
		each(n.Argument)
	case *ast.TryStatement:
		each(n.Body)
		if n.Catch != nil {
			each(n.Catch)
		}
		if n.Finally != nil {
			each(n.Finally)
		}
	case *ast.VariableStatement:
		for _, b := range n.List {
			each(b)
		}
	case *ast.LexicalDeclaration:
		for _, b := range n.List {
			each(b)
		}
	case *ast.WhileStatement:
		each(n.Test, n.Body)
	case *ast.WithStatement:
		each(n.Object, n.Body)
	case *ast.FunctionDeclaration:
		each(n.Function)
	case *ast.ClassDeclaration:
		each(n.Class)
	case *ast.FieldDefinition:
		if n.Computed {
			each(n.Key)
		}
		each(n.Initializer)
	case *ast.MethodDefinition:
		if n.Computed {
			each(n.Key)
		}
		each(n.Body)
	case *ast.ClassStaticBlock:
		each(n.Block)
	case *ast.ForLoopInitializerExpression:
		each(n.Expression)
	case *ast.ForLoopInitializerVarDeclList:
		for _, b := range n.List {
			each(b)
		}
	case *ast.ForLoopInitializerLexicalDecl:
		for _, b := range n.LexicalDeclaration.List {
			each(b)
		}
	case *ast.ForIntoVar:
		each(n.Binding)
	case *ast.ForDeclaration:
		each(n.Target)
	case *ast.ForIntoExpression:
		each(n.Expression)
	}
}

// isNil: an absent child (a nil interface or a typed nil pointer).
func isNil(n ast.Node) bool {
	if n == nil {
		return true
	}
	switch v := n.(type) {
	case *ast.Identifier:
		return v == nil
	case *ast.BlockStatement:
		return v == nil
	case *ast.ParameterList:
		return v == nil
	case *ast.FunctionLiteral:
		return v == nil
	case *ast.ClassLiteral:
		return v == nil
	case *ast.CatchStatement:
		return v == nil
	case *ast.Binding:
		return v == nil
	case *ast.CaseStatement:
		return v == nil
	}
	return false
}

// walker collects the module-wide facts: imports, error and status handling, and
// the names the code declares and mentions.
type walker struct {
	imports    []string
	hasTry     bool
	hasStatus  bool
	declared   map[string]bool
	mentioned  map[string]bool
	typeofOnly map[string]bool // mentioned only as the operand of typeof
	props      map[string]bool // names read after a dot (globalThis.process)
	assigned   map[string]bool // names assigned without a declaration: globals of their own
	functions  map[string]bool // names of functions and classes, wherever declared
	queryKeys  map[string]bool // string keys read with .get or .has: a query string's, perhaps the page's
}

// maxQueryKeys bounds the keys the page's query string is given.
const maxQueryKeys = 16

// named notes the name of a function or class.
func (w *walker) named(n string) {
	if w.functions != nil {
		w.functions[n] = true
	}
}

func (w *walker) stmt(st ast.Statement) {
	inspect(st, w.visit)
}

func (w *walker) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.Identifier:
		name := string(n.Name)
		if !w.mentioned[name] {
			w.mentioned[name] = true
		}
		delete(w.typeofOnly, name)
	case *ast.UnaryExpression:
		if id, ok := n.Operand.(*ast.Identifier); ok && n.Operator == token.TYPEOF {
			name := string(id.Name)
			if !w.mentioned[name] {
				w.mentioned[name] = true
				w.typeofOnly[name] = true
			}
			return false
		}
	case *ast.CallExpression:
		// params.get('id') on what may be the page's query string
		if d, ok := n.Callee.(*ast.DotExpression); ok && (d.Identifier.Name == "get" || d.Identifier.Name == "has") && len(n.ArgumentList) == 1 {
			if s, ok := n.ArgumentList[0].(*ast.StringLiteral); ok && w.queryKeys != nil && len(w.queryKeys) < maxQueryKeys {
				w.queryKeys[string(s.Value)] = true
			}
		}
		if isIdent(n.Callee, "require") && len(n.ArgumentList) == 1 {
			if s, ok := n.ArgumentList[0].(*ast.StringLiteral); ok {
				w.addImport(string(s.Value))
			}
		}
		if d, ok := n.Callee.(*ast.DotExpression); ok && d.Identifier.Name == "catch" {
			w.hasTry = true
		}
	case *ast.TryStatement:
		if n.Catch != nil {
			w.hasTry = true
		}
	case *ast.DotExpression:
		if statusNames[string(n.Identifier.Name)] {
			w.hasStatus = true
		}
		w.props[string(n.Identifier.Name)] = true
	case *ast.BracketExpression:
		if s, ok := n.Member.(*ast.StringLiteral); ok && statusNames[string(s.Value)] {
			w.hasStatus = true
		}
	case *ast.PropertyKeyed:
		if k := literalKey(n.Key); k == "validateStatus" && !n.Computed {
			w.hasStatus = true
		}
	case *ast.ObjectPattern:
		for _, p := range n.Properties {
			if ps, ok := p.(*ast.PropertyShort); ok && statusNames[string(ps.Name.Name)] {
				w.hasStatus = true
			}
		}
		w.declare(n)
	case *ast.ArrayPattern:
		w.declare(n)
	case *ast.Binding:
		w.declare(n.Target)
	case *ast.FunctionLiteral:
		if n.Name != nil {
			w.declared[string(n.Name.Name)] = true
			w.named(string(n.Name.Name))
		}
	case *ast.ClassLiteral:
		if n.Name != nil {
			w.declared[string(n.Name.Name)] = true
			w.named(string(n.Name.Name))
		}
	case *ast.CatchStatement:
		w.declare(n.Parameter)
	case *ast.ForDeclaration:
		w.declare(n.Target)
	case *ast.AssignExpression:
		// a sloppy-mode assignment to an undeclared name makes a global of its own
		if id, ok := n.Left.(*ast.Identifier); ok && n.Operator == token.ASSIGN {
			w.declared[string(id.Name)] = true
			w.assigned[string(id.Name)] = true
		}
	}
	return true
}

func (w *walker) addImport(s string) {
	for _, x := range w.imports {
		if x == s {
			return
		}
	}
	w.imports = append(w.imports, s)
}

// declare marks every name a binding target binds.
func (w *walker) declare(t ast.Node) {
	switch t := t.(type) {
	case *ast.Identifier:
		if t != nil {
			w.declared[string(t.Name)] = true
		}
	case *ast.ObjectPattern:
		for _, p := range t.Properties {
			switch q := p.(type) {
			case *ast.PropertyShort:
				w.declared[string(q.Name.Name)] = true
			case *ast.PropertyKeyed:
				w.declare(q.Value)
			case *ast.SpreadElement:
				w.declare(q.Expression)
			}
		}
		if t.Rest != nil {
			w.declare(t.Rest)
		}
	case *ast.ArrayPattern:
		for _, e := range t.Elements {
			w.declare(e)
		}
		if t.Rest != nil {
			w.declare(t.Rest)
		}
	case *ast.AssignExpression:
		w.declare(t.Left)
	case *ast.Binding:
		w.declare(t.Target)
	}
}

// uses reads the kind of the named parameters off their uses in a function body.
type uses struct {
	names map[string]int
	kinds map[string]string
	// cuts are the text a parameter is cut at, searched for or parsed as a URL
	// with (repoUrl.split('github.com/'), new URL(link): ""): its dummy is a URL
	// that holds that text, so the code finds what it looks for.
	cuts map[string]string
	// spans are parameters the code puts alone in a repository's place of a path
	// (`/repos/${repo}`): their dummy spans owner and name.
	spans map[string]bool
	// inChain are the concatenations read as part of a longer one.
	inChain map[*ast.BinaryExpression]bool
	// fields are the literals the code compares a parameter's fields with
	// (req.method !== 'POST'): its dummy carries them, so the code goes on as the
	// caller it was written for would have it.
	fields map[string]map[string]string
}

// cutMethods are the string methods whose argument says what a parameter holds.
var cutMethods = map[string]bool{"split": true, "indexOf": true, "lastIndexOf": true, "includes": true, "startsWith": true,
	"replace": true, "replaceAll": true, "substring": false}

// field notes a comparison of a parameter's field (d, req.method) with a string
// literal (lit); the first literal a field is compared with is kept.
func (u *uses) field(d, lit ast.Expression) {
	dot, ok := d.(*ast.DotExpression)
	if !ok {
		return
	}
	s, ok := lit.(*ast.StringLiteral)
	if !ok {
		return
	}
	name, ok := u.param(dot.Left)
	if !ok {
		return
	}
	if u.fields == nil {
		u.fields = map[string]map[string]string{}
	}
	if u.fields[name] == nil {
		u.fields[name] = map[string]string{}
	}
	if _, seen := u.fields[name][string(dot.Identifier.Name)]; !seen {
		u.fields[name][string(dot.Identifier.Name)] = string(s.Value)
	}
}

// param reports the parameter e names, if any.
func (u *uses) param(e ast.Expression) (string, bool) {
	id, ok := e.(*ast.Identifier)
	if !ok {
		return "", false
	}
	_, ok = u.names[string(id.Name)]
	return string(id.Name), ok
}

// spanBefore reports text that ends where a repository's owner and name go.
func spanBefore(text string) bool {
	t := strings.ToLower(text)
	return strings.HasSuffix(t, "/repos/") || t == "repos/"
}

// spanAfter reports text that may follow a repository's owner and name: the
// end, a query, or a path that goes on with a segment of its own (not "/" and
// then more of the code's values: `${owner}/${repo}`). more says whether a value
// follows the text.
func spanAfter(text string, more bool) bool {
	switch {
	case text == "":
		return !more
	case text[0] == '?' || text[0] == '#':
		return true
	case text[0] == '/':
		return strings.Trim(text, "/") != "" || !more
	}
	return false
}

// chain flattens a concatenation into its operands, left to right, noting its
// inner concatenations so that they are not read again on their own.
func (u *uses) chain(e ast.Expression) []ast.Expression {
	b, ok := e.(*ast.BinaryExpression)
	if !ok || b.Operator != token.PLUS {
		return []ast.Expression{e}
	}
	if u.inChain == nil {
		u.inChain = map[*ast.BinaryExpression]bool{}
	}
	u.inChain[b] = true
	return append(u.chain(b.Left), u.chain(b.Right)...)
}

// kindRank orders the kinds: a stronger use wins over a weaker one.
var kindRank = map[string]int{"obj": 1, "num": 2, "str": 3, "arr": 4, "fn": 5}

func (u *uses) set(e ast.Expression, kind string) {
	id, ok := e.(*ast.Identifier)
	if !ok {
		return
	}
	if _, ok := u.names[string(id.Name)]; !ok {
		return
	}
	if kindRank[kind] > kindRank[u.kinds[string(id.Name)]] {
		u.kinds[string(id.Name)] = kind
	}
}

func (u *uses) node(n ast.Node) {
	inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DotExpression:
			p := string(n.Identifier.Name)
			switch {
			case strMethods[p]:
				u.set(n.Left, "str")
			case arrMethods[p]:
				u.set(n.Left, "arr")
			case p == "length" || p == "includes" || p == "slice" || p == "indexOf" || p == "concat" || p == "at":
				// a string or an array: the name decides
			case p == "toFixed":
				u.set(n.Left, "num")
			default:
				u.set(n.Left, "obj")
			}
		case *ast.CallExpression:
			u.set(n.Callee, "fn")
			if d, ok := n.Callee.(*ast.DotExpression); ok && cutMethods[string(d.Identifier.Name)] && len(n.ArgumentList) > 0 {
				if name, ok := u.param(d.Left); ok {
					if lit, ok := n.ArgumentList[0].(*ast.StringLiteral); ok && len(lit.Value) > 1 && strings.ContainsAny(string(lit.Value), "./") {
						if _, seen := u.cuts[name]; !seen {
							u.cuts[name] = string(lit.Value)
						}
					}
				}
			}
		case *ast.NewExpression:
			if isIdent(n.Callee, "URL") && len(n.ArgumentList) == 1 {
				if name, ok := u.param(n.ArgumentList[0]); ok {
					if _, seen := u.cuts[name]; !seen {
						u.cuts[name] = ""
					}
				}
			}
		case *ast.TemplateLiteral:
			for i, e := range n.Expressions {
				if name, ok := u.param(e); ok && i+1 < len(n.Elements) && spanBefore(n.Elements[i].Literal) &&
					spanAfter(n.Elements[i+1].Literal, i+1 < len(n.Expressions)) {
					u.spans[name] = true
				}
			}
		case *ast.BinaryExpression:
			if n.Operator == token.STRICT_EQUAL || n.Operator == token.STRICT_NOT_EQUAL || n.Operator == token.EQUAL || n.Operator == token.NOT_EQUAL {
				u.field(n.Left, n.Right)
				u.field(n.Right, n.Left)
			}
			if n.Operator == token.PLUS && !u.inChain[n] {
				ops := u.chain(n)
				for i, e := range ops {
					if name, ok := u.param(e); ok && i > 0 && spanBefore(rightmostText(ops[i-1])) {
						next, more := "", false
						if i+1 < len(ops) {
							lit, isLit := ops[i+1].(*ast.StringLiteral)
							if !isLit {
								continue
							}
							next, more = string(lit.Value), i+2 < len(ops)
						}
						if spanAfter(next, more) {
							u.spans[name] = true
						}
					}
				}
			}
			if numOps[n.Operator] {
				u.set(n.Left, "num")
				u.set(n.Right, "num")
			}
		case *ast.UnaryExpression:
			if n.Operator == token.INCREMENT || n.Operator == token.DECREMENT || n.Operator == token.MINUS {
				u.set(n.Operand, "num")
			}
		case *ast.ForOfStatement:
			u.set(n.Source, "arr")
		case *ast.ForInStatement:
			u.set(n.Source, "obj")
		case *ast.BracketExpression:
			if _, ok := n.Member.(*ast.NumberLiteral); ok {
				u.set(n.Left, "arr")
			}
		}
		return true
	})
}

// rightmostText is the string literal a concatenation ends with, "" when it ends
// with something else.
func rightmostText(e ast.Expression) string {
	for {
		switch x := e.(type) {
		case *ast.StringLiteral:
			return string(x.Value)
		case *ast.BinaryExpression:
			if x.Operator != token.PLUS {
				return ""
			}
			e = x.Right
		default:
			return ""
		}
	}
}
