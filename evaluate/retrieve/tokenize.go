package retrieve

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokenize splits text into the terms BM25 indexes, in a way that suits API
// documentation and code as much as prose:
//
//   - words are runs of letters and digits joined by '_' or '-'; every other
//     character ('/', '.', '{', spaces, punctuation) separates words, so routes and
//     hosts fall apart into their segments;
//   - a word is split at '_' and '-' (snake_case, kebab-case), at lower→upper case
//     changes (camelCase), before the last capital of a capital run (HTTPServer →
//     http, server) and between letters and digits;
//   - a word of several parts also yields its joined form, the parts concatenated
//     (getUserInfo, get_user_info and get-user-info all yield "getuserinfo"), so a
//     query naming an identifier matches it whatever its spelling;
//   - terms are lower case, English stop words and one-letter parts are dropped, and
//     plurals are folded (forecasts → forecast, cities → city).
func Tokenize(text string) []string {
	var out []string
	start := -1
	for i, r := range text {
		if isWordRune(r) || ((r == '_' || r == '-') && start >= 0) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = appendWord(out, text[start:i])
			start = -1
		}
	}
	if start >= 0 {
		out = appendWord(out, text[start:])
	}
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// appendWord appends the terms of one word (letters, digits, '_' and '-').
func appendWord(out []string, word string) []string {
	parts := splitWord(word)
	if len(parts) == 0 {
		return out
	}
	for _, p := range parts {
		if utf8.RuneCountInString(p) < 2 || stopWords[p] {
			continue
		}
		out = append(out, fold(p))
	}
	if len(parts) > 1 {
		out = append(out, fold(strings.Join(parts, "")))
	}
	return out
}

// splitWord cuts a word into lower-case parts at separators, case changes and
// letter–digit boundaries.
func splitWord(word string) []string {
	var parts []string
	rs := []rune(word)
	begin := 0
	flush := func(end int) {
		if end > begin {
			parts = append(parts, strings.ToLower(string(rs[begin:end])))
		}
		begin = end
	}
	for i, r := range rs {
		if r == '_' || r == '-' {
			flush(i)
			begin = i + 1
			continue
		}
		if i == begin {
			continue
		}
		prev := rs[i-1]
		switch {
		case unicode.IsDigit(r) != unicode.IsDigit(prev):
			flush(i)
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush(i)
		case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			flush(i)
		}
	}
	flush(len(rs))
	return parts
}

// fold reduces an English plural to its singular: cities → city, classes → class,
// forecasts → forecast. Words of three letters or fewer and words ending in "ss",
// "us" or "is" are left alone.
func fold(t string) string {
	n := len(t)
	switch {
	case n <= 3:
		return t
	case strings.HasSuffix(t, "ies") && n > 4:
		return t[:n-3] + "y"
	case strings.HasSuffix(t, "sses"):
		return t[:n-2]
	case strings.HasSuffix(t, "ss"), strings.HasSuffix(t, "us"), strings.HasSuffix(t, "is"):
		return t
	case strings.HasSuffix(t, "s"):
		return t[:n-1]
	}
	return t
}

// stopWords are English function words that carry no meaning for retrieval.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be been but by can do does for from had has have
		if in into is it its of on or our so such than that the their them then there these they this
		to was we were what when where which while who will with would you your i me my he she his her
		not no yes all any each also only just very via`) {
		m[w] = true
	}
	return m
}()
