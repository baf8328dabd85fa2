package samples

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"sccg/pyast"
	"sccg/pyfacts"
	"sccg/release"
)

// Summary holds the dataset figures of the paper's Table II and of the published
// README for one set of records (the whole benchmark or one split).
type Summary struct {
	Samples              int            `json:"samples"`
	DistinctAPIs         int            `json:"distinct_apis"`
	DistinctRepositories int            `json:"distinct_repositories"`
	EffectiveLOCAverage  float64        `json:"effective_loc_average"`
	EffectiveLOCMedian   float64        `json:"effective_loc_median"`
	CommentsSource       map[string]int `json:"comments_source"`
	// IntentPaths counts the samples whose record names the path that made its
	// comment (built samples: original, llm, llm_retry, offline, fallback), and
	// PairedIntents those that carry a redacted intent beside their human comment.
	IntentPaths     map[string]int `json:"intent_paths,omitempty"`
	PairedIntents   int            `json:"paired_intents,omitempty"`
	DocMatchType    map[string]int `json:"doc_match_type"`
	Methods         map[string]int `json:"http_methods"`
	TopDependencies []Dependency   `json:"top_dependencies"`
	UpdateYears     map[string]int `json:"repository_update_years"`
	// RecentUpdateShare is the share of samples whose repository was updated in the
	// last three calendar years of the data (RecentFrom and the two after it).
	RecentUpdateShare float64 `json:"recent_update_share"`
	RecentFrom        string  `json:"recent_update_from,omitempty"`
	TopAPIsShare      float64 `json:"top_20pct_apis_sample_share"`
	APIsWithOneSample int     `json:"apis_with_one_sample"`
	AverageStars      float64 `json:"average_stars"`
	AverageForks      float64 `json:"average_forks"`

	// The RapidAPI figures, over the samples whose record carries api_info (built
	// samples; a published release has none): share of samples from services with
	// at least 1,000 subscribers, and from FREE or FREEMIUM ones.
	WithSubscribers      int     `json:"samples_with_subscriber_count"`
	Subscribers1000Share float64 `json:"subscribers_1000_share"`
	WithPricing          int     `json:"samples_with_pricing"`
	FreeOrFreemiumShare  float64 `json:"free_or_freemium_share"`
}

// apiInfo is the part of a built record's api_info the stats read.
type apiInfo struct {
	Pricing     string `json:"pricing"`
	Subscribers *int64 `json:"subscribers"`
}

// Dependency is a module imported by some samples and the share of samples that do.
type Dependency struct {
	Name    string  `json:"name"`
	Samples int     `json:"samples"`
	Share   float64 `json:"share"`
}

// Stats is what `sccg export` writes to stats.json: the figures for the whole
// benchmark and for each split.
type Stats struct {
	Total  Summary            `json:"total"`
	Splits map[string]int     `json:"splits"`
	Per    map[string]Summary `json:"per_split"`
}

// TopDependencyCount is how many dependencies a Summary lists.
const TopDependencyCount = 10

// Summarize computes the figures for recs.
func Summarize(ctx context.Context, recs []release.Record) (Summary, error) {
	imps, err := importsOf(ctx, recs)
	if err != nil {
		return Summary{}, err
	}
	return summarize(recs, imps), nil
}

// importsOf parses each record's code once for the modules it imports.
func importsOf(ctx context.Context, recs []release.Record) ([][]string, error) {
	out := make([][]string, len(recs))
	for i := range recs {
		mods, err := pyast.ImportedModules(ctx, []byte(recs[i].Code.CompleteFunction))
		if err != nil {
			return nil, fmt.Errorf("sample %s: %w", recs[i].SampleID, err)
		}
		out[i] = mods
	}
	return out, nil
}

// summarize computes the figures for recs, whose imports are imps.
func summarize(recs []release.Record, imps [][]string) Summary {
	s := Summary{
		Samples:        len(recs),
		CommentsSource: map[string]int{},
		DocMatchType:   map[string]int{},
		Methods:        map[string]int{},
		UpdateYears:    map[string]int{},
	}
	if len(recs) == 0 {
		s.TopDependencies = []Dependency{}
		return s
	}
	apis := map[string]int{}
	repos := map[string]bool{}
	deps := map[string]int{}
	locs := make([]int, 0, len(recs))
	var stars, forks, locSum, subs1000, free int
	for i := range recs {
		r := &recs[i]
		apis[release.APIKey(r)]++
		if r.GitHubInfo.Repo != "" {
			repos[strings.ToLower(r.GitHubInfo.Repo)] = true
		}
		n := pyfacts.EffectiveLOC(r.Code.CompleteFunction)
		locs = append(locs, n)
		locSum += n
		s.CommentsSource[orUnknown(r.CommentsSource)]++
		var path string
		if raw, ok := r.Extra["intent_path"]; ok && json.Unmarshal(raw, &path) == nil && path != "" {
			if s.IntentPaths == nil {
				s.IntentPaths = map[string]int{}
			}
			s.IntentPaths[path]++
		}
		if _, ok := r.Extra["redacted_intent"]; ok {
			s.PairedIntents++
		}
		s.DocMatchType[orUnknown(r.APIMetadata.DocMatchType)]++
		s.Methods[orUnknown(strings.ToUpper(r.APIMetadata.Method))]++
		if y := yearOf(r.GitHubInfo.UpdatedAt); y != "" {
			s.UpdateYears[y]++
		} else {
			s.UpdateYears["unknown"]++
		}
		for _, d := range imps[i] {
			deps[d]++
		}
		stars += r.GitHubInfo.Stars
		forks += r.GitHubInfo.Forks
		var info apiInfo
		if raw, ok := r.Extra["api_info"]; ok && json.Unmarshal(raw, &info) == nil {
			if info.Subscribers != nil {
				s.WithSubscribers++
				if *info.Subscribers >= 1000 {
					subs1000++
				}
			}
			if p := strings.ToUpper(info.Pricing); p != "" {
				s.WithPricing++
				if p == "FREE" || p == "FREEMIUM" {
					free++
				}
			}
		}
	}
	if s.WithSubscribers > 0 {
		s.Subscribers1000Share = round(float64(subs1000)/float64(s.WithSubscribers), 4)
	}
	if s.WithPricing > 0 {
		s.FreeOrFreemiumShare = round(float64(free)/float64(s.WithPricing), 4)
	}
	maxYear := ""
	for y := range s.UpdateYears {
		if y != "unknown" && y > maxYear {
			maxYear = y
		}
	}
	if maxYear != "" {
		from := fmt.Sprintf("%04d", mustAtoi(maxYear)-2)
		recent := 0
		for y, n := range s.UpdateYears {
			if y != "unknown" && y >= from {
				recent += n
			}
		}
		s.RecentFrom, s.RecentUpdateShare = from, round(float64(recent)/float64(len(recs)), 4)
	}
	s.DistinctAPIs = len(apis)
	s.DistinctRepositories = len(repos)
	s.EffectiveLOCAverage = round(float64(locSum)/float64(len(recs)), 2)
	sort.Ints(locs)
	if m := len(locs); m%2 == 1 {
		s.EffectiveLOCMedian = float64(locs[m/2])
	} else {
		s.EffectiveLOCMedian = float64(locs[m/2-1]+locs[m/2]) / 2
	}
	s.AverageStars = round(float64(stars)/float64(len(recs)), 2)
	s.AverageForks = round(float64(forks)/float64(len(recs)), 2)

	counts := make([]int, 0, len(apis))
	for _, c := range apis {
		counts = append(counts, c)
		if c == 1 {
			s.APIsWithOneSample++
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(counts)))
	top := int(math.Ceil(0.2 * float64(len(counts))))
	sum := 0
	for _, c := range counts[:top] {
		sum += c
	}
	s.TopAPIsShare = round(float64(sum)/float64(len(recs)), 4)

	for name, n := range deps {
		s.TopDependencies = append(s.TopDependencies, Dependency{Name: name, Samples: n, Share: round(float64(n)/float64(len(recs)), 4)})
	}
	sort.Slice(s.TopDependencies, func(i, j int) bool {
		a, b := s.TopDependencies[i], s.TopDependencies[j]
		if a.Samples != b.Samples {
			return a.Samples > b.Samples
		}
		return a.Name < b.Name
	})
	if len(s.TopDependencies) > TopDependencyCount {
		s.TopDependencies = s.TopDependencies[:TopDependencyCount]
	}
	return s
}

// ComputeStats computes the figures of the whole benchmark and of each split;
// splitOf names each record's split ("" when it has none).
func ComputeStats(ctx context.Context, recs []release.Record, splitOf func(i int) string) (Stats, error) {
	imps, err := importsOf(ctx, recs)
	if err != nil {
		return Stats{}, err
	}
	st := Stats{Total: summarize(recs, imps), Splits: map[string]int{}, Per: map[string]Summary{}}
	by := map[string][]int{}
	for i := range recs {
		name := splitOf(i)
		if name == "" {
			name = "unassigned"
		}
		by[name] = append(by[name], i)
	}
	for _, name := range release.Names {
		by[name] = append(by[name], []int(nil)...)
	}
	for name, idx := range by {
		rs, is := make([]release.Record, len(idx)), make([][]string, len(idx))
		for j, i := range idx {
			rs[j], is[j] = recs[i], imps[i]
		}
		st.Splits[name] = len(rs)
		st.Per[name] = summarize(rs, is)
	}
	return st, nil
}

func mustAtoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func yearOf(ts string) string {
	if len(ts) >= 4 && ts[0] >= '1' && ts[0] <= '9' {
		return ts[:4]
	}
	return ""
}

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}
