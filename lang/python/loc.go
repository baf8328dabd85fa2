package python

import "strings"

// EffectiveLOC counts the lines of Python code that are neither blank, nor comments,
// nor part of a bare string statement (docstrings). Lines inside a triple-quoted
// string that is part of code (an assignment, an argument) count.
func EffectiveLOC(code string) int {
	n := 0
	inDoc, inStr := "", ""
	for _, line := range strings.Split(code, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case inDoc != "":
			if strings.Contains(t, inDoc) {
				inDoc = ""
			}
			continue
		case inStr != "":
			n++
			if strings.Count(t, inStr)%2 == 1 {
				inStr = ""
			}
			continue
		}
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if q, rest := docQuote(t); q != "" {
			if !strings.Contains(rest, q) {
				inDoc = q
			}
			continue
		}
		n++
		for _, q := range tripleQuotes {
			if strings.Count(t, q)%2 == 1 {
				inStr = q
				break
			}
		}
	}
	return n
}

var tripleQuotes = [...]string{`"""`, `'''`}

// docQuote returns the triple quote a line opens with when the line is a bare
// string, and what follows the quote.
func docQuote(t string) (quote, rest string) {
	i := 0
	for i < len(t) && i < 2 && strings.ContainsRune("rRuUbB", rune(t[i])) {
		i++
	}
	for _, q := range tripleQuotes {
		if strings.HasPrefix(t[i:], q) {
			return q, t[i+len(q):]
		}
	}
	return "", ""
}
