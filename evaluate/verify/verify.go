// Package verify checks a published benchmark's labels against the samples' own
// code: it runs every sample's gold code in the evaluator's sandbox, reads its static
// facts from its frontend, and gives each sample a verdict with the evidence for it —
// consistent, or why its label cannot be hit by its own code (route truncated, host
// or method mismatch, no request, broken code, code that is not self-contained) —
// plus exact and near duplicates across samples and splits, and, where the evidence
// is unambiguous, a proposed corrected label. It reuses the evaluator's scoring
// (evaluate.TruthOf, GroundTruth.Agree), never a second implementation.
package verify

import (
	"context"
	"fmt"
	"sccg/lang"
	"sccg/lang/frontends"
	"slices"
	"strings"

	"sccg/evaluate"
	"sccg/evaluate/sandbox"
	"sccg/internal/progress"
	"sccg/internal/route"
	"sccg/leakcheck"
	"sccg/minhash"
	"sccg/release"
)

// The verdicts. Consistent is the only one whose label the gold code hits.
const (
	Consistent       = "consistent"
	RouteTruncated   = "route_truncated"    // the label's route is a prefix of the path the code calls
	RouteMismatch    = "route_mismatch"     // the code calls another path of the label's host
	HostMismatch     = "host_mismatch"      // the code calls another host (Detail: inside_longer_host when the label's host is part of it)
	MethodMismatch   = "method_mismatch"    // host and route agree, the method does not
	NoRequest        = "no_request"         // no request is made (Detail: commented_out, absent, unreachable)
	CodeBroken       = "code_broken"        // the code does not parse, or fails on its own bug before any request
	NotSelfContained = "not_self_contained" // the request depends on names the code does not define
	// Unreached: the code holds a request call that no sandboxed run of it reached
	// (Detail: stub_derived when the only requests it sent came from dummy or stub
	// values, not from a host the code names). The evaluator's limit, not a label
	// error: nothing is known of the label.
	Unreached = "unreached"
)

// Verdicts lists every verdict in the order reports show them.
var Verdicts = []string{Consistent, RouteTruncated, RouteMismatch, HostMismatch, MethodMismatch, NoRequest,
	CodeBroken, NotSelfContained, Unreached}

// LabelErrors are the verdicts that say the label is wrong; the others say the
// code cannot show it right or wrong.
var LabelErrors = []string{RouteTruncated, RouteMismatch, HostMismatch, MethodMismatch, NoRequest}

// Details of a verdict.
const (
	DetailInsideLongerHost = "inside_longer_host"
	DetailCommentedOut     = "commented_out"
	DetailAbsent           = "absent"
	DetailUnreachable      = "unreachable"
	DetailSyntax           = "syntax"
	DetailMissingAttribute = "missing_attribute"
	DetailStubDerived      = "stub_derived"
)

// Duplicate kinds.
const (
	DuplicateExact = "exact"
	DuplicateNear  = "near"
)

// Sample is one record to verify and the split it was published in ("" when not known).
type Sample struct {
	Record release.Record
	Split  string
}

// Label is a sample's published ground truth, as verify reads it.
type Label struct {
	Hosts  []string `json:"hosts"`
	Route  string   `json:"route,omitempty"`
	Method string   `json:"method"`
}

// Request is one request the gold code tried to send.
type Request struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	Host   string `json:"host"`
	Path   string `json:"path"`
}

// StaticCall is one request call site the extractor found in the code.
type StaticCall struct {
	Line   int    `json:"line"`
	Callee string `json:"callee"`
	Method string `json:"method,omitempty"`
	URL    string `json:"url,omitempty"`
}

// Evidence is what a verdict rests on.
type Evidence struct {
	Label       Label        `json:"label"`
	Requests    []Request    `json:"requests,omitempty"`
	StaticCalls []StaticCall `json:"static_calls,omitempty"`
	// UnreachedCall is the request call no run reached (verdict unreached): the
	// first that names the label's host, else the first.
	UnreachedCall *StaticCall `json:"unreached_call,omitempty"`
	// CommentedCalls are lines of comments that hold a request call.
	CommentedCalls []int    `json:"commented_calls,omitempty"`
	Status         string   `json:"status"`
	Error          string   `json:"error,omitempty"`
	Undefined      []string `json:"undefined_names,omitempty"`
	// Note says in one sentence why the verdict was given.
	Note string `json:"note"`
}

// Fix is a proposed corrected label: the one documented endpoint that matches the
// one request the gold code makes. It is a proposal beside the old label, never
// applied.
type Fix struct {
	Host   string `json:"host"`
	Route  string `json:"route"`
	Method string `json:"method"`
	// Source says where the endpoint is documented: "store" (crawled documentation)
	// or "benchmark" (another sample's label for the same host).
	Source string `json:"source"`
	// Name is the endpoint's name or id in its source.
	Name string `json:"name,omitempty"`
}

// Verification is the outcome for one sample; it is exported as the `verification`
// object of the record.
type Verification struct {
	Verdict  string   `json:"verdict"`
	Detail   string   `json:"detail,omitempty"`
	Evidence Evidence `json:"evidence"`
	// DuplicateOf names the sample this one copies (exactly or nearly), the
	// representative of its cluster; CrossSplit is set when the two are in
	// different splits (a leak between splits).
	DuplicateOf   string  `json:"duplicate_of,omitempty"`
	DuplicateKind string  `json:"duplicate_kind,omitempty"`
	Similarity    float64 `json:"similarity,omitempty"`
	CrossSplit    bool    `json:"cross_split,omitempty"`
	// CommentLeak is LeakCheck's report on the published comments when they give
	// away part of the label (a human comment naming the host is kept by the method,
	// but a model reading it is told part of the answer).
	CommentLeak *leakcheck.Report `json:"comment_leak,omitempty"`
	Fix         *Fix              `json:"proposed_fix,omitempty"`
}

// Checked is one verified sample.
type Checked struct {
	SampleID       string       `json:"sample_id"`
	Split          string       `json:"split,omitempty"`
	DocMatchType   string       `json:"doc_match_type"`
	CommentsSource string       `json:"comments_source"`
	Verification   Verification `json:"verification"`
}

// Endpoint is a documented endpoint a fix may propose.
type Endpoint struct {
	Host, Route, Method, Name string
}

// Options configure Verify.
type Options struct {
	Sandbox sandbox.Options
	// Runners start the runners of languages other than Python
	// (evaluate.Config.Runners).
	Runners  map[lang.Name]evaluate.StartRunner
	Workers  int
	Progress progress.Counter
	// Fix proposes corrected labels where the evidence is unambiguous.
	Fix bool
	// Documented are the endpoints a fix may propose (from a store's crawled
	// documentation); without them, fixes come from the benchmark's own labels.
	Documented []Endpoint
	// NearThreshold is the Jaccard similarity of near duplicates; default
	// minhash.DefaultThreshold.
	NearThreshold float64
}

// Report is what Verify found.
type Report struct {
	Samples  []Checked `json:"samples"`
	Summary  Summary   `json:"summary"`
	Problems []string  `json:"problems,omitempty"`
}

// Verify runs every sample's gold code in the sandbox and judges its label.
func Verify(ctx context.Context, smps []Sample, opt Options) (*Report, error) {
	if len(smps) == 0 {
		return nil, fmt.Errorf("verify: no samples")
	}
	bench := make([]release.Record, len(smps))
	for i, s := range smps {
		bench[i] = s.Record
	}
	out, err := evaluate.Run(ctx, evaluate.Config{Bench: bench, Generations: evaluate.GoldGenerations(bench),
		Workers: opt.Workers, Sandbox: opt.Sandbox, Progress: opt.Progress, Runners: opt.Runners})
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	results := map[string]evaluate.Result{}
	for _, r := range out.Results {
		results[r.SampleID] = r
	}
	rep := &Report{Problems: out.Problems}
	known := knownEndpoints(smps, opt.Documented)
	seen := map[string]bool{}
	for _, s := range smps {
		id := s.Record.SampleID
		if seen[id] {
			continue // evaluate already reported the duplicate id
		}
		seen[id] = true
		res, ok := results[id]
		if !ok {
			rep.Problems = append(rep.Problems, fmt.Sprintf("sample %s: no gold result", id))
			continue
		}
		v := judge(ctx, s.Record, res)
		if leak, err := commentLeak(ctx, &s.Record); err != nil {
			rep.Problems = append(rep.Problems, fmt.Sprintf("sample %s: leakcheck: %v", id, err))
		} else {
			v.CommentLeak = leak
		}
		if opt.Fix && v.Verdict != Consistent {
			v.Fix = proposeFix(v.Evidence.Requests, known)
		}
		rep.Samples = append(rep.Samples, Checked{SampleID: id, Split: s.Split, DocMatchType: s.Record.APIMetadata.DocMatchType,
			CommentsSource: s.Record.CommentsSource, Verification: v})
	}
	markDuplicates(rep.Samples, smps, opt.NearThreshold)
	rep.Summary = summarize(rep.Samples)
	return rep, nil
}

// judge gives one sample its verdict from its gold run and its static facts.
func judge(ctx context.Context, rec release.Record, res evaluate.Result) Verification {
	truth := evaluate.TruthOf(rec)
	ev := Evidence{Label: Label{Hosts: truth.Hosts, Route: truth.Route, Method: truth.Method},
		Status: res.Status, Error: res.Reason, Undefined: res.Undefined}
	for _, c := range res.Requests {
		ev.Requests = append(ev.Requests, Request{Method: c.Method, URL: c.URL, Host: c.Host, Path: c.Path})
	}
	st := staticFacts(ctx, rec)
	ev.StaticCalls, ev.CommentedCalls = st.calls, st.commented
	v := Verification{Evidence: ev}
	set := func(verdict, detail, note string) Verification {
		v.Verdict, v.Detail, v.Evidence.Note = verdict, detail, note
		return v
	}

	if res.FailureStage == "syntax" || !st.parses {
		return set(CodeBroken, DetailSyntax, "the code does not parse")
	}
	missing := res.Undefined
	if len(missing) == 0 {
		missing = res.FreeNames
	}
	// A request counts as the code's own when it went to a host the code names;
	// one to a host made of dummy or stub values (the URL argument's
	// example.com, a stubbed library's answer) says nothing about the label.
	var resolved, own, derived []evaluate.Captured
	for _, c := range res.Requests {
		if !strings.Contains(c.Host, ".") {
			continue
		}
		resolved = append(resolved, c)
		if namesHost(rec.Code.CompleteFunction, c.Host) {
			own = append(own, c)
		} else {
			derived = append(derived, c)
		}
	}
	if len(res.Requests) > 0 && len(resolved) == 0 && len(missing) > 0 {
		return set(NotSelfContained, "", fmt.Sprintf("the request's URL comes from names the code does not define: %s", strings.Join(missing, ", ")))
	}
	if len(resolved) > 0 {
		if best := resolved[truth.Best(resolved)]; truth.Agree(best).Hit(&truth) {
			return set(Consistent, "", fmt.Sprintf("the gold code sends %s %s, which hits the label", best.Method, best.URL))
		}
	}
	if len(own) > 0 {
		best := own[truth.Best(own)]
		a := truth.Agree(best)
		switch {
		case !a.Host:
			for _, c := range own {
				for _, h := range truth.Hosts {
					if c.Host != h && strings.Contains(c.Host, h) {
						return set(HostMismatch, DetailInsideLongerHost,
							fmt.Sprintf("the label's host %s only occurs inside the host the code calls, %s", h, c.Host))
					}
				}
			}
			return set(HostMismatch, "", fmt.Sprintf("the code calls %s, not %s", hostsOf(own), strings.Join(truth.Hosts, " or ")))
		case truth.HasEndpoint() && !a.Endpoint:
			if prefixOf(truth.Route, best.Path) {
				return set(RouteTruncated, "", fmt.Sprintf("the label's route %s is a prefix of the path the code calls, %s", truth.Route, best.Path))
			}
			return set(RouteMismatch, "", fmt.Sprintf("the code calls %s on the label's host, not %s", best.Path, truth.Route))
		default:
			return set(MethodMismatch, "", fmt.Sprintf("the code sends %s to the labelled endpoint, not %s", best.Method, truth.Method))
		}
	}
	// No request went to a host the code names.
	switch {
	case len(st.calls) == 0 && len(st.commented) > 0:
		return set(NoRequest, DetailCommentedOut, fmt.Sprintf("the only request call is commented out (line %d)", st.commented[0]))
	case len(st.calls) == 0 && len(missing) > 0:
		return set(NotSelfContained, "", fmt.Sprintf("the code makes no request itself; it calls names it does not define: %s", strings.Join(missing, ", ")))
	case len(st.calls) == 0 && len(derived) == 0:
		return set(NoRequest, DetailAbsent, "the code has no request call")
	case len(st.calls) > 0 && missingModuleAttribute(res.Reason):
		return set(CodeBroken, DetailMissingAttribute, "the code fails on its own bug before its request: "+res.Reason)
	}
	return unreached(v, truth, st.calls, derived, res.Reason)
}

// unreached is the verdict on code whose request call no run reached: the call
// (the first naming the label's host, else the first; none when the extractor
// found no call site but the code sent requests from dummy values), the error
// that stopped the run and the requests it sent instead.
func unreached(v Verification, truth evaluate.GroundTruth, calls []StaticCall, derived []evaluate.Captured, reason string) Verification {
	v.Verdict = Unreached
	var call *StaticCall
	for i := range calls {
		for _, h := range truth.Hosts {
			if call == nil && h != "" && strings.Contains(strings.ToLower(calls[i].URL), h) {
				call = &calls[i]
			}
		}
	}
	if call == nil && len(calls) > 0 {
		call = &calls[0]
	}
	var b strings.Builder
	if call != nil {
		c := *call
		v.Evidence.UnreachedCall = &c
		fmt.Fprintf(&b, "no run reaches the request call at line %d (%s", c.Line, c.Callee)
		if c.URL != "" {
			fmt.Fprintf(&b, " %s", c.URL)
		}
		b.WriteString(")")
	} else {
		b.WriteString("no run reaches a request to a host the code names")
	}
	if reason != "" {
		b.WriteString("; the run stopped on " + reason)
	}
	if len(v.Evidence.Undefined) > 0 {
		b.WriteString("; it reads names it does not define: " + strings.Join(v.Evidence.Undefined, ", "))
	}
	if len(derived) > 0 {
		v.Detail = DetailStubDerived
		fmt.Fprintf(&b, "; it sent requests only to %s, a host made of dummy or stub values", hostsOf(derived))
	}
	v.Evidence.Note = b.String()
	return v
}

// namesHost reports whether the code names host: it is written in the code, so a
// request to it is the code's own and not one made of dummy or stub values.
func namesHost(code, host string) bool {
	return host != "" && strings.Contains(strings.ToLower(code), strings.ToLower(host))
}

// commentLeak is LeakCheck's report on the record's comments, or nil when they
// give nothing away.
func commentLeak(ctx context.Context, r *release.Record) (*leakcheck.Report, error) {
	text := leakcheck.CommentText(r)
	if text == "" {
		return nil, nil
	}
	g, err := leakcheck.RecordTruth(ctx, r)
	if err != nil {
		return nil, err
	}
	if rep := leakcheck.LeakCheck(text, g); rep.Leaked {
		return &rep, nil
	}
	return nil, nil
}

// missingModuleAttribute reports an AttributeError on a module that is really
// installed (stubs accept every attribute): the code calls what its module does not
// have, e.g. datetime.now after `import datetime`.
func missingModuleAttribute(reason string) bool {
	return strings.Contains(reason, "AttributeError: module '") && strings.Contains(reason, "' has no attribute '")
}

// prefixOf reports whether the route template is a strict prefix of the path (as
// text: "/v2/for-sale" of "/v2/for-sale-by-zipcode", or by segments: "/news" of
// "/news/search"), its {holes} matching any segment.
func prefixOf(tmpl, path string) bool {
	p := route.NormalizePath(path)
	t := route.NormalizePath(tmpl)
	if t == "" || t == "/" || p == t {
		return false
	}
	if !strings.Contains(t, "{") {
		return strings.HasPrefix(p, t)
	}
	ts, ps := strings.Split(strings.Trim(t, "/"), "/"), strings.Split(strings.Trim(p, "/"), "/")
	if len(ps) <= len(ts) {
		return false
	}
	return route.Compile(t).Match("/" + strings.Join(ps[:len(ts)], "/"))
}

func hostsOf(cs []evaluate.Captured) string {
	var hs []string
	for _, c := range cs {
		if !slices.Contains(hs, c.Host) {
			hs = append(hs, c.Host)
		}
	}
	return strings.Join(hs, ", ")
}

// static is what the extractor says about a sample's code.
type static struct {
	parses    bool
	calls     []StaticCall
	commented []int
}

// staticFacts extracts the code's request call sites with its language's frontend, the extractor the
// benchmark was built with, and the comment lines that hold a request call.
func staticFacts(ctx context.Context, rec release.Record) static {
	code := []byte(rec.Code.CompleteFunction)
	var st static
	fe, d, err := frontends.ForRecord(&rec)
	if err != nil {
		return static{parses: true} // no frontend: no static evidence; the run decides
	}
	res, err := fe.Extract(ctx, rec.GitHubInfo.FilePath, code, lang.ExtractOptions{})
	if err != nil {
		return static{parses: true} // no static evidence; the run decides
	}
	st.parses = res.SyntaxOK || len(res.Functions) > 0
	fn := pickFunction(res.Functions, rec.FunctionName)
	if fn != nil {
		for _, c := range fn.Facts.Calls {
			st.calls = append(st.calls, StaticCall{Line: c.Line, Callee: c.Callee, Method: c.Method, URL: c.URL})
		}
	}
	st.commented, _ = fe.CommentedRequests(ctx, d, code)
	return st
}

// pickFunction is the sample's function among those extracted: by name, else the
// first that makes a request.
func pickFunction(fns []lang.Function, name string) *lang.Function {
	for i := range fns {
		if fns[i].Name == name || strings.HasSuffix(fns[i].QualName, "."+name) {
			return &fns[i]
		}
	}
	for i := range fns {
		if len(fns[i].Facts.Calls) > 0 {
			return &fns[i]
		}
	}
	return nil
}

// knownEndpoints are the endpoints a fix may propose: the documented ones when
// given, else every label of the benchmark.
func knownEndpoints(smps []Sample, documented []Endpoint) []Endpoint {
	if len(documented) > 0 {
		for i := range documented {
			documented[i].Host = strings.ToLower(documented[i].Host)
			documented[i].Method = strings.ToUpper(documented[i].Method)
		}
		return documented
	}
	var out []Endpoint
	seen := map[string]bool{}
	for _, s := range smps {
		t := evaluate.TruthOf(s.Record)
		if !t.HasEndpoint() {
			continue
		}
		for _, h := range t.Hosts {
			k := h + " " + t.Method + " " + t.Route
			if !seen[k] {
				seen[k] = true
				out = append(out, Endpoint{Host: h, Route: t.Route, Method: t.Method, Name: "label of " + s.Record.SampleID})
			}
		}
	}
	return out
}

// proposeFix returns the one known endpoint that matches the one distinct request
// the code makes, or nil when there is not exactly one of each.
func proposeFix(reqs []Request, known []Endpoint) *Fix {
	distinct := map[string]Request{}
	for _, r := range reqs {
		distinct[r.Method+" "+r.Host+" "+route.NormalizePath(r.Path)] = r
	}
	if len(distinct) != 1 {
		return nil
	}
	var req Request
	for _, r := range distinct {
		req = r
	}
	var match []Endpoint
	for _, e := range known {
		if e.Host == req.Host && e.Method == req.Method && route.Compile(e.Route).Match(req.Path) {
			match = append(match, e)
		}
	}
	if len(match) != 1 {
		return nil
	}
	e := match[0]
	src := "store"
	if strings.HasPrefix(e.Name, "label of ") {
		src = "benchmark"
	}
	return &Fix{Host: e.Host, Route: e.Route, Method: e.Method, Source: src, Name: e.Name}
}

// markDuplicates finds exact copies (the same code token for token) and near
// duplicates (MinHash over token shingles, exact Jaccard verified) among the
// samples; every member of a cluster but its representative (the lowest sample id)
// is marked duplicate_of it, and cross_split when their splits differ.
func markDuplicates(checked []Checked, smps []Sample, threshold float64) {
	if threshold <= 0 {
		threshold = minhash.DefaultThreshold
	}
	code := map[string]string{}
	for _, s := range smps {
		if _, ok := code[s.Record.SampleID]; !ok {
			code[s.Record.SampleID] = s.Record.Code.CompleteFunction
		}
	}
	sets := make([][]uint64, len(checked))
	exact := make([]string, len(checked))
	for i, c := range checked {
		toks := minhash.Tokens(code[c.SampleID])
		exact[i] = strings.Join(toks, " ")
		sets[i] = minhash.Shingles(toks, minhash.DefaultShingle)
	}
	roots, _ := minhash.ClusterSets(sets, minhash.Options{Threshold: threshold})
	members := map[int32][]int{}
	for i, r := range roots {
		members[r] = append(members[r], i)
	}
	for _, idx := range members {
		if len(idx) < 2 {
			continue
		}
		slices.SortFunc(idx, func(a, b int) int { return strings.Compare(checked[a].SampleID, checked[b].SampleID) })
		rep := idx[0]
		for _, i := range idx[1:] {
			v := &checked[i].Verification
			v.DuplicateOf = checked[rep].SampleID
			v.DuplicateKind = DuplicateNear
			v.Similarity = minhash.Jaccard(sets[i], sets[rep])
			if exact[i] == exact[rep] {
				v.DuplicateKind, v.Similarity = DuplicateExact, 1
			}
			v.CrossSplit = checked[i].Split != "" && checked[rep].Split != "" && checked[i].Split != checked[rep].Split
		}
	}
}

// Clean reports whether a checked sample belongs in clean.json: consistent and not
// a copy of another.
func (c Checked) Clean() bool {
	return c.Verification.Verdict == Consistent && c.Verification.DuplicateOf == ""
}
