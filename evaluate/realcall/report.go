package realcall

import (
	"fmt"
	"slices"
	"strings"

	"sccg/evaluate/stats"
)

// The groups of requests.
const (
	GroupGold     = "gold"          // a service's gold request, which screens it
	GroupPositive = "mock_positive" // a request Mock scores as a hit
	GroupNegative = "mock_negative" // a request of a completion Mock scores as a miss
)

// GroupNames are the groups as the report names them.
var GroupNames = map[string]string{GroupGold: "gold", GroupPositive: "Mock-positive", GroupNegative: "Mock-negative"}

// Reasons a request is not sent, or a service not validated.
const (
	ReasonUnknownSample = "unknown_sample"  // the result's sample is not in the benchmark
	ReasonNoRequest     = "no_request"      // the completion sent no request
	ReasonOtherHost     = "other_host"      // no request went to the API's host
	ReasonMethod        = "not_get"         // neither GET nor HEAD
	ReasonBody          = "body"            // the request carries a body
	ReasonNoValues      = "no_param_values" // the results do not hold the query values (written before sccg eval kept them)
	ReasonBadURL        = "bad_url"         // not an http(s) URL with a host
	ReasonPrivate       = "private_address" // an IP literal that is private, loopback or link-local
	ReasonWrite         = "write_verb"      // the route or a parameter names a write
	ReasonNotFree       = "not_free"        // the service is neither FREE nor allowed with --allow-host
	ReasonNoGold        = "no_gold"         // the service has no gold request that may be sent
	ReasonDuplicate     = "duplicate"       // the same request as one already in its group
	ReasonNotSampled    = "not_sampled"     // beyond the per-API sample
	ReasonUnreachable   = "gold_not_2xx"    // the gold request of the service did not answer 2xx
	ReasonBudget        = "budget"          // the budget of calls ran out first
	ReasonNotScreened   = "not_screened"    // a gold request of a service with nothing to validate
)

// ReasonText says what each reason means.
var ReasonText = map[string]string{
	ReasonUnknownSample: "the sample is not in the benchmark",
	ReasonNoRequest:     "the completion sent no request",
	ReasonOtherHost:     "no request went to the API's host",
	ReasonMethod:        "not GET or HEAD",
	ReasonBody:          "the request carries a body",
	ReasonNoValues:      "the results do not hold its query values (written before sccg eval kept them: evaluate again)",
	ReasonBadURL:        "not an http(s) URL with a host",
	ReasonPrivate:       "a private, loopback or link-local address",
	ReasonWrite:         "the route or a parameter names a write",
	ReasonNotFree:       "the service is not marked FREE and its host was not allowed (--allow-host)",
	ReasonNoGold:        "the service has no gold request that may be sent",
	ReasonDuplicate:     "the same request as one already in its group",
	ReasonNotSampled:    "beyond the per-API sample",
	ReasonUnreachable:   "its service's gold request did not answer 2xx",
	ReasonBudget:        "the budget of calls (--max-calls) ran out first",
	ReasonNotScreened:   "a gold request of a service with no Mock-positive or Mock-negative request that may be sent: it is not screened",
}

// Kind marks a real-call report file (realcall.json) so readers can tell it apart.
const Kind = "sccg-realcall"

// Report is a real-call validation: what was planned, excluded and sent, and the
// 2xx rates.
type Report struct {
	Kind    string   `json:"kind"`
	Live    bool     `json:"live"`
	Bench   string   `json:"bench,omitempty"`
	Results []string `json:"results,omitempty"`
	Options Settings `json:"options"`
	// Gold, Positive and Negative are the 2xx rates of each group over its calls
	// that were answered.
	Gold     Rate `json:"gold"`
	Positive Rate `json:"mock_positive"`
	Negative Rate `json:"mock_negative"`
	// APIsWithSuccess counts the screened-in APIs with at least one Mock-positive
	// 2xx, of APIsWithPositive that had a Mock-positive call answered.
	APIsWithSuccess  int        `json:"apis_with_success"`
	APIsWithPositive int        `json:"apis_with_positive"`
	PerAPI           []APIRates `json:"per_api"`
	Services         []Service  `json:"services"`
	// Excluded counts the items not sent, by reason; Items lists every item.
	Excluded map[string]int `json:"excluded"`
	// ScreenOnly is a run given gold results only: every eligible service is
	// screened with its gold request, and Answered are the services (API names)
	// whose gold request answered 2xx.
	ScreenOnly bool     `json:"screen_only,omitempty"`
	Answered   []string `json:"answered,omitempty"`
	Items      []Item   `json:"items"`
	Calls      []Call   `json:"calls"`
	Budget     Budget   `json:"budget"`
	Problems   []string `json:"problems,omitempty"`
}

// Settings are the options of a run as the report shows them (never a credential).
type Settings struct {
	MaxCalls   int      `json:"max_calls"`
	Positives  int      `json:"positives_per_api"`
	Negatives  int      `json:"negatives_per_api"`
	Rate       float64  `json:"rate_per_host"`
	Retries    int      `json:"retries"`
	Seed       uint64   `json:"seed"`
	AllowHosts []string `json:"allow_hosts,omitempty"`
	Resolve    []string `json:"resolve,omitempty"` // HOST=URL
	KeyEnv     string   `json:"key_env,omitempty"`
	KeyGiven   bool     `json:"key_given"`
}

// Rate is a 2xx rate with its Wilson 95% interval: OK of N answered calls.
type Rate struct {
	OK int     `json:"ok"`
	N  int     `json:"n"`
	P  float64 `json:"rate"`
	Lo float64 `json:"wilson_lo"`
	Hi float64 `json:"wilson_hi"`
	// Failed are calls sent that got no answer (refused, timed out, cut off); they
	// are not in N.
	Failed int `json:"failed,omitempty"`
}

func newRate(ok, n, failed int) Rate {
	r := Rate{OK: ok, N: n, Failed: failed}
	if n > 0 {
		r.P = float64(ok) / float64(n)
		r.Lo, r.Hi = stats.Wilson(ok, n)
	}
	return r
}

// String is "12/14 2xx (85.7%, Wilson 95% 60.1–96.0%)", or "0/0 2xx".
func (r Rate) String() string {
	if r.N == 0 {
		return "0/0 2xx"
	}
	return fmt.Sprintf("%d/%d 2xx (%.1f%%, Wilson 95%% %.1f–%.1f%%)", r.OK, r.N, 100*r.P, 100*r.Lo, 100*r.Hi)
}

// APIRates are one screened-in API's rates.
type APIRates struct {
	API      string `json:"api"`
	Host     string `json:"host"`
	Positive Rate   `json:"mock_positive"`
	Negative Rate   `json:"mock_negative"`
}

// Service statuses.
const (
	ServiceReachable  = "reachable"    // its gold request answered 2xx
	ServiceScreened   = "screened_out" // not validated: Reason says why
	ServicePlanned    = "planned"      // a dry run would screen it
	ServiceNotChecked = "not_checked"  // nothing of it to validate
)

// Service is one API and what became of it.
type Service struct {
	API     string `json:"api"`
	Host    string `json:"host"`
	Pricing string `json:"pricing,omitempty"`
	// Allowed says why its requests may be sent: "free" or "allow-host".
	Allowed string `json:"allowed,omitempty"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Detail  string `json:"detail,omitempty"`
	Gold    string `json:"gold_call,omitempty"` // the key of its gold call
	// Positives and Negatives are how many requests of each group were sampled.
	Positives int `json:"positives"`
	Negatives int `json:"negatives"`
}

// Item is one request considered: a gold request, or the request of one scored
// completion; sent (Call names its call) or excluded (Reason).
type Item struct {
	Group       string `json:"group"`
	API         string `json:"api"`
	SampleID    string `json:"sample_id"`
	Setting     string `json:"setting"`
	Model       string `json:"model"`
	SampleIndex int    `json:"sample_index"`
	Call        string `json:"call,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Detail      string `json:"detail,omitempty"`
}

// Call is one distinct request: planned, sent, or taken from the store.
type Call struct {
	Key     string            `json:"key"`
	Group   string            `json:"group"`
	API     string            `json:"api"`
	Method  string            `json:"method"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers,omitempty"` // the credential shown as $VARIABLE
	Notes   []string          `json:"notes,omitempty"`
	// Sent is true once it was sent (now or by an earlier run: Resumed).
	Sent       bool    `json:"sent"`
	Resumed    bool    `json:"resumed,omitempty"`
	Status     int     `json:"status,omitempty"`
	Attempts   int     `json:"attempts,omitempty"`
	LatencyMS  float64 `json:"latency_ms,omitempty"`
	BodySHA256 string  `json:"body_sha256,omitempty"`
	BodyBytes  int64   `json:"body_bytes,omitempty"`
	Error      string  `json:"error,omitempty"`
}

// OK reports a 2xx answer.
func (c *Call) OK() bool { return c.Status >= 200 && c.Status < 300 }

// Answered reports whether an HTTP answer came (any status).
func (c *Call) Answered() bool { return c.Status > 0 }

// Budget is the total budget of calls and how it was spent.
type Budget struct {
	Max int `json:"max"`
	// Used counts requests sent, retries and redirects included, by this run and
	// by the earlier runs whose calls it reused.
	Used int `json:"used"`
	// Planned is, in a dry run, how many calls it would send at most (before
	// retries), gold requests first.
	Planned int `json:"planned,omitempty"`
}

// Counts are the report's figures as a run records them.
func (r *Report) Counts() map[string]int64 {
	c := map[string]int64{"services": int64(len(r.Services)), "items": int64(len(r.Items)), "calls": int64(len(r.Calls)),
		"budget_used": int64(r.Budget.Used), "gold_ok": int64(r.Gold.OK), "gold_n": int64(r.Gold.N),
		"positive_ok": int64(r.Positive.OK), "positive_n": int64(r.Positive.N),
		"negative_ok": int64(r.Negative.OK), "negative_n": int64(r.Negative.N)}
	for k, v := range r.Excluded {
		c["excluded_"+k] = int64(v)
	}
	return c
}

// Summary is one line per group: "gold 4/5 2xx …; Mock-positive …; Mock-negative …".
func (r *Report) Summary() string {
	return fmt.Sprintf("gold %s; %s %s; %s %s", r.Gold, GroupNames[GroupPositive], r.Positive, GroupNames[GroupNegative], r.Negative)
}

// ScreenedOut are the services not validated, with their reasons.
func (r *Report) ScreenedOut() []Service {
	var out []Service
	for _, s := range r.Services {
		if s.Status == ServiceScreened {
			out = append(out, s)
		}
	}
	return out
}

// ExcludedText lists the exclusions, most frequent first: "not_free 12, body 3".
func (r *Report) ExcludedText() string {
	keys := make([]string, 0, len(r.Excluded))
	for k := range r.Excluded {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if r.Excluded[a] != r.Excluded[b] {
			return r.Excluded[b] - r.Excluded[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, r.Excluded[k])
	}
	return strings.Join(parts, ", ")
}
