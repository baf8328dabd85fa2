package pyast

import (
	"context"
	"errors"
	"fmt"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

// node is a Go copy of one tree-sitter node. The whole tree is copied once after
// parsing, so the analysis never crosses into C again: every Node method of
// go-tree-sitter is a cgo call, and the analysis visits nodes many times.
type node struct {
	typ      string
	field    string // field name in the parent ("name", "body", …), "" if none
	start    uint32 // byte offsets into the source
	end      uint32
	row      int // 0-based start row
	col      int // start column, in bytes
	endRow   int
	named    bool
	missing  bool
	parent   *node
	children []*node
}

// child returns the first child with the given field name, or nil.
func (n *node) child(field string) *node {
	if n == nil {
		return nil
	}
	for _, c := range n.children {
		if c.field == field {
			return c
		}
	}
	return nil
}

// named returns the named children.
func (n *node) namedKids() []*node {
	var out []*node
	for _, c := range n.children {
		if c.named {
			out = append(out, c)
		}
	}
	return out
}

func (n *node) text(src []byte) string {
	if n == nil {
		return ""
	}
	return string(src[n.start:n.end])
}

// walk visits n and its descendants depth-first, in source order; when fn returns
// false the node's children are skipped.
func (n *node) walk(fn func(*node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for _, c := range n.children {
		c.walk(fn)
	}
}

// hasError reports whether n's subtree holds an ERROR or MISSING node.
func (n *node) hasError() bool {
	found := false
	n.walk(func(m *node) bool {
		if found {
			return false
		}
		if m.typ == "ERROR" || m.missing {
			found = true
		}
		return !found
	})
	return found
}

var (
	langOnce sync.Once
	lang     *sitter.Language
	symNames []string // symbol id → node type, read-only after langOnce
)

func language() *sitter.Language {
	langOnce.Do(func() {
		lang = python.GetLanguage()
		n := int(lang.SymbolCount())
		symNames = make([]string, n)
		for i := 0; i < n; i++ {
			symNames[i] = lang.SymbolName(sitter.Symbol(i))
		}
	})
	return lang
}

// errParseTimeout is returned when tree-sitter did not finish in time.
var errParseTimeout = errors.New("parse timed out")

// parse parses src as Python and copies the tree into Go nodes.
func parse(ctx context.Context, src []byte) (*node, error) {
	l := language()
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(l)
	tree, err := p.ParseCtx(ctx, nil, src)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w: %w", errParseTimeout, ctx.Err())
		}
		return nil, fmt.Errorf("parse: %w", err)
	}
	defer tree.Close()
	return copyTree(tree), nil
}

// copyTree walks the tree with a cursor (the cheapest way through cgo) and builds
// the Go copy.
func copyTree(tree *sitter.Tree) *node {
	cur := sitter.NewTreeCursor(tree.RootNode())
	defer cur.Close()
	mk := func(parent *node) *node {
		sn := cur.CurrentNode()
		sym := int(sn.Symbol())
		typ := ""
		if sym < len(symNames) {
			typ = symNames[sym]
		}
		sp := sn.StartPoint()
		n := &node{
			typ:     typ,
			start:   sn.StartByte(),
			end:     sn.EndByte(),
			row:     int(sp.Row),
			col:     int(sp.Column),
			endRow:  int(sn.EndPoint().Row),
			named:   sn.IsNamed(),
			missing: sn.IsMissing(),
			parent:  parent,
		}
		if sn.IsError() {
			n.typ = "ERROR"
		}
		if parent != nil {
			n.field = cur.CurrentFieldName()
		}
		return n
	}
	root := mk(nil)
	n := root
	for {
		if cur.GoToFirstChild() {
			c := mk(n)
			n.children = append(n.children, c)
			n = c
			continue
		}
		for {
			if n == root {
				return root
			}
			if cur.GoToNextSibling() {
				c := mk(n.parent)
				n.parent.children = append(n.parent.children, c)
				n = c
				break
			}
			cur.GoToParent()
			n = n.parent
		}
	}
}
