package secrets

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"sccg/lang"
)

// ErrBrokeSyntax is returned when redaction would turn parseable code into code that
// does not parse; the caller must not use the result.
var ErrBrokeSyntax = errors.New("redacted code no longer parses")

// Scanner finds credentials in code of one language and dialect, parsed by the
// language's frontend. It holds no state of its own: one Scanner may serve many
// goroutines.
type Scanner struct {
	f lang.Frontend
	d lang.Dialect
}

// NewScanner returns a Scanner for code of dialect d read by frontend f.
func NewScanner(f lang.Frontend, d lang.Dialect) *Scanner { return &Scanner{f: f, d: d} }

// Find returns the credentials and personal data in src, in source order, without
// overlaps: value patterns in every string literal and comment, and literals that
// their syntactic context names as credentials.
func (s *Scanner) Find(ctx context.Context, src []byte) ([]Finding, error) {
	fs, _, err := s.find(ctx, src)
	return fs, err
}

func (s *Scanner) find(ctx context.Context, src []byte) ([]Finding, bool, error) {
	tree, err := s.f.Parse(ctx, s.d, src)
	if err != nil {
		return nil, false, fmt.Errorf("parse for secrets: %w", err)
	}
	return FindTree(tree), !tree.HasError(), nil
}

// FindTree is Find over a tree the caller parsed (and shares with its other uses
// of the parse); its grammar says which nodes are literals, comments and the
// contexts that name a value.
func FindTree(t *lang.Tree) []Finding {
	var out []Finding
	src, g := t.Source, t.Grammar
	t.Root.Walk(func(n *lang.Node) bool {
		out = append(out, nodeFindings(n, g, src)...)
		return true
	})
	out = dedupe(out)
	for i := range out {
		out[i].Line = 1 + bytes.Count(src[:out[i].Start], []byte("\n"))
	}
	return out
}

// nodeFindings are the findings one node contributes.
func nodeFindings(n *lang.Node, g *lang.Grammar, src []byte) []Finding {
	k := n.Kind
	switch {
	case g.StringParts[k] || g.Comments[k]:
		return findPatterns(string(src[n.Start:n.End]), n.Start)
	}
	if b, ok := g.Pairs[k]; ok {
		key := n.Child(b.Target)
		name, ok := plainString(key, g, src)
		if !ok && key != nil && g.PropertyNames[key.Kind] {
			name, ok = key.Text(src), true
		}
		if ok {
			return contextFinding(name, "header", n.Child(b.Value), g, src)
		}
		return nil
	}
	if b, ok := g.NamedArguments[k]; ok {
		name, val := n.Child(b.Target), n.Child(b.Value)
		if name == nil || val == nil {
			return nil
		}
		nm := name.Text(src)
		if g.CredentialTuples[nm] && g.Tuples[val.Kind] {
			if kids := val.NamedChildren(); len(kids) == 2 {
				return contextFinding("password", "argument", kids[1], g, src)
			}
		}
		return contextFinding(nm, "argument", val, g, src)
	}
	if b, ok := g.Assignments[k]; ok && !g.Augmented[k] {
		left, right := n.Child(b.Target), n.Child(b.Value)
		if left == nil || right == nil {
			return nil
		}
		return contextFinding(targetName(left, g, src), "variable", right, g, src)
	}
	if b, ok := g.Defaults[k]; ok {
		name, val := n.Child(b.Target), n.Child(b.Value)
		if name == nil || val == nil {
			return nil
		}
		return contextFinding(name.Text(src), "parameter", val, g, src)
	}
	if b, ok := g.Calls[k]; ok {
		// os.getenv("API_KEY", "fallback"), xhr.setRequestHeader("X-Key", "…"):
		// the first argument names the second.
		fn, args := n.Child(b.Target), n.Child(b.Value)
		if fn == nil || args == nil {
			return nil
		}
		kids := args.NamedChildren()
		if len(kids) < 2 {
			return nil
		}
		f := fn.Text(src)
		for _, c := range g.NameValueCalls {
			if strings.HasSuffix(f, c.Suffix) {
				if name, ok := plainString(kids[0], g, src); ok {
					return contextFinding(name, c.Rule, kids[1], g, src)
				}
				return nil
			}
		}
	}
	return nil
}

// plainString returns the content of a string literal without interpolations.
func plainString(n *lang.Node, g *lang.Grammar, src []byte) (string, bool) {
	st, en, ok := contentSpan(n, g)
	if !ok {
		return "", false
	}
	return string(src[st:en]), true
}

// contentSpan is the byte span between a plain string literal's delimiters.
func contentSpan(n *lang.Node, g *lang.Grammar) (int, int, bool) {
	if n == nil || !g.Strings[n.Kind] || len(n.Children) < 2 {
		return 0, 0, false
	}
	first, last := n.Children[0], n.Children[len(n.Children)-1]
	if !g.StringDelimiters[first.Kind] || !g.StringDelimiters[last.Kind] {
		return 0, 0, false
	}
	for _, c := range n.Children {
		if g.Interpolations[c.Kind] {
			return 0, 0, false
		}
	}
	if last.Start < first.End {
		return 0, 0, false
	}
	return first.End, last.Start, true
}

// targetName is the name an assignment target gives its value: a variable, the
// last member, or a string subscript (headers["X-RapidAPI-Key"]).
func targetName(n *lang.Node, g *lang.Grammar, src []byte) string {
	if g.Identifiers[n.Kind] {
		return n.Text(src)
	}
	if b, ok := g.Members[n.Kind]; ok {
		if a := n.Child(b.Target); a != nil {
			return a.Text(src)
		}
	}
	if b, ok := g.Subscripts[n.Kind]; ok {
		if s := n.Child(b.Target); s != nil {
			if v, ok := plainString(s, g, src); ok {
				return v
			}
		}
	}
	return ""
}

// contextFinding reports val when name says it is a credential and val is a plain
// string literal shaped like one. Values already caught by a pattern are left to it.
func contextFinding(name, rule string, val *lang.Node, g *lang.Grammar, src []byte) []Finding {
	st, en, ok := contentSpan(val, g)
	if !ok {
		return nil
	}
	return valueFinding(name, rule, string(src[st:en]), st)
}

// valueFinding reports v (found at offset base) when name labels it as a
// credential and it is shaped like one: the whole value, or the part after a
// "Bearer " / "Token " / "Basic " scheme.
func valueFinding(name, rule, v string, base int) []Finding {
	kind := nameKind(name)
	if kind == "" || len(findPatterns(v, 0)) > 0 {
		return nil
	}
	lv := strings.ToLower(v)
	for _, pre := range []string{"bearer ", "token ", "basic "} {
		if strings.HasPrefix(lv, pre) {
			rest := strings.TrimSpace(v[len(pre):])
			if !credentialValue(KindAccessToken, rest) {
				return nil
			}
			k := KindAccessToken
			if pre == "basic " {
				k = KindBasicCredential
			}
			return []Finding{{Kind: k, Rule: rule, Start: base + len(v) - len(rest), End: base + len(v)}}
		}
	}
	if !credentialValue(kind, v) {
		return nil
	}
	return []Finding{{Kind: kind, Rule: rule, Start: base, End: base + len(v)}}
}

// RedactValue redacts a value that name labels (a header, a field, a parameter):
// value patterns anywhere in it, and the whole value when the name says it is a
// credential and it looks like one.
func RedactValue(name, v string) (string, []Finding) {
	fs := findPatterns(v, 0)
	fs = append(fs, valueFinding(name, "field", v, 0)...)
	fs = dedupe(fs)
	if len(fs) == 0 {
		return v, nil
	}
	return string(Apply([]byte(v), fs)), fs
}

// FindValue finds what RedactValue would replace in v.
func FindValue(name, v string) []Finding {
	fs := findPatterns(v, 0)
	fs = append(fs, valueFinding(name, "field", v, 0)...)
	fs = dedupe(fs)
	for i := range fs {
		fs[i].Line = 1 + strings.Count(v[:fs[i].Start], "\n")
	}
	return fs
}

// RedactJSON redacts every string of a JSON document with RedactValue, the name
// being the object key that holds it (or, for a parameter's example, the
// parameter's name). Object keys themselves are kept.
func RedactJSON(raw []byte) ([]byte, []Finding, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return raw, nil, nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, nil, fmt.Errorf("redact JSON: %w", err)
	}
	var all []Finding
	var walk func(name string, v any) any
	walk = func(name string, v any) any {
		switch x := v.(type) {
		case string:
			out, fs := RedactValue(name, x)
			all = append(all, fs...)
			return out
		case []any:
			for i := range x {
				x[i] = walk(name, x[i])
			}
		case map[string]any:
			pname, _ := x["name"].(string)
			for k, e := range x {
				n := k
				if (k == "example" || k == "default" || k == "value") && pname != "" {
					n = pname
				}
				x[k] = walk(n, e)
			}
		}
		return v
	}
	v = walk("", v)
	if len(all) == 0 {
		return raw, nil, nil
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, nil, fmt.Errorf("redact JSON: %w", err)
	}
	return out, all, nil
}

// dedupe sorts findings and drops those overlapping an earlier, longer one.
func dedupe(fs []Finding) []Finding {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(b.End, a.End)) // longest first at one start
	})
	var out []Finding
	for _, f := range fs {
		if len(out) > 0 && f.Start < out[len(out)-1].End {
			continue
		}
		out = append(out, f)
	}
	return out
}

// Redact replaces every finding in src with its typed placeholder. It returns the
// redacted code and the findings (kinds, rules and lines — never the values). When
// src parses and the result would not, it returns ErrBrokeSyntax.
func (s *Scanner) Redact(ctx context.Context, src []byte) ([]byte, []Finding, error) {
	fs, parsed, err := s.find(ctx, src)
	if err != nil {
		return nil, nil, err
	}
	if len(fs) == 0 {
		return src, nil, nil
	}
	out := Apply(src, fs)
	if parsed {
		tree, err := s.f.Parse(ctx, s.d, out)
		if err != nil {
			return nil, nil, fmt.Errorf("reparse redacted code: %w", err)
		}
		if tree.HasError() {
			return nil, fs, ErrBrokeSyntax
		}
	}
	return out, fs, nil
}

// Apply replaces non-overlapping, sorted findings in src with their placeholders.
func Apply(src []byte, fs []Finding) []byte {
	var b bytes.Buffer
	b.Grow(len(src))
	last := 0
	for _, f := range fs {
		b.Write(src[last:f.Start])
		b.WriteString(Placeholder(f.Kind))
		last = f.End
	}
	b.Write(src[last:])
	return b.Bytes()
}

// RedactText replaces pattern findings in free text.
func RedactText(s string) (string, []Finding) {
	fs := dedupe(FindText(s))
	if len(fs) == 0 {
		return s, nil
	}
	for i := range fs {
		fs[i].Line = 1 + strings.Count(s[:fs[i].Start], "\n")
	}
	return string(Apply([]byte(s), fs)), fs
}

// Within returns the findings of a text that fall inside its part text[off:off+n],
// with offsets and lines made relative to that part. A caller that redacted a
// self-contained function uses it to redact the function as written, which is a
// part of it, without parsing again.
func Within(fs []Finding, text []byte, off, n int) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Start >= off && f.End <= off+n {
			g := f
			g.Start, g.End = f.Start-off, f.End-off
			g.Line = 1 + bytes.Count(text[off:f.Start], []byte("\n"))
			out = append(out, g)
		}
	}
	return out
}
