package python

import (
	"context"
	"fmt"
	"sccg/lang"
	"strings"
)

// Mask offers every identifier, literal string part, pair-value number and comment of
// code to rewrite, applies the edits rewrite returns and checks that the result still
// parses (when code did). Edits of an identifier that would not leave an identifier,
// and edits that cut an escape sequence, are left out. fn names the function whose
// parameters and returns Masked reports (its name, or its qualname); "" means none.
func Mask(ctx context.Context, code []byte, fn string, rewrite func(lang.Piece) []lang.Edit) (*lang.Masked, error) {
	root, err := parse(ctx, code)
	if err != nil {
		return nil, fmt.Errorf("mask: %w", err)
	}
	var edits []lang.Edit
	addEdits := func(base int, p lang.Piece, keep func(lang.Edit) bool) {
		edits = append(edits, lang.PlaceEdits(rewrite(p), base, len(p.Text), keep)...)
	}
	root.Walk(func(n *node) bool {
		switch n.Type {
		case "identifier":
			p := lang.Piece{Kind: lang.PieceIdentifier, Text: n.Text(code), Line: n.Row + 1}
			if kw := n.Parent; kw != nil && kw.Type == "keyword_argument" && n.Field == "name" && isDictCall(kw, code) {
				p.Key = true
			}
			name := p.Text
			addEdits(int(n.Start), p, func(e lang.Edit) bool {
				return IsIdentifier(name[:e.Start] + e.New + name[e.End:])
			})
			return false
		case "string":
			parts, whole := stringParts(n)
			key, pairKey := pairContext(n, code)
			for _, c := range parts {
				p := lang.Piece{Kind: lang.PieceString, Text: c.Text(code), Whole: whole, Key: key, PairKey: pairKey, Line: c.Row + 1}
				escapes := escapeSpans(c)
				addEdits(int(c.Start), p, func(e lang.Edit) bool {
					for _, es := range escapes {
						if e.Start < es[1] && es[0] < e.End {
							return false
						}
					}
					return true
				})
			}
			return true // interpolations hold code: their names are pieces too
		case "integer", "float":
			if key, pairKey := pairContext(n, code); pairKey != "" && !key {
				addEdits(int(n.Start), lang.Piece{Kind: lang.PieceNumber, Text: n.Text(code), PairKey: pairKey, Line: n.Row + 1}, nil)
			}
			return false
		case "comment":
			t := n.Text(code)
			off := strings.IndexByte(t, '#') + 1
			addEdits(int(n.Start)+off, lang.Piece{Kind: lang.PieceComment, Text: t[off:], Line: n.Row + 1}, nil)
			return false
		}
		return true
	})
	out, mroot, applied, err := python.MaskEdits(ctx, code, root, edits)
	if err != nil {
		return nil, err
	}
	m := &lang.Masked{Code: string(out), Edits: applied}
	if i := functionIndex(root, code, fn); i >= 0 {
		// edits never change the tree's shape: the function is the same one there
		def := nthFunction(mroot, i)
		m.Name = def.Child("name").Text(out)
		m.Parameters, m.Returns = outline(def, out)
	}
	return m, nil
}

// stringParts returns the literal parts of a string node and whether it has no
// interpolation.
func stringParts(n *node) ([]*node, bool) {
	var parts []*node
	whole := true
	for _, c := range n.Children {
		switch c.Type {
		case "string_content":
			parts = append(parts, c)
		case "interpolation":
			whole = false
		}
	}
	return parts, whole
}

// escapeSpans returns the byte spans of a string part's escape sequences, relative
// to the part.
func escapeSpans(part *node) [][2]int {
	var out [][2]int
	for _, c := range part.Children {
		if c.Type == "escape_sequence" {
			out = append(out, [2]int{int(c.Start - part.Start), int(c.End - part.Start)})
		}
	}
	return out
}

// pairContext says whether n (a string or number) is the key of a dict display and,
// when it is the value of a pair or of a keyword argument of dict(...), that key.
func pairContext(n *node, src []byte) (key bool, pairKey string) {
	p := n.Parent
	if p != nil && p.Type == "concatenated_string" {
		n, p = p, p.Parent
	}
	switch {
	case p == nil:
	case p.Type == "pair" && n.Field == "key":
		return true, ""
	case p.Type == "pair" && n.Field == "value":
		if k := p.Child("key"); k != nil && k.Type == "string" {
			if parts, whole := stringParts(k); whole && len(parts) <= 1 {
				return false, joinText(parts, src)
			}
		}
	case p.Type == "keyword_argument" && n.Field == "value" && isDictCall(p, src):
		return false, p.Child("name").Text(src)
	}
	return false, ""
}

func joinText(parts []*node, src []byte) string {
	var b strings.Builder
	for _, c := range parts {
		b.WriteString(c.Text(src))
	}
	return b.String()
}

// isDictCall reports whether the keyword argument kw is passed to dict(...).
func isDictCall(kw *node, src []byte) bool {
	args := kw.Parent
	if args == nil || args.Type != "argument_list" || args.Parent == nil || args.Parent.Type != "call" {
		return false
	}
	f := args.Parent.Child("function")
	return f != nil && f.Type == "identifier" && f.Text(src) == "dict"
}

// IsIdentifier reports whether s is a Python identifier (ASCII letters, digits and
// underscores, not starting with a digit).
func IsIdentifier(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// functionIndex returns the preorder index among the tree's function definitions
// of the one named fn (a name, or a qualname whose last part is used), or -1.
func functionIndex(root *node, src []byte, fn string) int {
	if i := strings.LastIndexByte(fn, '.'); i >= 0 {
		fn = fn[i+1:]
	}
	idx, found := -1, -1
	if fn == "" {
		return -1
	}
	root.Walk(func(n *node) bool {
		if found >= 0 {
			return false
		}
		if n.Type == "function_definition" {
			idx++
			if n.Child("name").Text(src) == fn {
				found = idx
				return false
			}
		}
		return true
	})
	return found
}

// nthFunction returns the i-th function definition of the tree in preorder.
func nthFunction(root *node, i int) *node {
	var def *node
	idx := -1
	root.Walk(func(n *node) bool {
		if def != nil {
			return false
		}
		if n.Type == "function_definition" {
			if idx++; idx == i {
				def = n
				return false
			}
		}
		return true
	})
	return def
}

// outline returns the parameter names of the function definition def and the
// source of its return expressions.
func outline(def *node, src []byte) (params, returns []string) {
	if def == nil {
		return nil, nil
	}
	for _, p := range def.Child("parameters").NamedKids() {
		name := p
		switch p.Type {
		case "default_parameter", "typed_default_parameter":
			name = p.Child("name")
		case "typed_parameter":
			name = nil
			for _, c := range p.NamedKids() {
				if c.Type == "identifier" {
					name = c
					break
				}
			}
		case "identifier":
		default:
			continue // *args, **kwargs, separators
		}
		if name == nil || name.Type != "identifier" {
			continue
		}
		if t := name.Text(src); t != "self" && t != "cls" {
			params = append(params, t)
		}
	}
	def.Child("body").Walk(func(n *node) bool {
		switch n.Type {
		case "function_definition", "class_definition", "lambda":
			return false
		case "return_statement":
			if kids := n.NamedKids(); len(kids) > 0 {
				returns = append(returns, strings.Join(strings.Fields(kids[0].Text(src)), " "))
			}
			return false
		}
		return true
	})
	return params, returns
}
