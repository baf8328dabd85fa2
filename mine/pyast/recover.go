package pyast

import (
	"bytes"
	"context"
	"sort"
)

// maxRecoveries bounds how many definitions are re-parsed out of one file's
// ERROR regions.
const maxRecoveries = 32

// recoverDefs salvages the definitions that tree-sitter's error recovery swallowed:
// an unclosed bracket in one function can turn every following def into tokens of
// one top-level ERROR node. Each line inside such a node that starts a definition
// at column 0 (def, async def, class, @decorator) begins a segment that is parsed
// on its own — in a copy of the file where everything outside the segment is
// blanked, so byte offsets and rows stay those of the file — and the clean
// definitions found there replace the ERROR node's tokens from that line on.
func recoverDefs(ctx context.Context, src []byte, root *node) {
	budget := maxRecoveries
	var kids []*node
	for _, c := range root.children {
		if c.typ != "ERROR" || budget <= 0 {
			kids = append(kids, c)
			continue
		}
		starts := defStarts(src, c)
		if len(starts) == 0 {
			kids = append(kids, c)
			continue
		}
		var grafted []*node
		for i, s := range starts {
			if budget <= 0 {
				break
			}
			budget--
			end := int(c.end)
			if i+1 < len(starts) {
				end = starts[i+1]
			}
			seg, err := parseSegment(ctx, src, s, end)
			if err != nil {
				break
			}
			for _, d := range seg.children {
				switch d.typ {
				case "function_definition", "class_definition", "decorated_definition":
					d.parent = root
					grafted = append(grafted, d)
				}
			}
		}
		if len(grafted) == 0 {
			kids = append(kids, c)
			continue
		}
		// keep the ERROR node's tokens before the first salvaged definition
		cut := grafted[0].start
		var head []*node
		for _, k := range c.children {
			if k.end <= cut {
				head = append(head, k)
			}
		}
		c.children = head
		if len(head) > 0 {
			c.end = head[len(head)-1].end
			c.endRow = head[len(head)-1].endRow
			kids = append(kids, c)
		}
		kids = append(kids, grafted...)
	}
	sort.SliceStable(kids, func(i, j int) bool { return kids[i].start < kids[j].start })
	root.children = kids
}

// defStarts returns the byte offsets, inside n but after its first line, of lines
// that start a definition at column 0.
func defStarts(src []byte, n *node) []int {
	var out []int
	i := int(n.start)
	for {
		j := bytes.IndexByte(src[i:n.end], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		if i >= int(n.end) {
			break
		}
		line := src[i:]
		if bytes.HasPrefix(line, []byte("def ")) || bytes.HasPrefix(line, []byte("async def ")) ||
			bytes.HasPrefix(line, []byte("class ")) || (bytes.HasPrefix(line, []byte("@")) && !prevIsDecorator(src, i)) {
			out = append(out, i)
		}
	}
	return out
}

// prevIsDecorator reports whether the line before offset i is a decorator, so a
// stack of decorators starts one segment.
func prevIsDecorator(src []byte, i int) bool {
	if i < 2 {
		return false
	}
	k := bytes.LastIndexByte(src[:i-1], '\n')
	return bytes.HasPrefix(src[k+1:], []byte("@"))
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
