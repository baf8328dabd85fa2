package jsbox

import (
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
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
		}
	case *ast.ClassLiteral:
		if n.Name != nil {
			w.declared[string(n.Name.Name)] = true
		}
	case *ast.CatchStatement:
		w.declare(n.Parameter)
	case *ast.ForDeclaration:
		w.declare(n.Target)
	case *ast.AssignExpression:
		// a sloppy-mode assignment to an undeclared name makes a global of its own
		if id, ok := n.Left.(*ast.Identifier); ok && n.Operator == token.ASSIGN {
			w.declared[string(id.Name)] = true
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
		case *ast.BinaryExpression:
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
