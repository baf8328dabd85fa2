package align

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"sccg/internal/progress"
	"sccg/lang"
	"sccg/store"
)

// Stage is the name align records runs, decisions and units under.
const Stage = "align"

// DefaultBatch is how many functions Run aligns in one transaction.
const DefaultBatch = 200

// Options configure Run.
type Options struct {
	Dedup    DedupOptions
	Refresh  bool // realign functions already aligned
	Batch    int  // functions per transaction; default DefaultBatch
	Progress progress.Counter

	runID int64 // the run Run records, for decisions and done units
}

// withDefaults resolves every default, so a run records what it really used.
func (o Options) withDefaults() Options {
	if o.Batch <= 0 {
		o.Batch = DefaultBatch
	}
	o.Dedup = o.Dedup.withDefaults()
	if o.Progress == nil {
		o.Progress = progress.Nop
	}
	return o
}

// RunArgs are the resolved options as a run records them.
func (o Options) RunArgs() map[string]any {
	o = o.withDefaults()
	return map[string]any{"threshold": o.Dedup.Threshold, "perms": o.Dedup.Perms, "shingle": o.Dedup.Shingle,
		"refresh": o.Refresh, "batch": o.Batch}
}

// Result counts what Run did.
type Result struct {
	Functions int            `json:"functions"` // candidates considered
	Skipped   int            `json:"skipped"`   // already aligned (resumed)
	Aligned   int            `json:"aligned"`   // functions with at least one alignment
	Unaligned int            `json:"unaligned"` // functions none of whose calls aligned
	ByType    map[string]int `json:"by_type"`   // primary alignments by doc_match_type
	Skips     map[string]int `json:"skips"`     // call sites this run could not align, by reason
	Dedup     DedupStats     `json:"dedup"`
	// Redone counts the functions aligned before that this run aligned again, by
	// why (RedoCatalog, RedoCode).
	Redone map[string]int `json:"redone,omitempty"`
	// Catalog is how the documented hosts changed since the last run: added,
	// changed, removed.
	Catalog map[string]int `json:"catalog,omitempty"`
}

// Why a function aligned before is aligned again.
const (
	RedoCatalog = "endpoint catalog changed"
	RedoCode    = "code changed"
	RedoRules   = "label rules changed"
)

// LabelRules names the version of the rules that bind a call to its label (which
// request is the function's own, which method, empty segments, refusals). It is
// part of every function's align unit, so a store aligned under other rules is
// aligned again; change it with any rule that can change a label.
const LabelRules = "rules2"

// Counts are the result's figures as a run records them.
func (r *Result) Counts() map[string]int64 {
	c := map[string]int64{"functions": int64(r.Functions), "skipped": int64(r.Skipped),
		"aligned": int64(r.Aligned), "unaligned": int64(r.Unaligned), "clusters": int64(r.Dedup.Clusters),
		"exact_duplicates": int64(r.Dedup.ExactDropped), "near_duplicates": int64(r.Dedup.NearDropped)}
	for k, v := range r.ByType {
		c["match_"+k] = int64(v)
	}
	for k, v := range r.Redone {
		c["redone"] += int64(v)
		c["redone_"+strings.ReplaceAll(k, " ", "_")] = int64(v)
	}
	for k, v := range r.Catalog {
		c["catalog_hosts_"+k] = int64(v)
	}
	return c
}

// Redid says what this run aligned again and why, or "" when nothing.
func (r *Result) Redid() string {
	if len(r.Redone) == 0 {
		return ""
	}
	var parts []string
	n := 0
	for _, why := range slices.Sorted(maps.Keys(r.Redone)) {
		n += r.Redone[why]
		part := why
		if len(r.Redone) > 1 {
			part = fmt.Sprintf("%d %s", r.Redone[why], why)
		}
		if why == RedoCatalog {
			var ch []string
			for _, k := range []string{"added", "changed", "removed"} {
				if c := r.Catalog[k]; c > 0 {
					ch = append(ch, fmt.Sprintf("%d host(s) %s", c, k))
				}
			}
			if len(ch) > 0 {
				part += " (" + strings.Join(ch, ", ") + ")"
			}
		}
		parts = append(parts, part)
	}
	return fmt.Sprintf("redid %d function(s): %s", n, strings.Join(parts, "; "))
}

// Run aligns every candidate function that is not aligned yet with the documented
// endpoints in the store, then recomputes the duplicate clusters over every aligned
// function. Each function's alignments, decision and done-mark commit together, so
// a killed run resumes where it stopped; running it twice changes nothing.
//
// Run records itself as one run of the align stage, with its resolved options.
func Run(ctx context.Context, st *store.Store, opt Options) (*Result, error) {
	opt = opt.withDefaults()
	return store.RecordRun(ctx, st, Stage, opt.RunArgs(), func(runID int64) (*Result, error) {
		opt.runID = runID
		return run(ctx, st, opt)
	})
}

func run(ctx context.Context, st *store.Store, opt Options) (*Result, error) {
	prog := opt.Progress
	cat, err := LoadCatalog(ctx, st)
	if err != nil {
		return nil, err
	}
	fns, err := st.Functions(ctx, store.FunctionCandidate)
	if err != nil {
		return nil, fmt.Errorf("align: %w", err)
	}
	if opt.Refresh {
		if err := st.Update(ctx, func(tx *store.Tx) error { return tx.ResetStage(ctx, Stage) }); err != nil {
			return nil, fmt.Errorf("align: %w", err)
		}
	}
	done, err := st.DoneUnits(ctx, Stage)
	if err != nil {
		return nil, fmt.Errorf("align: %w", err)
	}
	res := &Result{Functions: len(fns), ByType: map[string]int{}, Skips: map[string]int{}, Redone: map[string]int{},
		Catalog: catalogChanges(done, cat)}
	prev := map[string]string{} // "function:<id>:" → the unit it was last aligned as
	for u := range done {
		if rest, ok := strings.CutPrefix(u, "function:"); ok {
			if id, _, ok := strings.Cut(rest, ":"); ok {
				prev["function:"+id+":"] = u
			}
		}
	}
	prog.SetTotal(int64(len(fns)))
	var queue []store.Function
	units := map[int64]string{}
	for _, f := range fns {
		u := unitOf(f, cat)
		units[f.ID] = u
		if done[u] {
			res.Skipped++
			prog.Add(1)
			continue
		}
		if old, ok := prev[functionPrefix(f.ID)]; ok {
			sameCatalog := strings.TrimSuffix(u, ":"+LabelRules)
			switch {
			case old == sameCatalog || strings.HasPrefix(old, sameCatalog+":"):
				res.Redone[RedoRules]++
			case old == functionPrefix(f.ID)+f.CodeHash || strings.HasPrefix(old, functionPrefix(f.ID)+f.CodeHash+":"):
				res.Redone[RedoCatalog]++
			default:
				res.Redone[RedoCode]++
			}
		}
		queue = append(queue, f)
	}
	for len(queue) > 0 {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		n := min(opt.Batch, len(queue))
		batch := queue[:n]
		queue = queue[n:]
		skips := map[string]int{}
		err := st.Update(ctx, func(tx *store.Tx) error {
			for _, f := range batch {
				if err := alignOne(ctx, tx, f, units[f.ID], cat, opt.runID, skips); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return res, fmt.Errorf("align: %w", err)
		}
		for k, v := range skips {
			res.Skips[k] += v
		}
		prog.Add(int64(n))
	}
	prog.Done()
	if err := st.Update(ctx, func(tx *store.Tx) error { return saveCatalogPrints(ctx, tx, cat, opt.runID) }); err != nil {
		return res, fmt.Errorf("align: %w", err)
	}

	prims, err := st.PrimaryAlignments(ctx)
	if err != nil {
		return res, fmt.Errorf("align: %w", err)
	}
	aligned := map[int64]string{}
	for _, a := range prims {
		aligned[a.FunctionID] = a.Host + " " + a.Method + " " + a.Route
		res.ByType[a.DocMatchType]++
	}
	for _, f := range fns {
		if _, ok := aligned[f.ID]; !ok {
			res.Unaligned++
		}
	}
	res.Aligned = len(prims)
	items, err := dedupItems(ctx, st, fns, aligned)
	if err != nil {
		return res, err
	}
	entries, dst := Dedup(items, opt.Dedup)
	res.Dedup = dst
	rows := make([]store.DedupEntry, len(entries))
	for i, e := range entries {
		rows[i] = store.DedupEntry(e)
	}
	if err := st.Update(ctx, func(tx *store.Tx) error { return tx.SaveDedup(ctx, rows) }); err != nil {
		return res, fmt.Errorf("align: %w", err)
	}
	return res, nil
}

// unitOf names a function's align unit: its id, its code hash, a fingerprint of
// what the catalog documents about the hosts it depends on (DependsOn) and the
// LabelRules, so a function that was re-extracted with other code, whose hosts'
// documentation was added, changed or removed, or that was aligned under other
// label rules, is aligned again — and no other.
func unitOf(f store.Function, cat *Catalog) string {
	facts, err := lang.DecodeFacts(f.Facts)
	if err != nil || len(f.Facts) == 0 {
		facts = nil
	}
	sum := sha256.New()
	for _, h := range DependsOn(f.Code, facts) {
		if p := cat.HostPrint(h); p != "" {
			fmt.Fprintf(sum, "%s=%s\n", h, p)
		}
	}
	return functionPrefix(f.ID) + f.CodeHash + ":" + hex.EncodeToString(sum.Sum(nil))[:16] + ":" + LabelRules
}

func functionPrefix(id int64) string { return store.FunctionUnitPrefix(id) }

// catalogUnit is the done unit that records one documented host's fingerprint as
// the last run aligned against it.
const catalogUnit = "catalog|"

// catalogChanges counts the hosts added, changed and removed since the catalog the
// last run recorded.
func catalogChanges(done map[string]bool, cat *Catalog) map[string]int {
	before := map[string]string{}
	for u := range done {
		if rest, ok := strings.CutPrefix(u, catalogUnit); ok {
			if h, p, ok := strings.Cut(rest, "|"); ok {
				before[h] = p
			}
		}
	}
	now := cat.HostPrints()
	out := map[string]int{}
	for h, p := range now {
		switch q, ok := before[h]; {
		case !ok:
			out["added"]++
		case q != p:
			out["changed"]++
		}
	}
	for h := range before {
		if _, ok := now[h]; !ok {
			out["removed"]++
		}
	}
	return out
}

// saveCatalogPrints records the catalog this run aligned against, one unit per host.
func saveCatalogPrints(ctx context.Context, tx *store.Tx, cat *Catalog, runID int64) error {
	if err := tx.ResetUnits(ctx, Stage, catalogUnit); err != nil {
		return err
	}
	for h, p := range cat.HostPrints() {
		if err := tx.MarkDone(ctx, Stage, catalogUnit+h+"|"+p, runID); err != nil {
			return err
		}
	}
	return nil
}

func alignOne(ctx context.Context, tx *store.Tx, f store.Function, unit string, cat *Catalog, runID int64, skipped map[string]int) error {
	subject := strconv.FormatInt(f.ID, 10)
	d := store.Decision{Stage: Stage, SubjectKind: "function", Subject: subject, RunID: runID}
	var as []store.Alignment
	var skips []Skip
	facts, err := lang.DecodeFacts(f.Facts)
	if err != nil || len(f.Facts) == 0 {
		d.Verdict, d.Reason = store.Rejected, "no facts"
	} else {
		as, skips = AlignFunction(f.Code, facts, cat)
		for _, sk := range skips {
			skipped[sk.Reason]++
		}
		if len(as) == 0 {
			d.Verdict, d.Reason = store.Rejected, unalignedReason(skips)
			d.Evidence = map[string]any{"calls": len(facts.Calls), "skipped": skips}
		} else {
			for _, a := range as {
				if a.IsPrimary {
					d.Verdict, d.Reason = store.Kept, "aligned: "+a.DocMatchType
					d.Evidence = map[string]any{"host": a.Host, "route": a.Route, "method": a.Method,
						"endpoint_source": a.EndpointSource, "alignments": len(as), "skipped": len(skips)}
					if cs := RouteChoice(a); len(cs) > 0 {
						d.Evidence["candidates"] = cs
					}
					var ev Evidence
					if json.Unmarshal(a.Evidence, &ev) == nil {
						if len(ev.Rules) > 0 {
							d.Evidence["rules"] = ev.Rules
						}
						if ev.Refused != nil {
							d.Reason += ", refused: " + ev.Refused.Reason
							d.Evidence["refused"] = ev.Refused
						}
					}
				}
			}
		}
	}
	if err := tx.SaveAlignments(ctx, f.ID, as); err != nil {
		return err
	}
	if err := tx.RecordDecision(ctx, d); err != nil {
		return err
	}
	if err := tx.ResetUnits(ctx, Stage, functionPrefix(f.ID)); err != nil {
		return err
	}
	return tx.MarkDone(ctx, Stage, unit, runID)
}

// unalignedReason says why none of a function's calls aligned: each distinct
// reason of its skipped calls, an unknown host named.
func unalignedReason(skips []Skip) string {
	var parts []string
	for _, sk := range skips {
		p := strings.ReplaceAll(sk.Reason, "_", " ")
		if sk.Host != "" {
			p += " " + sk.Host
		}
		if !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return "no call aligned"
	}
	return "no call aligned: " + strings.Join(parts, "; ")
}

// LoadCatalog reads every API's endpoints from the store into a Catalog.
func LoadCatalog(ctx context.Context, st *store.Store) (*Catalog, error) {
	apis, err := st.APIs(ctx)
	if err != nil {
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	var eps []store.Endpoint
	for _, a := range apis {
		e, err := st.Endpoints(ctx, a.ID)
		if err != nil {
			return nil, fmt.Errorf("load catalog: %w", err)
		}
		eps = append(eps, e...)
	}
	return NewCatalog(eps, apis...), nil
}

// dedupItems gathers what Dedup needs about each aligned function: its repository
// and path come through its file, its directness from its facts.
func dedupItems(ctx context.Context, st *store.Store, fns []store.Function, aligned map[int64]string) ([]DedupItem, error) {
	files := map[int64]*store.File{}
	repoName := map[int64]string{}
	var items []DedupItem
	for _, f := range fns {
		endpoint, ok := aligned[f.ID]
		if !ok {
			continue
		}
		file, ok := files[f.FileID]
		if !ok {
			var err error
			if file, err = st.File(ctx, f.FileID); err != nil {
				return nil, fmt.Errorf("align: dedup: %w", err)
			}
			files[f.FileID] = file
			if _, ok := repoName[file.RepoID]; !ok {
				r, err := st.Repository(ctx, file.RepoID)
				if err != nil {
					return nil, fmt.Errorf("align: dedup: %w", err)
				}
				repoName[file.RepoID] = r.FullName
			}
		}
		direct := false
		if facts, err := lang.DecodeFacts(f.Facts); err == nil {
			direct = facts.Direct()
		}
		items = append(items, DedupItem{FunctionID: f.ID, CodeHash: f.CodeHash, Code: f.Code, Source: f.Source, Endpoint: endpoint,
			Direct: direct, Quality: CodeQuality(f.QualityComponents), Repo: repoName[file.RepoID], Path: file.Path, QualName: f.QualName, StartLine: f.StartLine})
	}
	return items, nil
}

// maxChoices bounds the candidates a decision lists.
const maxChoices = 5

// RouteChoice lists the documented routes an alignment chose among, the chosen
// first, each with its method and how the observed path fit it, the others with
// what they lost on ("GET /repos/{owner}/{repo}: 1 literal segment(s),
// {owner}={repository} {repo}=commits; lost on literal segment matches"). It is
// empty for an alignment that matched no route.
func RouteChoice(a store.Alignment) []string {
	var ev Evidence
	if json.Unmarshal(a.Evidence, &ev) != nil || ev.RouteFit == nil {
		return nil
	}
	out := []string{fmt.Sprintf("%s %s: %s; chosen", a.Method, ev.MatchedRoute, ev.RouteFit)}
	var alts []Alternative
	_ = json.Unmarshal(a.Alternatives, &alts)
	n := 0
	for _, o := range alts {
		if o.RouteFit == nil {
			continue
		}
		if n++; n >= maxChoices {
			continue
		}
		out = append(out, fmt.Sprintf("%s %s: %s; lost on %s", o.Method, o.Route, o.RouteFit, o.Lost))
	}
	if n >= maxChoices {
		out = append(out, fmt.Sprintf("… and %d more", n-maxChoices+1))
	}
	return out
}
