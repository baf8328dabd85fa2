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
	// ReasonGenericWrapper, ReasonResourceSelected and ReasonMethodNotDocumented
	// reject a function whose primary alignment align refused (its evidence's
	// "refused"): its request names no one endpoint. A generic wrapper takes its
	// whole path after a fixed base, or its whole URL, from a parameter or from a
	// value it does not write (state); a resource selected by a parameter fills a
	// segment where every documented route it could name has a literal; an
	// undocumented method left a path too vague for a host-only label. The
	// evidence names the parameter.
	ReasonGenericWrapper      = "generic_wrapper"
	ReasonResourceSelected    = "resource_selected_by_parameter"
	ReasonMethodNotDocumented = "method_not_documented"
)

// refused returns the rejection of a candidate whose primary alignment align
// refused, or nil.
func refused(c Candidate) *Reason {
	if c.Refused == nil {
		return nil
	}
	code, _ := c.Refused["reason"].(string)
	if code == "" {
		return nil
	}
	ev := maps.Clone(c.Refused)
	delete(ev, "reason")
	delete(ev, "detail") // align's decision has it; the rejection's line names the parameter

	ev["host"], ev["observed_route"] = c.Host, c.Route
	if c.Facts != nil {
		ev["calls"] = len(c.Facts.Calls)
	}
	return &Reason{code, ev}
}

// isRefused reports a verdict that rejects a function align refused.
func (v *Verdict) isRefused() bool {
	return slices.ContainsFunc(v.Reasons, func(r Reason) bool {
		return r.Code == ReasonGenericWrapper || r.Code == ReasonResourceSelected || r.Code == ReasonMethodNotDocumented
	})
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
// recorded); functions whose request names no one endpoint, as align refused them
// (generic_wrapper, resource_selected_by_parameter, method_not_documented, naming
// the parameter); callers whose every aligned request is made by a same-file function
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
		} else if r := refused(c); r != nil {
			v.Reasons = append(v.Reasons, *r)
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
