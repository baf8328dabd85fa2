package samples

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"sccg/internal/blame"
	"sccg/lang"
	"sccg/lang/frontends"
	"sccg/release"
)

// apiInfo is the part of a built record's api_info the stats read.
type apiInfo struct {
	Pricing     string `json:"pricing"`
	Subscribers *int64 `json:"subscribers"`
}

// Summarize computes the figures for recs.
func Summarize(ctx context.Context, recs []release.Record) (release.Summary, error) {
	imps, err := importsOf(ctx, recs)
	if err != nil {
		return release.Summary{}, err
	}
	return summarize(recs, imps), nil
}

// importsOf lists each record's dependencies: the third-party modules its code
// imports. A built record names them (its "dependencies", resolved against the
// repository's files); for any other the code is parsed once and the standard
// library's modules (Python 3's and 2's) are left out.
func importsOf(ctx context.Context, recs []release.Record) ([][]string, error) {
	out := make([][]string, len(recs))
	for i := range recs {
		if raw, ok := recs[i].Extra["dependencies"]; ok {
			var deps []string
			if err := json.Unmarshal(raw, &deps); err == nil {
				out[i] = deps
				continue
			}
		}
		fe, d, err := frontends.ForRecord(&recs[i])
		if err != nil {
			return nil, fmt.Errorf("sample %s: %w", recs[i].SampleID, err)
		}
		mods, err := fe.Imports(ctx, d, []byte(recs[i].Code.CompleteFunction))
		if err != nil {
			return nil, fmt.Errorf("sample %s: %w", recs[i].SampleID, err)
		}
		for _, m := range mods {
			if current, legacy := fe.Builtin(m); !current && !legacy && m != "__future__" {
				out[i] = append(out[i], m)
			}
		}
	}
	return out, nil
}

// addCount adds one to m[k], making m when it is nil.
func addCount(m map[string]int, k string) map[string]int {
	if m == nil {
		m = map[string]int{}
	}
	m[k]++
	return m
}

// summarize computes the figures for recs, whose imports are imps.
func summarize(recs []release.Record, imps [][]string) release.Summary {
	s := release.Summary{
		Samples:        len(recs),
		Languages:      map[string]int{},
		CommentsSource: map[string]int{},
		DocMatchType:   map[string]int{},
		Methods:        map[string]int{},
		UpdateYears:    map[string]int{},
	}
	if len(recs) == 0 {
		s.TopDependencies = []release.Dependency{}
		s.Languages = nil
		return s
	}
	apis := map[string]int{}
	repos := map[string]bool{}
	deps := map[string]int{}
	locs := make([]int, 0, len(recs))
	var stars, forks, locSum, subs1000, free int
	for i := range recs {
		r := &recs[i]
		s.Languages[string(lang.Of(r.Language))]++
		apis[release.APIKey(r)]++
		if r.GitHubInfo.Repo != "" {
			repos[strings.ToLower(r.GitHubInfo.Repo)] = true
		}
		n := frontends.EffectiveLOC(r)
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
		var py string
		if raw, ok := r.Extra["syntax_checked_with"]; ok && json.Unmarshal(raw, &py) == nil && py != "" && !slices.Contains(s.SyntaxCheckedWith, py) {
			s.SyntaxCheckedWith = append(s.SyntaxCheckedWith, py)
			slices.Sort(s.SyntaxCheckedWith)
		}
		s.DocMatchType[orUnknown(r.APIMetadata.DocMatchType)]++
		s.Methods[orUnknown(strings.ToUpper(r.APIMetadata.Method))]++
		if y := yearOf(r.GitHubInfo.UpdatedAt); y != "" {
			s.UpdateYears[y]++
		} else {
			s.UpdateYears["unknown"]++
		}
		switch gi := &r.GitHubInfo; {
		case gi.FunctionAuthoredAt != "":
			s.FunctionAuthoredYears = addCount(s.FunctionAuthoredYears, orUnknown(yearOf(gi.FunctionAuthoredAt)))
		case gi.FunctionDateUnknown != "":
			s.FunctionDatesUnknown = addCount(s.FunctionDatesUnknown, blame.Reason(gi.FunctionDateUnknown))
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
		v := round(float64(subs1000)/float64(s.WithSubscribers), 4)
		s.Subscribers1000Share = &v
	}
	if s.WithPricing > 0 {
		v := round(float64(free)/float64(s.WithPricing), 4)
		s.FreeOrFreemiumShare = &v
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
		s.TopDependencies = append(s.TopDependencies, release.Dependency{Name: name, Samples: n, Share: round(float64(n)/float64(len(recs)), 4)})
	}
	sort.Slice(s.TopDependencies, func(i, j int) bool {
		a, b := s.TopDependencies[i], s.TopDependencies[j]
		if a.Samples != b.Samples {
			return a.Samples > b.Samples
		}
		return a.Name < b.Name
	})
	if len(s.TopDependencies) > release.TopDependencyCount {
		s.TopDependencies = s.TopDependencies[:release.TopDependencyCount]
	}
	return s
}

// ComputeStats computes the figures of the whole benchmark and of each split;
// splitOf names each record's split ("" when it has none).
func ComputeStats(ctx context.Context, recs []release.Record, splitOf func(i int) string) (release.Stats, error) {
	imps, err := importsOf(ctx, recs)
	if err != nil {
		return release.Stats{}, err
	}
	st := release.Stats{Total: summarize(recs, imps), Splits: map[string]int{}, Per: map[string]release.Summary{}}
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
	byLang := map[string][]int{}
	for i := range recs {
		n := string(lang.Of(recs[i].Language))
		byLang[n] = append(byLang[n], i)
	}
	for n, idx := range byLang {
		rs, is := make([]release.Record, len(idx)), make([][]string, len(idx))
		for j, i := range idx {
			rs[j], is[j] = recs[i], imps[i]
		}
		if st.PerLanguage == nil {
			st.PerLanguage = map[string]release.Summary{}
		}
		st.PerLanguage[n] = summarize(rs, is)
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
