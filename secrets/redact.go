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

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

// ErrBrokeSyntax is returned when redaction would turn parseable code into code that
// does not parse; the caller must not use the result.
var ErrBrokeSyntax = errors.New("redacted code no longer parses")

// Scanner finds credentials in Python code. It holds a tree-sitter parser, so one
// Scanner must not be used by two goroutines at once; make one per worker.
type Scanner struct {
	parser *sitter.Parser
	query  *sitter.Query
	cursor *sitter.QueryCursor
}

// contextQuery selects the only nodes find looks at, so the tree is not walked
// node by node through cgo.
const contextQuery = `
(string_content) @n
(comment) @n
(pair) @n
(keyword_argument) @n
(assignment) @n
(default_parameter) @n
(typed_default_parameter) @n
(call) @n
`

// NewScanner returns a Scanner for Python.
func NewScanner() *Scanner {
	p := sitter.NewParser()
	lang := python.GetLanguage()
	p.SetLanguage(lang)
	q, err := sitter.NewQuery([]byte(contextQuery), lang)
	if err != nil {
		panic(fmt.Sprintf("secrets: context query: %v", err)) // a constant: fails in every test
	}
	return &Scanner{parser: p, query: q, cursor: sitter.NewQueryCursor()}
}

// Close releases the parser and query.
func (s *Scanner) Close() {
	s.cursor.Close()
	s.query.Close()
	s.parser.Close()
}

// Find returns the credentials and personal data in src, in source order, without
// overlaps: value patterns in every string literal and comment, and literals that
// their syntactic context names as credentials.
func (s *Scanner) Find(ctx context.Context, src []byte) ([]Finding, error) {
	fs, _, err := s.find(ctx, src)
	return fs, err
}

func (s *Scanner) find(ctx context.Context, src []byte) ([]Finding, bool, error) {
	tree, err := s.parser.ParseCtx(ctx, nil, src)
	if err != nil {
		return nil, false, fmt.Errorf("parse for secrets: %w", err)
	}
	defer tree.Close()
	root := tree.RootNode()
	return s.FindTree(root, src), !root.HasError(), nil
}

// FindTree is Find over a tree-sitter Python tree of src that the caller parsed
// (and shares with its other uses of the parse).
func (s *Scanner) FindTree(root *sitter.Node, src []byte) []Finding {
	var out []Finding
	s.cursor.Exec(s.query, root)
	for {
		m, ok := s.cursor.NextMatch()
		if !ok {
			break
		}
		for _, c := range m.Captures {
			out = append(out, nodeFindings(c.Node, src)...)
		}
	}
	out = dedupe(out)
	for i := range out {
		out[i].Line = 1 + bytes.Count(src[:out[i].Start], []byte("\n"))
	}
	return out
}

// nodeFindings are the findings one selected node contributes.
func nodeFindings(n *sitter.Node, src []byte) []Finding {
	var out []Finding
	func() {
		switch n.Type() {
		case "string_content":
			out = append(out, findPatterns(string(src[n.StartByte():n.EndByte()]), int(n.StartByte()))...)
		case "comment":
			out = append(out, findPatterns(string(src[n.StartByte():n.EndByte()]), int(n.StartByte()))...)
		case "pair":
			if name, ok := plainString(n.ChildByFieldName("key"), src); ok {
				out = append(out, contextFinding(name, "header", n.ChildByFieldName("value"), src)...)
			}
		case "keyword_argument":
			name := n.ChildByFieldName("name")
			val := n.ChildByFieldName("value")
			if name == nil || val == nil {
				return
			}
			nm := name.Content(src)
			if (nm == "auth" || nm == "proxy_auth") && val.Type() == "tuple" && val.NamedChildCount() == 2 {
				out = append(out, contextFinding("password", "argument", val.NamedChild(1), src)...)
				return
			}
			out = append(out, contextFinding(nm, "argument", val, src)...)
		case "assignment":
			left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
			if left == nil || right == nil {
				return
			}
			out = append(out, contextFinding(targetName(left, src), "variable", right, src)...)
		case "default_parameter", "typed_default_parameter":
			name, val := n.ChildByFieldName("name"), n.ChildByFieldName("value")
			if name == nil || val == nil {
				return
			}
			out = append(out, contextFinding(name.Content(src), "parameter", val, src)...)
		case "call":
			// os.getenv("API_KEY", "fallback") and os.environ.get(...): the fallback.
			fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
			if fn == nil || args == nil || args.NamedChildCount() < 2 {
				return
			}
			f := fn.Content(src)
			if !strings.HasSuffix(f, "getenv") && !strings.HasSuffix(f, "environ.get") && !strings.HasSuffix(f, "environ.setdefault") {
				return
			}
			if name, ok := plainString(args.NamedChild(0), src); ok {
				out = append(out, contextFinding(name, "default", args.NamedChild(1), src)...)
			}
		}
	}()
	return out
}

// plainString returns the content of a string literal without interpolations.
func plainString(n *sitter.Node, src []byte) (string, bool) {
	st, en, ok := contentSpan(n)
	if !ok {
		return "", false
	}
	return string(src[st:en]), true
}

// contentSpan is the byte span between a plain string literal's quotes.
func contentSpan(n *sitter.Node) (int, int, bool) {
	if n == nil || n.Type() != "string" {
		return 0, 0, false
	}
	var start, end = -1, -1
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		switch c.Type() {
		case "string_start":
			start = int(c.EndByte())
		case "string_end":
			end = int(c.StartByte())
		case "interpolation":
			return 0, 0, false
		}
	}
	if start < 0 || end < start {
		return 0, 0, false
	}
	return start, end, true
}

// targetName is the name an assignment target gives its value: a variable, the
// last attribute, or a string subscript (headers["X-RapidAPI-Key"]).
func targetName(n *sitter.Node, src []byte) string {
	switch n.Type() {
	case "identifier":
		return n.Content(src)
	case "attribute":
		if a := n.ChildByFieldName("attribute"); a != nil {
			return a.Content(src)
		}
	case "subscript":
		if s := n.ChildByFieldName("subscript"); s != nil {
			if v, ok := plainString(s, src); ok {
				return v
			}
		}
	}
	return ""
}

// contextFinding reports val when name says it is a credential and val is a plain
// string literal shaped like one. Values already caught by a pattern are left to it.
func contextFinding(name, rule string, val *sitter.Node, src []byte) []Finding {
	st, en, ok := contentSpan(val)
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
		tree, err := s.parser.ParseCtx(ctx, nil, out)
		if err != nil {
			return nil, nil, fmt.Errorf("reparse redacted code: %w", err)
		}
		bad := tree.RootNode().HasError()
		tree.Close()
		if bad {
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
