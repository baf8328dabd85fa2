package javascript

import (
	"context"
	"regexp"

	"sccg/lang"
)

// Parse parses code in dialect d (JavaScript and JSX, TypeScript, TSX) into
// lang's plain tree, for the analyses that work on any language.
func (Frontend) Parse(ctx context.Context, d lang.Dialect, code []byte) (*lang.Tree, error) {
	root, err := parse(ctx, grammarOf(d), code)
	if err != nil {
		return nil, err
	}
	return &lang.Tree{Source: code, Root: root.ToLang(), Grammar: grammarProfile(d)}, nil
}

// Grammar is the dialect's grammar as lang's analyses read it.
func (Frontend) Grammar(d lang.Dialect) *lang.Grammar { return grammarProfile(d) }

func grammarProfile(d lang.Dialect) *lang.Grammar {
	if grammarOf(d) == grammarJS {
		return &jsGrammar
	}
	return &tsGrammar
}

func kinds(ks ...string) map[string]bool {
	m := make(map[string]bool, len(ks))
	for _, k := range ks {
		m[k] = true
	}
	return m
}

// jsKeywords are JavaScript's reserved and contextual words; TypeScript adds its
// own.
const jsKeywords = `async await break case catch class const continue debugger default delete do else export
	extends false finally for from function get if import in instanceof let new null of return set static super
	switch this throw true try typeof undefined var void while with yield`

func fields(s string) []string {
	var out []string
	for _, f := range regexp.MustCompile(`\s+`).Split(s, -1) {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// jsGrammar is tree-sitter JavaScript's node kinds by the part they play, and
// JavaScript's tokens: string and template literals whole, identifiers (with $),
// numbers, and operators longest first.
var jsGrammar = lang.Grammar{
	Keywords:      kinds(fields(jsKeywords)...),
	Token:         regexp.MustCompile("(?s)`(?:\\\\.|[^\\\\`])*`|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\\\n])*'|[A-Za-z_$][A-Za-z0-9_$]*|0[xXbBoO][0-9a-fA-F_]+n?|\\d[\\d_]*(?:\\.\\d*)?(?:[eE][+-]?\\d+)?n?|\\.\\d+|>>>=?|\\.\\.\\.|===|!==|\\*\\*=?|\\?\\?=?|\\?\\.|&&=?|\\|\\|=?|=>|<<=?|>>=?|[<>=!+\\-*/%&|^]=|\\+\\+|--|\\S"),
	Quotes:        "\"'`",
	LineComments:  []string{"//"},
	BlockComments: [][2]string{{"/*", "*/"}},

	Comments:         kinds("comment", "html_comment"),
	Identifiers:      kinds("identifier", "shorthand_property_identifier", "shorthand_property_identifier_pattern"),
	Strings:          kinds("string", "template_string"),
	StringDelimiters: kinds(`"`, `'`, "`"),
	Interpolations:   kinds("template_substitution"),
	StringParts:      kinds("string_fragment"),

	Assignments: map[string]lang.Binding{"variable_declarator": {Target: "name", Value: "value"},
		"assignment_expression": {Target: "left", Value: "right"}, "augmented_assignment_expression": {Target: "left", Value: "right"}},
	Augmented:     kinds("augmented_assignment_expression"),
	Patterns:      kinds("identifier", "array_pattern", "object_pattern"),
	Loops:         map[string]lang.Binding{"for_in_statement": {Target: "left", Value: "right"}},
	Parameters:    kinds("formal_parameters"),
	Members:       map[string]lang.Binding{"member_expression": {Target: "property", Value: "object"}},
	Subscripts:    map[string]lang.Binding{"subscript_expression": {Target: "index", Value: "object"}},
	Pairs:         map[string]lang.Binding{"pair": {Target: "key", Value: "value"}},
	PropertyNames: kinds("property_identifier"),
	Defaults:      map[string]lang.Binding{"assignment_pattern": {Target: "left", Value: "right"}},
	Calls:         map[string]lang.Binding{"call_expression": {Target: "function", Value: "arguments"}},
	NameValueCalls: []lang.NameValueCall{{Suffix: "setRequestHeader", Rule: "header"}, {Suffix: ".append", Rule: "argument"},
		{Suffix: ".set", Rule: "argument"}},
}

// tsGrammar is JavaScript's with TypeScript's words and parameter forms.
var tsGrammar = func() lang.Grammar {
	g := jsGrammar
	g.Keywords = kinds(append(fields(jsKeywords), fields(`abstract any as boolean declare enum implements interface
		keyof namespace never number private protected public readonly satisfies string symbol type unknown`)...)...)
	g.Defaults = map[string]lang.Binding{"assignment_pattern": {Target: "left", Value: "right"},
		"required_parameter": {Target: "pattern", Value: "value"}, "optional_parameter": {Target: "pattern", Value: "value"}}
	return g
}()
