package decontam

import (
	"sort"

	"sccg/store"
)

// Rejection reasons besides the template signals ("template: <signal>") and the caps.
const (
	ReasonExactDuplicate  = "exact_duplicate"
	ReasonNearDuplicate   = "near_duplicate"
	ReasonRedactionFailed = "redaction_failed"
)

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
}

// DecideOptions configure Decide.
type DecideOptions struct {
	Blocklist Blocklist
	Factory   FactoryOptions
	Caps      CapOptions
}

// Decide rejects templates and generated wrappers (every signal recorded),
// duplicates that are not their cluster's representative, and what exceeds the
// per-repository and per-API caps among the rest. When a cluster's representative
// is itself a template, its best member that is not stands for the cluster instead.
// Verdicts are in cands order.
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
		}
		out[i] = v
	}

	// The function that stands for each duplicate cluster: its representative, or
	// when that is a template, the best of its other members.
	stands := map[int64]int{} // cluster → index in cands
	for i, c := range cands {
		d, ok := dedup[c.FunctionID]
		if !ok || out[i].Template {
			continue
		}
		j, seen := stands[d.Cluster]
		if !seen || d.Kind == store.DedupRepresentative || (dedup[cands[j].FunctionID].Kind != store.DedupRepresentative && better(c, cands[j])) {
			stands[d.Cluster] = i
		}
	}
	var survivors []Candidate
	for i, c := range cands {
		v := &out[i]
		if d, ok := dedup[c.FunctionID]; ok && !v.Template && stands[d.Cluster] != i {
			code := ReasonNearDuplicate
			if d.Kind == store.DedupExact {
				code = ReasonExactDuplicate
			}
			v.Reasons = append(v.Reasons, Reason{code, map[string]any{"cluster": d.Cluster, "similarity": d.Similarity,
				"kept": cands[stands[d.Cluster]].FunctionID}})
		}
		if len(v.Reasons) == 0 {
			survivors = append(survivors, c)
		}
	}
	capped := ApplyCaps(survivors, opt.Caps)
	for i := range out {
		if len(out[i].Reasons) > 0 {
			continue
		}
		if r, ok := capped[out[i].FunctionID]; ok {
			out[i].Reasons = append(out[i].Reasons, Reason{Code: r})
			continue
		}
		out[i].Keep = true
	}
	return out
}

// better orders candidates for standing in for a cluster: higher quality, then the
// earlier repository, then the first by Key, then the lower function id.
func better(a, b Candidate) bool {
	if a.Quality != b.Quality {
		return a.Quality > b.Quality
	}
	if (a.RepoCreatedAt == "") != (b.RepoCreatedAt == "") {
		return b.RepoCreatedAt == ""
	}
	if a.RepoCreatedAt != b.RepoCreatedAt {
		return a.RepoCreatedAt < b.RepoCreatedAt
	}
	if a.Key != b.Key {
		return a.Key < b.Key
	}
	return a.FunctionID < b.FunctionID
}
