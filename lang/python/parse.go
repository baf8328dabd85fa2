package python

import (
	"context"
	"regexp"

	"sccg/lang"
)

// Parse parses code as Python into lang's plain tree, for the analyses that work
// on any language.
func (Frontend) Parse(ctx context.Context, _ lang.Dialect, code []byte) (*lang.Tree, error) {
	root, err := parse(ctx, code)
	if err != nil {
		return nil, err
	}
	return &lang.Tree{Source: code, Root: root.ToLang(), Grammar: &grammar}, nil
}

// Grammar is Python's grammar as lang's analyses read it.
func (Frontend) Grammar(lang.Dialect) *lang.Grammar { return &grammar }

func set(kinds ...string) map[string]bool {
	m := make(map[string]bool, len(kinds))
	for _, k := range kinds {
		m[k] = true
	}
	return m
}

// grammar is tree-sitter Python's node kinds by the part they play, and Python's
// tokens: string literals whole (with their prefixes), identifiers, numbers, and
// operators longest first.
var grammar = lang.Grammar{
	Keywords: set("False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
		"continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
		"in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with",
		"yield", "match", "case"),
	Token:        regexp.MustCompile(`(?s)[rRbBfFuU]{0,2}"""(?:\\.|[^\\])*?"""|[rRbBfFuU]{0,2}'''(?:\\.|[^\\])*?'''|[rRbBfFuU]{0,2}"(?:\\.|[^"\\\n])*"|[rRbBfFuU]{0,2}'(?:\\.|[^'\\\n])*'|[A-Za-z_][A-Za-z0-9_]*|\d[\d_]*(?:\.\d*)?(?:[eE][+-]?\d+)?|\*\*=?|//=?|->|:=|[<>=!+\-*/%&|^@]=|<<=?|>>=?|\S`),
	Quotes:       `"'`,
	LineComments: []string{"#"},

	Comments:         set("comment"),
	Identifiers:      set("identifier"),
	Strings:          set("string"),
	StringDelimiters: set("string_start", "string_end"),
	Interpolations:   set("interpolation"),
	StringParts:      set("string_content"),

	Assignments: map[string]lang.Binding{"assignment": {Target: "left", Value: "right"},
		"augmented_assignment": {Target: "left", Value: "right"}},
	Augmented:      set("augmented_assignment"),
	Patterns:       set("identifier", "pattern_list", "tuple_pattern"),
	Loops:          map[string]lang.Binding{"for_statement": {Target: "left", Value: "right"}, "for_in_clause": {Target: "left", Value: "right"}},
	Parameters:     set("parameters"),
	Members:        map[string]lang.Binding{"attribute": {Target: "attribute", Value: "object"}},
	Subscripts:     map[string]lang.Binding{"subscript": {Target: "subscript", Value: "value"}},
	NamedArguments: map[string]lang.Binding{"keyword_argument": {Target: "name", Value: "value"}},
	Pairs:          map[string]lang.Binding{"pair": {Target: "key", Value: "value"}},
	Defaults: map[string]lang.Binding{"default_parameter": {Target: "name", Value: "value"},
		"typed_default_parameter": {Target: "name", Value: "value"}},
	Calls: map[string]lang.Binding{"call": {Target: "function", Value: "arguments"}},
	NameValueCalls: []lang.NameValueCall{{Suffix: "getenv", Rule: "default"}, {Suffix: "environ.get", Rule: "default"},
		{Suffix: "environ.setdefault", Rule: "default"}},
	CredentialTuples: set("auth", "proxy_auth"),
	Tuples:           set("tuple"),
}
