package tstree

import (
	"crypto/sha256"
	"encoding/hex"

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
