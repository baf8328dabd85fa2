package lang

import "regexp"

// Tree is a parsed program as the analyses that work on any language see it: the
// evaluator's CodeBLEU (syntax and data-flow match) and the credential scan of
// package secrets. A frontend parses with its own grammar (Frontend.Parse) and
// copies the result into this plain Go tree, so its readers need no cgo and know a
// language only by its Grammar.
type Tree struct {
	Source  []byte
	Root    *Node
	Grammar *Grammar
}

// HasError reports whether the tree holds an ERROR or MISSING node: the code does
// not parse.
func (t *Tree) HasError() bool {
	bad := false
	t.Root.Walk(func(n *Node) bool {
		if n.Kind == "ERROR" || n.Missing {
			bad = true
		}
		return !bad
	})
	return bad
}

// Node is one node of a Tree: its grammar's kind, the field it fills in its parent,
// its byte span in the source and its children (named and anonymous, in order).
type Node struct {
	Kind     string
	Field    string // "" when the node fills no field of its parent
	Start    int
	End      int
	Named    bool
	Missing  bool // inserted by the parser's error recovery
	Parent   *Node
	Children []*Node
}

// Child returns the first child filling field, or nil (also for a nil n).
func (n *Node) Child(field string) *Node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Field == field {
			return c
		}
	}
	return nil
}

// NamedChildren returns the named children in order.
func (n *Node) NamedChildren() []*Node {
	var out []*Node
	for _, c := range n.Children {
		if c.Named {
			out = append(out, c)
		}
	}
	return out
}

// Text is the node's source text ("" for a nil n).
func (n *Node) Text(src []byte) string {
	if n == nil {
		return ""
	}
	return string(src[n.Start:n.End])
}

// Walk visits n and its descendants depth-first in source order; when fn returns
// false the node's children are skipped.
func (n *Node) Walk(fn func(*Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for _, c := range n.Children {
		c.Walk(fn)
	}
}

// Grammar tells the language-neutral analyses which node kinds of a language's
// tree play which part, and how its text splits into tokens. Every map is keyed by
// node kind; a kind the language lacks is simply absent.
type Grammar struct {
	// Keywords are the language's reserved words (CodeBLEU weighs them apart).
	Keywords map[string]bool
	// Token matches one lexical token at a time (string literals whole) in code
	// whose comments were removed; Quotes are the characters that open a string
	// literal token, LineComments and BlockComments the comment delimiters.
	Token         *regexp.Regexp
	Quotes        string
	LineComments  []string
	BlockComments [][2]string

	// Comments are the comment kinds; Identifiers the kinds that name a variable.
	Comments    map[string]bool
	Identifiers map[string]bool
	// Strings are the string literal kinds; a literal is plain (its text known)
	// when its first and last children are of a StringDelimiters kind and no child
	// is of an Interpolations kind. StringParts are the literal text pieces inside
	// strings and templates.
	Strings          map[string]bool
	StringDelimiters map[string]bool
	Interpolations   map[string]bool
	StringParts      map[string]bool

	// Assignments bind the value in one field to the target in another
	// (x = y, const x = y); Augmented ones also read their target (x += y).
	// Patterns are the target kinds that define variables (a name, a
	// destructuring pattern), Loops the for-in forms that bind their left to
	// their right, and Parameters the parameter lists.
	Assignments map[string]Binding
	Augmented   map[string]bool
	Patterns    map[string]bool
	Loops       map[string]Binding
	Parameters  map[string]bool
	// Members are attribute accesses (a.b): Binding.Target is the member's field,
	// Binding.Value the object's. Only the object is a variable.
	Members map[string]Binding
	// Subscripts are index accesses (h["k"]): Target is the index field.
	Subscripts map[string]Binding
	// NamedArguments are keyword arguments (f(x=y)): the name is no variable.
	NamedArguments map[string]Binding
	// Pairs are the key-value pairs of dict displays and object literals;
	// PropertyNames the kinds of a bare key that is a name (JavaScript's
	// {apiKey: …}), not a variable.
	Pairs         map[string]Binding
	PropertyNames map[string]bool
	// Defaults are parameters with a default value.
	Defaults map[string]Binding
	// Calls are call expressions: Target is the callee's field, Value the
	// arguments'. NameValueCalls are callee suffixes whose first argument names
	// the second (os.getenv("KEY", "fallback"), xhr.setRequestHeader("KEY", v)),
	// with the rule a finding there reports.
	Calls          map[string]Binding
	NameValueCalls []NameValueCall
	// CredentialTuples are keyword argument names whose pair value holds a user
	// and a password (auth=("user", "secret")), Tuples the pair kinds.
	CredentialTuples map[string]bool
	Tuples           map[string]bool
}

// Binding names the two fields of a node kind that bind a value to a target.
type Binding struct{ Target, Value string }

// NameValueCall is a callee (by the suffix of its text) whose first argument
// names its second.
type NameValueCall struct{ Suffix, Rule string }
