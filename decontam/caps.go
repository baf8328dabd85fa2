package decontam

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

// Cap reasons. ReasonClusterCapped rejects the other members of a cluster none of
// whose members fits under the caps; its first member carries the cap it hit.
const (
	ReasonRepoCap       = "repo_cap"
	ReasonAPICap        = "api_cap"
	ReasonClusterCapped = "cluster_capped"
)

// CapOutcome is what the caps decided for one cluster: the member kept (-1 for none)
// and, for every member passed over before it, the cap it hit.
type CapOutcome struct {
	Kept   int            // index into the cluster's members; -1 when every member is capped
	Capped map[int]string // member index → ReasonRepoCap | ReasonAPICap
}

// ApplyCaps keeps one sample per cluster within the per-repository and per-API
// caps. clusters hold candidates that may stand for their cluster, each cluster's
// members most preferred first, and the clusters in order of their first member's
// preference: the caps fill in that order. A cluster's first member that still fits
// both caps is kept: when its representative is capped, the next member (the same
// code in another repository) is promoted rather than the cluster silently lost.
// When no member fits, the cluster is capped as a whole.
func ApplyCaps(clusters [][]Candidate, opt CapOptions) []CapOutcome {
	opt.defaults()
	perRepo, perAPI := map[string]int{}, map[int64]int{}
	out := make([]CapOutcome, len(clusters))
	for n, ms := range clusters {
		o := CapOutcome{Kept: -1, Capped: map[int]string{}}
		for i, c := range ms {
			switch {
			case opt.PerRepo > 0 && perRepo[c.Repo] >= opt.PerRepo:
				o.Capped[i] = ReasonRepoCap
				continue
			case opt.PerAPI > 0 && perAPI[c.APIID] >= opt.PerAPI:
				o.Capped[i] = ReasonAPICap
				continue
			}
			o.Kept = i
			perRepo[c.Repo]++
			perAPI[c.APIID]++
			break
		}
		out[n] = o
	}
	return out
}
