package leakcheck

import (
	_ "embed"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// sep is what stands between a token and the one before it.
type sep uint8

const (
	sepNone  sep = iota // nothing: a camelCase or letter/digit boundary inside one written word
	sepJoint            // '_', '-' or '.': the joints of an identifier or a host name
	sepSpace            // whitespace (with or without joints): two written words
	sepBreak            // any other character, or the start of the text
)

// token is one word of a text: a run of letters or of digits, split at camelCase
// boundaries, with its byte span in the text.
type token struct {
	norm       string // lower-cased
	start, end int
	sep        sep
	digits     bool
}

// tokenize splits s into word tokens: runs of letters or digits, a run split where
// lower case turns to upper case ("stationId"), before the last capital of a run of
// capitals ("HTTPServer") and between letters and digits ("mail44").
func tokenize(s string) []token {
	var out []token
	prevEnd := -1
	i := 0
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			i += w
			continue
		}
		start := i
		for i < len(s) {
			r, w := utf8.DecodeRuneInString(s[i:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				break
			}
			i += w
		}
		for _, p := range splitWord(s[start:i]) {
			t := token{norm: strings.ToLower(s[start+p[0] : start+p[1]]), start: start + p[0], end: start + p[1]}
			r, _ := utf8.DecodeRuneInString(t.norm)
			t.digits = unicode.IsDigit(r)
			t.sep = gapSep(s, prevEnd, t.start)
			prevEnd = t.end
			out = append(out, t)
		}
	}
	return out
}

// splitWord returns the [start, end) byte spans of the tokens of one alphanumeric run.
func splitWord(w string) [][2]int {
	type ch struct {
		off         int
		upper, dgt  bool
		lower, lttr bool
	}
	var cs []ch
	for off, r := range w {
		cs = append(cs, ch{off: off, upper: unicode.IsUpper(r), lower: unicode.IsLower(r), dgt: unicode.IsDigit(r), lttr: unicode.IsLetter(r)})
	}
	var out [][2]int
	start := 0
	for k := 1; k < len(cs); k++ {
		a, b := cs[k-1], cs[k]
		split := a.dgt != b.dgt ||
			(a.lower && b.upper) ||
			(a.upper && b.upper && k+1 < len(cs) && cs[k+1].lower)
		if split {
			out = append(out, [2]int{start, b.off})
			start = b.off
		}
	}
	return append(out, [2]int{start, len(w)})
}

// gapSep classifies the bytes between two tokens.
func gapSep(s string, prevEnd, start int) sep {
	if prevEnd < 0 {
		return sepBreak
	}
	gap := s[prevEnd:start]
	if gap == "" {
		return sepNone
	}
	space := false
	for _, r := range gap {
		switch {
		case r == '_' || r == '-' || r == '.':
		case unicode.IsSpace(r):
			space = true
		default:
			return sepBreak
		}
	}
	if space {
		return sepSpace
	}
	return sepJoint
}

//go:embed words.txt
var wordsText string

var (
	wordsOnce sync.Once
	wordSet   map[string]bool
)

// words returns the shipped list of ordinary English words.
func words() map[string]bool {
	wordsOnce.Do(func() {
		wordSet = map[string]bool{}
		for _, line := range strings.Split(wordsText, "\n") {
			if i := strings.IndexByte(line, '#'); i >= 0 {
				line = line[:i]
			}
			for _, w := range strings.Fields(line) {
				wordSet[strings.ToLower(w)] = true
			}
		}
	})
	return wordSet
}

// IsWord reports whether w (one token, any case) is an ordinary English word of the
// shipped list, or a plain inflection of one: plural, -ed, -ing, -er, -est, -ly,
// -ation, -ment, -ness.
func IsWord(w string) bool {
	return isWord(strings.ToLower(w), 2)
}

func isWord(w string, depth int) bool {
	ws := words()
	if ws[w] {
		return true
	}
	if depth == 0 || len(w) < 4 {
		return false
	}
	try := func(stems ...string) bool {
		for _, s := range stems {
			if len(s) >= 2 && isWord(s, depth-1) {
				return true
			}
		}
		return false
	}
	undouble := func(s string) string {
		if n := len(s); n >= 2 && s[n-1] == s[n-2] {
			return s[:n-1]
		}
		return s
	}
	switch {
	case strings.HasSuffix(w, "ization") || strings.HasSuffix(w, "isation"):
		return try(w[:len(w)-5] + "e")
	case strings.HasSuffix(w, "ation") && try(w[:len(w)-5]+"ate", w[:len(w)-5]+"e", w[:len(w)-5]):
		return true
	case strings.HasSuffix(w, "ment") || strings.HasSuffix(w, "ness"):
		return try(w[:len(w)-4])
	case strings.HasSuffix(w, "ies"):
		return try(w[:len(w)-3] + "y")
	case strings.HasSuffix(w, "es") && try(w[:len(w)-2], w[:len(w)-1]):
		return true
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return try(w[:len(w)-1])
	case strings.HasSuffix(w, "ied"):
		return try(w[:len(w)-3] + "y")
	case strings.HasSuffix(w, "ed"):
		b := w[:len(w)-2]
		return try(b, b+"e", undouble(b))
	case strings.HasSuffix(w, "ing"):
		b := w[:len(w)-3]
		return try(b, b+"e", undouble(b))
	case strings.HasSuffix(w, "ily"):
		return try(w[:len(w)-3] + "y")
	case strings.HasSuffix(w, "ly"):
		return try(w[:len(w)-2], w[:len(w)-1])
	case strings.HasSuffix(w, "est"):
		b := w[:len(w)-3]
		return try(b, b+"e", undouble(b))
	case strings.HasSuffix(w, "er"):
		b := w[:len(w)-2]
		return try(b, b+"e", undouble(b))
	}
	return false
}

// Words splits s into its lower-case words the way LeakCheck reads text (camelCase,
// snake_case, kebab-case and letter–digit boundaries), leaving out numbers.
func Words(s string) []string {
	var out []string
	for _, t := range tokenize(s) {
		if !t.digits {
			out = append(out, t.norm)
		}
	}
	return out
}
