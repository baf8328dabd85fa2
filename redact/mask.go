package redact

import (
	"context"
	"fmt"
	"regexp"
	"sccg/lang"
	"sccg/lang/frontends"
	"slices"
	"strings"

	"sccg/leakcheck"
)

// Placeholder is one typed placeholder masking put in the code, with what it stands
// for: the original text, or for a header value (which may be a credential) only
// the header's name.
type Placeholder struct {
	Token    string `json:"token"` // <HOST>, <PARAM_1>, … (HOST, SEGMENT_1 … in identifiers)
	Kind     string `json:"kind"`  // a leak kind, or header_value
	Original string `json:"original,omitempty"`
	Count    int    `json:"count"`
}

// KindHeaderValue is the placeholder kind of a masked header value.
const KindHeaderValue = "header_value"

// Masked is ỹ: a sample's code with its ground truth replaced by typed placeholders,
// and what the offline generator reads from it.
type Masked struct {
	Code         string        `json:"code"`
	Placeholders []Placeholder `json:"placeholders"`
	// Name, Parameters and Returns are the masked function's name, parameter names
	// and return expressions, as they read after masking.
	Name       string   `json:"name,omitempty"`
	Parameters []string `json:"parameters,omitempty"`
	Returns    []string `json:"returns,omitempty"`
}

// MaskOptions say what else than g masking needs to know.
type MaskOptions struct {
	// Function is the name (or qualname) of the sample's function in the code.
	Function string
	// Headers are the names of the headers the code's calls send; their values are
	// masked wherever they are written as a pair's value.
	Headers []string
	// Language and Dialect are the code's ("" means Python).
	Language lang.Name
	Dialect  lang.Dialect
}

// Placeholder tokens.
const (
	tokHost    = "<HOST>"
	tokURL     = "<URL>"
	tokRoute   = "<ROUTE>"
	tokAPIName = "<API_NAME>"
	idHost     = "HOST"
)

// Mask replaces in code, using g, the host, URLs on the host, the route and each of
// its literal segments, parameter keys and values, header values, and the API's
// names with typed placeholders (<HOST>, <URL>, <ROUTE>, <SEGMENT_1>, <PARAM_1>,
// <VALUE_1>, <HEADER_1>, <API_NAME>), telling strings, comments and identifiers
// apart with the tree-sitter tree: identifiers that spell out a host label, the API's
// name or an identifier-like route segment (get_temp_mail44_inbox, FORECA_URL)
// become HOST_… or SEGMENT_1 and stay identifiers. Credentials decontam already
// replaced keep their <REDACTED_…> placeholders. The result still parses.
func Mask(ctx context.Context, code string, g leakcheck.Truth, o MaskOptions) (*Masked, error) {
	fe, err := frontends.For(lang.Of(string(o.Language)))
	if err != nil {
		return nil, fmt.Errorf("mask %s: %w", o.Function, err)
	}
	mk := newMasker(g, o)
	mk.isIdentifier = fe.IsIdentifier
	pm, err := fe.Mask(ctx, o.Dialect, []byte(code), o.Function, mk.rewrite)
	if err != nil {
		return nil, fmt.Errorf("mask %s: %w", o.Function, err)
	}
	return &Masked{Code: pm.Code, Placeholders: mk.used(), Name: pm.Name, Parameters: pm.Parameters, Returns: pm.Returns}, nil
}

// masker decides what each piece of code becomes.
type masker struct {
	g       leakcheck.Truth
	checker *leakcheck.Checker
	// isIdentifier is the code language's rule for a name
	isIdentifier func(string) bool
	host         string
	segs         []string // literal route segments, numbered from 1
	route        *regexp.Regexp
	keys         []string
	values       []string
	headers      map[string]bool
	hdrs         []string // header names whose values were masked, in order
	counts       map[string]*Placeholder
	order        []string
}

func newMasker(g leakcheck.Truth, o MaskOptions) *masker {
	mk := &masker{g: g, checker: leakcheck.Compile(g), host: strings.ToLower(g.Host), headers: map[string]bool{}, counts: map[string]*Placeholder{}}
	segs := leakcheck.RouteSegments(g.Route)
	var parts []string
	for _, s := range segs {
		if leakcheck.IsParamSegment(s) {
			parts = append(parts, `[^/\s"'?#]+`)
			continue
		}
		parts = append(parts, regexp.QuoteMeta(s))
		if !slices.Contains(mk.segs, s) {
			mk.segs = append(mk.segs, s)
		}
	}
	if len(mk.segs) > 0 {
		// the whole route as a path, its parameters written any way
		mk.route = regexp.MustCompile(`(?i)(/` + strings.Join(parts, "/") + `/?)(?:$|[?#"'\s])`)
	}
	for _, k := range g.ParamKeys {
		if k = strings.TrimSpace(k); k != "" && !slices.Contains(mk.keys, k) {
			mk.keys = append(mk.keys, k)
		}
	}
	for _, v := range g.ParamValues {
		if v = strings.TrimSpace(v); !leakcheck.IsPlaceholderValue(v) && !slices.Contains(mk.values, v) {
			mk.values = append(mk.values, v)
		}
	}
	for _, h := range o.Headers {
		mk.headers[strings.ToLower(h)] = true
	}
	return mk
}

// note counts one use of a placeholder.
func (mk *masker) note(token, kind, original string) string {
	p, ok := mk.counts[token]
	if !ok {
		p = &Placeholder{Token: token, Kind: kind, Original: original}
		mk.counts[token] = p
		mk.order = append(mk.order, token)
	}
	p.Count++
	return token
}

// used lists the placeholders put in the code, in order of first use.
func (mk *masker) used() []Placeholder {
	out := make([]Placeholder, 0, len(mk.order))
	for _, t := range mk.order {
		out = append(out, *mk.counts[t])
	}
	return out
}

func (mk *masker) segToken(i int, ident bool) string {
	if ident {
		return fmt.Sprintf("SEGMENT_%d", i+1)
	}
	return fmt.Sprintf("<SEGMENT_%d>", i+1)
}

func (mk *masker) keyToken(k string) func() (string, string, string) {
	return ph(fmt.Sprintf("<PARAM_%d>", slices.Index(mk.keys, k)+1), leakcheck.KindParamKey, k)
}

func (mk *masker) valueToken(v string) func() (string, string, string) {
	return ph(fmt.Sprintf("<VALUE_%d>", slices.Index(mk.values, v)+1), leakcheck.KindParamValue, v)
}

func (mk *masker) segPlaceholder(seg string) func() (string, string, string) {
	return ph(mk.segToken(slices.Index(mk.segs, seg), false), leakcheck.KindRouteSegment, seg)
}

// rewrite is the frontend's Mask callback.
func (mk *masker) rewrite(p lang.Piece) []lang.Edit {
	switch p.Kind {
	case lang.PieceIdentifier:
		return mk.identifier(p)
	case lang.PieceNumber:
		if slices.Contains(mk.values, p.Text) {
			tok, kind, orig := mk.valueToken(p.Text)()
			return []lang.Edit{{Start: 0, End: len(p.Text), New: `"` + mk.note(tok, kind, orig) + `"`}}
		}
		return nil
	case lang.PieceString:
		return mk.text(p, true)
	case lang.PieceComment:
		return mk.text(p, false)
	}
	return nil
}

// identifier masks the host labels, API names and identifier-like route segments an
// identifier spells out, and a dict(...) keyword that is a parameter key.
func (mk *masker) identifier(p lang.Piece) []lang.Edit {
	if p.Key && slices.Contains(mk.keys, p.Text) {
		tok, kind, orig := mk.keyToken(p.Text)()
		return []lang.Edit{{Start: 0, End: len(p.Text), New: mk.note(strings.Trim(tok, "<>"), kind, orig)}}
	}
	var es []lang.Edit
	name := p.Text
	for _, l := range mk.checker.Find(p.Text, map[string]bool{leakcheck.KindHostLabel: true, leakcheck.KindAPIName: true, leakcheck.KindRouteSegment: true}) {
		tok, kind := idHost, leakcheck.KindHostLabel
		if l.Kind == leakcheck.KindRouteSegment {
			tok, kind = mk.segToken(slices.Index(mk.segs, l.Term), true), leakcheck.KindRouteSegment
		}
		// find's leaks never overlap; check the name stays an identifier
		// before counting the placeholder
		if next := name[:l.Start] + tok + name[l.End:]; !mk.isIdentifier(next) {
			continue
		}
		es = append(es, lang.Edit{Start: l.Start, End: l.End, New: mk.note(tok, kind, l.Term)})
	}
	return es
}

// edits collects non-overlapping edits of one text, first come first kept; a
// placeholder is counted only when its edit is kept.
type edits struct {
	mk   *masker
	list []lang.Edit
}

// add replaces [start, end) with the placeholder tok (made by tokFn) unless an
// earlier edit covers part of it.
func (e *edits) add(start, end int, tokFn func() (tok, kind, original string)) {
	for _, x := range e.list {
		if start < x.End && x.Start < end {
			return
		}
	}
	tok, kind, orig := tokFn()
	e.list = append(e.list, lang.Edit{Start: start, End: end, New: e.mk.note(tok, kind, orig)})
}

func ph(tok, kind, orig string) func() (string, string, string) {
	return func() (string, string, string) { return tok, kind, orig }
}

var (
	urlInText = regexp.MustCompile(`(?i)\bhttps?://[^\s"'<>\x60]+`)
	queryPair = regexp.MustCompile(`(?:^|[?&])([^=&?#/\s]+)=([^&#\s]*)`)
)

// text masks a string part (code) or a comment: URLs, the host, the route, its
// literal segments, parameter keys and values, header values and the API's names.
func (mk *masker) text(p lang.Piece, str bool) []lang.Edit {
	e := edits{mk: mk}
	t := p.Text
	if str && p.Whole {
		switch {
		case p.PairKey != "" && mk.headers[strings.ToLower(p.PairKey)] && !strings.HasPrefix(t, "<REDACTED_") && !strings.EqualFold(t, mk.host):
			e.add(0, len(t), mk.headerToken(p.PairKey))
		case slices.Contains(mk.keys, t):
			e.add(0, len(t), mk.keyToken(t))
		case slices.Contains(mk.values, t):
			e.add(0, len(t), mk.valueToken(t))
		}
	}
	for _, m := range urlInText.FindAllStringIndex(t, -1) {
		u := t[m[0]:m[1]]
		if !mk.checker.OnHost(u) {
			continue
		}
		if rest := u[strings.Index(u, "://")+3:]; !strings.ContainsAny(rest, "/?") || strings.TrimRight(rest[strings.IndexAny(rest, "/?"):], "/") == "" {
			// a base URL: keep it readable as one
			hs := m[0] + strings.Index(u, "://") + 3
			he := hs + len(strings.TrimRight(rest, "/"))
			e.add(hs, he, ph(tokHost, leakcheck.KindHost, mk.host))
			continue
		}
		e.add(m[0], m[1], ph(tokURL, leakcheck.KindURL, u))
	}
	for _, l := range mk.checker.Find(t, map[string]bool{leakcheck.KindHost: true}) {
		e.add(l.Start, l.End, ph(tokHost, leakcheck.KindHost, mk.host))
	}
	if mk.route != nil {
		for _, m := range mk.route.FindAllStringSubmatchIndex(t, -1) {
			e.add(m[2], m[3], ph(tokRoute, leakcheck.KindRoute, mk.g.Route))
		}
	}
	if !str || strings.ContainsAny(t, " \t\n") {
		// prose (a comment, a docstring, a message) may write part of the route
		// without its slash: "point/hourly data"
		for _, l := range mk.checker.Find(t, map[string]bool{leakcheck.KindRoute: true}) {
			e.add(l.Start, l.End, ph(tokRoute, leakcheck.KindRoute, mk.g.Route))
		}
	}
	if str {
		mk.pathSegments(&e, t)
		mk.queryString(&e, t)
	}
	kinds := map[string]bool{leakcheck.KindHostLabel: true, leakcheck.KindAPIName: true, leakcheck.KindRouteSegment: true, leakcheck.KindParamKey: true, leakcheck.KindParamValue: true}
	for _, l := range mk.checker.Find(t, kinds) {
		switch l.Kind {
		case leakcheck.KindHostLabel, leakcheck.KindAPIName:
			e.add(l.Start, l.End, ph(tokAPIName, leakcheck.KindAPIName, l.Term))
		case leakcheck.KindRouteSegment:
			e.add(l.Start, l.End, mk.segPlaceholder(l.Term))
		case leakcheck.KindParamKey:
			if slices.Contains(mk.keys, l.Term) {
				e.add(l.Start, l.End, mk.keyToken(l.Term))
			}
		case leakcheck.KindParamValue:
			if slices.Contains(mk.values, l.Term) {
				e.add(l.Start, l.End, mk.valueToken(l.Term))
			}
		}
	}
	return e.list
}

// pathSegments masks each literal route segment written as a path segment: between
// slashes, or after a slash at the end of the text or before a query.
func (mk *masker) pathSegments(e *edits, t string) {
	if !strings.Contains(t, "/") {
		return
	}
	for _, s := range mk.segs {
		for off := 0; ; {
			j := strings.Index(t[off:], s)
			if j < 0 {
				break
			}
			start, end := off+j, off+j+len(s)
			off = end
			before := start == 0 || t[start-1] == '/'
			after := end == len(t) || strings.ContainsRune("/?#", rune(t[end]))
			slashed := (start > 0 && t[start-1] == '/') || (end < len(t) && t[end] == '/')
			if before && after && slashed {
				e.add(start, end, mk.segPlaceholder(s))
			}
		}
	}
}

// queryString masks the parameter keys of a query string written in the text
// (?stationId=1&start=x) and their literal values.
func (mk *masker) queryString(e *edits, t string) {
	if !strings.Contains(t, "=") {
		return
	}
	for _, m := range queryPair.FindAllStringSubmatchIndex(t, -1) {
		k := t[m[2]:m[3]]
		if !slices.Contains(mk.keys, k) {
			continue
		}
		e.add(m[2], m[3], mk.keyToken(k))
		if v := t[m[4]:m[5]]; v != "" && slices.Contains(mk.values, v) {
			e.add(m[4], m[5], mk.valueToken(v))
		}
	}
}

// headerToken names the placeholder of a header's value: <HEADER_1> for the first
// header masking met, and so on.
func (mk *masker) headerToken(name string) func() (string, string, string) {
	return func() (string, string, string) {
		name = strings.ToLower(name)
		i := slices.Index(mk.hdrs, name)
		if i < 0 {
			mk.hdrs = append(mk.hdrs, name)
			i = len(mk.hdrs) - 1
		}
		return fmt.Sprintf("<HEADER_%d>", i+1), KindHeaderValue, name
	}
}
