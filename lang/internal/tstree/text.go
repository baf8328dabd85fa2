package tstree

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"sccg/lang"
)

// LineText is n's source text from the start of its first line when only
// indentation stands before n there (lang.LineText).
func (n *Node) LineText(src []byte) string {
	return lang.LineText(src, int(n.Start), int(n.End))
}

// StartsLine reports whether n is the first thing on its line in src.
func (n *Node) StartsLine(src []byte) bool { return lang.StartsLine(src, int(n.Start)) }

// HashTokens is the hex SHA-256 of the leaves under roots in source order, each
// leaf's text followed by a NUL. token sees every node first: when it reports ok,
// text (possibly "") is hashed in the node's place and its subtree is not read; so
// a language leaves out its comments and writes its string literals in one quote
// style.
func HashTokens(src []byte, token func(n *Node) (text string, ok bool), roots ...*Node) string {
	h := sha256.New()
	var visit func(n *Node)
	visit = func(n *Node) {
		if t, ok := token(n); ok {
			h.Write([]byte(t))
			return
		}
		if len(n.Children) == 0 {
			h.Write(src[n.Start:n.End])
			h.Write([]byte{0})
			return
		}
		for _, c := range n.Children {
			visit(c)
		}
	}
	for _, r := range roots {
		visit(r)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// BodyComments renders with text the comments (a file's, in source order) inside
// outer, a function whose body's first statement is first (nil for none). The block
// before first speaks for the whole function, Inline false, when it stands apart: a
// blank line follows it, or no comment, or no statement. Every other comment
// narrates a step: Inline.
func BodyComments(comments []*Node, outer, first *Node, text func(*Node) lang.Text) []lang.Text {
	var inside []*Node
	for _, c := range comments {
		if c.Start > outer.Start && c.End <= outer.End {
			inside = append(inside, c)
		}
	}
	opening, rest := inside, []*Node(nil)
	if first != nil {
		n := 0
		for n < len(inside) && inside[n].End <= first.Start {
			n++
		}
		opening, rest = inside[:n], inside[n:]
	}
	openingLeads := len(opening) > 0 && (len(rest) == 0 || first == nil || first.Row > opening[len(opening)-1].EndRow+1)
	var out []lang.Text
	for _, c := range opening {
		t := text(c)
		t.Inline = !openingLeads
		out = append(out, t)
	}
	for _, c := range rest {
		t := text(c)
		t.Inline = true
		out = append(out, t)
	}
	return out
}

// MaskEdits applies a Mask's edits to src, whose tree under g is root
// (lang.ApplyEdits), and parses the result when any edit was applied; root stands
// for it otherwise. It fails with lang.ErrMaskBrokeSyntax when src parsed without
// error and the result does not.
func (g *Grammar) MaskEdits(ctx context.Context, src []byte, root *Node, edits []lang.Edit) (out []byte, outRoot *Node, applied int, err error) {
	out, applied = lang.ApplyEdits(src, edits)
	if applied == 0 {
		return out, root, 0, nil
	}
	broken := root.HasError()
	if outRoot, err = g.Parse(ctx, out); err != nil {
		return nil, nil, 0, fmt.Errorf("mask: %w", err)
	}
	if !broken && outRoot.HasError() {
		return nil, nil, 0, lang.ErrMaskBrokeSyntax
	}
	return out, outRoot, applied, nil
}
