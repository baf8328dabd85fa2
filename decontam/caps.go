package decontam

import (
	"math"
)

// The default caps: at most 5 samples from one repository; an API's budget is 20
// samples, or ⌈√(20 × its documented endpoints)⌉ when it documents more than 20;
// once an API holds 20 samples, an endpoint may hold at most 5.
const (
	DefaultPerRepo     = 5
	DefaultPerAPI      = 20
	DefaultPerEndpoint = 5
)

// CapOptions bound how many samples one repository, one API and one endpoint may
// contribute.
type CapOptions struct {
	PerRepo int // default DefaultPerRepo; negative for no cap
	// PerAPI is an API's base budget (default DefaultPerAPI; negative for no cap):
	// the budget of an API that documents at most PerAPI endpoints, and the least
	// budget of any API. A larger API's budget grows with the square root of its
	// endpoints (APIBudget) unless FlatAPI is set.
	PerAPI int
	// PerEndpoint bounds the samples of one endpoint once its API holds PerAPI
	// samples (default DefaultPerEndpoint; negative for no cap): it never keeps an
	// API below what the flat per-API cap would keep.
	PerEndpoint int
	// FlatAPI makes every API's budget PerAPI, whatever its size (the paper's cap).
	FlatAPI bool
}

func (o *CapOptions) defaults() {
	if o.PerRepo == 0 {
		o.PerRepo = DefaultPerRepo
	}
	if o.PerAPI == 0 {
		o.PerAPI = DefaultPerAPI
	}
	if o.PerEndpoint == 0 {
		o.PerEndpoint = DefaultPerEndpoint
	}
}

// APIBudget is how many samples an API documenting endpoints endpoints may keep:
// PerAPI, or ⌈√(PerAPI × endpoints)⌉ when that is more (20 for up to 20 endpoints,
// 100 for 500, 142 for 1,000); negative for no cap.
func (o CapOptions) APIBudget(endpoints int) int {
	o.defaults()
	if o.PerAPI < 0 {
		return -1
	}
	if o.FlatAPI || endpoints <= o.PerAPI {
		return o.PerAPI
	}
	return int(math.Ceil(math.Sqrt(float64(o.PerAPI) * float64(endpoints))))
}

// Cap reasons. ReasonClusterCapped rejects the other members of a cluster none of
// whose members fits under the caps; its first member carries the cap it hit.
const (
	ReasonRepoCap       = "repo_cap"
	ReasonAPICap        = "api_cap"
	ReasonEndpointCap   = "endpoint_cap"
	ReasonClusterCapped = "cluster_capped"
)

// CapOutcome is what the caps decided for one cluster: the member kept (-1 for none)
// and, for every member passed over before it, the cap it hit and its figures.
type CapOutcome struct {
	Kept   int                    // index into the cluster's members; -1 when every member is capped
	Capped map[int]string         // member index → ReasonRepoCap | ReasonAPICap | ReasonEndpointCap
	Detail map[int]map[string]any // member index → the cap's figures (budget, endpoint, …)
}

// capKey names one endpoint of one API.
type capKey struct {
	api      int64
	endpoint string
}

// ApplyCaps keeps one sample per cluster within the per-repository, per-API and
// per-endpoint caps. clusters hold candidates that may stand for their cluster,
// each cluster's members most preferred first, and the clusters in order of their
// first member's preference: the caps fill in that order, with one exception that
// keeps an API's variety: while an API has endpoints not yet represented whose
// clusters are still to come, a cluster of an endpoint it already holds is kept
// only if the API's budget has room for them too; otherwise it waits, and the
// waiting clusters fill what budget is left, in order, once every cluster has had
// its turn. So no endpoint loses its only chance to a cap while its API's budget
// has room, and an API whose candidates fit its budget keeps them all, as before.
//
// A cluster's first member that fits every cap is kept: when its representative is
// capped, the next member (the same code in another repository) is promoted rather
// than the cluster silently lost. When no member fits, the cluster is capped as a
// whole.
func ApplyCaps(clusters [][]Candidate, opt CapOptions) []CapOutcome {
	opt.defaults()
	perRepo, perAPI, perEndpoint := map[string]int{}, map[int64]int{}, map[capKey]int{}
	// pending counts the clusters of each endpoint still to come; unrepresented
	// counts, per API, the endpoints with clusters to come and no sample yet.
	pending, unrepresented := map[capKey]int{}, map[int64]int{}
	for _, ms := range clusters {
		if len(ms) == 0 {
			continue
		}
		k := capKey{ms[0].APIID, ms[0].Endpoint}
		if pending[k] == 0 {
			unrepresented[k.api]++
		}
		pending[k]++
	}
	const wait = "wait"
	check := func(c Candidate, reserve bool) (string, map[string]any) {
		if opt.PerRepo > 0 && perRepo[c.Repo] >= opt.PerRepo {
			return ReasonRepoCap, map[string]any{"repo": c.Repo, "cap": opt.PerRepo}
		}
		k := capKey{c.APIID, c.Endpoint}
		budget := opt.APIBudget(c.APIEndpoints)
		if budget >= 0 && perAPI[c.APIID] >= budget {
			return ReasonAPICap, map[string]any{"api_budget": budget, "documented_endpoints": c.APIEndpoints,
				"endpoints_represented": nil}
		}
		if opt.PerEndpoint > 0 && perEndpoint[k] >= opt.PerEndpoint && perAPI[c.APIID] >= max(opt.PerAPI, 0) {
			return ReasonEndpointCap, map[string]any{"endpoint": c.Endpoint, "cap": opt.PerEndpoint, "api_samples": perAPI[c.APIID]}
		}
		if reserve && budget >= 0 && perEndpoint[k] > 0 && perAPI[c.APIID]+unrepresented[c.APIID] >= budget {
			return wait, nil
		}
		return "", nil
	}
	represented := map[int64]int{} // endpoints with a sample, per API
	keep := func(c Candidate) {
		k := capKey{c.APIID, c.Endpoint}
		if perEndpoint[k] == 0 {
			represented[k.api]++
			if pending[k] > 0 {
				unrepresented[k.api]--
			}
		}
		perRepo[c.Repo]++
		perAPI[c.APIID]++
		perEndpoint[k]++
	}
	decide := func(ms []Candidate, reserve bool) (CapOutcome, bool) {
		o := CapOutcome{Kept: -1, Capped: map[int]string{}, Detail: map[int]map[string]any{}}
		for i, c := range ms {
			why, detail := check(c, reserve)
			switch why {
			case "":
				o.Kept = i
				keep(c)
				return o, true
			case wait:
				return o, false
			case ReasonAPICap:
				detail["endpoints_represented"] = represented[c.APIID]
			}
			o.Capped[i], o.Detail[i] = why, detail
		}
		return o, true
	}
	out := make([]CapOutcome, len(clusters))
	var waiting []int
	for n, ms := range clusters {
		if len(ms) > 0 {
			k := capKey{ms[0].APIID, ms[0].Endpoint}
			if pending[k]--; pending[k] == 0 && perEndpoint[k] == 0 {
				unrepresented[k.api]--
			}
		}
		o, done := decide(ms, true)
		if !done {
			waiting = append(waiting, n)
			continue
		}
		out[n] = o
	}
	for _, n := range waiting {
		out[n], _ = decide(clusters[n], false)
	}
	return out
}
