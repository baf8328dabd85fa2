package lang

import "strings"

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
