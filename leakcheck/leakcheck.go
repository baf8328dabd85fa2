// Package leakcheck tells whether a text gives away a sample's ground truth
// g = ⟨h, e, m, P⟩: the host and its distinctive labels, the API's names, the URL or
// route path, route segments and parameter keys that are identifiers rather than
// ordinary English words (a word list ships with it), and literal parameter values.
// It reports exactly what leaked and where. The redact stage checks every intent with
// it; the evaluator checks intent-only prompts and published comments with it.
package leakcheck

import (
	"cmp"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Truth is what of a sample's ground truth g = ⟨h, e, m, P⟩ an intent must not give
// away: the host and the API's names, the endpoint route (and the full URL), and the
// parameters' keys and literal values. The HTTP method is part of g but is never a
// leak: "post a message" is a goal, not a grounding.
type Truth struct {
	Host  string // api host: temp-mail44.p.rapidapi.com
	URL   string // full endpoint URL, when known
	Route string // route template: /api/v3/email/{email}/messages
	// APINames are the API's names in the documentation: slug, api_name, title.
	APINames []string
	// ParamKeys are the documented and the observed parameter names.
	ParamKeys []string
	// ParamValues are the literal parameter values written in the code.
	ParamValues []string
}

// Leak kinds: which part of the ground truth a leak gives away.
const (
	KindHost         = "host"          // the host name
	KindHostLabel    = "host_label"    // a distinctive label of the host, or of its brand (temp-mail44, Temp-Mail, meteostat)
	KindAPIName      = "api_name"      // the API's slug or title
	KindURL          = "url"           // a URL on the host
	KindRoute        = "route"         // the route path, or two of its consecutive segments
	KindRouteSegment = "route_segment" // a route segment that is an identifier (15minutely, snowConditions)
	KindParamKey     = "param_key"     // a parameter key that is an identifier (stationId, from_date)
	KindParamValue   = "param_value"   // a literal parameter value of the code
)

// Leak is one place where a text gives away part of the ground truth.
type Leak struct {
	Kind  string `json:"kind"`
	Term  string `json:"term"`  // the ground-truth item, as g has it
	Found string `json:"found"` // the text as written where it leaked
	Start int    `json:"start"` // byte offsets of Found in the text
	End   int    `json:"end"`
}

// Report is what LeakCheck found in one text. Leaks are in text order, and one
// inside another (the host label inside the host) is reported once, as the outer.
type Report struct {
	Leaked bool   `json:"leaked"`
	Leaks  []Leak `json:"leaks"`
}

// Terms lists the distinct ground-truth items that leaked, in text order: what a
// stricter prompt must say may not appear.
func (r Report) Terms() []string {
	var out []string
	for _, l := range r.Leaks {
		if !slices.Contains(out, l.Term) {
			out = append(out, l.Term)
		}
	}
	return out
}

// Tokens lists the distinct leaked stretches of text, as written, in text order.
func (r Report) Tokens() []string {
	out := []string{}
	for _, l := range r.Leaks {
		if !slices.Contains(out, l.Found) {
			out = append(out, l.Found)
		}
	}
	return out
}

// String renders the report in one line: "clean" or "leaked host_label "Temp-Mail44", …".
func (r Report) String() string {
	if !r.Leaked {
		return "clean"
	}
	parts := make([]string, len(r.Leaks))
	for i, l := range r.Leaks {
		parts[i] = fmt.Sprintf("%s %q", l.Kind, l.Found)
	}
	return "leaked " + strings.Join(parts, ", ")
}

// LeakCheck reports what of g the text t gives away. It compares word tokens, not
// characters: "Temp-Mail44", "tempmail44" and "temp mail 44" all name the host
// label temp-mail44; an identifier-like route segment or parameter key (stationId,
// from_date, 15minutely) leaks when it is written as an identifier, while a segment or
// key that is an ordinary English word ("news", "search", "weather") never leaks on
// its own. The route leaks as a path (two consecutive segments, or a lone segment
// written with its slash). It is safe to call on any text, prompts included.
func LeakCheck(t string, g Truth) Report {
	return Compile(g).Check(t)
}

// Checker is LeakCheck with g's terms prepared once, for checking many texts
// against the same ground truth. It is safe for concurrent use.
type Checker struct {
	host   string
	route  string
	terms  []term
	routes []*regexp.Regexp
}

// term is one ground-truth item matched by tokens.
type term struct {
	kind  string
	text  string // as in g
	norm  string // the tokens' lower-cased concatenation
	loose bool   // may be written as separate words ("temp mail 44")
	// cuts are the offsets in norm where one of the term's own tokens ends: written
	// as separate words, the words part there only ("sports information", never
	// "sports in formation").
	cuts []int
}

// Compile prepares g's terms.
func Compile(g Truth) *Checker {
	c := &Checker{host: strings.ToLower(strings.TrimSpace(g.Host)), route: g.Route}
	seen := map[string]bool{}
	add := func(kind, text string, loose bool) {
		toks := tokenize(text)
		var b strings.Builder
		var cuts []int
		for _, t := range toks {
			b.WriteString(t.norm)
			cuts = append(cuts, b.Len())
		}
		norm := b.String()
		if norm == "" || seen[norm] {
			return
		}
		seen[norm] = true
		c.terms = append(c.terms, term{kind: kind, text: text, norm: norm, loose: loose, cuts: cuts})
	}
	if c.host != "" {
		add(KindHost, c.host, false)
		for _, l := range hostLabels(c.host) {
			c.addBrand(add, KindHostLabel, l)
		}
	}
	for _, n := range g.APINames {
		c.addBrand(add, KindAPIName, strings.TrimSpace(n))
	}
	segs := RouteSegments(g.Route)
	for _, s := range segs {
		if !IsParamSegment(s) && distinctive(s) {
			add(KindRouteSegment, s, hasForeignWord(s))
		}
	}
	c.routes = routePatterns(segs)
	for _, k := range g.ParamKeys {
		k = strings.TrimSpace(k)
		if distinctive(k) && !genericHeader(k) {
			add(KindParamKey, k, hasForeignWord(k))
		}
	}
	for _, v := range g.ParamValues {
		v = strings.TrimSpace(v)
		if IsPlaceholderValue(v) || !distinctive(v) {
			continue
		}
		add(KindParamValue, v, strings.ContainsFunc(v, unicode.IsSpace))
	}
	return c
}

// addBrand adds the terms a host label or an API name is known by: the whole name
// (written with or without spaces when it holds a number or a coined word, or when
// it is a host label of two or more words: forward-reverse-geocoding is "Forward
// Reverse Geocoding", whatever its words), the name without its trailing number
// (temp-mail44 → Temp-Mail), and each coined word of it (foreca-weather → Foreca).
func (c *Checker) addBrand(add func(kind, text string, loose bool), kind, name string) {
	toks := tokenize(name)
	if len(toks) == 0 {
		return
	}
	spaced := false
	for _, t := range toks[1:] {
		spaced = spaced || t.sep == sepSpace
	}
	coined, digits, words := false, false, 0
	for _, t := range toks {
		digits = digits || t.digits
		coined = coined || (!t.digits && len(t.norm) >= 3 && !isWord(t.norm, 2))
		if !t.digits && !genericLabelWord[t.norm] {
			words++
		}
	}
	switch {
	case len(toks) == 1:
		if coined {
			add(kind, name, false)
		}
	case !spaced || coined || digits:
		add(kind, name, coined || digits || (kind == KindHostLabel && words >= 2))
	}
	if n := len(toks); n >= 2 && toks[n-1].digits {
		rest := name[:toks[n-2].end]
		if n-1 >= 2 || (!toks[0].digits && len(toks[0].norm) >= 3 && !isWord(toks[0].norm, 2)) {
			add(kind, rest, false)
		}
	}
	for _, t := range toks {
		if !t.digits && len(t.norm) >= 4 && !isWord(t.norm, 2) {
			add(kind, name[t.start:t.end], false)
		}
	}
}

// genericLabelWord are the words of a host label that say it is an API, not which
// one: weather-api names its service by one word, "weather".
var genericLabelWord = map[string]bool{"api": true, "apis": true, "v": true}

// Check reports what of the ground truth t gives away.
func (c *Checker) Check(t string) Report {
	leaks := c.Find(t, nil)
	return Report{Leaked: len(leaks) > 0, Leaks: leaks}
}

// Find returns the leaks in t, the outer one of nested leaks only; with kinds set,
// only leaks of those kinds.
func (c *Checker) Find(t string, kinds map[string]bool) []Leak {
	var leaks []Leak
	want := func(k string) bool { return kinds == nil || kinds[k] }
	if want(KindURL) {
		for _, m := range urlRE.FindAllStringIndex(t, -1) {
			if c.OnHost(t[m[0]:m[1]]) {
				leaks = append(leaks, Leak{Kind: KindURL, Term: c.host, Found: t[m[0]:m[1]], Start: m[0], End: m[1]})
			}
		}
	}
	if want(KindRoute) {
		var spans [][2]int
		for _, re := range c.routes {
			for _, m := range re.FindAllStringSubmatchIndex(t, -1) {
				spans = append(spans, [2]int{m[2], m[3]})
			}
		}
		// overlapping windows of one path are one leak: /api/v3/email/{email}/messages
		slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
		for i := 0; i < len(spans); {
			s, e := spans[i][0], spans[i][1]
			for i++; i < len(spans) && spans[i][0] < e; i++ {
				e = max(e, spans[i][1])
			}
			leaks = append(leaks, Leak{Kind: KindRoute, Term: c.route, Found: t[s:e], Start: s, End: e})
		}
	}
	toks := tokenize(t)
	for _, tm := range c.terms {
		if !want(tm.kind) {
			continue
		}
		for _, sp := range matchTokens(toks, tm) {
			leaks = append(leaks, Leak{Kind: tm.kind, Term: tm.text, Found: t[sp[0]:sp[1]], Start: sp[0], End: sp[1]})
		}
	}
	return outermost(leaks)
}

// OnHost reports whether the URL u is on the checker's host.
func (c *Checker) OnHost(u string) bool {
	if c.host == "" {
		return false
	}
	p, err := url.Parse(strings.TrimRight(u, ".,;:!?"))
	if err != nil {
		return false
	}
	h := strings.ToLower(p.Hostname())
	return h == c.host || strings.HasSuffix(h, "."+c.host)
}

// outermost sorts leaks by position and drops each one that lies inside another.
func outermost(leaks []Leak) []Leak {
	slices.SortStableFunc(leaks, func(a, b Leak) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(b.End, a.End))
	})
	out := leaks[:0]
	end := -1
	for _, l := range leaks {
		if l.End <= end {
			continue
		}
		out = append(out, l)
		end = max(end, l.End)
	}
	if len(out) == 0 {
		return nil
	}
	return slices.Clip(out)
}

// matchTokens returns the byte spans of toks whose tokens, concatenated, spell tm:
// joined without separators or by identifier joints, or, when tm is loose, also by
// spaces that part tm where its own tokens part.
func matchTokens(toks []token, tm term) [][2]int {
	var out [][2]int
	for i := range toks {
		if !strings.HasPrefix(tm.norm, toks[i].norm) {
			continue
		}
		acc := toks[i].norm
		j := i
		for acc != tm.norm {
			j++
			if j >= len(toks) {
				break
			}
			s := toks[j].sep
			if s == sepBreak || (s == sepSpace && (!tm.loose || !slices.Contains(tm.cuts, len(acc)))) {
				break
			}
			acc += toks[j].norm
			if !strings.HasPrefix(tm.norm, acc) {
				break
			}
		}
		if acc == tm.norm {
			out = append(out, [2]int{toks[i].start, toks[j].end})
		}
	}
	return out
}

var urlRE = regexp.MustCompile(`(?i)\bhttps?://[^\s"'<>\x60]+`)

// hostLabels returns the labels of host that name the API: the first label of a
// RapidAPI host, or every label of another host but its top-level domain and the
// generic ones (www, api).
func hostLabels(host string) []string {
	host = strings.TrimSuffix(host, ".")
	if i := strings.Index(host, ".p.rapidapi.com"); i > 0 {
		return []string{host[:i]}
	}
	labels := strings.Split(host, ".")
	if len(labels) > 1 {
		labels = labels[:len(labels)-1]
	}
	var out []string
	for _, l := range labels {
		switch l {
		case "www", "api", "apis", "rapidapi", "p", "com", "co", "net", "org", "io":
			continue
		}
		out = append(out, l)
	}
	return out
}

// RouteSegments splits a route template into its segments.
func RouteSegments(route string) []string {
	route, _, _ = strings.Cut(route, "?")
	var out []string
	for _, s := range strings.Split(route, "/") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func IsParamSegment(s string) bool { return strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") }

// routePatterns are the route's leaks as a path: each pair of consecutive segments
// with at least one literal ("email/{email}", "stations/daily"), or a route of one
// literal segment written with its leading slash ("/search").
func routePatterns(segs []string) []*regexp.Regexp {
	seg := func(s string) string {
		if IsParamSegment(s) {
			return `[^/\s"'\x60]+`
		}
		return regexp.QuoteMeta(s)
	}
	var out []*regexp.Regexp
	if len(segs) == 1 && !IsParamSegment(segs[0]) {
		return append(out, regexp.MustCompile(`(?i)(?:^|[\s"'(\[\x60])(/`+seg(segs[0])+`)(?:$|[^\w-])`))
	}
	for i := 0; i+1 < len(segs); i++ {
		if IsParamSegment(segs[i]) && IsParamSegment(segs[i+1]) {
			continue
		}
		out = append(out, regexp.MustCompile(`(?i)(?:^|[^\w-])(/?`+seg(segs[i])+`/`+seg(segs[i+1])+`)(?:$|[^\w-])`))
	}
	return out
}

// distinctive reports whether s (a route segment, a parameter key or value) is an
// identifier rather than vocabulary: a coined word ("lng" is not one: it is on the
// list; "meteostat" is), a long number, or words joined into one identifier
// (stationId, from_date, 15minutely). Words separated by spaces are distinctive
// only when one of them is coined or a long number.
func distinctive(s string) bool {
	toks := tokenize(s)
	if len(toks) == 0 {
		return false
	}
	n := 0
	spaced := false
	for i, t := range toks {
		n += len(t.norm)
		if i > 0 && (t.sep == sepSpace || t.sep == sepBreak) {
			spaced = true
		}
	}
	foreign := func(t token) bool {
		if t.digits {
			return len(t.norm) >= 4
		}
		return len(t.norm) >= 3 && !isWord(t.norm, 2)
	}
	if len(toks) == 1 || spaced {
		return slices.ContainsFunc(toks, foreign)
	}
	return n >= 4
}

// hasForeignWord reports whether s holds a coined word (not on the list), which
// makes its tokens distinctive even when written apart.
func hasForeignWord(s string) bool {
	for _, t := range tokenize(s) {
		if !t.digits && len(t.norm) >= 3 && !isWord(t.norm, 2) {
			return true
		}
	}
	return false
}

// genericHeader reports a header every RapidAPI call sends, which names no API.
func genericHeader(k string) bool {
	k = strings.ToLower(k)
	return strings.HasPrefix(k, "x-rapidapi-") || k == "content-type" || k == "accept" || k == "authorization" || k == "user-agent"
}

// IsPlaceholderValue reports a value that is not one: a typed placeholder, a
// redacted credential, a boolean or null.
func IsPlaceholderValue(v string) bool {
	l := strings.ToLower(v)
	switch l {
	case "", "true", "false", "none", "null", "nil":
		return true
	}
	return strings.Contains(v, "<") && strings.Contains(v, ">") || strings.Contains(l, "redacted")
}

// HostFamily names the family of APIs a host belongs to: its brand label without
// numbers, versions or separators (temp-mail44 and temp-mail are one family).
func HostFamily(host string) string {
	labels := hostLabels(strings.ToLower(host))
	var b strings.Builder
	for _, l := range labels {
		for _, t := range tokenize(l) {
			if t.digits || t.norm == "api" || t.norm == "v" {
				continue
			}
			b.WriteString(t.norm)
		}
	}
	return b.String()
}
