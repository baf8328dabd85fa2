package align

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"sccg/internal/route"
	"sccg/lang"
	"sccg/secrets"
	"sccg/store"
)

// Documentation match types, strongest first.
const (
	MatchURL      = "url"
	MatchRoute    = "route"
	MatchHostOnly = "host_only"
)

// Endpoint sources and params sources.
const (
	SourceDocumented = "documented"
	SourceObserved   = "observed"
	SourceNone       = "none"
)

// Catalog is the documented endpoints, indexed by host, with their routes compiled
// once. It is read-only after NewCatalog and safe for concurrent use.
type Catalog struct {
	byHost map[string][]catalogEndpoint
	routes map[string]*route.Index // host → its routes, ids indexing byHost[host]
	prints map[string]string       // host → fingerprint of its endpoints
}

type catalogEndpoint struct {
	store.Endpoint
	route *route.Route
	api   string // its API's source, owner and slug
	rank  int    // its place among its host's endpoints
}

// NewCatalog indexes eps by lower-cased host. A host's endpoints are ordered by
// their API (source, owner and slug, when apis names it), route, method and
// version, and ties between equal matches go to the first: the order is the
// documentation's, not the order the store happened to save it in.
func NewCatalog(eps []store.Endpoint, apis ...store.API) *Catalog {
	keys := map[int64]string{}
	for _, a := range apis {
		keys[a.ID] = a.Source + "\x00" + a.Owner + "\x00" + a.Slug
	}
	c := &Catalog{byHost: map[string][]catalogEndpoint{}, routes: map[string]*route.Index{}, prints: map[string]string{}}
	for _, e := range eps {
		h := strings.ToLower(e.Host)
		c.byHost[h] = append(c.byHost[h], catalogEndpoint{Endpoint: e, route: route.Compile(e.Route), api: keys[e.APIID]})
	}
	for h := range c.byHost {
		list := c.byHost[h]
		slices.SortStableFunc(list, func(a, b catalogEndpoint) int {
			return cmp.Or(cmp.Compare(a.api, b.api), cmp.Compare(a.Route, b.Route), cmp.Compare(a.Method, b.Method),
				cmp.Compare(b.Version, a.Version), cmp.Compare(a.ID, b.ID))
		})
		idx := route.NewIndex()
		for i := range list {
			list[i].rank = i
			idx.Add(list[i].Route, i)
		}
		c.routes[h] = idx
		sum := sha256.New()
		for _, e := range list {
			b, _ := json.Marshal(e.Endpoint)
			sum.Write(b)
			sum.Write([]byte{'\n'})
		}
		c.prints[h] = hex.EncodeToString(sum.Sum(nil))[:16]
	}
	return c
}

// HostPrint is a fingerprint of everything the catalog documents about host (its
// endpoints, their ids and parameters), or "" when it documents nothing: an
// alignment that read host is stale when this changes.
func (c *Catalog) HostPrint(host string) string { return c.prints[strings.ToLower(host)] }

// HostPrints returns the fingerprint of every documented host.
func (c *Catalog) HostPrints() map[string]string { return maps.Clone(c.prints) }

// DependsOn lists, sorted, the hosts whose documentation aligning a function can
// read: every host-like name in its code and every host its calls name. Its
// alignment can change only when the catalog changes for one of these.
func DependsOn(code string, facts *lang.Facts) []string {
	lower := strings.ToLower(code)
	seen := map[string]bool{}
	for _, h := range hostLike.FindAllString(lower, -1) {
		seen[h] = true
	}
	if facts != nil {
		for _, c := range facts.Calls {
			host, _ := callTarget(c)
			for _, h := range []string{host, strings.ToLower(strings.TrimSpace(c.RapidAPIHost))} {
				if h != "" {
					seen[h] = true
				}
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// Knows reports whether host has documented endpoints.
func (c *Catalog) Knows(host string) bool { return len(c.byHost[strings.ToLower(host)]) > 0 }

var hostLike = regexp.MustCompile(`[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+`)

// hostsIn returns the distinct documented hosts named in (lower-cased) code, in
// order of first appearance.
func (c *Catalog) hostsIn(code string) []string {
	var out []string
	seen := map[string]bool{}
	for _, h := range hostLike.FindAllString(code, -1) {
		if !seen[h] && len(c.byHost[h]) > 0 {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out
}

// Hosts returns the number of hosts in the catalog.
func (c *Catalog) Hosts() int { return len(c.byHost) }

// Evidence says why an alignment was made: the rule that fired, the literal that
// carried the evidence and its line.
type Evidence struct {
	Rule           string `json:"rule"` // url_literal | route_match | host_only
	Literal        string `json:"literal,omitempty"`
	Line           int    `json:"line"`
	Callee         string `json:"callee,omitempty"`
	URLExpr        string `json:"url_expr,omitempty"`
	Host           string `json:"host"`
	HostRule       string `json:"host_rule"` // url | x-rapidapi-host | code_literal
	HostLiteral    string `json:"host_literal,omitempty"`
	ObservedPath   string `json:"observed_path,omitempty"`
	ObservedMethod string `json:"observed_method,omitempty"`
	MatchedRoute   string `json:"matched_route,omitempty"`
	// RouteFit is how the observed path fits the matched route: literal segments
	// matched by the same literal, literals filling parameters, segments a
	// placeholder stood for, and each parameter's binding.
	RouteFit *RouteFit `json:"route_fit,omitempty"`
	InHelper string    `json:"in_helper,omitempty"`
	// Rules are the label rules that decided this alignment, in words, for a
	// reader (sccg why, sccg audit): which request of the function is its own, why a
	// method or route was or was not taken, what an empty segment bound.
	Rules []string `json:"rules,omitempty"`
	// Refused is set when the call names no one endpoint, so its alignment can be
	// no label: decontam rejects a function whose primary alignment is refused.
	Refused *Refusal `json:"refused,omitempty"`
}

// Why a call's alignment can be no label (Refusal.Reason).
const (
	// RefuseWrapper: the request's whole path after a fixed base, or its whole URL,
	// comes from a parameter of the function or from a value it does not write (a
	// generic wrapper, a URL held in state).
	RefuseWrapper = "generic_wrapper"
	// RefuseSelected: a value the code does not write fills a path segment where
	// every documented route it could name has a literal: the value selects the
	// resource (/v4/{type}/{id}/full for anime or manga).
	RefuseSelected = "resource_selected_by_parameter"
	// RefuseMethod: no route the path fits documents the method the code sends,
	// and the path says too little for a host-only label.
	RefuseMethod = "method_not_documented"
)

// Refusal says why a call names no one endpoint: the reason, the parameter or
// variable the endpoint would come from, and some of the documented routes it
// could select.
type Refusal struct {
	Reason    string   `json:"reason"`
	Parameter string   `json:"parameter,omitempty"`
	Routes    []string `json:"routes,omitempty"`
	// Routes lists at most maxRouteNames of Selectable routes.
	Selectable int    `json:"selectable,omitempty"`
	Detail     string `json:"detail"`
}

// Alternative is a documented endpoint that also matched but lost, and why.
type Alternative struct {
	EndpointID int64     `json:"endpoint_id"`
	APIID      int64     `json:"api_id"`
	Host       string    `json:"host"`
	Version    string    `json:"version,omitempty"`
	Method     string    `json:"method"`
	Route      string    `json:"route"`
	Lost       string    `json:"lost_on"`
	RouteFit   *RouteFit `json:"route_fit,omitempty"`
}

// RouteFit is how an observed path fits a route template (route.Fit), as an
// alignment records it.
type RouteFit struct {
	Literal  int      `json:"literal_segments"`
	Filled   int      `json:"literals_in_parameters,omitempty"`
	Spanned  int      `json:"spanned_segments,omitempty"`
	Empty    int      `json:"empty_segments,omitempty"`
	Bindings []string `json:"bindings,omitempty"`
}

func routeFit(f route.Fit) *RouteFit {
	return &RouteFit{Literal: f.Literal, Filled: f.Filled, Spanned: f.Spanned, Empty: f.Empty, Bindings: f.Bindings}
}

// String is the fit in a few words: "2 literal segments, {owner}/{repo}={repository}".
func (f *RouteFit) String() string {
	if f == nil {
		return ""
	}
	s := fmt.Sprintf("%d literal segment(s)", f.Literal)
	if len(f.Bindings) > 0 {
		s += ", " + strings.Join(f.Bindings, " ")
	}
	return s
}

// Skip is a call site that could not be aligned, with the reason.
type Skip struct {
	CallIndex int    `json:"call_index"`
	Line      int    `json:"line"`
	Reason    string `json:"reason"` // no_host | unknown_host
	Host      string `json:"host,omitempty"`
}

// hostEvidence is one way the code names a host.
type hostEvidence struct {
	host, rule, literal string
}

// AlignFunction aligns every call site of a function. code is the function's
// self-contained code (used to tell a full URL literal from an assembled one). The
// primary alignment is the function's own request before one a same-file helper
// makes for it, then one that names an endpoint before a refused one, then the
// strongest, then the first in source order; every alignment is returned, in
// call order, with the call sites that could not be aligned.
func AlignFunction(code string, facts *lang.Facts, cat *Catalog) ([]store.Alignment, []Skip) {
	var out []store.Alignment
	var evs []Evidence
	var skips []Skip
	lowerCode := strings.ToLower(code)
	for i, c := range facts.Calls {
		a, ev, skip, ok := alignCall(code, lowerCode, i, c, facts.Parameters, cat)
		if !ok {
			skips = append(skips, skip)
			continue
		}
		out = append(out, a)
		evs = append(evs, ev)
	}
	if best := primary(out, evs); best >= 0 {
		out[best].IsPrimary = true
		if r := primaryRule(out, evs, best); r != "" {
			evs[best].Rules = append([]string{r}, evs[best].Rules...)
		}
	}
	for i := range out {
		out[i].Evidence, _ = json.Marshal(evs[i])
	}
	return out, skips
}

// primary picks the primary alignment of as (evidence evs), -1 when there is none:
// a request the function sends itself before one a same-file helper sends for it,
// one that names an endpoint before a refused one, then Strength, then source order.
func primary(as []store.Alignment, evs []Evidence) int {
	best := -1
	key := func(i int) []int {
		own, named := 0, 0
		if evs[i].InHelper == "" {
			own = 1
		}
		if evs[i].Refused == nil {
			named = 1
		}
		return []int{own, named, Strength(as[i])}
	}
	for i := range as {
		if best < 0 || slices.Compare(key(i), key(best)) > 0 {
			best = i
		}
	}
	return best
}

// primaryRule says, for a reader, what made as[best] primary over a stronger or
// earlier alignment of another kind; "" when it was simply the strongest.
func primaryRule(as []store.Alignment, evs []Evidence, best int) string {
	for i := range as {
		if i == best {
			continue
		}
		stronger := Strength(as[i]) > Strength(as[best])
		if evs[best].InHelper == "" && evs[i].InHelper != "" && (i < best || stronger) {
			return fmt.Sprintf("own request: call #%d is the function's own request; the request of helper %s (call #%d) belongs to the helper's sample",
				as[best].CallIndex, evs[i].InHelper, as[i].CallIndex)
		}
	}
	for i := range as {
		if i != best && evs[best].Refused == nil && evs[i].Refused != nil && (i < best || Strength(as[i]) > Strength(as[best])) {
			return fmt.Sprintf("named endpoint: call #%d names its endpoint; call #%d is refused (%s)", as[best].CallIndex, as[i].CallIndex, evs[i].Refused.Reason)
		}
	}
	return ""
}

// Strength ranks an alignment's evidence: url > route > host_only with an observed
// path > host_only with none.
func Strength(a store.Alignment) int {
	switch a.DocMatchType {
	case MatchURL:
		return 4
	case MatchRoute:
		return 3
	}
	if a.EndpointSource == SourceObserved {
		return 2
	}
	return 1
}

// alignCall binds call idx of a function to the documented endpoint it calls: it
// gathers the hosts the call evidences, ranks the documented routes of those hosts
// that match the call's path, and builds the alignment from the best one, or from
// the host alone when no route matches.
func alignCall(code, lowerCode string, idx int, c lang.Call, params []string, cat *Catalog) (store.Alignment, Evidence, Skip, bool) {
	urlHost, obsPath := callTarget(c)
	hosts := callHosts(c, urlHost, lowerCode, cat)
	if len(hosts) == 0 {
		return store.Alignment{}, Evidence{}, Skip{CallIndex: idx, Line: c.Line, Reason: "no_host"}, false
	}
	var known []hostEvidence
	for _, h := range hosts {
		if cat.Knows(h.host) {
			known = append(known, h)
		}
	}
	if len(known) == 0 {
		return store.Alignment{}, Evidence{}, Skip{CallIndex: idx, Line: c.Line, Reason: "unknown_host", Host: hosts[0].host}, false
	}
	method := strings.ToUpper(c.Method)
	observed := observedParams(c)

	ev := Evidence{Line: c.Line, Callee: c.Callee, URLExpr: c.URLExpr, ObservedMethod: method, InHelper: c.InHelper,
		ObservedPath: obsPath}
	a := store.Alignment{CallIndex: idx, Method: method}
	cands := routeCandidates(cat, known, obsPath, method, observed)
	switch lacking := methodLacking(cands, method); {
	case len(cands) > 0 && lacking == nil:
		alignRoute(&a, &ev, code, c.URL, cands)
	case len(cands) > 0:
		// No route the path fits as well as any documents the method the code
		// sends: a label never carries a method the code does not use.
		alignHostOnly(&a, &ev, cat, cands[0].he, obsPath, c.URLResolved)
		a.Alternatives, _ = json.Marshal(methodLosers(cands))
		if a.EndpointSource == SourceObserved {
			ev.Rules = append(ev.Rules, fmt.Sprintf("method: no route the path fits as well as any documents %s (%s); host only, with the code's method and path",
				method, strings.Join(limit(lacking), ", ")))
		} else {
			ev.Refused = &Refusal{Reason: RefuseMethod, Routes: limit(lacking), Selectable: len(lacking),
				Detail: fmt.Sprintf("no route the path fits documents %s, and the path says too little for a host-only label", method)}
		}
	default:
		alignHostOnly(&a, &ev, cat, known[0], obsPath, c.URLResolved)
		ev.Refused = refuse(c, obsPath, params, cat.routes[ev.Host], cat.byHost[ev.Host])
	}
	if ev.RouteFit != nil && ev.RouteFit.Empty > 0 {
		ev.Rules = append(ev.Rules, "empty segment: the path's empty segment is the empty value of a parameter ("+
			strings.Join(ev.RouteFit.Bindings, " ")+")")
	}
	if c.PathFrom != "" && ev.Refused == nil && a.EndpointID == 0 {
		ev.Refused = &Refusal{Reason: RefuseWrapper, Parameter: c.PathFrom,
			Detail: "the request's whole path comes from the function's parameter " + c.PathFrom + " and fits no documented route"}
	}
	if ev.Refused != nil {
		ev.Rules = append(ev.Rules, "refused: "+ev.Refused.Reason+": "+ev.Refused.Detail)
	}
	if a.ParamsSource == "" {
		if len(observed) > 0 {
			a.Params, a.ParamsSource = observed, SourceObserved
		} else {
			a.Params, a.ParamsSource = []store.Param{}, SourceNone
		}
	}
	// Evidence is shown by audit and may travel with a sample: never a credential.
	ev.Literal, _ = secrets.RedactText(ev.Literal)
	ev.URLExpr, _ = secrets.RedactText(ev.URLExpr)
	return a, ev, Skip{}, true
}

// maxRouteNames bounds the routes a refusal or rule names.
const maxRouteNames = 5

// limit keeps the first maxRouteNames of names.
func limit(names []string) []string {
	if len(names) > maxRouteNames {
		return append(slices.Clip(names[:maxRouteNames]), fmt.Sprintf("… %d more", len(names)-maxRouteNames))
	}
	return names
}

// methodLacking lists the best-fitting routes of cands ("GET /a/{b}") when none of
// them documents method, nil when one does (or the method is unknown). A route
// that has the method but fits worse — a literal of the path only filling one of
// its parameters where another route matches that literal — does not count: the
// path names the other route, under a method it does not document.
func methodLacking(cands []candidate, method string) []string {
	if method == "" || len(cands) == 0 {
		return nil
	}
	most := 0
	for _, o := range cands {
		most = max(most, o.fit.Literal)
	}
	if cands[0].score[0] == 2 && cands[0].fit.Literal == most {
		return nil
	}
	var out []string
	for _, o := range cands {
		if o.he == cands[0].he && o.fit.Literal == most {
			out = append(out, o.ep.Method+" "+o.ep.Route)
		}
	}
	return out
}

// methodLosers are the routes the path fit, recorded as alternatives that lost on
// the method.
func methodLosers(cands []candidate) []Alternative {
	var alts []Alternative
	for _, o := range cands {
		alts = append(alts, Alternative{EndpointID: o.ep.ID, APIID: o.ep.APIID, Host: o.he.host, Version: o.ep.Version,
			Method: o.ep.Method, Route: o.ep.Route, Lost: "method", RouteFit: routeFit(o.fit)})
	}
	return alts
}

// refuse says why a call that fits no documented route names no one endpoint, or
// nil when its host-only label stands: its path fits documented routes only when
// a value the code does not write stands for a literal segment — a parameter of
// the function, or a value that selects among several routes — (the tail after a
// fixed base: generic_wrapper; a segment inside the path:
// resource_selected_by_parameter); or its whole URL is component state
// (lang.Call.StateFrom).
func refuse(c lang.Call, obsPath string, params []string, idx *route.Index, eps []catalogEndpoint) *Refusal {
	if c.StateFrom != "" {
		return &Refusal{Reason: RefuseWrapper, Parameter: c.StateFrom,
			Detail: "the whole URL is the component state " + c.StateFrom + ", a value the code changes as it runs"}
	}
	if obsPath == "" || idx == nil || !strings.Contains(obsPath, "{") {
		return nil
	}
	type sel struct {
		tail   bool
		routes []string
	}
	by := map[string]*sel{}
	var order []string
	for _, s := range idx.Selections(obsPath) {
		for _, d := range s.Stood {
			x := by[d.Placeholder]
			if x == nil {
				x = &sel{}
				by[d.Placeholder] = x
				order = append(order, d.Placeholder)
			}
			x.tail = x.tail || d.Tail
			x.routes = append(x.routes, eps[s.ID].Method+" "+eps[s.ID].Route)
		}
	}
	for _, ph := range order {
		x := by[ph]
		name := strings.Trim(ph, "{}")
		routes := slices.Compact(slices.Sorted(slices.Values(x.routes)))
		if !slices.Contains(params, name) && len(routes) < 2 {
			continue // one route a constant the extraction could not read may well name
		}
		r := &Refusal{Reason: RefuseSelected, Parameter: name, Routes: limit(routes), Selectable: len(routes)}
		what := "the function's parameter " + name
		if !slices.Contains(params, name) {
			what = name + " (a value the code does not write)"
		}
		if x.tail {
			r.Reason = RefuseWrapper
			r.Detail = fmt.Sprintf("the path after its fixed base is %s; it fits %d documented route(s) only by standing for their literal segments",
				what, len(routes))
		} else {
			r.Detail = fmt.Sprintf("%s fills a segment where every documented route it could name (%d) has a literal", what, len(routes))
		}
		return r
	}
	return nil
}

// callTarget is the lower-cased host and the path a call's URL names, "" when
// unknown.
func callTarget(c lang.Call) (host, path string) {
	host, path = splitURL(c.URL)
	if c.Path != "" {
		path = c.Path
	}
	if c.Host != "" {
		host = strings.ToLower(c.Host)
	}
	return host, path
}

// callHosts lists the hosts a call evidences, strongest first: the host of its URL
// (urlHost), then its X-RapidAPI-Host header; failing both, the one documented
// host written elsewhere in the code.
func callHosts(c lang.Call, urlHost, lowerCode string, cat *Catalog) []hostEvidence {
	var hosts []hostEvidence
	if urlHost != "" && !strings.Contains(urlHost, "{") {
		hosts = append(hosts, hostEvidence{urlHost, "url", urlHost})
	}
	if h := strings.ToLower(strings.TrimSpace(c.RapidAPIHost)); h != "" && h != urlHost {
		hosts = append(hosts, hostEvidence{h, "x-rapidapi-host", c.RapidAPIHost})
	}
	if len(hosts) == 0 {
		// No host at the call: a documented host written once elsewhere in the code
		// (a constructor default, a settings constant) still evidences it.
		if hs := cat.hostsIn(lowerCode); len(hs) == 1 {
			hosts = append(hosts, hostEvidence{hs[0], "code_literal", hs[0]})
		}
	}
	return hosts
}

// candidate is a documented endpoint whose route matches the observed path, with
// the score it is ranked by (compared field by field, higher first; see lostNames).
type candidate struct {
	ep    catalogEndpoint
	he    hostEvidence
	fit   route.Fit
	score []int
}

// routeCandidates returns every documented endpoint of a known host whose route
// the observed path fits (route.Index: found without trying every route of the
// host), best first.
func routeCandidates(cat *Catalog, known []hostEvidence, obsPath, method string, observed []store.Param) []candidate {
	if obsPath == "" {
		return nil
	}
	var cands []candidate
	for hi, he := range known {
		eps := cat.byHost[he.host]
		for _, hit := range cat.routes[he.host].Lookup(obsPath) {
			ep := eps[hit.ID]
			mm := 1 // method unknown
			switch {
			case method == "":
			case strings.EqualFold(ep.Method, method):
				mm = 2
			default:
				mm = 0
			}
			cur := 0
			if ep.IsCurrent {
				cur = 1
			}
			cands = append(cands, candidate{ep: ep, he: he, fit: hit.Fit, score: []int{
				mm, -hi, hit.Fit.Literal, -hit.Fit.Spanned, ep.route.Specificity(), paramOverlap(ep.Params, observed), cur,
			}})
		}
	}
	// A route that matches only under another method is weaker than any method
	// match; when no candidate has the code's method, alignCall labels the host
	// alone rather than invent a method.
	slices.SortStableFunc(cands, func(a, b candidate) int {
		return cmp.Or(slices.Compare(b.score, a.score), cmp.Compare(a.ep.rank, b.ep.rank))
	})
	return cands
}

// alignRoute binds a to the best of cands: a url match when the code holds the
// endpoint's full URL as one literal, else a route match. The others are recorded
// as alternatives with what they lost on.
func alignRoute(a *store.Alignment, ev *Evidence, code, callURL string, cands []candidate) {
	best := cands[0]
	ev.Host, ev.HostRule, ev.HostLiteral = best.he.host, best.he.rule, best.he.literal
	ev.MatchedRoute = best.ep.Route
	ev.RouteFit = routeFit(best.fit)
	if len(cands) > 1 && best.score[0] == 2 && cands[1].score[0] < 2 && cands[1].fit.Compare(best.fit) < 0 {
		ev.Rules = append(ev.Rules, fmt.Sprintf("method: %s %s documents %s; %s %s fits the path better but does not",
			best.ep.Method, best.ep.Route, a.Method, cands[1].ep.Method, cands[1].ep.Route))
	}
	a.APIID, a.EndpointID = best.ep.APIID, best.ep.ID
	a.Host, a.Route, a.Method = best.he.host, best.ep.Route, strings.ToUpper(best.ep.Method)
	a.EndpointSource = SourceDocumented
	if lit := urlLiteralIn(code, best.he.host, best.ep.Route); best.he.rule == "url" && lit != "" {
		a.DocMatchType, ev.Rule, ev.Literal = MatchURL, "url_literal", lit
	} else {
		a.DocMatchType, ev.Rule = MatchRoute, "route_match"
		if best.he.rule == "url" {
			ev.Literal = callURL
		} else {
			ev.Literal = best.he.literal
		}
	}
	if len(best.ep.Params) > 0 {
		a.Params, a.ParamsSource = append([]store.Param(nil), best.ep.Params...), SourceDocumented
	}
	var alts []Alternative
	for _, o := range cands[1:] {
		alts = append(alts, Alternative{EndpointID: o.ep.ID, APIID: o.ep.APIID, Host: o.he.host, Version: o.ep.Version,
			Method: o.ep.Method, Route: o.ep.Route, Lost: lostOn(best.score, o.score), RouteFit: routeFit(o.fit)})
	}
	if len(alts) > 0 {
		a.Alternatives, _ = json.Marshal(alts)
	}
}

// alignHostOnly binds a to host evidence he alone: the host's first API (by source,
// owner and slug), the observed path as the route when it can be trusted, and the other APIs on
// the host as alternatives.
func alignHostOnly(a *store.Alignment, ev *Evidence, cat *Catalog, he hostEvidence, obsPath string, urlResolved bool) {
	ev.Host, ev.HostRule, ev.HostLiteral, ev.Rule = he.host, he.rule, he.literal, "host_only"
	ev.Literal = he.literal
	a.Host, a.DocMatchType = he.host, MatchHostOnly
	a.APIID = cat.byHost[he.host][0].APIID
	np := route.NormalizePath(obsPath)
	switch {
	case obsPath != "" && (resolvablePath(obsPath) || (np == "/" && urlResolved)):
		a.Route, a.EndpointSource = np, SourceObserved
	default:
		a.EndpointSource = SourceNone
	}
	// Other APIs on the same host are alternatives, never a guess.
	seen := map[int64]bool{a.APIID: true}
	var alts []Alternative
	for _, ep := range cat.byHost[he.host] {
		if !seen[ep.APIID] {
			seen[ep.APIID] = true
			alts = append(alts, Alternative{APIID: ep.APIID, Host: he.host, Lost: "first api by name"})
		}
	}
	if len(alts) > 0 {
		a.Alternatives, _ = json.Marshal(alts)
	}
}

// urlLiteralIn finds the full endpoint URL as one literal of the code: scheme, host
// and the route, its path parameters filled in any way that keeps the literal whole
// (f-string, format, %, a value), ending where the string, query or fragment does —
// or the literal up to the first path parameter, the rest being concatenated. It
// returns the literal found, or "".
func urlLiteralIn(code, host, tmpl string) string {
	var b strings.Builder
	b.WriteString(`(?i)https?://`)
	b.WriteString(regexp.QuoteMeta(host))
	if np := route.NormalizePath(tmpl); np != "/" {
		rest := np
		for rest != "" {
			i := strings.IndexByte(rest, '{')
			j := strings.IndexByte(rest, '}')
			if i < 0 || j < i {
				b.WriteString(regexp.QuoteMeta(rest))
				break
			}
			b.WriteString(regexp.QuoteMeta(rest[:i]))
			b.WriteString(`[^/"'\s]+`)
			rest = rest[j+1:]
		}
	}
	b.WriteString(`/?(?:["'?#]|$)`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return ""
	}
	if m := re.FindString(code); m != "" {
		return strings.TrimRight(m, `"'?#`)
	}
	// The literal may also stop right where the first path parameter starts, the
	// parameter being concatenated ("https://h/forecast/daily/" + city).
	np := route.NormalizePath(tmpl)
	i := strings.IndexByte(np, '{')
	if i < 0 {
		return ""
	}
	re, err = regexp.Compile(`(?i)https?://` + regexp.QuoteMeta(host+np[:i]) + `["']`)
	if err != nil {
		return ""
	}
	return strings.TrimRight(re.FindString(code), `"'`)
}

var lostNames = []string{"method", "host evidence order", "literal segment matches", "segments spanned by a placeholder",
	"route specificity", "parameter overlap", "current version"}

func lostOn(best, other []int) string {
	for k := range best {
		if best[k] != other[k] {
			return lostNames[k]
		}
	}
	return "endpoint id"
}

// paramOverlap counts observed parameter names that the endpoint documents.
func paramOverlap(doc, observed []store.Param) int {
	names := map[string]bool{}
	for _, p := range doc {
		names[strings.ToLower(p.Name)] = true
	}
	n := 0
	for _, p := range observed {
		if names[strings.ToLower(p.Name)] {
			n++
		}
	}
	return n
}

var paramLocation = map[string]string{
	lang.LocQuery: "query", lang.LocPath: "path", lang.LocJSON: "body", lang.LocData: "form", lang.LocHeader: "header",
}

// observedParams turns the parameters a call sends into ground-truth params. The
// RapidAPI host and key headers are not parameters of the endpoint, and values of
// header or key-like parameters are never kept as examples.
func observedParams(c lang.Call) []store.Param {
	var out []store.Param
	seen := map[string]bool{}
	for _, p := range c.Params {
		loc := paramLocation[p.Location]
		if loc == "" {
			loc = p.Location
		}
		ln := strings.ToLower(p.Name)
		if loc == "header" && (ln == "x-rapidapi-host" || ln == "x-rapidapi-key") {
			continue
		}
		k := loc + "\x00" + p.Name
		if seen[k] {
			continue
		}
		seen[k] = true
		q := store.Param{Name: p.Name, Location: loc, Type: "string"}
		if p.Literal && loc != "header" && !keyLike(ln) {
			q.Example, _ = secrets.RedactValue(p.Name, p.Example)
		}
		out = append(out, q)
	}
	return out
}

// keyLike reports whether a parameter name suggests a credential.
func keyLike(name string) bool {
	for _, w := range []string{"key", "token", "secret", "password", "passwd", "auth", "cookie", "session", "signature"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}
