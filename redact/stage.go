package redact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"sccg/internal/progress"
	"sccg/lang"
	"sccg/leakcheck"
	"sccg/llm"
	"sccg/store"
)

// Stage is the name redact records runs and decisions under.
const Stage = "redact"

// comments_source values of a sample.
const (
	SourceOriginal  = "original"
	SourceHumanlike = "intent_humanlike"
	SourceRedacted  = "intent_redacted"
)

// Paths an intent is made by.
const (
	PathOriginal = "original"  // the human comment, kept
	PathLLM      = "llm"       // style-guided generation, clean at the first attempt
	PathLLMRetry = "llm_retry" // clean after the stricter retry
	PathOffline  = "offline"   // the offline generator, no model configured
	PathFallback = "fallback"  // the offline generator after the model leaked twice or failed
	PathDropped  = "dropped"   // --on-leak drop: the sample is left out
)

// On-leak policies: what happens when the stricter retry still leaks.
const (
	OnLeakStrict = "strict" // the offline generator writes the intent
	OnLeakDrop   = "drop"   // the sample is dropped, with a recorded decision
)

// Defaults of Options.
const (
	DefaultOnLeak = OnLeakStrict
	DefaultBatch  = 200
)

// version changes whenever what redact writes for the same inputs changes, so a
// rerun redoes the functions it made with an older version.
const version = "redact/2"

// Options configure Run.
type Options struct {
	// LLM writes the style-guided intents (an *llm.Client, whose cache makes a rerun
	// cost no request); nil writes every intent with the offline generator.
	LLM Chatter
	// Model is the chat model asked; it is recorded with every attempt and is part
	// of what makes an intent current. "" leaves it to the client's configuration.
	Model string
	// OnLeak is strict or drop; "" means DefaultOnLeak.
	OnLeak string
	// AlsoOriginal also writes an intent for the samples that keep their human
	// comment, stored beside it, for the paired contamination experiment.
	AlsoOriginal bool
	Batch        int // functions per transaction; 0 means DefaultBatch
	Workers      int // functions whose intents are written at once; 0 means DefaultWorkers
	Progress     progress.Counter
}

// DefaultWorkers is how many functions get their intents at once: the LLM client's
// own concurrency limit.
const DefaultWorkers = llm.DefaultConcurrency

func (o Options) withDefaults() Options {
	if o.OnLeak == "" {
		o.OnLeak = DefaultOnLeak
	}
	if o.Batch <= 0 {
		o.Batch = DefaultBatch
	}
	if o.Workers <= 0 {
		o.Workers = DefaultWorkers
	}
	if o.Progress == nil {
		o.Progress = progress.Nop
	}
	return o
}

// RunArgs are the resolved options as a run records them.
func (o Options) RunArgs() map[string]any {
	o = o.withDefaults()
	return map[string]any{"on_leak": o.OnLeak, "also_original": o.AlsoOriginal, "generator": o.generatorID(),
		"batch": o.Batch, "workers": o.Workers}
}

// generatorID names what writes the intents, for the input hash.
func (o Options) generatorID() string {
	if o.LLM == nil {
		return offlineModel
	}
	return "llm:" + o.Model
}

// Result counts what Run did.
type Result struct {
	Functions int `json:"functions"` // kept functions seen
	// Paths counts the sample comments by the path that made them: original, llm,
	// llm_retry, offline, fallback, dropped.
	Paths map[string]int `json:"paths"`
	// Paired counts the intents written beside a kept human comment (--also-original).
	Paired         int `json:"paired"`
	OriginalLeaked int `json:"original_leaked"` // kept human comments in which leakcheck.LeakCheck found g
	// Contentless counts the intents the offline generator wrote with nothing to
	// say (Contentless): no source told what the function fetches.
	Contentless int `json:"contentless"`
	MaskFailed  int `json:"mask_failed"` // functions whose code could not be masked
	Reused      int `json:"reused"`      // functions whose intents were already current
	Attempts    int `json:"attempts"`    // intent attempts made in this run
	// LLM figures: chat calls answered by the server and from the cache, calls that
	// failed, and the tokens the server's answers cost.
	LLMRequests      int   `json:"llm_requests"`
	LLMCached        int   `json:"llm_cached"`
	LLMErrors        int   `json:"llm_errors"`
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// Counts are the result's figures as a run records them.
func (r *Result) Counts() map[string]int64 {
	c := map[string]int64{"functions": int64(r.Functions), "paired": int64(r.Paired), "original_leaked": int64(r.OriginalLeaked),
		"contentless": int64(r.Contentless),
		"mask_failed": int64(r.MaskFailed), "reused": int64(r.Reused), "attempts": int64(r.Attempts),
		"llm_requests": int64(r.LLMRequests), "llm_cached": int64(r.LLMCached), "llm_errors": int64(r.LLMErrors),
		"prompt_tokens": r.PromptTokens, "completion_tokens": r.CompletionTokens}
	for k, v := range r.Paths {
		c[k] = int64(v)
	}
	return c
}

// Run writes the intent of every function decontam kept: the human comment when it
// states the function's goal (LeakChecked, the report recorded), else an intent
// from the masked code ỹ that passes LeakCheck. Every attempt is stored with its
// prompt, response, LeakCheck report and decision. Functions whose intents are
// current for the same inputs are left alone, so a killed run resumes and a rerun
// changes nothing.
func Run(ctx context.Context, st *store.Store, opt Options) (*Result, error) {
	opt = opt.withDefaults()
	if opt.OnLeak != OnLeakStrict && opt.OnLeak != OnLeakDrop {
		return nil, fmt.Errorf("redact: on-leak policy %q: want %s or %s", opt.OnLeak, OnLeakStrict, OnLeakDrop)
	}
	return store.RecordRun(ctx, st, Stage, opt.RunArgs(), func(runID int64) (*Result, error) {
		return run(ctx, st, opt, runID)
	})
}

// job is one kept function on its way to its intents.
type job struct {
	kept  store.KeptFunction
	fn    *store.Function
	facts *lang.Facts
	truth leakcheck.Truth
	hash  string
	// endpoint is the documented name of the aligned endpoint, category the API's
	endpoint, category string
	out                *outcome
	// anchors are the human comments of other APIs the style prompt shows
	anchors []string
}

// outcome is what redact writes for one function.
type outcome struct {
	intents   []store.Intent
	masked    *store.MaskedCode
	decisions []store.Decision
	path      string
	paired    bool
	leaked    bool // the kept human comment leaks
	// contentless is set when the offline generator found nothing to say
	contentless bool
	maskErr     error
	calls       []*llmAttempt
}

func run(ctx context.Context, st *store.Store, opt Options, runID int64) (*Result, error) {
	jobs, err := loadJobs(ctx, st, opt)
	if err != nil {
		return nil, err
	}
	have, err := st.IntentsByFunction(ctx)
	if err != nil {
		return nil, fmt.Errorf("redact: %w", err)
	}
	res := &Result{Functions: len(jobs), Paths: map[string]int{}}
	opt.Progress.SetTotal(int64(len(jobs)))
	var queue []*job
	for _, j := range jobs {
		if path, paired, ok := current(have[j.kept.FunctionID], j.hash); ok {
			res.Reused++
			res.Paths[path]++
			if contentlessIntent(have[j.kept.FunctionID]) {
				res.Contentless++
			}
			if paired {
				res.Paired++
			}
			opt.Progress.Add(1)
			continue
		}
		queue = append(queue, j)
	}
	for start := 0; start < len(queue); start += opt.Batch {
		batch := queue[start:min(start+opt.Batch, len(queue))]
		if err := redactAll(ctx, batch, opt); err != nil {
			return res, err
		}
		err := st.Update(ctx, func(tx *store.Tx) error {
			for _, j := range batch {
				if err := save(ctx, tx, j, runID); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return res, fmt.Errorf("redact: %w", err)
		}
		for _, j := range batch {
			o := j.out
			res.Paths[o.path]++
			res.Attempts += len(o.intents)
			if o.paired {
				res.Paired++
			}
			if o.leaked {
				res.OriginalLeaked++
			}
			if o.contentless {
				res.Contentless++
			}
			if o.maskErr != nil {
				res.MaskFailed++
			}
			for _, a := range o.calls {
				switch {
				case a.err != nil:
					res.LLMErrors++
				case a.cached:
					res.LLMCached++
				default:
					res.LLMRequests++
					res.PromptTokens += a.usage.PromptTokens
					res.CompletionTokens += a.usage.CompletionTokens
				}
			}
		}
		opt.Progress.Add(int64(len(batch)))
	}
	opt.Progress.Done()
	return res, nil
}

// redactAll writes the intents of a batch of functions, opt.Workers at a time. A
// cancelled context stops it before anything of the batch is kept.
func redactAll(ctx context.Context, batch []*job, opt Options) error {
	next := make(chan *job)
	var wg sync.WaitGroup
	for range min(opt.Workers, len(batch)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				j.out = redactOne(ctx, j, opt)
			}
		}()
	}
	for _, j := range batch {
		if ctx.Err() != nil {
			break
		}
		next <- j
	}
	close(next)
	wg.Wait()
	return ctx.Err()
}

// current reports whether a function's stored intents were made from the inputs
// hash names and ended in a decision (no request failed on the way), and by which
// path its comment was made.
func current(ins []store.Intent, hash string) (path string, paired, ok bool) {
	if len(ins) == 0 {
		return "", false, false
	}
	for _, in := range ins {
		if in.InputHash != hash || in.Decision == store.IntentError {
			return "", false, false
		}
		switch {
		case in.Role == store.RolePaired && in.Decision == store.IntentAccepted:
			paired = true
		case in.Role == store.RoleComment && in.Decision == store.IntentAccepted:
			path = in.Path
		case in.Role == store.RoleComment && in.Decision == store.IntentDropped:
			path = PathDropped
		}
	}
	return path, paired, path != ""
}

// contentlessIntent reports a function whose accepted comment is an intent the
// offline generator wrote with nothing to say.
func contentlessIntent(ins []store.Intent) bool {
	for _, in := range ins {
		if in.Role == store.RoleComment && in.Decision == store.IntentAccepted && in.Model == offlineModel && Contentless(in.Text) {
			return true
		}
	}
	return false
}

// save writes a function's masked code, intents and decisions.
func save(ctx context.Context, tx *store.Tx, j *job, runID int64) error {
	o := j.out
	if o.masked != nil {
		if err := tx.SaveMasked(ctx, o.masked); err != nil {
			return err
		}
	}
	if err := tx.ReplaceFunctionIntents(ctx, j.kept.FunctionID, o.intents); err != nil {
		return err
	}
	for _, d := range o.decisions {
		d.RunID = runID
		if err := tx.RecordDecision(ctx, d); err != nil {
			return err
		}
	}
	return nil
}

// loadJobs reads every kept function with its facts and ground truth.
func loadJobs(ctx context.Context, st *store.Store, opt Options) ([]*job, error) {
	ks, err := st.KeptFunctions(ctx)
	if err != nil {
		return nil, fmt.Errorf("redact: %w", err)
	}
	apis := map[int64]*store.API{}
	endpoints := map[int64]map[int64]string{} // API → endpoint id → name
	var out []*job
	for _, k := range ks {
		f, err := st.Function(ctx, k.FunctionID)
		if err != nil {
			return nil, fmt.Errorf("redact: kept function: %w", err)
		}
		facts := &lang.Facts{}
		if len(k.Facts) > 0 {
			// decontam's copy, with credential values redacted
			if facts, err = lang.DecodeFacts(k.Facts); err != nil {
				return nil, fmt.Errorf("redact: function %d: %w", k.FunctionID, err)
			}
		}
		var api *store.API
		if id := k.Alignment.APIID; id != 0 {
			if a, ok := apis[id]; ok {
				api = a
			} else if api, err = st.API(ctx, id); err != nil && !errors.Is(err, store.ErrNotFound) {
				return nil, fmt.Errorf("redact: %w", err)
			}
			apis[id] = api
		}
		j := &job{kept: k, fn: f, facts: facts, truth: keptTruth(&k.Alignment, facts, api)}
		if api != nil {
			j.category = api.Category
		}
		if id := k.Alignment.APIID; id != 0 && k.Alignment.EndpointID != 0 {
			names, ok := endpoints[id]
			if !ok {
				eps, err := st.Endpoints(ctx, id)
				if err != nil {
					return nil, fmt.Errorf("redact: %w", err)
				}
				names = map[int64]string{}
				for _, e := range eps {
					names[e.ID] = e.Name
				}
				endpoints[id] = names
			}
			j.endpoint = names[k.Alignment.EndpointID]
		}
		out = append(out, j)
	}
	if opt.LLM != nil {
		var pool []anchor
		for _, j := range out {
			hc := JudgeComment(j.facts)
			if !hc.Usable {
				continue
			}
			if t, ok := anchorText(hc.Text); ok && !leakcheck.LeakCheck(t, j.truth).Leaked {
				pool = append(pool, anchor{functionID: j.kept.FunctionID, apiID: j.kept.Alignment.APIID, host: j.truth.Host,
					family: leakcheck.HostFamily(j.truth.Host), text: t})
			}
		}
		for _, j := range out {
			j.anchors = pickAnchors(pool, j.kept.FunctionID, j.kept.Alignment.APIID, j.truth.Host, j.truth)
		}
	}
	for _, j := range out {
		j.hash = inputHash(j, opt)
	}
	return out, nil
}

// keptTruth is g of a kept function: its primary alignment's host, route and
// parameters, the API's slug and title, and the keys and literal values its calls
// on that host send.
func keptTruth(a *store.Alignment, facts *lang.Facts, api *store.API) leakcheck.Truth {
	g := leakcheck.Truth{Host: strings.ToLower(a.Host), Route: a.Route}
	if g.Route != "" && g.Host != "" {
		g.URL = "https://" + g.Host + g.Route
	}
	if api != nil {
		g.APINames = appendNew(g.APINames, api.Slug, api.Title)
	}
	for _, p := range a.Params {
		if p.Location != "header" {
			g.ParamKeys = appendNew(g.ParamKeys, p.Name)
		}
	}
	addObserved(&g, facts)
	return g
}

// inputHash names everything a function's intents are made from.
func inputHash(j *job, opt Options) string {
	b, _ := json.Marshal(map[string]any{"version": version, "kept": j.kept.InputHash, "alignment": j.kept.Alignment.ID,
		"truth": j.truth, "endpoint": j.endpoint, "category": j.category, "generator": opt.generatorID(), "anchors": j.anchors, "on_leak": opt.OnLeak, "also_original": opt.AlsoOriginal})
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// headersOf lists the headers a function's calls send.
func headersOf(facts *lang.Facts) []string {
	var out []string
	for _, c := range facts.Calls {
		for h := range c.Headers {
			out = appendNew(out, h)
		}
		for h := range c.HeaderExprs {
			out = appendNew(out, h)
		}
	}
	return out
}

// redactOne masks one function and writes its intents.
func redactOne(ctx context.Context, j *job, opt Options) *outcome {
	o := &outcome{}
	subject := strconv.FormatInt(j.kept.FunctionID, 10)
	decide := func(verdict, reason string, ev map[string]any) {
		o.decisions = append(o.decisions, store.Decision{Stage: Stage, SubjectKind: "function", Subject: subject,
			Verdict: verdict, Reason: reason, Evidence: ev})
	}
	m, err := Mask(ctx, j.kept.Code, j.truth, MaskOptions{Function: j.fn.QualName, Headers: headersOf(j.facts),
		Language: j.facts.Language, Dialect: j.facts.Dialect})
	if err != nil {
		// the generators read the facts' names instead; LeakCheck still guards them
		o.maskErr = err
		m = &Masked{Name: j.fn.Name, Parameters: j.facts.Parameters}
		decide(store.Failed, "masking failed", map[string]any{"error": err.Error()})
	} else {
		ph, _ := json.Marshal(m.Placeholders)
		o.masked = &store.MaskedCode{FunctionID: j.kept.FunctionID, Code: m.Code, Placeholders: ph, InputHash: j.hash}
	}
	attempt := 0
	add := func(in store.Intent) {
		attempt++
		in.Attempt, in.InputHash = attempt, j.hash
		o.intents = append(o.intents, in)
	}
	hc := JudgeComment(j.facts)
	gen := func(role string) string {
		return generate(ctx, j, m, role, opt, o, add)
	}
	if hc.Usable {
		rep := leakcheck.LeakCheck(hc.Text, j.truth)
		o.leaked = rep.Leaked
		reason := "the human comment " + hc.Reason
		if rep.Leaked {
			reason += "; it names part of g (" + rep.String() + "), which the user may see: kept"
		}
		add(store.Intent{Role: store.RoleComment, Kind: SourceOriginal, Path: PathOriginal, Text: hc.Text, Leak: reportJSON(rep),
			Passed: !rep.Leaked, Decision: store.IntentAccepted, Reason: reason})
		o.path = PathOriginal
		decide(store.Kept, "human comment kept: it "+hc.Reason, map[string]any{"comments_source": SourceOriginal, "leaked": rep.Leaked})
		if opt.AlsoOriginal {
			o.paired = gen(store.RolePaired) != PathDropped
		}
		return o
	}
	o.path = gen(store.RoleComment)
	if o.path == PathDropped {
		decide(store.Rejected, "intent still leaks after the stricter retry (--on-leak drop)", map[string]any{"comment": hc.Reason})
		return o
	}
	kind := SourceRedacted
	if o.path == PathLLM || o.path == PathLLMRetry {
		kind = SourceHumanlike
	}
	decide(store.Changed, "intent written: "+o.path, map[string]any{"comment": hc.Reason, "comments_source": kind})
	return o
}

// generate writes one intent of the masked code and records every attempt: with
// no model, the offline generator; with one, the style-guided prompt, then once
// the stricter prompt that names what leaked, then — when that still leaks — the
// offline generator (--on-leak strict) or nothing (drop: PathDropped). An answer
// that is no intent (empty, code, too long) or a request that fails also ends in
// the offline generator; a failed request is recorded as an error, so the next
// run asks again. It returns the path that wrote the accepted intent.
func generate(ctx context.Context, j *job, m *Masked, role string, opt Options, o *outcome, add func(store.Intent)) string {
	offline := func(path, reason string) string {
		text := OfflineIntent(OfflineInput{Masked: m, Method: j.kept.Alignment.Method, FailureValue: failureValue(j.facts, m),
			Endpoint: j.endpoint, Category: j.category}, j.truth)
		rep := leakcheck.LeakCheck(text, j.truth)
		if Contentless(text) {
			// nothing in the name, the response, the route or the documentation said
			// what it fetches: counted and shown, never passed off as an intent that does
			o.contentless = true
			reason += "; contentless: neither its name, the keys it reads, its route, its documented endpoint nor its API's category says what it fetches"
		}
		in := store.Intent{Role: role, Kind: SourceRedacted, Path: path, Model: offlineModel, Text: text,
			Leak: reportJSON(rep), Passed: !rep.Leaked, Decision: store.IntentAccepted, Reason: reason}
		if rep.Leaked {
			// OfflineIntent drops what leaks, so this is a bug, never silently accepted
			in.Decision, in.Reason = store.IntentError, "the offline intent leaks: "+rep.String()
		}
		add(in)
		return path
	}
	if opt.LLM == nil {
		return offline(PathOffline, "no model configured: the offline generator wrote it from ỹ")
	}
	if o.maskErr != nil {
		// the model must never see code whose ground truth is not masked
		return offline(PathFallback, "the code could not be masked, so no model may read it: the offline generator wrote it")
	}
	record := func(a *llmAttempt, path, decision, reason string) {
		o.calls = append(o.calls, a)
		in := store.Intent{Role: role, Kind: SourceHumanlike, Path: path, Model: a.model, Prompt: a.prompt(), Response: a.response,
			Text: a.text, Decision: decision, Reason: reason}
		if a.err == nil && a.problem == nil {
			in.Leak, in.Passed = reportJSON(a.report), !a.report.Leaked
		}
		add(in)
	}
	first := stylePrompt(m.Code, j.anchors)
	a := ask(ctx, opt.LLM, opt.Model, first, j.truth)
	if ctx.Err() != nil {
		return ""
	}
	if a.err != nil {
		record(a, PathLLM, store.IntentError, "the request failed: "+a.err.Error())
		return offline(PathFallback, "the model could not be asked: the offline generator wrote it (the next run asks again)")
	}
	if a.problem == nil && !a.report.Leaked {
		record(a, PathLLM, store.IntentAccepted, "clean at the first attempt")
		return PathLLM
	}
	problem, forbidden := a.rejection()
	record(a, PathLLM, store.IntentRetry, problem+": asking once more, stricter")
	b := ask(ctx, opt.LLM, opt.Model, strictPrompt(first, a.response, problem, forbidden), j.truth)
	if ctx.Err() != nil {
		return ""
	}
	switch {
	case b.err != nil:
		record(b, PathLLMRetry, store.IntentError, "the request failed: "+b.err.Error())
		return offline(PathFallback, "the model could not be asked again: the offline generator wrote it (the next run asks again)")
	case b.problem == nil && !b.report.Leaked:
		record(b, PathLLMRetry, store.IntentAccepted, "clean after the stricter retry")
		return PathLLMRetry
	case b.problem == nil && opt.OnLeak == OnLeakDrop:
		record(b, PathLLMRetry, store.IntentDropped, "it still gives away "+b.report.String()+": the sample is dropped (--on-leak drop)")
		return PathDropped
	}
	problem, _ = b.rejection()
	record(b, PathLLMRetry, store.IntentFallback, problem+" again: the offline generator writes the intent")
	return offline(PathFallback, "the model's answers were rejected twice: the strict path wrote it from ỹ")
}

// failureValue reports a function that checks for failure and returns an empty
// value then.
func failureValue(f *lang.Facts, m *Masked) bool {
	if !f.StatusCheck && !f.ExceptionHandling {
		return false
	}
	empty := false
	for _, r := range m.Returns {
		switch r {
		case "None", "{}", "[]", `""`, "''", "False":
			empty = true
		}
	}
	return empty && len(m.Returns) > 1
}

func reportJSON(r leakcheck.Report) json.RawMessage {
	if r.Leaks == nil {
		r.Leaks = []leakcheck.Leak{}
	}
	b, _ := json.Marshal(r)
	return b
}

// appendNew appends the non-empty values of vs that xs does not hold yet.
func appendNew(xs []string, vs ...string) []string {
	for _, v := range vs {
		if v = strings.TrimSpace(v); v != "" && !slices.Contains(xs, v) {
			xs = append(xs, v)
		}
	}
	return xs
}

// addObserved adds to g the parameter keys, and the literal values, that the
// function's calls on g's host send (headers aside).
func addObserved(g *leakcheck.Truth, facts *lang.Facts) {
	for _, c := range facts.Calls {
		if c.Host != "" && c.Host != g.Host {
			continue
		}
		for _, p := range c.Params {
			if p.Location == lang.LocHeader {
				continue
			}
			g.ParamKeys = appendNew(g.ParamKeys, p.Name)
			if p.Literal {
				g.ParamValues = appendNew(g.ParamValues, p.Example)
			}
		}
	}
}
