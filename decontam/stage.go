package decontam

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"sccg/internal/progress"
	"sccg/lang"
	"sccg/lang/frontends"
	"sccg/secrets"
	"sccg/store"
)

// Stage is the name decontam records runs and decisions under.
const Stage = "decontam"

// DefaultBatch is how many kept rows Run writes in one transaction.
const DefaultBatch = 200

// Options configure Run.
type Options struct {
	DecideOptions
	Workers  int // redaction workers; default GOMAXPROCS
	Batch    int // kept rows per transaction; default DefaultBatch
	Progress progress.Counter

	runID int64 // the run Run records, for decisions
}

// withDefaults resolves every default, so a run records what it really used.
func (o Options) withDefaults() Options {
	if o.Batch <= 0 {
		o.Batch = DefaultBatch
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Progress == nil {
		o.Progress = progress.Nop
	}
	o.Caps.defaults()
	o.Factory.defaults()
	return o
}

// RunArgs are the resolved options as a run records them: the caps, the wrapper
// factory thresholds and the blocklist entries.
func (o Options) RunArgs() map[string]any {
	o = o.withDefaults()
	block := o.Blocklist
	if block == nil {
		block = Blocklist{}
	}
	return map[string]any{"per_repo": o.Caps.PerRepo, "per_api": o.Caps.PerAPI, "per_endpoint": o.Caps.PerEndpoint,
		"flat_api_cap": o.Caps.FlatAPI, "blocklist": block,
		"factory_min_functions": o.Factory.MinFunctions, "factory_similarity": o.Factory.Similarity,
		"factory_min_share": o.Factory.MinShare, "factory_min_hosts": o.Factory.MinHosts,
		"workers": o.Workers, "batch": o.Batch}
}

// Result counts what Run did.
type Result struct {
	Candidates int            `json:"candidates"` // aligned candidate functions
	Kept       int            `json:"kept"`
	Rejected   int            `json:"rejected"`
	Templates  int            `json:"templates"`
	Reasons    map[string]int `json:"reasons"`    // rejected functions by first reason
	Signals    map[string]int `json:"signals"`    // template signals seen, by name
	Redacted   int            `json:"redacted"`   // kept functions with at least one redaction
	Redactions map[string]int `json:"redactions"` // by kind
	Reused     int            `json:"reused"`     // redactions already current from an earlier run
	// CallersKept are kept functions that only call same-file request functions,
	// none of which can be a sample on its own; Promoted are kept functions that
	// stand for their cluster because the caps passed its representative over.
	CallersKept int       `json:"callers_kept"`
	Promoted    int       `json:"promoted"`
	Verdicts    []Verdict `json:"-"`
}

// Counts are the result's figures as a run records them.
func (r *Result) Counts() map[string]int64 {
	c := map[string]int64{"candidates": int64(r.Candidates), "kept": int64(r.Kept), "rejected": int64(r.Rejected),
		"templates": int64(r.Templates), "redacted": int64(r.Redacted), "reused": int64(r.Reused),
		"callers_kept": int64(r.CallersKept), "promoted": int64(r.Promoted)}
	for k, v := range r.Reasons {
		c["rejected_"+k] = int64(v)
	}
	return c
}

// Run decides on every aligned candidate function, redacts the credentials of the
// kept ones and stores them (table kept) where the sample builder takes them. Every
// rejection is recorded with each of its reasons. Redactions already made for the
// same inputs are reused, so a killed run resumes cheaply and a rerun changes nothing.
//
// Run records itself as one run of the decontam stage, with its resolved options.
func Run(ctx context.Context, st *store.Store, opt Options) (*Result, error) {
	opt = opt.withDefaults()
	return store.RecordRun(ctx, st, Stage, opt.RunArgs(), func(runID int64) (*Result, error) {
		opt.runID = runID
		return run(ctx, st, opt)
	})
}

func run(ctx context.Context, st *store.Store, opt Options) (*Result, error) {
	cands, fns, prim, dedup, err := loadCandidates(ctx, st)
	if err != nil {
		return nil, err
	}
	res := &Result{Candidates: len(cands), Reasons: map[string]int{}, Signals: map[string]int{}, Redactions: map[string]int{}}
	verdicts := Decide(cands, dedup, opt.DecideOptions)
	res.Verdicts = verdicts
	var keep []int64
	keptVerdict := map[int64]Verdict{}
	for _, v := range verdicts {
		for _, s := range v.Signals {
			res.Signals[s.Name]++
		}
		if v.Template {
			res.Templates++
		}
		if v.Keep {
			keep = append(keep, v.FunctionID)
			keptVerdict[v.FunctionID] = v
			if _, ok := v.Notes["caller"]; ok {
				res.CallersKept++
			}
			if _, ok := v.Notes["promoted"]; ok {
				res.Promoted++
			}
		} else {
			res.Rejected++
			res.Reasons[v.Reasons[0].Code]++
		}
	}
	if err := recordRejections(ctx, st, verdicts, opt); err != nil {
		return res, err
	}

	// The kept: reuse current redactions, redact the rest in parallel, write in batches.
	existing, err := st.KeptFunctions(ctx)
	if err != nil {
		return res, fmt.Errorf("decontam: %w", err)
	}
	current := map[int64]store.KeptFunction{}
	for _, k := range existing {
		current[k.FunctionID] = k
	}
	jobs := make([]redactJob, len(keep))
	var queue []*redactJob
	for i, id := range keep {
		f := fns[id]
		jobs[i] = redactJob{fn: f, alignment: prim[id]}
		if k, ok := current[id]; ok && k.InputHash == store.KeptInputHash(f.Code, f.Source, f.Facts) && k.Alignment.ID == prim[id].ID {
			res.Reused++
			jobs[i].out = &k
			continue
		}
		queue = append(queue, &jobs[i])
	}
	opt.Progress.SetTotal(int64(len(keep)))
	if err := redactAll(ctx, queue, opt.Workers); err != nil {
		return res, err
	}
	kept, err := writeKept(ctx, st, jobs, keptVerdict, opt)
	if err != nil {
		return res, err
	}
	opt.Progress.Done()
	if err := st.Update(ctx, func(tx *store.Tx) error { return tx.RetainKept(ctx, kept) }); err != nil {
		return res, fmt.Errorf("decontam: %w", err)
	}
	res.Kept = len(kept)
	res.Rejected += len(keep) - len(kept)
	for _, j := range jobs {
		if j.err != nil {
			res.Reasons[ReasonRedactionFailed]++
			continue
		}
		kinds := kindsOf(j.out.Redactions)
		if len(kinds) > 0 {
			res.Redacted++
		}
		for k, n := range kinds {
			res.Redactions[k] += n
		}
	}
	return res, nil
}

// recordRejections stores one decision per reason of every rejected function.
func recordRejections(ctx context.Context, st *store.Store, verdicts []Verdict, opt Options) error {
	for start := 0; start < len(verdicts); start += opt.Batch {
		end := min(start+opt.Batch, len(verdicts))
		err := st.Update(ctx, func(tx *store.Tx) error {
			for _, v := range verdicts[start:end] {
				if v.Keep {
					continue
				}
				for _, r := range v.Reasons {
					d := store.Decision{Stage: Stage, SubjectKind: "function", Subject: strconv.FormatInt(v.FunctionID, 10),
						Verdict: store.Rejected, Reason: r.Code, Evidence: r.Evidence, RunID: opt.runID}
					if err := tx.RecordDecision(ctx, d); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("decontam: %w", err)
		}
	}
	return nil
}

// redactJob is one kept function on its way to the kept table.
type redactJob struct {
	fn        *store.Function
	alignment store.Alignment
	out       *store.KeptFunction
	err       error
}

// redactAll redacts the jobs' code, source and facts in workers.
func redactAll(ctx context.Context, jobs []*redactJob, workers int) error {
	var wg sync.WaitGroup
	next := make(chan *redactJob)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				j.out, j.err = redactFunction(ctx, j.fn, j.alignment)
			}
		}()
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		next <- j
	}
	close(next)
	wg.Wait()
	return ctx.Err()
}

// redactFunction makes the kept row of f: its code, source and facts redacted.
func redactFunction(ctx context.Context, f *store.Function, a store.Alignment) (*store.KeptFunction, error) {
	sc, err := functionScanner(f)
	if err != nil {
		return nil, err
	}
	code, fs1, err := sc.Redact(ctx, []byte(f.Code))
	if err != nil {
		return nil, err
	}
	var src []byte
	var fs2 []secrets.Finding
	if off := strings.Index(f.Code, f.Source); off >= 0 && f.Source != "" {
		// The function as written is part of its self-contained code.
		fs2 = secrets.Within(fs1, []byte(f.Code), off, len(f.Source))
		src = secrets.Apply([]byte(f.Source), fs2)
	} else if src, fs2, err = sc.Redact(ctx, []byte(f.Source)); err != nil {
		return nil, err
	}
	redacted, fs3, err := secrets.RedactJSON(f.Facts)
	if err != nil {
		return nil, err
	}
	return &store.KeptFunction{FunctionID: f.ID, Alignment: a, Code: string(code), Source: string(src),
		Redactions: redactionLog(fs1, fs2, fs3), Facts: redacted, InputHash: store.KeptInputHash(f.Code, f.Source, f.Facts)}, nil
}

// functionScanner is the credential scanner of f's language and dialect, from its
// facts (facts stored before there was a second language are Python's).
func functionScanner(f *store.Function) (*secrets.Scanner, error) {
	n, d := lang.Python, lang.DialectPython
	if len(f.Facts) > 0 {
		facts, err := lang.DecodeFacts(f.Facts)
		if err != nil {
			return nil, fmt.Errorf("function %d: %w", f.ID, err)
		}
		n, d = facts.Language, facts.Dialect
	}
	fe, err := frontends.For(n)
	if err != nil {
		return nil, fmt.Errorf("function %d: %w", f.ID, err)
	}
	if d == "" {
		d = frontends.DialectOf(n, "")
	}
	return secrets.NewScanner(fe, d), nil
}

// writeKept stores the kept rows and their decisions in batches and returns the ids
// kept. A function whose redaction would break its syntax is rejected instead.
func writeKept(ctx context.Context, st *store.Store, jobs []redactJob, verdicts map[int64]Verdict, opt Options) ([]int64, error) {
	var kept []int64
	for start := 0; start < len(jobs); start += opt.Batch {
		end := min(start+opt.Batch, len(jobs))
		var batch []int64
		err := st.Update(ctx, func(tx *store.Tx) error {
			for _, j := range jobs[start:end] {
				d := store.Decision{Stage: Stage, SubjectKind: "function", Subject: strconv.FormatInt(j.fn.ID, 10), RunID: opt.runID}
				if j.err != nil {
					if !errors.Is(j.err, secrets.ErrBrokeSyntax) {
						return fmt.Errorf("redact function %d: %w", j.fn.ID, j.err)
					}
					d.Verdict, d.Reason, d.Evidence = store.Rejected, ReasonRedactionFailed, map[string]any{"error": j.err.Error()}
					if err := tx.RecordDecision(ctx, d); err != nil {
						return err
					}
					continue
				}
				if err := tx.SaveKept(ctx, j.out); err != nil {
					return err
				}
				batch = append(batch, j.fn.ID)
				if kinds := kindsOf(j.out.Redactions); len(kinds) > 0 {
					c := d
					c.Verdict, c.Reason, c.Evidence = store.Changed, "redacted credentials", map[string]any{"kinds": kinds}
					if err := tx.RecordDecision(ctx, c); err != nil {
						return err
					}
				}
				d.Verdict = store.Kept
				d.Reason, d.Evidence = keptReason(verdicts[j.fn.ID])
				if err := tx.RecordDecision(ctx, d); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("decontam: %w", err)
		}
		kept = append(kept, batch...)
		opt.Progress.Add(int64(end - start))
	}
	return kept, nil
}

// Reasons of a kept function's decision.
const (
	ReasonKept         = "kept"
	ReasonKeptCaller   = "kept: a caller no callee can stand for"
	ReasonKeptPromoted = "kept: promoted over capped members of its cluster"
)

// keptReason is the reason and evidence of a kept function's decision: the template
// signals below the threshold and the verdict's notes.
func keptReason(v Verdict) (string, map[string]any) {
	ev := map[string]any{}
	if len(v.Signals) > 0 {
		ev["signals_below_threshold"] = v.Signals
	}
	for k, n := range v.Notes {
		ev[k] = n
	}
	reason := ReasonKept
	if _, ok := v.Notes["promoted"]; ok {
		reason = ReasonKeptPromoted
	}
	if _, ok := v.Notes["caller"]; ok {
		reason = ReasonKeptCaller
	}
	if len(ev) == 0 {
		ev = nil
	}
	return reason, ev
}

// redactionEntry is what the kept row records of one redaction: never the value.
type redactionEntry struct {
	Field string `json:"field"` // code | source | facts
	Kind  string `json:"kind"`
	Rule  string `json:"rule"`
	Line  int    `json:"line"`
}

func redactionLog(code, source, facts []secrets.Finding) json.RawMessage {
	out := []redactionEntry{}
	for _, f := range code {
		out = append(out, redactionEntry{"code", f.Kind, f.Rule, f.Line})
	}
	for _, f := range source {
		out = append(out, redactionEntry{"source", f.Kind, f.Rule, f.Line})
	}
	for _, f := range facts {
		out = append(out, redactionEntry{"facts", f.Kind, f.Rule, 0})
	}
	b, _ := json.Marshal(out)
	return b
}

// kindsOf counts the redactions of the self-contained code by kind.
func kindsOf(raw json.RawMessage) map[string]int {
	var es []redactionEntry
	_ = json.Unmarshal(raw, &es)
	out := map[string]int{}
	for _, e := range es {
		if e.Field == "code" {
			out[e.Kind]++
		}
	}
	return out
}

// loadCandidates joins the candidate functions that have a primary alignment with
// their file, repository and dedup entry.
func loadCandidates(ctx context.Context, st *store.Store) ([]Candidate, map[int64]*store.Function, map[int64]store.Alignment, map[int64]store.DedupEntry, error) {
	fail := func(err error) ([]Candidate, map[int64]*store.Function, map[int64]store.Alignment, map[int64]store.DedupEntry, error) {
		return nil, nil, nil, nil, fmt.Errorf("decontam: %w", err)
	}
	fns, err := st.Functions(ctx, store.FunctionCandidate)
	if err != nil {
		return fail(err)
	}
	prims, err := st.PrimaryAlignments(ctx)
	if err != nil {
		return fail(err)
	}
	prim := map[int64]store.Alignment{}
	for _, a := range prims {
		prim[a.FunctionID] = a
	}
	des, err := st.Dedup(ctx)
	if err != nil {
		return fail(err)
	}
	dedup := map[int64]store.DedupEntry{}
	for _, d := range des {
		dedup[d.FunctionID] = d
	}
	files := map[int64]*store.File{}
	heads := map[int64]string{}
	repos := map[int64]*store.Repository{}
	byID := map[int64]*store.Function{}
	callerFiles := map[int64]*fileFacts{}
	documented := map[int64]int{}
	var cands []Candidate
	for i := range fns {
		f := &fns[i]
		a, ok := prim[f.ID]
		if !ok {
			continue
		}
		byID[f.ID] = f
		file, ok := files[f.FileID]
		if !ok {
			if file, err = st.File(ctx, f.FileID); err != nil {
				return fail(err)
			}
			files[f.FileID] = file
			if content, err := st.FileContent(ctx, file); err == nil {
				heads[f.FileID] = head(content, 40)
			}
		}
		repo, ok := repos[file.RepoID]
		if !ok {
			if repo, err = st.Repository(ctx, file.RepoID); err != nil {
				return fail(err)
			}
			repos[file.RepoID] = repo
		}
		facts, _ := lang.DecodeFacts(f.Facts)
		if len(f.Facts) == 0 {
			facts = nil
		}
		c := Candidate{FunctionID: f.ID, Repo: repo.FullName, RepoDesc: repo.Description, RepoTopics: repo.Topics,
			RepoCreatedAt: repo.CreatedAt, Path: file.Path, FileHead: heads[f.FileID], Name: f.Name, QualName: f.QualName,
			FileID: f.FileID, Code: f.Code, Facts: facts, Quality: f.Quality, APIID: a.APIID, Host: a.Host, Route: a.Route,
			Endpoint: endpointKey(a), Documented: a.EndpointID != 0, Refused: refusalOf(a)}
		if c.APIEndpoints, err = apiEndpoints(ctx, st, a.APIID, documented); err != nil {
			return fail(err)
		}
		if facts != nil && !facts.Direct() {
			if err := loadCallerFacts(ctx, st, &c, prim, callerFiles); err != nil {
				return fail(err)
			}
		}
		cands = append(cands, c)
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].FunctionID < cands[j].FunctionID })
	return cands, byID, prim, dedup, nil
}

// apiEndpoints is the number of distinct endpoints (method and route) an API
// documents, read once per API into counted.
func apiEndpoints(ctx context.Context, st *store.Store, apiID int64, counted map[int64]int) (int, error) {
	if n, ok := counted[apiID]; ok {
		return n, nil
	}
	eps, err := st.Endpoints(ctx, apiID)
	if err != nil {
		return 0, err
	}
	distinct := map[string]bool{}
	for _, e := range eps {
		distinct[e.Method+" "+e.Route] = true
	}
	counted[apiID] = len(distinct)
	return len(distinct), nil
}

// Why a same-file function cannot be a sample on its own (Candidate.NotStandalone).
const (
	whyExtract   = "rejected by extract: "
	whyUnaligned = "not aligned with a documented endpoint"
)

// loadCallerFacts fills what Decide needs to judge a function that makes no request
// itself: the endpoints its calls aligned with, and for the file's other request
// functions, theirs or why they cannot be samples (read once per file into byFile).
func loadCallerFacts(ctx context.Context, st *store.Store, c *Candidate, prim map[int64]store.Alignment, byFile map[int64]*fileFacts) error {
	as, err := st.Alignments(ctx, c.FunctionID)
	if err != nil {
		return err
	}
	c.AlignedCalls = map[int]string{}
	for _, a := range as {
		c.AlignedCalls[a.CallIndex] = endpointKey(a)
	}
	ff, ok := byFile[c.FileID]
	if !ok {
		fns, err := st.FunctionsOfFile(ctx, c.FileID)
		if err != nil {
			return err
		}
		ff = &fileFacts{why: map[string]string{}, endpoints: map[string][]string{}}
		for _, g := range fns {
			if _, aligned := prim[g.ID]; g.Status != store.FunctionCandidate {
				ff.why[g.QualName] = whyExtract + g.RejectReason
				continue
			} else if !aligned {
				ff.why[g.QualName] = whyUnaligned
				continue
			}
			as, err := st.Alignments(ctx, g.ID)
			if err != nil {
				return err
			}
			for _, a := range as {
				ff.endpoints[g.QualName] = append(ff.endpoints[g.QualName], endpointKey(a))
			}
		}
		byFile[c.FileID] = ff
	}
	c.NotStandalone, c.FileEndpoints = ff.why, ff.endpoints
	return nil
}

// fileFacts are what loadCallerFacts reads once per file.
type fileFacts struct {
	why       map[string]string
	endpoints map[string][]string
}

// endpointKey names the endpoint an alignment binds a call to.
func endpointKey(a store.Alignment) string {
	return strings.ToLower(a.Host) + " " + a.Method + " " + a.Route
}

// head returns the first n lines of content.
func head(content []byte, n int) string {
	i, lines := 0, 0
	for i < len(content) && lines < n {
		j := bytes.IndexByte(content[i:], '\n')
		if j < 0 {
			i = len(content)
			break
		}
		i += j + 1
		lines++
	}
	return strings.ToValidUTF8(string(content[:i]), "\uFFFD")
}

// refusalOf reads what align recorded when it refused an alignment (its evidence's
// "refused"), nil when it did not.
func refusalOf(a store.Alignment) map[string]any {
	var ev struct {
		Refused map[string]any `json:"refused"`
	}
	if json.Unmarshal(a.Evidence, &ev) != nil {
		return nil
	}
	return ev.Refused
}
