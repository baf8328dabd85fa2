package python

import (
	"bytes"
	"context"
	"sort"
)

// maxRecoveries bounds how many definitions are re-parsed out of one broken file.
const maxRecoveries = 32

// recoverDefs salvages the definitions that tree-sitter's error recovery swallowed:
// an unclosed bracket in one function can turn the following defs into tokens of
// an ERROR node, at the top level or deep inside the broken statement. Every line
// that starts a definition at column 0 (def, async def, class, @decorator) but does
// not start a top-level node begins a segment, up to the next such line or the
// next top-level statement at column 0. Each segment is parsed on its own — in a
// copy of the file where everything outside it is blanked, so byte offsets and
// rows stay those of the file — and the definitions found there replace whatever
// the first parse made of those bytes.
func recoverDefs(ctx context.Context, src []byte, root *node) {
	starts := map[uint32]bool{}
	var topAt0 []uint32
	for _, c := range root.Children {
		starts[c.Start] = true
		if c.Col == 0 {
			topAt0 = append(topAt0, c.Start)
		}
	}
	var restarts []int
	for _, s := range defLines(src) {
		if !starts[uint32(s)] {
			restarts = append(restarts, s)
		}
	}
	if len(restarts) > maxRecoveries {
		restarts = restarts[:maxRecoveries]
	}
	var grafted []*node
	for i, s := range restarts {
		end := len(src)
		if i+1 < len(restarts) {
			end = restarts[i+1]
		}
		if k := sort.Search(len(topAt0), func(k int) bool { return int(topAt0[k]) > s }); k < len(topAt0) && int(topAt0[k]) < end {
			end = int(topAt0[k])
		}
		seg, err := parseSegment(ctx, src, s, end)
		if err != nil {
			return
		}
		for _, d := range seg.Children {
			switch d.Type {
			case "function_definition", "class_definition", "decorated_definition":
				if int(d.Start) >= s && int(d.End) <= end {
					d.Parent = root
					grafted = append(grafted, d)
				}
			}
		}
	}
	if len(grafted) == 0 {
		return
	}
	// drop what the first parse made of the salvaged bytes, cut what runs into them
	inGraft := func(pos uint32) *node {
		for _, g := range grafted {
			if pos >= g.Start && pos < g.End {
				return g
			}
		}
		return nil
	}
	kids := append([]*node(nil), grafted...)
	for _, c := range root.Children {
		if inGraft(c.Start) != nil {
			continue
		}
		for _, g := range grafted {
			if c.Start < g.Start && c.End > g.Start {
				prune(c, g.Start)
			}
		}
		kids = append(kids, c)
	}
	sort.SliceStable(kids, func(i, j int) bool { return kids[i].Start < kids[j].Start })
	root.Children = kids
}

// prune removes from n's subtree every node that starts at or after cut and ends
// n and its last descendants at cut.
func prune(n *node, cut uint32) {
	n.End = min(n.End, cut)
	var keep []*node
	for _, c := range n.Children {
		if c.Start < cut {
			keep = append(keep, c)
		}
	}
	n.Children = keep
	if len(keep) > 0 {
		prune(keep[len(keep)-1], cut)
		n.EndRow = keep[len(keep)-1].EndRow
	}
}

// defLines returns the byte offsets of the lines that start a definition at
// column 0; a stack of decorators counts once, at its first line.
func defLines(src []byte) []int {
	var out []int
	prevDecorator := false
	for i := 0; i < len(src); {
		line := src[i:]
		isDec := bytes.HasPrefix(line, []byte("@"))
		if bytes.HasPrefix(line, []byte("def ")) || bytes.HasPrefix(line, []byte("async def ")) ||
			bytes.HasPrefix(line, []byte("class ")) || (isDec && !prevDecorator) {
			if !(prevDecorator && !isDec) {
				out = append(out, i)
			}
		}
		prevDecorator = isDec
		j := bytes.IndexByte(line, '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return out
}

// parseSegment parses src[start:end] in place: a same-length copy of src with every
// other byte but newlines blanked.
func parseSegment(ctx context.Context, src []byte, start, end int) (*node, error) {
	buf := make([]byte, len(src))
	for i, b := range src {
		switch {
		case i >= start && i < end:
			buf[i] = b
		case b == '\n':
			buf[i] = '\n'
		default:
			buf[i] = ' '
		}
	}
	return parse(ctx, buf)
}
