package mine

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"sccg/internal/blame"
	"sccg/internal/progress"
	"sccg/lang"
	"sccg/store"
)

// Stage is the name mine's runs, decisions and work units are recorded under.
const Stage = "mine"

// Defaults of Options.
const (
	DefaultMaxPerAPI       = 100
	DefaultEndpointsPerAPI = 5
	DefaultMaxFileBytes    = 1 << 20
	DefaultSearchPerMinute = 10
	DefaultMaxTries        = 6
	DefaultPerPage         = 100
	DefaultMetadataMaxAge  = 24 * time.Hour
)

// Options configures a mining run. The zero value of every field means its default.
type Options struct {
	// APIBase is the GitHub REST API root; empty means https://api.github.com/.
	APIBase string
	// Tokens are GitHub tokens, rotated request by request. They are never logged
	// or stored.
	Tokens []string
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Clock is used for every wait; nil means the wall clock.
	Clock Clock
	// MaxPerAPI stops the looser layers of an API once it has this many files.
	MaxPerAPI int
	// EndpointsPerAPI is how many endpoints of an API get route queries.
	EndpointsPerAPI int
	// MaxFileBytes rejects larger files (default 1 MB).
	MaxFileBytes int64
	// SearchPerMinute paces code searches per token; negative disables pacing
	// (the rate headers are still obeyed).
	SearchPerMinute int
	// MaxTries is how many rate-limited tries of one request are made before the
	// miner gives up on it with a recorded decision.
	MaxTries int
	// PerPage is the search page size (at most 100).
	PerPage int
	// APIs limits the run to these API slugs; empty means every API in the store.
	APIs []string
	// Languages are the languages whose files are searched for; empty means every
	// language sccg reads (lang.Names).
	Languages []lang.Name
	// MetadataMaxAge is how long stored repository metadata is reused without asking
	// GitHub again (then it is asked for conditionally, with its ETag).
	MetadataMaxAge time.Duration
	// Seed makes the backoff jitter reproducible.
	Seed uint64
	// Progress counts one unit per API searched (or repository walked); nil: none.
	Progress progress.Counter
	// Logf, when set, receives one line per notable event (never a token).
	Logf func(format string, args ...any)
	// MaxHistory is how many versions of a file the search path reads at most to
	// date its lines (0: DefaultMaxHistory); older lines are left undated.
	MaxHistory int

	runID int64 // the run Mine or MineLocal records, for decisions and fetches
}

// RunArgs are the resolved options as a run records them (never the tokens: only
// how many there are).
func (o Options) RunArgs() map[string]any {
	o.defaults()
	apis := o.APIs
	if apis == nil {
		apis = []string{}
	}
	return map[string]any{"api_base": o.APIBase, "tokens": len(o.Tokens), "max_per_api": o.MaxPerAPI,
		"endpoints_per_api": o.EndpointsPerAPI, "max_file_bytes": o.MaxFileBytes, "search_per_minute": o.SearchPerMinute,
		"max_tries": o.MaxTries, "per_page": o.PerPage, "apis": apis, "metadata_max_age": o.MetadataMaxAge.String(),
		"seed": o.Seed, "languages": o.Languages, "max_history": o.MaxHistory}
}

func (o *Options) defaults() {
	if o.MaxHistory <= 0 {
		o.MaxHistory = DefaultMaxHistory
	}
	if o.MaxPerAPI <= 0 {
		o.MaxPerAPI = DefaultMaxPerAPI
	}
	if o.EndpointsPerAPI <= 0 {
		o.EndpointsPerAPI = DefaultEndpointsPerAPI
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = DefaultMaxFileBytes
	}
	if o.SearchPerMinute == 0 {
		o.SearchPerMinute = DefaultSearchPerMinute
	}
	if len(o.Languages) == 0 {
		o.Languages = lang.Names()
	}
	if o.MaxTries <= 0 {
		o.MaxTries = DefaultMaxTries
	}
	if o.PerPage <= 0 || o.PerPage > 100 {
		o.PerPage = DefaultPerPage
	}
	if o.MetadataMaxAge <= 0 {
		o.MetadataMaxAge = DefaultMetadataMaxAge
	}
	if o.Clock == nil {
		o.Clock = RealClock{}
	}
	if o.HTTPClient == nil {
		o.HTTPClient = http.DefaultClient
	}
	if o.Progress == nil {
		o.Progress = progress.Nop
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
}

// Stats counts what a run did. Requests counts every request sent; Wasted counts
// those whose answer a cache, the early filter or a de-duplication could have spared.
type Stats struct {
	Requests        int           `json:"requests"`
	SearchRequests  int           `json:"search_requests"`
	RepoRequests    int           `json:"repo_requests"`
	ContentRequests int           `json:"content_requests"`
	NotModified     int           `json:"not_modified"`
	Cached          int           `json:"cached"`
	RateLimited     int           `json:"rate_limited"`
	ServerErrors    int           `json:"server_errors"`
	Waited          time.Duration `json:"waited_ns"`
	Hits            int           `json:"hits"`
	EarlyDropped    int           `json:"early_dropped"`
	Deduped         int           `json:"deduped"`
	Stored          int           `json:"stored"`
	Rejected        int           `json:"rejected"`
	// Skipped counts the rejected files that are not a repository's own source
	// (dependencies, build output, minified, generated: SourceOf, SkipContent).
	Skipped        int `json:"skipped"`
	Failed         int `json:"failed"`
	QueriesSkipped int `json:"queries_skipped"`
	Splits         int `json:"splits"`
	Wasted         int `json:"wasted"`
	// ReposSearched counts the repositories a --local run searched, and
	// TargetsSearched the (repository, API) pairs it searched them for: a repository
	// already searched for an API at the same commit (or content) is not searched
	// for it again.
	ReposSearched   int `json:"repos_searched"`
	TargetsSearched int `json:"targets_searched"`
	// NewTargets counts the APIs that repositories searched before were searched
	// for the first time (a new or changed description).
	NewTargets int `json:"new_targets"`
	// ReposUnchanged counts the repositories already searched for every API.
	ReposUnchanged int `json:"repos_unchanged"`
	// Redone counts the repositories searched again, by why (RedoNewTargets,
	// RedoNewCommit, RedoChangedFiles).
	Redone map[string]int `json:"redone,omitempty"`
	// FilesDropped counts the stored files of earlier versions of a repository that
	// its current version no longer holds, removed with what was extracted from them.
	FilesDropped int `json:"files_dropped"`
	// LineDates counts the stored files whose lines were all dated (git blame at
	// their commit, or their history on the code host), and those with lines that
	// could not be, by why (blame.Reason*).
	LineDates blame.Count `json:"line_dates"`
	// HistoryRequests counts the requests for files' histories (GitHub: their
	// commits and the file at each).
	HistoryRequests int `json:"history_requests,omitempty"`
	// Backdated counts the files stored by a run before sccg dated lines whose
	// lines this run dated (a store that grows gives what a fresh one would).
	Backdated int `json:"backdated,omitempty"`
}

// Why a repository is searched again.
const (
	RedoNewTargets   = "new targets"
	RedoNewCommit    = "moved to a new commit"
	RedoChangedFiles = "changed files"
)

// Counts is s as the named counters a store run keeps.
func (s *Stats) Counts() map[string]int64 {
	c := map[string]int64{
		"requests": int64(s.Requests), "search_requests": int64(s.SearchRequests), "repo_requests": int64(s.RepoRequests),
		"content_requests": int64(s.ContentRequests), "not_modified": int64(s.NotModified), "cached": int64(s.Cached), "rate_limited": int64(s.RateLimited), "server_errors": int64(s.ServerErrors),
		"waited_seconds": int64(s.Waited / time.Second), "hits": int64(s.Hits), "early_dropped": int64(s.EarlyDropped),
		"deduped": int64(s.Deduped), "stored": int64(s.Stored), "rejected": int64(s.Rejected), "skipped": int64(s.Skipped), "failed": int64(s.Failed),
		"queries_skipped": int64(s.QueriesSkipped), "splits": int64(s.Splits), "wasted": int64(s.Wasted),
		"repos_searched": int64(s.ReposSearched), "targets_searched": int64(s.TargetsSearched),
		"repos_unchanged": int64(s.ReposUnchanged), "new_targets": int64(s.NewTargets), "files_dropped": int64(s.FilesDropped),
		"files_dated": int64(s.LineDates.Dated), "files_undated": int64(s.LineDates.UndatedTotal()),
		"history_requests": int64(s.HistoryRequests), "backdated": int64(s.Backdated),
	}
	for k, v := range s.Redone {
		c["redone_"+strings.ReplaceAll(k, " ", "_")] = int64(v)
	}
	return c
}

// Redid says which repositories this run searched again and why, or "" when none.
func (s *Stats) Redid() string {
	if len(s.Redone) == 0 && s.Backdated == 0 {
		return ""
	}
	var parts []string
	for _, why := range []string{RedoNewTargets, RedoNewCommit, RedoChangedFiles} {
		n := s.Redone[why]
		switch {
		case n == 0:
		case why == RedoNewTargets:
			parts = append(parts, fmt.Sprintf("%d repositor%s mined again for %d new target(s)", n, plural(n, "y", "ies"), s.NewTargets))
		default:
			parts = append(parts, fmt.Sprintf("%d repositor%s mined again: %s", n, plural(n, "y", "ies"), why))
		}
	}
	if s.FilesDropped > 0 {
		parts = append(parts, fmt.Sprintf("%d file(s) of earlier versions dropped", s.FilesDropped))
	}
	if s.Backdated > 0 {
		parts = append(parts, fmt.Sprintf("%d file(s) mined before line dating dated", s.Backdated))
	}
	return strings.Join(parts, "; ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Targets reads the APIs to mine from the store with their endpoints, in id order,
// keeping only those named in slugs when slugs is not empty: one target per host
// the API's endpoints are served from, its own host first. APIs without a host
// cannot be searched for and are left out.
func Targets(ctx context.Context, st *store.Store, slugs []string) ([]Target, error) {
	apis, err := st.APIs(ctx)
	if err != nil {
		return nil, fmt.Errorf("mine targets: %w", err)
	}
	want := map[string]bool{}
	for _, s := range slugs {
		want[s] = true
	}
	var out []Target
	for _, a := range apis {
		if a.Host == "" || (len(want) > 0 && !want[a.Slug]) {
			continue
		}
		eps, err := st.Endpoints(ctx, a.ID)
		if err != nil {
			return nil, fmt.Errorf("mine targets %s: %w", a.Slug, err)
		}
		out = append(out, hostTargets(a, eps)...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].API.ID < out[j].API.ID })
	return out, nil
}

// hostTargets splits an API into one target per host: its own host with the
// endpoints served there (and those of older versions), then each other host of
// its current endpoints with theirs (a description with servers per path or
// several servers).
func hostTargets(a store.API, eps []store.Endpoint) []Target {
	own := strings.ToLower(a.Host)
	byHost := map[string][]store.Endpoint{}
	var others []string
	for _, e := range eps {
		h := strings.ToLower(e.Host)
		if h == "" || !e.IsCurrent {
			h = own
		}
		if h != own && byHost[h] == nil {
			others = append(others, h)
		}
		byHost[h] = append(byHost[h], e)
	}
	out := []Target{{API: a, Host: own, Endpoints: byHost[own]}}
	for _, h := range others {
		out = append(out, Target{API: a, Host: h, Endpoints: byHost[h]})
	}
	return out
}
