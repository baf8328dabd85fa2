package retrieve

import "sccg/evaluate/stats"

// The cut-offs of the reported metrics.
var (
	// HostEndpointKs are Table VIII's K for Host@K and Endpoint@K.
	HostEndpointKs = []int{1, 3, 5, 10}
	// TopKs are DeepCodeSeek's K for top-K accuracy.
	TopKs = []int{5, 10, 20, 40}
	// SetKs are CAPIR's k for recall@k and precision@k.
	SetKs = []int{3, 5, 10, 15}
)

// MRRBootstrap is how many resamples the MRR's bootstrap interval draws.
const MRRBootstrap = 2000

// DefaultDepth is how many documents are retrieved per query: the largest cut-off
// above.
const DefaultDepth = 40

// Ranked is one retrieved document of a sample's result, judged.
type Ranked struct {
	Rank     int     `json:"rank"` // 1-based
	ID       string  `json:"id"`
	Score    float64 `json:"score"`
	Host     bool    `json:"host"`     // on a gold host
	Endpoint bool    `json:"endpoint"` // the labeled endpoint
	Used     bool    `json:"used"`     // an endpoint the gold code uses
}

// SampleResult is one query's outcome: the ranks of the first right host and the
// first right endpoint (0 when neither is in the retrieved list) and what is needed
// to see why.
type SampleResult struct {
	SampleID     string `json:"sample_id"`
	DocMatchType string `json:"doc_match_type"`
	QuerySource  string `json:"query_source"`
	Query        string `json:"query"`
	// HasEndpoint is false when the label names no endpoint (host_only without a
	// route): such samples count for Host@K only.
	HasEndpoint bool     `json:"has_endpoint"`
	GoldHosts   []string `json:"gold_hosts"`
	GoldRoute   string   `json:"gold_route,omitempty"`
	GoldMethod  string   `json:"gold_method"`
	// Gold are the IDs of the labeled endpoint's documents; GoldMatch says how they
	// were found ("endpoint_id", "route+method", "route"), "" when the corpus
	// lacks the endpoint.
	Gold      []string `json:"gold"`
	GoldMatch string   `json:"gold_match"`
	// Used are the IDs of every endpoint the sample uses that the corpus has;
	// UsedMissing those it lacks; UnmatchedCalls the gold code's requests that
	// match no document.
	Used           []string `json:"used"`
	UsedMissing    int      `json:"used_missing"`
	UnmatchedCalls int      `json:"unmatched_calls"`
	HostRank       int      `json:"host_rank"`
	EndpointRank   int      `json:"endpoint_rank"`
	Retrieved      int      `json:"retrieved"`
	// UsedAt[k] is how many used endpoints are among the first k hits, for every k
	// of SetKs.
	UsedAt map[int]int `json:"used_at"`
	Hits   []Ranked    `json:"hits"`
}

// usedTotal is the size of the set recall@k divides by.
func (s *SampleResult) usedTotal() int { return len(s.Used) + s.UsedMissing }

// judge ranks the hits of one query.
func judge(c *Corpus, q Query, hits []Hit, keep int) SampleResult {
	j := c.Judge(q)
	r := SampleResult{SampleID: q.SampleID, DocMatchType: q.DocMatchType, QuerySource: q.TextSource, Query: q.Text,
		HasEndpoint: q.Truth.HasEndpoint(), GoldHosts: q.Truth.Hosts, GoldRoute: q.Truth.Route, GoldMethod: q.Truth.Method,
		GoldMatch: j.Match, UsedMissing: j.UsedMissing, UnmatchedCalls: j.Unmatched, Retrieved: len(hits),
		Gold: []string{}, Used: []string{}, Hits: []Ranked{}, UsedAt: map[int]int{}}
	for _, i := range j.Gold {
		r.Gold = append(r.Gold, c.Docs[i].ID)
	}
	for _, i := range j.Used {
		r.Used = append(r.Used, c.Docs[i].ID)
	}
	used := 0
	for n, h := range hits {
		rk := Ranked{Rank: n + 1, ID: c.Docs[h.Doc].ID, Score: h.Score, Host: j.IsHost(c, h.Doc),
			Endpoint: r.HasEndpoint && j.IsGold(h.Doc), Used: j.IsUsed(h.Doc)}
		if rk.Host && r.HostRank == 0 {
			r.HostRank = rk.Rank
		}
		if rk.Endpoint && r.EndpointRank == 0 {
			r.EndpointRank = rk.Rank
		}
		if rk.Used {
			used++
		}
		for _, k := range SetKs {
			if rk.Rank == k {
				r.UsedAt[k] = used
			}
		}
		if n < keep {
			r.Hits = append(r.Hits, rk)
		}
	}
	for _, k := range SetKs {
		if k > len(hits) {
			r.UsedAt[k] = used
		}
	}
	return r
}

// Rate is a share of samples with its Wilson 95% interval.
type Rate struct {
	K    int     `json:"k"`
	Hits int     `json:"hits"`
	N    int     `json:"n"`
	Rate float64 `json:"rate"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
}

func newRate(k, hits, n int) Rate {
	r := Rate{K: k, Hits: hits, N: n}
	if n > 0 {
		r.Rate = float64(hits) / float64(n)
	}
	r.Lo, r.Hi = stats.Wilson(hits, n)
	return r
}

// Mean is the mean of a per-sample value at one cut-off.
type Mean struct {
	K     int     `json:"k"`
	N     int     `json:"n"`
	Value float64 `json:"value"`
}

// Agg aggregates sample results.
type Agg struct {
	N int `json:"n"` // samples: the denominator of Host@K
	// NEndpoint are the samples whose label names an endpoint: the denominator of
	// every endpoint metric.
	NEndpoint int `json:"n_endpoint"`
	// NotInCorpus are samples with an endpoint the corpus lacks (always misses).
	NotInCorpus int `json:"not_in_corpus"`
	// HostAtK: a document on a gold host among the first K (Table VIII).
	HostAtK []Rate `json:"host_at_k"`
	// EndpointAtK: the labeled endpoint among the first K (Table VIII).
	EndpointAtK []Rate `json:"endpoint_at_k"`
	// TopKAccuracy: the same at DeepCodeSeek's K (5, 10, 20, 40).
	TopKAccuracy []Rate `json:"top_k_accuracy"`
	// MRR is the mean reciprocal rank of the labeled endpoint (0 when it is not
	// retrieved within the depth), and MRRLo–MRRHi its percentile bootstrap 95%
	// interval over the samples (MRRBootstrap resamples, seed 1).
	MRR   float64 `json:"mrr"`
	MRRLo float64 `json:"mrr_lo"`
	MRRHi float64 `json:"mrr_hi"`
	// RecallAtK: the share of the endpoints a sample uses among its first k hits;
	// PrecisionAtK: the share of its first k hits (as many as were returned) that
	// it uses — CAPIR's recall@k and precision@k, averaged over samples.
	RecallAtK    []Mean `json:"recall_at_k"`
	PrecisionAtK []Mean `json:"precision_at_k"`
}

// Aggregate computes the metrics over sample results.
func Aggregate(rs []SampleResult) Agg {
	a := Agg{N: len(rs)}
	var ep []SampleResult
	for _, r := range rs {
		if r.HasEndpoint {
			ep = append(ep, r)
			if len(r.Gold) == 0 {
				a.NotInCorpus++
			}
		}
	}
	a.NEndpoint = len(ep)
	within := func(rank, k int) bool { return rank > 0 && rank <= k }
	count := func(rs []SampleResult, k int, rank func(SampleResult) int) int {
		n := 0
		for _, r := range rs {
			if within(rank(r), k) {
				n++
			}
		}
		return n
	}
	host := func(r SampleResult) int { return r.HostRank }
	endpoint := func(r SampleResult) int { return r.EndpointRank }
	for _, k := range HostEndpointKs {
		a.HostAtK = append(a.HostAtK, newRate(k, count(rs, k, host), len(rs)))
		a.EndpointAtK = append(a.EndpointAtK, newRate(k, count(ep, k, endpoint), len(ep)))
	}
	for _, k := range TopKs {
		a.TopKAccuracy = append(a.TopKAccuracy, newRate(k, count(ep, k, endpoint), len(ep)))
	}
	rr := make([]float64, len(ep))
	for i, r := range ep {
		if r.EndpointRank > 0 {
			rr[i] = 1 / float64(r.EndpointRank)
			a.MRR += rr[i]
		}
	}
	if len(ep) > 0 {
		a.MRR /= float64(len(ep))
	}
	a.MRRLo, a.MRRHi = stats.BootstrapMean(rr, MRRBootstrap, 1)
	for _, k := range SetKs {
		rec, prec := Mean{K: k, N: len(ep)}, Mean{K: k, N: len(ep)}
		for _, r := range ep {
			found := float64(r.UsedAt[k])
			if t := r.usedTotal(); t > 0 {
				rec.Value += found / float64(t)
			}
			if ret := min(k, r.Retrieved); ret > 0 {
				prec.Value += found / float64(ret)
			}
		}
		if len(ep) > 0 {
			rec.Value /= float64(len(ep))
			prec.Value /= float64(len(ep))
		}
		a.RecallAtK = append(a.RecallAtK, rec)
		a.PrecisionAtK = append(a.PrecisionAtK, prec)
	}
	return a
}

// ByDocMatchType aggregates per doc_match_type.
func ByDocMatchType(rs []SampleResult) map[string]Agg {
	parts := map[string][]SampleResult{}
	for _, r := range rs {
		parts[r.DocMatchType] = append(parts[r.DocMatchType], r)
	}
	out := map[string]Agg{}
	for k, p := range parts {
		out[k] = Aggregate(p)
	}
	return out
}
