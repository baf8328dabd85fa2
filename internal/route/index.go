package route

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
)

// Fit says how a path as code writes it (with {name} placeholders for what could
// not be resolved) fits one route template, segment by segment. A literal segment
// matched by the same literal of the template is strong evidence; a literal that
// only fills a template parameter is weak ("commits" as {repo}); a placeholder may
// stand for several consecutive parameter segments ({repository} for
// {owner}/{repo}), which Spanned counts.
type Fit struct {
	Literal int // path literals matched by the same template literal
	Filled  int // path literals that filled a template parameter
	Spanned int // template segments, beyond one, that placeholders of the path stand for
	// Empty counts the empty segments of the path ("/repos//x") that filled a
	// template parameter with the empty value; they are also counted in Filled.
	Empty int
	// Bindings say what of the path each template parameter took, in template order,
	// for a reader: "{repo}=commits", "{owner}/{repo}={repository}", "{owner}=" (empty).
	Bindings []string
}

// Compare orders fits, better first: more literal-to-literal segments, then fewer
// segments spanned by a placeholder, then fewer literals filling parameters.
func (f Fit) Compare(g Fit) int {
	return cmp.Or(cmp.Compare(g.Literal, f.Literal), cmp.Compare(f.Spanned, g.Spanned), cmp.Compare(f.Filled, g.Filled))
}

// MaxSpan is the most template segments one placeholder of a path may stand for.
const MaxSpan = 4

// Index finds the route templates a path fits without trying each: the templates
// are kept in a tree of their segments (literal children by text, one child for
// whole-segment parameters, and the few segments that mix literal and parameter),
// so a lookup follows only the branches the path's segments allow and its cost
// does not grow with the number of templates. Index is read-only after its Adds
// and then safe for concurrent use.
type Index struct {
	root  *trieNode
	segs  [][]tseg // template segments by id
	count int
}

// Hit is a template that fits a path: the id it was added with and how it fits.
type Hit struct {
	ID  int
	Fit Fit
}

type tsegKind uint8

const (
	segLiteral tsegKind = iota
	segParam            // {name} or :name, the whole segment
	segPattern          // literal and parameter parts in one segment: {id}.json
)

type tseg struct {
	kind tsegKind
	text string
	re   *regexp.Regexp // segPattern only
}

type trieNode struct {
	lit   map[string]*trieNode
	param *trieNode
	pats  []patChild
	ends  []int
}

type patChild struct {
	text string
	re   *regexp.Regexp
	node *trieNode
}

// NewIndex returns an empty index.
func NewIndex() *Index { return &Index{root: &trieNode{}} }

// Len is the number of templates added.
func (x *Index) Len() int { return x.count }

// Add indexes template under id; ids are the caller's (an index into its own list).
func (x *Index) Add(template string, id int) {
	segs := templateSegs(template)
	for len(x.segs) <= id {
		x.segs = append(x.segs, nil)
	}
	x.segs[id] = segs
	x.count++
	n := x.root
	for _, s := range segs {
		switch s.kind {
		case segLiteral:
			if n.lit == nil {
				n.lit = map[string]*trieNode{}
			}
			c := n.lit[s.text]
			if c == nil {
				c = &trieNode{}
				n.lit[s.text] = c
			}
			n = c
		case segParam:
			if n.param == nil {
				n.param = &trieNode{}
			}
			n = n.param
		case segPattern:
			var c *trieNode
			for _, p := range n.pats {
				if p.text == s.text {
					c = p.node
				}
			}
			if c == nil {
				c = &trieNode{}
				n.pats = append(n.pats, patChild{text: s.text, re: s.re, node: c})
			}
			n = c
		}
	}
	n.ends = append(n.ends, id)
}

// templateSegs splits a template into its segments, read as Compile reads them.
func templateSegs(template string) []tseg {
	norm := NormalizePath(template)
	if norm == "/" {
		return nil
	}
	parts := strings.Split(norm[1:], "/")
	out := make([]tseg, len(parts))
	for i, seg := range parts {
		switch {
		case len(seg) > 1 && seg[0] == ':':
			out[i] = tseg{kind: segParam, text: seg}
		case wholeParam(seg):
			out[i] = tseg{kind: segParam, text: seg}
		case strings.Contains(seg, "{") && strings.Contains(seg[strings.IndexByte(seg, '{'):], "}"):
			pat, _, _ := segmentPattern(seg)
			out[i] = tseg{kind: segPattern, text: seg, re: regexp.MustCompile("^" + pat + "$")}
		default:
			out[i] = tseg{kind: segLiteral, text: seg}
		}
	}
	return out
}

// wholeParam reports a segment that is one {name} and nothing else.
func wholeParam(seg string) bool {
	return len(seg) > 2 && seg[0] == '{' && seg[len(seg)-1] == '}' && strings.Count(seg, "{") == 1 && strings.Count(seg, "}") == 1
}

// segmentPattern is the regexp of one template segment: its literal parts quoted,
// each {name} part one or more characters other than a slash; with the number of
// literal characters and of parameter parts.
func segmentPattern(seg string) (pattern string, literal, params int) {
	var b strings.Builder
	rest := seg
	for rest != "" {
		open := strings.IndexByte(rest, '{')
		closing := -1
		if open >= 0 {
			closing = strings.IndexByte(rest[open:], '}')
		}
		if open < 0 || closing < 0 {
			b.WriteString(regexp.QuoteMeta(rest))
			literal += len(rest)
			break
		}
		b.WriteString(regexp.QuoteMeta(rest[:open]))
		literal += open
		b.WriteString(`[^/]+`)
		params++
		rest = rest[open+closing+1:]
	}
	return b.String(), literal, params
}

// pathSeg is one segment of a path as code writes it.
type pathSeg struct {
	text        string
	placeholder bool // the whole segment is one {name}
	literal     bool // no placeholder in it
}

func pathSegs(path string) []pathSeg {
	return splitSegs(NormalizePath(path))
}

// splitSegs splits a path already in the form routes are compared in.
func splitSegs(norm string) []pathSeg {
	if norm == "/" {
		return nil
	}
	parts := strings.Split(norm[1:], "/")
	out := make([]pathSeg, len(parts))
	for i, p := range parts {
		out[i] = pathSeg{text: p, placeholder: wholeParam(p), literal: !strings.Contains(p, "{")}
	}
	return out
}

// step is one template segment's share of a path: the path segments [from, to).
type step struct{ from, to int }

// Lookup returns every template the path fits, each once with its best fit, in
// the order they were added. On a path without placeholders the templates it
// returns are exactly those whose Compile(...).Match(path) holds. A placeholder of
// the path fits a template parameter, never a literal; it may stand for up to
// MaxSpan consecutive parameter segments, but only in a fit that also has a
// literal-to-literal match, so "{x}" alone never fits "/{owner}/{repo}". A path
// with empty segments is looked up as Match reads it: with each empty segment the
// empty value of a parameter (Fit.Empty counts them), and with its slashes
// collapsed.
func (x *Index) Lookup(path string) []Hit {
	best := map[int]Fit{}
	var order []int
	x.lookup(pathSegs(path), best, &order)
	if raw, ok := emptySegments(path); ok {
		x.lookup(splitSegs(raw), best, &order)
	}
	out := make([]Hit, 0, len(order))
	for _, id := range order {
		out = append(out, Hit{ID: id, Fit: best[id]})
	}
	slices.SortFunc(out, func(a, b Hit) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// lookup walks the tree along segs, recording each template it reaches with its
// best fit in best (and, the first time, in order).
func (x *Index) lookup(segs []pathSeg, best map[int]Fit, order *[]int) {
	empty := 0
	for _, s := range segs {
		if s.text == EmptySegment {
			empty++
		}
	}
	var steps []step
	var walk func(n *trieNode, i int, lit, filled, spanned int)
	walk = func(n *trieNode, i int, lit, filled, spanned int) {
		if i == len(segs) {
			for _, id := range n.ends {
				if spanned > 0 && lit == 0 {
					continue
				}
				f := Fit{Literal: lit, Filled: filled, Spanned: spanned, Empty: empty}
				old, seen := best[id]
				if !seen {
					*order = append(*order, id)
				}
				if !seen || f.Compare(old) < 0 {
					f.Bindings = bindings(x.segs[id], segs, steps)
					best[id] = f
				}
			}
			return
		}
		s := segs[i]
		if c := n.lit[s.text]; c != nil {
			steps = append(steps, step{i, i + 1})
			walk(c, i+1, lit+1, filled, spanned)
			steps = steps[:len(steps)-1]
		}
		if n.param != nil {
			add := 0
			if s.literal {
				add = 1
			}
			steps = append(steps, step{i, i + 1})
			walk(n.param, i+1, lit, filled+add, spanned)
			steps = steps[:len(steps)-1]
			if s.placeholder {
				// {repository} for {owner}/{repo}: one placeholder, several parameters.
				c := n.param
				for k := 2; k <= MaxSpan && c.param != nil; k++ {
					c = c.param
					for j := 1; j < k; j++ {
						steps = append(steps, step{i, i + 1})
					}
					steps = append(steps, step{i, i + 1})
					walk(c, i+1, lit, filled, spanned+k-1)
					steps = steps[:len(steps)-k]
				}
			}
		}
		for _, p := range n.pats {
			if p.re.MatchString(s.text) {
				add := 0
				if s.literal {
					add = 1
				}
				steps = append(steps, step{i, i + 1})
				walk(p.node, i+1, lit+add, filled, spanned)
				steps = steps[:len(steps)-1]
			}
		}
	}
	walk(x.root, 0, 0, 0, 0)
}

// bindings describe what each parameter of a template took from the path: a
// literal that filled it, or the placeholder that stood for it (several
// parameters spanned by one placeholder are written together).
func bindings(tsegs []tseg, psegs []pathSeg, steps []step) []string {
	var out []string
	for k := 0; k < len(steps) && k < len(tsegs); k++ {
		if tsegs[k].kind == segLiteral {
			continue
		}
		names := []string{tsegs[k].text}
		for k+1 < len(steps) && steps[k+1] == steps[k] {
			k++
			names = append(names, tsegs[k].text)
		}
		out = append(out, strings.Join(names, "/")+"="+strings.ReplaceAll(psegs[steps[k].from].text, EmptySegment, ""))
	}
	return out
}

// Selection is a template a path fits only when its placeholders may stand for
// literal segments: the endpoint is chosen by a value the code does not write
// ("/v4/{type}/{id}/full" for "/v4/anime/{id}/full"; "/v1/{param}" for
// "/v1/artists/{id}", the placeholder standing for the whole tail).
type Selection struct {
	ID int
	// Stood are the placeholders that stood for literal segments, in path order.
	Stood []Stand
}

// Stand is one placeholder of a path and what of a template it stood for.
type Stand struct {
	Placeholder string // as the path writes it: "{type}"
	Template    string // the template segments it stood for: "anime", "artists/{id}"
	Tail        bool   // the path's last segment, standing for the rest of the template
}

// Selections returns the templates the path fits when each of its whole-segment
// placeholders may also stand for one literal segment, and its last placeholder
// for the template's rest when that starts with a literal, excluding the fits Lookup finds (where no
// placeholder stands for a literal). It tries every template, so it is meant for
// the rare path that Lookup finds nothing for. Results are in id order.
func (x *Index) Selections(path string) []Selection {
	segs := pathSegs(path)
	var out []Selection
	for id, ts := range x.segs {
		if len(ts) == 0 {
			continue
		}
		if stood, ok := selectFit(ts, segs); ok && len(stood) > 0 {
			out = append(out, Selection{ID: id, Stood: stood})
		}
	}
	return out
}

// selectFit matches path segments against template segments, a placeholder
// standing for a literal (or, at the path's end, for the template's rest) where it
// must; it returns the stands it needed.
func selectFit(ts []tseg, ps []pathSeg) ([]Stand, bool) {
	var stood []Stand
	i := 0
	for k, p := range ps {
		if i >= len(ts) {
			return nil, false
		}
		t := ts[i]
		if p.placeholder && k == len(ps)-1 && len(ts)-i > 1 && t.kind == segLiteral {
			var rest []string
			for _, r := range ts[i:] {
				rest = append(rest, r.text)
			}
			return append(stood, Stand{Placeholder: p.text, Template: strings.Join(rest, "/"), Tail: true}), true
		}
		switch {
		case t.kind == segLiteral && p.text == t.text:
		case t.kind == segParam:
		case t.kind == segPattern && (p.placeholder || t.re.MatchString(p.text)):
		case t.kind == segLiteral && p.placeholder:
			stood = append(stood, Stand{Placeholder: p.text, Template: t.text, Tail: k == len(ps)-1})
		default:
			return nil, false
		}
		i++
	}
	return stood, i == len(ts)
}
