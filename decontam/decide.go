package decontam

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"sort"

	"sccg/store"
)

// Rejection reasons besides the template signals ("template: <signal>") and the caps.
const (
	ReasonExactDuplicate  = "exact_duplicate"
	ReasonNearDuplicate   = "near_duplicate"
	ReasonRedactionFailed = "redaction_failed"
	// ReasonCallerOf rejects a function whose requests all come from same-file
	// functions it calls that are samples on their own: the callee is the sample.
	ReasonCallerOf = "caller_of"
	// ReasonGenericWrapper rejects a function whose every request takes its whole
	// path, or whole URL, from a parameter of the function (lang.Call.PathFrom)
	// and fits no documented route: it asks for whatever endpoint its caller names,
	// so it asks for none. Its evidence names the parameter.
	ReasonGenericWrapper = "generic_wrapper"
)

// genericWrapper returns the evidence that c is a generic wrapper, or nil.
func genericWrapper(c Candidate) map[string]any {
	if c.Facts == nil || len(c.Facts.Calls) == 0 || c.Documented {
		return nil
	}
	var params []string
	for _, call := range c.Facts.Calls {
		if call.PathFrom == "" {
			return nil
		}
		if !slices.Contains(params, call.PathFrom) {
			params = append(params, call.PathFrom)
		}
	}
	ev := map[string]any{"parameter": params[0], "calls": len(c.Facts.Calls), "host": c.Host, "observed_route": c.Route}
	if len(params) > 1 {
		ev["parameters"] = params
	}
	return ev
}

// isWrapper reports a verdict that rejects a generic wrapper.
func (v *Verdict) isWrapper() bool {
	return slices.ContainsFunc(v.Reasons, func(r Reason) bool { return r.Code == ReasonGenericWrapper })
}

// Reason is one reason a function was rejected, with its evidence.
type Reason struct {
	Code     string         `json:"reason"`
	Evidence map[string]any `json:"evidence,omitempty"`
}

// Verdict is decontam's decision on one function before redaction.
type Verdict struct {
	FunctionID int64    `json:"function_id"`
	Keep       bool     `json:"keep"`
	Template   bool     `json:"template"`
	Signals    []Signal `json:"signals,omitempty"` // every template signal, also below the threshold
	Reasons    []Reason `json:"reasons,omitempty"`
	// Notes are recorded with a kept function's decision: why a caller stays
	// ("caller"), the callers rejected in its favour ("callers"), and that it was
	// promoted over its capped representative ("promoted").
	Notes map[string]any `json:"notes,omitempty"`
}

// DecideOptions configure Decide.
type DecideOptions struct {
	Blocklist Blocklist
	Factory   FactoryOptions
	Caps      CapOptions
}

// Decide rejects, in this order: templates and generated wrappers (every signal
// recorded); generic wrappers, whose path comes whole from their caller
// (generic_wrapper, naming the parameter); callers whose every aligned request is made by a same-file function
// that can be a sample on its own (caller_of, naming the callees); within each
// duplicate cluster, every member but the one that stands for it; and what exceeds
// the per-repository, per-API and per-endpoint caps. A cluster's members are taken in align's
// rank (store.DedupEntry.Rank): the first that is neither a template nor a caller
// stands for the cluster, and when the caps pass it over, the next that fits is
// promoted (ApplyCaps). Verdicts are in cands order.
func Decide(cands []Candidate, dedup map[int64]store.DedupEntry, opt DecideOptions) []Verdict {
	factories := WrapperFactories(cands, opt.Factory)
	out := make([]Verdict, len(cands))
	for i, c := range cands {
		v := Verdict{FunctionID: c.FunctionID}
		sigs := Signals(c)
		if e := opt.Blocklist.Match(c.Repo); e != "" {
			sigs = append(sigs, Signal{SignalBlocklisted, map[string]any{"entry": e}})
		}
		if ev, ok := factories[c.Repo]; ok {
			sigs = append(sigs, Signal{SignalWrapperFactory, ev})
		}
		sort.SliceStable(sigs, func(a, b int) bool {
			wa, wb := weakSignals[sigs[a].Name], weakSignals[sigs[b].Name]
			if wa != wb {
				return wb // strong signals first
			}
			return sigs[a].Name < sigs[b].Name
		})
		v.Signals = sigs
		if IsTemplate(sigs) {
			v.Template = true
			for _, s := range sigs {
				v.Reasons = append(v.Reasons, Reason{"template: " + s.Name, s.Evidence})
			}
		} else if ev := genericWrapper(c); ev != nil {
			v.Reasons = append(v.Reasons, Reason{ReasonGenericWrapper, ev})
		}
		out[i] = v
	}
	callers(cands, out)

	// Duplicate clusters, members in rank order; a function align did not cluster
	// is a cluster of its own.
	rank := func(i int) int {
		if r := dedup[cands[i].FunctionID].Rank; r > 0 {
			return r
		}
		return math.MaxInt // unranked: after every ranked function
	}
	clusterOf := func(i int) int64 {
		if d, ok := dedup[cands[i].FunctionID]; ok {
			return d.Cluster
		}
		return -cands[i].FunctionID
	}
	members := map[int64][]int{}
	var ids []int64
	for i := range cands {
		if len(out[i].Reasons) > 0 {
			continue
		}
		k := clusterOf(i)
		if _, ok := members[k]; !ok {
			ids = append(ids, k)
		}
		members[k] = append(members[k], i)
	}
	byRank := func(a, b int) int {
		if c := cmp.Compare(rank(a), rank(b)); c != 0 {
			return c
		}
		return cmp.Compare(cands[a].FunctionID, cands[b].FunctionID)
	}
	for _, k := range ids {
		slices.SortFunc(members[k], byRank)
	}
	slices.SortFunc(ids, func(a, b int64) int { return byRank(members[a][0], members[b][0]) })
	clusters := make([][]Candidate, len(ids))
	for n, k := range ids {
		for _, i := range members[k] {
			clusters[n] = append(clusters[n], cands[i])
		}
	}
	for n, o := range ApplyCaps(clusters, opt.Caps) {
		ms := members[ids[n]]
		if o.Kept < 0 {
			first := cands[ms[0]].FunctionID
			for m, i := range ms {
				ev := map[string]any{"cluster": ids[n], "members": len(ms)}
				if m == 0 {
					maps.Copy(ev, o.Detail[m])
					out[i].Reasons = append(out[i].Reasons, Reason{o.Capped[m], ev})
					continue
				}
				ev["representative"], ev["cap"] = first, o.Capped[0]
				out[i].Reasons = append(out[i].Reasons, Reason{ReasonClusterCapped, ev})
			}
			continue
		}
		kept := cands[ms[o.Kept]].FunctionID
		for m, i := range ms {
			switch {
			case m == o.Kept:
				out[i].Keep = true
				if m > 0 {
					var over []int64
					for _, j := range ms[:m] {
						over = append(over, cands[j].FunctionID)
					}
					out[i].note("promoted", map[string]any{"cluster": ids[n], "over": over, "because": o.Capped[0]})
				}
			case m < o.Kept:
				ev := map[string]any{"cluster": ids[n], "kept": kept}
				maps.Copy(ev, o.Detail[m])
				out[i].Reasons = append(out[i].Reasons, Reason{o.Capped[m], ev})
			default:
				d := dedup[cands[i].FunctionID]
				code := ReasonNearDuplicate
				if d.Kind == store.DedupExact {
					code = ReasonExactDuplicate
				}
				out[i].Reasons = append(out[i].Reasons, Reason{code, map[string]any{"cluster": ids[n], "similarity": d.Similarity, "kept": kept}})
			}
		}
	}
	return out
}

func (v *Verdict) note(key string, val any) {
	if v.Notes == nil {
		v.Notes = map[string]any{}
	}
	v.Notes[key] = val
}
