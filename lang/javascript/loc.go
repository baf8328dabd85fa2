package javascript

import "strings"

// EffectiveLOC counts the lines of JavaScript or TypeScript code that are neither
// blank nor only comments (//, /* */, JSDoc). Lines inside strings and template
// literals count.
func EffectiveLOC(code string) int { return effectiveLines(code) }

func effectiveLines(code string) int {
	n := 0
	for _, l := range strings.Split(stripComments(code), "\n") {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

// stripComments blanks the comments of JavaScript code, keeping its newlines, by
// a lexical scan that knows strings, template literals (with nested ${…}) and
// regular expression literals well enough for code as people write it.
func stripComments(code string) string {
	b := []byte(code)
	out := make([]byte, len(b))
	copy(out, b)
	blank := func(i, j int) {
		for k := i; k < j && k < len(out); k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
	}
	var braces []int // brace depth at which each open template's ${ started
	depth := 0
	prev := byte(0) // last significant character outside comments
	i := 0
	inTemplate := false
	for i < len(b) {
		c := b[i]
		if inTemplate {
			switch {
			case c == '\\':
				i += 2
			case c == '`':
				inTemplate = false
				prev = '`'
				i++
			case c == '$' && i+1 < len(b) && b[i+1] == '{':
				braces = append(braces, depth)
				depth++
				inTemplate = false
				prev = '{'
				i += 2
			default:
				i++
			}
			continue
		}
		switch {
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			j := i
			for j < len(b) && b[j] != '\n' {
				j++
			}
			blank(i, j)
			i = j
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			j := strings.Index(code[i+2:], "*/")
			end := len(b)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			blank(i, end)
			i = end
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(b) && b[j] != c && b[j] != '\n' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			i = j + 1
			prev = c
		case c == '`':
			inTemplate = true
			i++
		case c == '/' && regexAllowed(prev):
			j := i + 1
			inClass := false
			for j < len(b) && b[j] != '\n' {
				if b[j] == '\\' {
					j += 2
					continue
				}
				if b[j] == '[' {
					inClass = true
				} else if b[j] == ']' {
					inClass = false
				} else if b[j] == '/' && !inClass {
					break
				}
				j++
			}
			i = j + 1
			prev = 'a'
		case c == '{':
			depth++
			prev = c
			i++
		case c == '}':
			depth--
			if len(braces) > 0 && braces[len(braces)-1] == depth {
				braces = braces[:len(braces)-1]
				inTemplate = true
			}
			prev = c
			i++
		default:
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				prev = c
			}
			i++
		}
	}
	return string(out)
}

// regexAllowed reports whether a / after prev starts a regular expression rather
// than a division.
func regexAllowed(prev byte) bool {
	return prev == 0 || strings.IndexByte("(,=:[!&|?{};+-*%<>~^", prev) >= 0
}
