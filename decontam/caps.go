package decontam

import "sort"

// The default caps: at most 5 samples from one repository and 20 from one API.
const (
	DefaultPerRepo = 5
	DefaultPerAPI  = 20
)

// CapOptions bound how many samples one repository and one API may contribute.
type CapOptions struct {
	PerRepo int // default DefaultPerRepo; negative for no cap
	PerAPI  int // default DefaultPerAPI; negative for no cap
}

func (o *CapOptions) defaults() {
	if o.PerRepo == 0 {
		o.PerRepo = DefaultPerRepo
	}
	if o.PerAPI == 0 {
		o.PerAPI = DefaultPerAPI
	}
}

// Cap reasons.
const (
	ReasonRepoCap = "repo_cap"
	ReasonAPICap  = "api_cap"
)

// ApplyCaps keeps, per repository and per API, the best candidates by quality score
// (ties: earliest repository, then the first by Key, then the lowest function id) up to the caps. It returns
// the reason for every capped candidate, by function id.
func ApplyCaps(cands []Candidate, opt CapOptions) map[int64]string {
	opt.defaults()
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := cands[order[a]], cands[order[b]]
		if x.Quality != y.Quality {
			return x.Quality > y.Quality
		}
		if (x.RepoCreatedAt == "") != (y.RepoCreatedAt == "") {
			return y.RepoCreatedAt == ""
		}
		if x.RepoCreatedAt != y.RepoCreatedAt {
			return x.RepoCreatedAt < y.RepoCreatedAt
		}
		if x.Key != y.Key {
			return x.Key < y.Key
		}
		return x.FunctionID < y.FunctionID
	})
	perRepo, perAPI := map[string]int{}, map[int64]int{}
	out := map[int64]string{}
	for _, i := range order {
		c := cands[i]
		switch {
		case opt.PerRepo > 0 && perRepo[c.Repo] >= opt.PerRepo:
			out[c.FunctionID] = ReasonRepoCap
		case opt.PerAPI > 0 && perAPI[c.APIID] >= opt.PerAPI:
			out[c.FunctionID] = ReasonAPICap
		default:
			perRepo[c.Repo]++
			perAPI[c.APIID]++
		}
	}
	return out
}
