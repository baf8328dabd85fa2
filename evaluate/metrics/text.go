// Package metrics holds the static similarity metrics between a generated function
// and its reference: CodeBLEU (BLEU-4, keyword-weighted unigram match, tree-sitter
// AST subtree match, data-flow match), character-level Edit Similarity and token
// precision / recall / F1. It knows a language only by its lang.Grammar.
package metrics

import (
	"strings"
	"unicode/utf8"

	"sccg/lang"
)

// Tokenize returns the lexical tokens of code in grammar g, comments dropped:
// string literals whole, identifiers, numbers, operators.
func Tokenize(g *lang.Grammar, code string) []string {
	return g.Token.FindAllString(stripComments(g, code), -1)
}

// stripComments removes the comments of g that are not inside a string literal.
func stripComments(g *lang.Grammar, code string) string {
	if !hasCommentOpener(g, code) {
		return code
	}
	var b strings.Builder
	// Walk the code, copying string literals intact and dropping comments.
	i := 0
	for i < len(code) {
		c := code[i]
		if end, ok := commentAt(g, code, i); ok {
			if end < 0 {
				return b.String()
			}
			i = end
			continue
		}
		if strings.IndexByte(g.Quotes, c) >= 0 {
			loc := g.Token.FindStringIndex(code[i:])
			if loc == nil || loc[0] != 0 || loc[1] == 0 {
				b.WriteByte(c)
				i++
				continue
			}
			b.WriteString(code[i : i+loc[1]])
			i += loc[1]
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

func hasCommentOpener(g *lang.Grammar, code string) bool {
	for _, l := range g.LineComments {
		if strings.Contains(code, l) {
			return true
		}
	}
	for _, bc := range g.BlockComments {
		if strings.Contains(code, bc[0]) {
			return true
		}
	}
	return false
}

// commentAt reports whether a comment opens at code[i], and where the code goes
// on after it: a line comment keeps its newline; -1 means the comment runs to the
// end.
func commentAt(g *lang.Grammar, code string, i int) (int, bool) {
	for _, l := range g.LineComments {
		if strings.HasPrefix(code[i:], l) {
			j := strings.IndexByte(code[i:], '\n')
			if j < 0 {
				return -1, true
			}
			return i + j, true
		}
	}
	for _, bc := range g.BlockComments {
		if strings.HasPrefix(code[i:], bc[0]) {
			j := strings.Index(code[i+len(bc[0]):], bc[1])
			if j < 0 {
				return -1, true
			}
			return i + len(bc[0]) + j + len(bc[1]), true
		}
	}
	return 0, false
}

// EditSimilarity is 1 − Levenshtein(a, b) / max(len(a), len(b)) over characters.
// Two empty strings are identical (1).
func EditSimilarity(a, b string) float64 {
	if a == b {
		return 1
	}
	ra, rb := []rune(a), []rune(b)
	if !utf8.ValidString(a) || !utf8.ValidString(b) {
		ra, rb = []rune(strings.ToValidUTF8(a, "?")), []rune(strings.ToValidUTF8(b, "?"))
	}
	n := max(len(ra), len(rb))
	if n == 0 {
		return 1
	}
	return 1 - float64(levenshtein(ra, rb))/float64(n)
}

// levenshtein is the edit distance of a and b: their common prefix and suffix set
// aside, the bit-parallel algorithm of Myers (1999) in Hyyrö's block form for
// whole strings, 64 rows of the dynamic-programming table per machine word, over
// the shorter string as the pattern.
func levenshtein(a, b []rune) int {
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	m := len(b) // the pattern: rows of the table
	if m == 0 {
		return len(a)
	}
	words := (m + 63) / 64
	// peq[c] has bit i of word i/64 set where b[i] == c.
	peq := map[rune][]uint64{}
	for i, c := range b {
		w := peq[c]
		if w == nil {
			w = make([]uint64, words)
			peq[c] = w
		}
		w[i/64] |= 1 << (i % 64)
	}
	none := make([]uint64, words)
	pv := make([]uint64, words) // vertical deltas +1 ...
	mv := make([]uint64, words) // ... and −1, by row
	for i := range pv {
		pv[i] = ^uint64(0)
	}
	last := uint64(1) << ((m - 1) % 64) // the table's last row, in the last word
	score := m
	for _, c := range a {
		eq := peq[c]
		if eq == nil {
			eq = none
		}
		hin := 1 // the first row of a column is one more than the one before
		for w := 0; w < words; w++ {
			hin = advanceBlock(&pv[w], &mv[w], eq[w], hin, w == words-1, last)
		}
		score += hin
	}
	return score
}

// advanceBlock moves one 64-row block of the table one column on: pv and mv are
// the block's vertical deltas, eq its match bits for the column's character and
// hin the horizontal delta entering its first row; it returns the delta leaving
// its last row (bit 63, or bit last of the final block).
func advanceBlock(pv, mv *uint64, eq uint64, hin int, final bool, last uint64) int {
	p, m := *pv, *mv
	xv := eq | m
	if hin < 0 {
		eq |= 1
	}
	xh := (((eq & p) + p) ^ p) | eq
	ph := m | ^(xh | p)
	mh := p & xh
	high := uint64(1) << 63
	if final {
		high = last
	}
	hout := 0
	if ph&high != 0 {
		hout = 1
	} else if mh&high != 0 {
		hout = -1
	}
	ph <<= 1
	mh <<= 1
	if hin < 0 {
		mh |= 1
	} else if hin > 0 {
		ph |= 1
	}
	*pv = mh | ^(xv | ph)
	*mv = ph & xv
	return hout
}

// PRF is a precision / recall / F1 triple.
type PRF struct {
	P, R, F1 float64
}

// TokenPRF compares the token multisets of a candidate and a reference: precision is
// the share of candidate tokens found in the reference, recall the share of reference
// tokens found in the candidate (each token counted at most as often as it occurs).
func TokenPRF(candidate, reference []string) PRF {
	if len(candidate) == 0 || len(reference) == 0 {
		if len(candidate) == len(reference) {
			return PRF{1, 1, 1}
		}
		return PRF{}
	}
	ref := map[string]int{}
	for _, t := range reference {
		ref[t]++
	}
	overlap := 0
	for _, t := range candidate {
		if ref[t] > 0 {
			ref[t]--
			overlap++
		}
	}
	return prf(overlap, len(candidate), len(reference))
}

func prf(overlap, nCand, nRef int) PRF {
	var p, r, f float64
	if nCand > 0 {
		p = float64(overlap) / float64(nCand)
	}
	if nRef > 0 {
		r = float64(overlap) / float64(nRef)
	}
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return PRF{p, r, f}
}

// KeySetPRF compares two sets of keys (parameter names). Two empty sets agree fully.
func KeySetPRF(candidate, reference []string) PRF {
	c, r := set(candidate), set(reference)
	if len(c) == 0 && len(r) == 0 {
		return PRF{1, 1, 1}
	}
	overlap := 0
	for k := range c {
		if r[k] {
			overlap++
		}
	}
	return prf(overlap, len(c), len(r))
}

func set(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		if x != "" {
			m[x] = true
		}
	}
	return m
}
