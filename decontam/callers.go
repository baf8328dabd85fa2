package decontam

import (
	"fmt"
	"maps"
	"slices"
)

// callee is a same-file function a caller's request passes through.
type callee struct {
	FunctionID int64  `json:"function_id,omitempty"`
	QualName   string `json:"qualname"`
	Why        string `json:"why,omitempty"` // why it cannot be a sample on its own
}

// Why a callee cannot be a sample on its own, besides the reasons loadCandidates
// gives (Candidate.NotStandalone).
const (
	whyTemplate      = "template"
	whyUnknown       = "not a request function of the file"
	whyOtherEndpoint = "its own requests align with other endpoints: the endpoint comes from the caller's arguments"
	whyRefused       = "names no one endpoint: "
)

// callers rejects, as ReasonCallerOf, every candidate that is not a template and
// makes no request itself when each of its aligned requests passes through a
// same-file function that can stand for it: an aligned candidate, not a template,
// whose own requests align with the same endpoint. Along a request's chain of
// helpers the innermost such function is named, the one nearest to the request. A
// caller with an aligned request no callee can stand for stays (a generic helper
// that is not aligned, or one that only gets its endpoint from the caller's
// arguments), and its verdict's note says which callees could not and why. A callee
// named by callers notes them ("callers"), so its kept decision shows them.
func callers(cands []Candidate, out []Verdict) {
	type fileFn struct {
		file int64
		qual string
	}
	index := map[fileFn]int{}
	for i, c := range cands {
		index[fileFn{c.FileID, c.QualName}] = i
	}
	for i, c := range cands {
		if out[i].Template || out[i].isRefused() || c.Facts == nil || c.Facts.Direct() || len(c.AlignedCalls) == 0 {
			continue
		}
		var by, cannot []callee
		seen := map[string]bool{}
		for _, k := range slices.Sorted(maps.Keys(c.AlignedCalls)) {
			if k < 0 || k >= len(c.Facts.Calls) {
				continue
			}
			endpoint := c.AlignedCalls[k]
			call := c.Facts.Calls[k]
			chain := call.Via
			if len(chain) == 0 {
				chain = []string{call.InHelper}
			}
			found := false
			for n := len(chain) - 1; n >= 0 && !found; n-- {
				j, ok := index[fileFn{c.FileID, chain[n]}]
				if ok && j != i && !out[j].Template && !out[j].isRefused() && slices.Contains(c.FileEndpoints[chain[n]], endpoint) {
					found = true
					if !seen[chain[n]] {
						seen[chain[n]] = true
						by = append(by, callee{FunctionID: cands[j].FunctionID, QualName: chain[n]})
					}
				}
			}
			if found {
				continue
			}
			for _, q := range chain {
				if seen["!"+q] {
					continue
				}
				seen["!"+q] = true
				why := c.NotStandalone[q]
				j, ok := index[fileFn{c.FileID, q}]
				switch {
				case ok && out[j].Template:
					why = whyTemplate
				case ok && out[j].isRefused():
					why = whyRefused + out[j].Reasons[0].Code + " (" + fmt.Sprint(out[j].Reasons[0].Evidence["parameter"]) + ")"
				case ok:
					why = whyOtherEndpoint
				case why == "":
					why = whyUnknown
				}
				cannot = append(cannot, callee{QualName: q, Why: why})
			}
		}
		switch {
		case len(cannot) == 0 && len(by) > 0:
			out[i].Reasons = append(out[i].Reasons, Reason{ReasonCallerOf, map[string]any{"callees": by}})
			for _, b := range by {
				j := index[fileFn{c.FileID, b.QualName}]
				was, _ := out[j].Notes["callers"].([]callee)
				out[j].note("callers", append(was, callee{FunctionID: c.FunctionID, QualName: c.QualName}))
			}
		case len(cannot) > 0:
			note := map[string]any{"requests_through": cannot}
			if len(by) > 0 {
				note["other_callees"] = by
			}
			out[i].note("caller", note)
		}
	}
}
