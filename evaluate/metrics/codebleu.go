package metrics

import (
	"context"
	"hash/fnv"
	"math"
	"sort"
	"strings"

	"sccg/lang"
)

// CodeBLEU is the four components of CodeBLEU and their equal-weight combination.
type CodeBLEU struct {
	BLEU     float64 `json:"bleu"`
	Weighted float64 `json:"weighted_ngram"`
	Syntax   float64 `json:"syntax_match"`
	Dataflow float64 `json:"dataflow_match"`
	Score    float64 `json:"codebleu"`
}

// Analysis is what CodeBLEU needs from one piece of code: its tokens, their
// n-gram counts and the counts of its AST subtrees and data-flow edges. Compute it
// once per reference: every pair then reuses the reference's counts.
type Analysis struct {
	Tokens   []string
	Subtrees map[uint64]int
	NSub     int
	Flows    map[string]int
	NFlow    int
	grams    [4]map[string]int // n-gram counts, n = 1..4; nil when not analyzed
	// keywords are the reserved words of the code's language: a pair weighs its
	// unigrams by the reference's.
	keywords map[string]bool
}

// ngrams are the counts of the n-grams of a's tokens.
func (a *Analysis) ngrams(n int) map[string]int {
	if g := a.grams[n-1]; g != nil {
		return g
	}
	return ngrams(a.Tokens, n)
}

// Analyze tokenizes and parses code of dialect d with its language's frontend.
func Analyze(ctx context.Context, f lang.Frontend, d lang.Dialect, code string) Analysis {
	tree, err := f.Parse(ctx, d, []byte(code))
	if err != nil {
		return AnalyzeTree(code, f.Grammar(d), nil)
	}
	return AnalyzeTree(code, f.Grammar(d), tree)
}

// AnalyzeTree is Analyze over tree, a parse of code in grammar g that the caller
// made (nil: code could not be parsed), so that other analyses can share it.
func AnalyzeTree(code string, g *lang.Grammar, tree *lang.Tree) Analysis {
	a := Analysis{Tokens: Tokenize(g, code), Subtrees: map[uint64]int{}, Flows: map[string]int{}, keywords: g.Keywords}
	for n := 1; n <= 4; n++ {
		a.grams[n-1] = ngrams(a.Tokens, n)
	}
	if tree == nil {
		return a
	}
	subtreeHashes(tree.Root, g, a.Subtrees)
	for _, n := range a.Subtrees {
		a.NSub += n
	}
	for _, e := range dataflow(tree.Root, g, tree.Source) {
		a.Flows[e]++
		a.NFlow++
	}
	return a
}

// subtreeHashes records a structural hash (node kinds only, no identifiers or
// literals) of every named subtree with at least one named child.
func subtreeHashes(n *lang.Node, g *lang.Grammar, out map[uint64]int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(n.Kind))
	h.Write([]byte{'('})
	kids := 0
	for _, c := range n.Children {
		if !c.Named || g.Comments[c.Kind] {
			continue
		}
		ch := subtreeHashes(c, g, out)
		var b [8]byte
		for k := 0; k < 8; k++ {
			b[k] = byte(ch >> (8 * k))
		}
		h.Write(b[:])
		kids++
	}
	h.Write([]byte{')'})
	sum := h.Sum64()
	if kids > 0 {
		out[sum]++
	}
	return sum
}

// dataflow extracts normalized def-use edges: for each assignment target, the
// variables its value is computed from, and for each later use of a variable,
// where it comes from. Variable names are renamed var_0, var_1… in order of first
// appearance, so renaming does not change the graph. The grammar says which node
// kinds assign, loop, declare parameters, and which hold no variable (a member's
// name, a keyword argument's name).
func dataflow(root *lang.Node, g *lang.Grammar, src []byte) []string {
	names := map[string]string{}
	norm := func(s string) string {
		if v, ok := names[s]; ok {
			return v
		}
		v := "var_" + itoa(len(names))
		names[s] = v
		return v
	}
	defined := map[string]bool{}
	var edges []string
	var walk func(n *lang.Node)
	idents := func(n *lang.Node) []string {
		var out []string
		var rec func(m *lang.Node)
		rec = func(m *lang.Node) {
			if g.Identifiers[m.Kind] {
				out = append(out, m.Text(src))
				return
			}
			if b, ok := g.Members[m.Kind]; ok { // a.b: only the object is a variable
				if o := m.Child(b.Value); o != nil {
					rec(o)
				}
				return
			}
			if b, ok := g.NamedArguments[m.Kind]; ok { // f(x=y): x is not a variable
				if v := m.Child(b.Value); v != nil {
					rec(v)
				}
				return
			}
			for _, c := range m.Children {
				if c.Named {
					rec(c)
				}
			}
		}
		rec(n)
		return out
	}
	define := func(targets []string, from []string, rel string) {
		var srcs []string
		for _, f := range from {
			srcs = append(srcs, norm(f))
		}
		sort.Strings(srcs)
		for _, t := range targets {
			edges = append(edges, norm(t)+"|"+rel+"|"+strings.Join(srcs, ","))
			defined[t] = true
		}
	}
	walk = func(n *lang.Node) {
		if b, ok := g.Assignments[n.Kind]; ok {
			left, right := n.Child(b.Target), n.Child(b.Value)
			if right != nil {
				walk(right)
			}
			if left != nil {
				from := []string{}
				if right != nil {
					from = idents(right)
				}
				if g.Augmented[n.Kind] {
					from = append(from, idents(left)...)
				}
				if g.Patterns[left.Kind] {
					define(idents(left), from, "computedFrom")
				}
			}
			return
		}
		if b, ok := g.Loops[n.Kind]; ok {
			left, right := n.Child(b.Target), n.Child(b.Value)
			if right != nil {
				walk(right)
				if left != nil {
					define(idents(left), idents(right), "computedFrom")
				}
			}
			for _, c := range n.Children {
				if c.Named && c != left && c != right {
					walk(c)
				}
			}
			return
		}
		if g.Parameters[n.Kind] {
			for _, p := range idents(n) {
				define([]string{p}, nil, "param")
			}
			return
		}
		if b, ok := g.NamedArguments[n.Kind]; ok { // f(x=y): x is not a variable
			if v := n.Child(b.Value); v != nil {
				walk(v)
			}
			return
		}
		if b, ok := g.Members[n.Kind]; ok { // a.b: only the object is a variable
			if o := n.Child(b.Value); o != nil {
				walk(o)
			}
			return
		}
		if g.Identifiers[n.Kind] {
			name := n.Text(src)
			if defined[name] {
				edges = append(edges, norm(name)+"|comesFrom|"+norm(name))
			}
			return
		}
		for _, c := range n.Children {
			if c.Named {
				walk(c)
			}
		}
	}
	walk(root)
	return edges
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	p := len(b)
	for i > 0 {
		p--
		b[p] = byte('0' + i%10)
		i /= 10
	}
	return string(b[p:])
}

// Stats are the sufficient statistics of CodeBLEU for one candidate / reference
// pair; corpus-level CodeBLEU sums them over pairs, so they are kept with each
// result.
type Stats struct {
	Match    [4]float64 `json:"ngram_match"` // BLEU clipped n-gram matches, n = 1..4
	Total    [4]float64 `json:"ngram_total"` // candidate n-grams
	CandLen  float64    `json:"cand_len"`
	RefLen   float64    `json:"ref_len"`
	KwMatch  float64    `json:"keyword_match"` // unigram matches and totals, keywords and
	KwTotal  float64    `json:"keyword_total"` // other tokens apart (integer counts, so
	OtMatch  float64    `json:"other_match"`   // sums do not depend on order)
	OtTotal  float64    `json:"other_total"`
	SubMatch float64    `json:"subtree_match"`
	SubTotal float64    `json:"subtree_total"`
	DFMatch  float64    `json:"dataflow_match"`
	DFTotal  float64    `json:"dataflow_total"`
}

type counts = Stats

// PairStats computes the statistics of one pair.
func PairStats(cand, ref Analysis) Stats { return pairCounts(cand, ref) }

func pairCounts(cand, ref Analysis) counts {
	var c counts
	c.CandLen, c.RefLen = float64(len(cand.Tokens)), float64(len(ref.Tokens))
	for n := 1; n <= 4; n++ {
		rc := ref.ngrams(n)
		for g, k := range cand.ngrams(n) {
			c.Match[n-1] += math.Min(float64(k), float64(rc[g]))
			c.Total[n-1] += float64(k)
		}
	}
	// keyword-weighted unigram match (weights from the reference's vocabulary)
	rc := ref.ngrams(1)
	cc := cand.ngrams(1)
	for g, k := range cc {
		if ref.keywords[g] {
			c.KwMatch += math.Min(float64(k), float64(rc[g]))
			c.KwTotal += float64(k)
		} else {
			c.OtMatch += math.Min(float64(k), float64(rc[g]))
			c.OtTotal += float64(k)
		}
	}
	for h, k := range ref.Subtrees {
		c.SubMatch += math.Min(float64(k), float64(cand.Subtrees[h]))
	}
	c.SubTotal = float64(ref.NSub)
	for e, k := range ref.Flows {
		c.DFMatch += math.Min(float64(k), float64(cand.Flows[e]))
	}
	c.DFTotal = float64(ref.NFlow)
	return c
}

func ngrams(toks []string, n int) map[string]int {
	m := map[string]int{}
	for i := 0; i+n <= len(toks); i++ {
		m[strings.Join(toks[i:i+n], "\x00")]++
	}
	return m
}

func (c counts) score(smooth bool) CodeBLEU {
	var out CodeBLEU
	bp := 1.0
	if c.CandLen == 0 {
		bp = 0
	} else if c.CandLen < c.RefLen {
		bp = math.Exp(1 - c.RefLen/c.CandLen)
	}
	logSum := 0.0
	ok := true
	for i := 0; i < 4; i++ {
		m, t := c.Match[i], c.Total[i]
		if smooth && i > 0 { // add-one smoothing for n > 1 (sentence level)
			m, t = m+1, t+1
		}
		if t == 0 || m == 0 {
			ok = false
			break
		}
		logSum += math.Log(m/t) / 4
	}
	if ok {
		out.BLEU = bp * math.Exp(logSum)
	}
	// keywords weigh 1, other tokens 0.2
	if wTotal := c.KwTotal + 0.2*c.OtTotal; wTotal > 0 {
		out.Weighted = bp * (c.KwMatch + 0.2*c.OtMatch) / wTotal
	}
	parts := []float64{out.BLEU, out.Weighted}
	if c.SubTotal > 0 {
		out.Syntax = c.SubMatch / c.SubTotal
		parts = append(parts, out.Syntax)
	}
	if c.DFTotal > 0 {
		out.Dataflow = c.DFMatch / c.DFTotal
		parts = append(parts, out.Dataflow)
	}
	// Equal weights; a component the reference does not have (no subtree, no data
	// flow) is left out and the others share its weight.
	for _, p := range parts {
		out.Score += p / float64(len(parts))
	}
	return out
}

// Score is the sentence-level CodeBLEU of one candidate against one reference
// (BLEU with add-one smoothing for 2- to 4-grams).
func Score(cand, ref Analysis) CodeBLEU { return pairCounts(cand, ref).score(true) }

// Corpus accumulates pairs for corpus-level CodeBLEU.
type Corpus struct{ c counts }

// Add adds one candidate / reference pair.
func (k *Corpus) Add(cand, ref Analysis) { k.AddStats(pairCounts(cand, ref)) }

// AddStats adds the statistics of one pair.
func (k *Corpus) AddStats(p Stats) {
	for i := 0; i < 4; i++ {
		k.c.Match[i] += p.Match[i]
		k.c.Total[i] += p.Total[i]
	}
	k.c.CandLen += p.CandLen
	k.c.RefLen += p.RefLen
	k.c.KwMatch += p.KwMatch
	k.c.KwTotal += p.KwTotal
	k.c.OtMatch += p.OtMatch
	k.c.OtTotal += p.OtTotal
	k.c.SubMatch += p.SubMatch
	k.c.SubTotal += p.SubTotal
	k.c.DFMatch += p.DFMatch
	k.c.DFTotal += p.DFTotal
}

// Score is the sentence-level CodeBLEU of one pair's statistics.
func (p Stats) Score() CodeBLEU { return p.score(true) }

// Score is the corpus-level CodeBLEU of the pairs added so far.
func (k *Corpus) Score() CodeBLEU { return k.c.score(false) }
