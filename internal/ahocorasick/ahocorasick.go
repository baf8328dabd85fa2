// Package ahocorasick finds which of many patterns occur in a text in one pass over
// it (the Aho–Corasick automaton), folding ASCII case. The corpus miner uses it to
// test every crawled host against a file at once instead of scanning once per host.
package ahocorasick

import "sort"

// Matcher is an automaton over a fixed set of patterns. It is read-only after New
// and safe for concurrent use.
type Matcher struct {
	n     int        // patterns given to New
	root  [256]int32 // transitions out of the root, by folded byte (0: stay)
	first []int32    // state s's edges are edges[first[s]:first[s+1]], sorted by byte
	edges []edge     // transitions out of every other state
	fail  []int32    // the longest proper suffix of a state's string that is a state
	term  []int32    // the distinct pattern a state spells, or -1
	dict  []int32    // the nearest state down the fail chain with a pattern (0: none)
	ids   [][]int    // distinct pattern → the indexes of New's patterns equal to it
	lens  []int      // distinct pattern → its length in bytes
	fold  *[256]byte // ASCII lower-casing
}

type edge struct {
	b  byte
	to int32
}

var asciiFold = func() *[256]byte {
	var t [256]byte
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return &t
}()

// New builds the automaton of patterns. Matching ignores ASCII case; empty
// patterns never match. Equal patterns (after folding) are all reported.
func New(patterns []string) *Matcher {
	m := &Matcher{n: len(patterns), fold: asciiFold}
	// The trie, with children in maps while it grows.
	children := []map[byte]int32{{}}
	term := []int32{-1}
	byPattern := map[string]int32{}
	for i, p := range patterns {
		if p == "" {
			continue
		}
		key := make([]byte, len(p))
		for j := 0; j < len(p); j++ {
			key[j] = asciiFold[p[j]]
		}
		if d, ok := byPattern[string(key)]; ok {
			m.ids[d] = append(m.ids[d], i)
			continue
		}
		s := int32(0)
		for _, c := range key {
			next, ok := children[s][c]
			if !ok {
				next = int32(len(children))
				children = append(children, map[byte]int32{})
				term = append(term, -1)
				children[s][c] = next
			}
			s = next
		}
		d := int32(len(m.ids))
		byPattern[string(key)] = d
		m.ids = append(m.ids, []int{i})
		m.lens = append(m.lens, len(key))
		term[s] = d
	}
	states := len(children)
	m.term = term
	m.first = make([]int32, states+1)
	for s, ch := range children {
		m.first[s+1] = m.first[s] + int32(len(ch))
	}
	m.edges = make([]edge, m.first[states])
	for s, ch := range children {
		es := m.edges[m.first[s]:m.first[s+1]]
		i := 0
		for b, to := range ch {
			es[i] = edge{b, to}
			i++
		}
		sort.Slice(es, func(a, b int) bool { return es[a].b < es[b].b })
	}
	for _, e := range m.edges[m.first[0]:m.first[1]] {
		m.root[e.b] = e.to
	}
	// Fail and dictionary links, breadth first so a state's suffixes are done first.
	m.fail = make([]int32, states)
	m.dict = make([]int32, states)
	queue := make([]int32, 0, states)
	for _, e := range m.edges[m.first[0]:m.first[1]] {
		queue = append(queue, e.to)
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, e := range m.edges[m.first[s]:m.first[s+1]] {
			f := m.fail[s]
			for {
				if to, ok := m.step(f, e.b); ok {
					m.fail[e.to] = to
					break
				}
				if f == 0 {
					m.fail[e.to] = 0
					break
				}
				f = m.fail[f]
			}
			if fs := m.fail[e.to]; m.term[fs] >= 0 {
				m.dict[e.to] = fs
			} else {
				m.dict[e.to] = m.dict[fs]
			}
			queue = append(queue, e.to)
		}
	}
	return m
}

// step is the trie transition from s on folded byte c, if there is one.
func (m *Matcher) step(s int32, c byte) (int32, bool) {
	if s == 0 {
		to := m.root[c]
		return to, to != 0
	}
	es := m.edges[m.first[s]:m.first[s+1]]
	if len(es) <= 8 {
		for _, e := range es {
			if e.b == c {
				return e.to, true
			}
		}
		return 0, false
	}
	i := sort.Search(len(es), func(i int) bool { return es[i].b >= c })
	if i < len(es) && es[i].b == c {
		return es[i].to, true
	}
	return 0, false
}

// Len is the number of patterns the matcher was built from.
func (m *Matcher) Len() int { return m.n }

// Find returns the indexes (into New's patterns) of every pattern that occurs in
// text at least once, overlapping occurrences included, in ascending order.
func (m *Matcher) Find(text []byte) []int {
	return m.find(text, nil)
}

// FindBounded is Find counting only the occurrences that ok accepts, given the
// text and the occurrence's byte offsets [start, end): a host that must not be
// the tail of a longer host, a word that must stand alone.
func (m *Matcher) FindBounded(text []byte, ok func(text []byte, start, end int) bool) []int {
	return m.find(text, ok)
}

func (m *Matcher) find(text []byte, ok func(text []byte, start, end int) bool) []int {
	if len(m.ids) == 0 {
		return nil
	}
	var seen []bool
	var out []int
	report := func(d int32, end int) {
		if seen == nil {
			seen = make([]bool, len(m.ids))
		}
		if !seen[d] && (ok == nil || ok(text, end-m.lens[d], end)) {
			seen[d] = true
			out = append(out, m.ids[d]...)
		}
	}
	s := int32(0)
	for i, c := range text {
		c = m.fold[c]
		for {
			if to, ok := m.step(s, c); ok {
				s = to
				break
			}
			if s == 0 {
				break
			}
			s = m.fail[s]
		}
		if s == 0 {
			continue
		}
		if d := m.term[s]; d >= 0 {
			report(d, i+1)
		}
		for o := m.dict[s]; o != 0; o = m.dict[o] {
			report(m.term[o], i+1)
		}
	}
	sort.Ints(out)
	return out
}
