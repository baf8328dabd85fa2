package javascript

import (
	"context"
	"fmt"
	"strings"

	"sccg/lang"
)

// identifierTypes are the node types Mask offers as identifiers: names of
// bindings, properties, object keys and TypeScript types.
var identifierTypes = map[string]bool{"identifier": true, "property_identifier": true, "shorthand_property_identifier": true,
	"shorthand_property_identifier_pattern": true, "type_identifier": true}

// Mask offers every identifier, literal string part (of strings and template
// literals), pair-value number and comment of code to rewrite, applies the edits
// rewrite returns and checks that the result still parses (when code did):
// lang.ErrMaskBrokeSyntax otherwise. Edits of an identifier that would not leave
// an identifier, and edits that cut an escape sequence, are left out. fn names the
// function whose name, parameters and returns Masked reports.
func Mask(ctx context.Context, d lang.Dialect, code []byte, fn string, rewrite func(lang.Piece) []lang.Edit) (m *lang.Masked, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("mask panic: %v", r)
		}
	}()
	g := grammarOf(d)
	root, err := parse(ctx, g, code)
	if err != nil {
		return nil, fmt.Errorf("mask: %w", err)
	}
	var edits []lang.Edit
	addEdits := func(base int, p lang.Piece, keep func(lang.Edit) bool) {
		edits = append(edits, lang.PlaceEdits(rewrite(p), base, len(p.Text), keep)...)
	}
	// stringPiece offers the literal stretch [from, to) of a string or template,
	// with the escape sequences inside it protected.
	stringPiece := func(parts []*node, whole bool, key bool, pairKey string) {
		if len(parts) == 0 {
			return
		}
		from, to := parts[0].Start, parts[len(parts)-1].End
		var escapes [][2]int
		for _, c := range parts {
			if c.Type == "escape_sequence" {
				escapes = append(escapes, [2]int{int(c.Start - from), int(c.End - from)})
			}
		}
		p := lang.Piece{Kind: lang.PieceString, Text: string(code[from:to]), Whole: whole, Key: key, PairKey: pairKey, Line: parts[0].Row + 1}
		addEdits(int(from), p, func(e lang.Edit) bool {
			for _, es := range escapes {
				if e.Start < es[1] && es[0] < e.End {
					return false
				}
			}
			return true
		})
	}
	root.Walk(func(n *node) bool {
		switch {
		case identifierTypes[n.Type]:
			p := lang.Piece{Kind: lang.PieceIdentifier, Text: n.Text(code), Line: n.Row + 1}
			if n.Parent != nil && n.Parent.Type == "pair" && n.Field == "key" {
				p.Key = true
			}
			name := p.Text
			addEdits(int(n.Start), p, func(e lang.Edit) bool {
				return IsIdentifier(name[:e.Start] + e.New + name[e.End:])
			})
			return false
		case n.Type == "string":
			key, pairKey := pairContext(n, code)
			var parts []*node
			for _, c := range n.Children {
				if c.Type == "string_fragment" || c.Type == "escape_sequence" {
					parts = append(parts, c)
				}
			}
			stringPiece(parts, true, key, pairKey)
			return false
		case n.Type == "template_string":
			key, pairKey := pairContext(n, code)
			whole := firstOfType(n, "template_substitution") == nil
			var run []*node
			for _, c := range n.Children {
				switch c.Type {
				case "string_fragment", "escape_sequence":
					run = append(run, c)
				case "template_substitution":
					stringPiece(run, whole, key, pairKey)
					run = nil
				}
			}
			stringPiece(run, whole, key, pairKey)
			return true // substitutions hold code: their names are pieces too
		case n.Type == "number":
			if key, pairKey := pairContext(n, code); pairKey != "" && !key {
				addEdits(int(n.Start), lang.Piece{Kind: lang.PieceNumber, Text: n.Text(code), PairKey: pairKey, Line: n.Row + 1}, nil)
			}
			return false
		case n.Type == "comment":
			t := n.Text(code)
			off, end := 2, len(t)
			if strings.HasPrefix(t, "/*") && strings.HasSuffix(t, "*/") && len(t) >= 4 {
				end = len(t) - 2
			}
			if end < off {
				return false
			}
			addEdits(int(n.Start)+off, lang.Piece{Kind: lang.PieceComment, Text: t[off:end], Line: n.Row + 1}, nil)
			return false
		}
		return true
	})
	out, mroot, applied, err := grammars[g].MaskEdits(ctx, code, root, edits)
	if err != nil {
		return nil, err
	}
	res := &lang.Masked{Code: string(out), Edits: applied}
	if i := functionIndex(root, code, fn); i >= 0 {
		// edits never change the tree's shape: the function is the same one there
		if f, name := nthFunction(mroot, out, i); f != nil {
			res.Name = name
			res.Parameters, res.Returns = outline(f, out)
		}
	}
	return res, nil
}

// pairContext says whether n (a string or number) is the key of an object pair
// and, when it is a pair's value, that pair's literal key.
func pairContext(n *node, src []byte) (key bool, pairKey string) {
	p := n.Parent
	switch {
	case p == nil || p.Type != "pair":
	case n.Field == "key":
		return true, ""
	case n.Field == "value":
		if k := p.Child("key"); k != nil && k.Type != "computed_property_name" {
			return false, keyText(k, src)
		}
	}
	return false, ""
}

// functionName is the name a function node is known by (see newFunc), "" for an
// anonymous one.
func functionName(n *node, src []byte) string {
	switch n.Type {
	case "function_declaration", "generator_function_declaration":
		return n.Child("name").Text(src)
	case "method_definition":
		return keyText(n.Child("name"), src)
	}
	p := n.Parent
	switch {
	case p == nil:
	case p.Type == "variable_declarator" && n.Field == "value":
		return p.Child("name").Text(src)
	case p.Type == "assignment_expression" && n.Field == "right":
		nm := assignedName(p.Child("left"), src)
		return nm[strings.LastIndex(nm, ".")+1:]
	case p.Type == "pair" && n.Field == "value":
		return keyText(p.Child("key"), src)
	case (p.Type == "field_definition" || p.Type == "public_field_definition"):
		if k := p.Child("property"); k != nil {
			return k.Text(src)
		}
		if k := p.Child("name"); k != nil {
			return k.Text(src)
		}
	case p.Type == "export_statement":
		return "default"
	}
	return ""
}

// functionIndex returns the preorder index among the tree's functions of the one
// named fn (a name, or a qualname whose last part is used), or -1.
func functionIndex(root *node, src []byte, fn string) int {
	if i := strings.LastIndexByte(fn, '.'); i >= 0 {
		fn = fn[i+1:]
	}
	if fn == "" {
		return -1
	}
	idx, found := -1, -1
	root.Walk(func(n *node) bool {
		if found >= 0 {
			return false
		}
		if functionTypes[n.Type] {
			idx++
			if functionName(n, src) == fn {
				found = idx
				return false
			}
		}
		return true
	})
	return found
}

// nthFunction returns the i-th function of the tree in preorder and its name.
func nthFunction(root *node, src []byte, i int) (*node, string) {
	var def *node
	idx := -1
	root.Walk(func(n *node) bool {
		if def != nil {
			return false
		}
		if functionTypes[n.Type] {
			if idx++; idx == i {
				def = n
				return false
			}
		}
		return true
	})
	if def == nil {
		return nil, ""
	}
	return def, functionName(def, src)
}

// outline returns the parameter names of a function and the source of its
// return expressions (an arrow function's expression body is its return).
func outline(def *node, src []byte) (params, returns []string) {
	m := &module{src: src}
	for _, p := range m.params(def) {
		params = append(params, p.name)
	}
	body := def.Child("body")
	if body == nil {
		return params, nil
	}
	if body.Type != "statement_block" {
		return params, []string{strings.Join(strings.Fields(body.Text(src)), " ")}
	}
	body.Walk(func(n *node) bool {
		switch {
		case n != body && (functionTypes[n.Type] || classTypes[n.Type]):
			return false
		case n.Type == "return_statement":
			if kids := n.NamedKids(); len(kids) > 0 && kids[0].Type != "comment" {
				returns = append(returns, strings.Join(strings.Fields(kids[0].Text(src)), " "))
			}
			return false
		}
		return true
	})
	return params, returns
}
