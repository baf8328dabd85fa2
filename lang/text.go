package lang

import (
	"slices"
	"strings"
)

// Dedent removes up to col columns of leading spaces and tabs from every line of s:
// a nested definition's text read as if it stood at the top level.
func Dedent(s string, col int) string {
	if col == 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		k := 0
		for k < col && k < len(l) && (l[k] == ' ' || l[k] == '\t') {
			k++
		}
		lines[i] = l[k:]
	}
	return strings.Join(lines, "\n")
}

// StartsLine reports whether only spaces and tabs stand between the start of off's
// line in src and off.
func StartsLine(src []byte, off int) bool {
	for i := off; i > 0 && src[i-1] != '\n'; i-- {
		if c := src[i-1]; c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// LineText is src[start:end], taken from the start of start's line when only
// indentation stands before it there, so its first line keeps its indentation like
// the others.
func LineText(src []byte, start, end int) string {
	if StartsLine(src, start) {
		for start > 0 && src[start-1] != '\n' {
			start--
		}
	}
	return string(src[start:end])
}

// ApplyEdits returns src with edits applied (offsets into src), in order of Start
// and, at one Start, in the order given; an edit that overlaps one applied before
// it is left out. It also returns how many edits it applied.
func ApplyEdits(src []byte, edits []Edit) ([]byte, int) {
	edits = slices.Clone(edits)
	slices.SortStableFunc(edits, func(a, b Edit) int { return a.Start - b.Start })
	var b strings.Builder
	pos, applied := 0, 0
	for _, e := range edits {
		if e.Start < pos {
			continue
		}
		b.Write(src[pos:e.Start])
		b.WriteString(e.New)
		pos = e.End
		applied++
	}
	b.Write(src[pos:])
	return []byte(b.String()), applied
}

// PlaceEdits returns the edits of a piece of n bytes that starts at base in the
// source, as offsets into the source: those that lie inside the piece and that
// keep accepts (nil accepts all).
func PlaceEdits(edits []Edit, base, n int, keep func(Edit) bool) []Edit {
	var out []Edit
	for _, e := range edits {
		if e.Start < 0 || e.End > n || e.Start > e.End || (keep != nil && !keep(e)) {
			continue
		}
		out = append(out, Edit{Start: base + e.Start, End: base + e.End, New: e.New})
	}
	return out
}
