package evaluate

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"sccg/evaluate/answer"
	"sccg/evaluate/metrics"
	"sccg/evaluate/stats"
)

// Agg is the mean of every metric over a set of completions (rates as fractions).
type Agg struct {
	N int `json:"n"`
	// Samples is how many distinct samples the N completions are of: the unit of
	// the tables' intervals (with n completions per sample, the completions of one
	// sample are not independent).
	Samples int `json:"samples"`
	Metrics
	// NDepRecall are the completions whose gold code has a third-party import: the
	// ones DepRecall averages over.
	NDepRecall int `json:"n_dep_recall"`
}

func aggregate(rs []Result) Agg {
	a := Agg{N: len(rs)}
	if len(rs) == 0 {
		return a
	}
	seen := map[string]bool{}
	for _, r := range rs {
		if !seen[r.SampleID] {
			seen[r.SampleID], a.Samples = true, a.Samples+1
		}
		m := r.Metrics
		a.Syntax += m.Syntax
		a.Dep += m.Dep
		a.Secret += m.Secret
		a.HostAcc += m.HostAcc
		a.EndpointAcc += m.EndpointAcc
		a.MethodAcc += m.MethodAcc
		a.ParamF1 += m.ParamF1
		a.ExecReq += m.ExecReq
		a.Mock += m.Mock
		a.Robust += m.Robust
		a.CodeBLEU += m.CodeBLEU
		a.ES += m.ES
		a.TokenP += m.TokenP
		a.TokenR += m.TokenR
		a.TokenF1 += m.TokenF1
		if len(r.GoldDeps) > 0 {
			a.DepRecall += m.DepRecall
			a.NDepRecall++
		}
	}
	n := float64(len(rs))
	m := &a.Metrics
	for _, p := range []*float64{&m.Syntax, &m.Dep, &m.Secret, &m.HostAcc, &m.EndpointAcc, &m.MethodAcc, &m.ParamF1,
		&m.ExecReq, &m.Mock, &m.Robust, &m.CodeBLEU, &m.ES, &m.TokenP, &m.TokenR, &m.TokenF1} {
		*p /= n
	}
	if a.NDepRecall > 0 {
		m.DepRecall /= float64(a.NDepRecall)
	}
	return a
}

// HostMethodAgg summarizes samples without an endpoint, scored on host and method.
type HostMethodAgg struct {
	N         int     `json:"n"`
	HostAcc   float64 `json:"host_acc"`
	MethodAcc float64 `json:"method_acc"`
	ExecReq   float64 `json:"exec_req"`
	Mock      float64 `json:"mock"` // host ∧ method
}

// Group is the summary of one (setting, model).
type Group struct {
	Setting          string         `json:"setting"`
	Model            string         `json:"model"`
	Overall          Agg            `json:"overall"`
	ByDocMatchType   map[string]Agg `json:"by_doc_match_type"`
	ByCommentsSource map[string]Agg `json:"by_comments_source"`
	ByTimeSlice      map[string]Agg `json:"by_time_slice"`
	// ByLanguage splits the results by the samples' language; set when a result
	// is of a language other than Python.
	ByLanguage map[string]Agg `json:"by_language,omitempty"`
	// NoEndpoint covers host_only samples without an endpoint, kept out of the
	// aggregates above.
	NoEndpoint     *HostMethodAgg     `json:"no_endpoint,omitempty"`
	CorpusCodeBLEU metrics.CodeBLEU   `json:"corpus_codebleu"`
	PassAtK        map[string]float64 `json:"pass_at_k"`
	// PassAtKOmitted are the pass@k asked for with k above the fewest completions
	// of a sample, which the estimator cannot give.
	PassAtKOmitted []string `json:"pass_at_k_omitted,omitempty"`
	// DepRecallAtK is DevEval's Recall@k over sample_index: per sample whose gold
	// code has a third-party import, the expected best DepRecall of k of its
	// completions (stats.ExpectedMaxAtK), averaged.
	DepRecallAtK  map[string]float64 `json:"dep_recall_at_k"`
	FailureStages map[string]int     `json:"failure_stages"`
	Statuses      map[string]int     `json:"statuses"`
	// Handed counts the completions whose requests came from a function handed
	// to a framework stub rather than from the function asked for.
	Handed int `json:"handed,omitempty"`
	// Answers counts how the model's answers came.
	Answers AnswerCounts `json:"answers"`
	// Covered is how many of the Expected samples of the benchmark (the split
	// evaluated) have a completion in this group. Covered < Expected is a partial
	// evaluation: the eval fails unless it was asked for (--partial).
	Covered  int `json:"covered"`
	Expected int `json:"expected"`
	// RootRoutes is how many samples (with an endpoint) have the route "/": any
	// request to their host's root matches their endpoint.
	RootRoutes int `json:"root_routes,omitempty"`
	// Attribution counts the group's completions by where grounding failed, when
	// the evaluation was given their prompts (nil otherwise).
	Attribution *AttributionCounts `json:"attribution,omitempty"`
}

// Partial reports whether the group covers fewer samples than it was expected to.
func (g Group) Partial() bool { return g.Covered < g.Expected }

// AnswerCounts count the completions of a group by how the model answered.
type AnswerCounts struct {
	// Truncated were cut off at the token limit (finish_reason length); they are
	// scored as they are.
	Truncated int `json:"truncated"`
	// Reasoning held a reasoning block or field, removed before scoring.
	Reasoning int `json:"reasoning"`
	// Trimmed had prose before their first line of code, dropped; NoCode had no
	// line of code at all; Empty had nothing once the reasoning was removed.
	Trimmed int `json:"trimmed"`
	NoCode  int `json:"no_code"`
	Empty   int `json:"empty"`
	// SyntaxErrors do not parse (each result holds the parser's message and line).
	SyntaxErrors int `json:"syntax_errors"`
}

// Summary is summary.json.
type Summary struct {
	Isolation        string   `json:"isolation"`
	NetworkNamespace bool     `json:"network_namespace"`
	Python           string   `json:"python"`
	Groups           []Group  `json:"groups"`
	Problems         []string `json:"problems,omitempty"`
	// Malformed is how many lines of the generations file were not generations;
	// their samples count as not covered.
	Malformed int `json:"malformed"`
	// Unscored counts the completions that were not scored, by reason (a
	// language with no runner); their samples count as not covered.
	Unscored map[string]int `json:"unscored,omitempty"`
	// Runners say how the runners of languages other than Python isolate their
	// completions, by language.
	Runners map[string]string `json:"runners,omitempty"`
	// TimeSlices says what the time slices were read from.
	TimeSlices *TimeSlices `json:"time_slices,omitempty"`
}

// TimeSlices says how the scored samples were placed before or from the cutoff:
// by when their function was written (function_authored_at), by their
// repository's creation (the record has no function date), or not at all.
type TimeSlices struct {
	Cutoff       string `json:"cutoff"`
	ByFunction   int    `json:"by_function_authored_at"`
	ByRepository int    `json:"by_repository_created_at"`
	Unknown      int    `json:"unknown"`
}

// Text is the time slices' basis in words.
func (t *TimeSlices) Text() string {
	return fmt.Sprintf("time slices at %s: %d samples by function_authored_at, %d by repository created_at (no function date), %d unknown",
		t.Cutoff, t.ByFunction, t.ByRepository, t.Unknown)
}

// timeSlices counts the distinct samples of results by what their slice was
// read from (basis gives it by sample).
func timeSlices(results []Result, cutoff string, basis func(sampleID string) string) *TimeSlices {
	t := &TimeSlices{Cutoff: cutoff}
	seen := map[string]bool{}
	for _, r := range results {
		if seen[r.SampleID] {
			continue
		}
		seen[r.SampleID] = true
		switch basis(r.SampleID) {
		case TimeByFunction:
			t.ByFunction++
		case TimeByRepository:
			t.ByRepository++
		default:
			t.Unknown++
		}
	}
	return t
}

// Summarize aggregates results per (setting, model) and stratum. ks are the pass@k
// values (default 1).
func Summarize(results []Result, ks []int) Summary {
	if len(ks) == 0 {
		ks = []int{1}
	}
	type gk struct{ setting, model string }
	by := map[gk][]Result{}
	var keys []gk
	for _, r := range results {
		k := gk{r.Setting, r.Model}
		if _, ok := by[k]; !ok {
			keys = append(keys, k)
		}
		by[k] = append(by[k], r)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].setting != keys[j].setting {
			return keys[i].setting < keys[j].setting
		}
		return keys[i].model < keys[j].model
	})
	var s Summary
	for _, k := range keys {
		rs := by[k]
		g := Group{Setting: k.setting, Model: k.model, ByDocMatchType: map[string]Agg{}, ByCommentsSource: map[string]Agg{},
			ByTimeSlice: map[string]Agg{}, PassAtK: map[string]float64{}, DepRecallAtK: map[string]float64{}, FailureStages: map[string]int{}, Statuses: map[string]int{}}
		var main, noEP []Result
		for _, r := range rs {
			g.Statuses[r.Status]++
			if r.Handed {
				g.Handed++
			}
			g.Answers.add(r)
			if r.HasEndpoint {
				main = append(main, r)
				g.FailureStages[r.FailureStage]++
			} else {
				noEP = append(noEP, r)
			}
		}
		g.Overall = aggregate(main)
		strata := func(key func(Result) string) map[string]Agg {
			parts := map[string][]Result{}
			for _, r := range main {
				parts[key(r)] = append(parts[key(r)], r)
			}
			out := map[string]Agg{}
			for name, p := range parts {
				out[name] = aggregate(p)
			}
			return out
		}
		g.ByDocMatchType = strata(func(r Result) string { return orUnknown(r.DocMatchType) })
		g.ByCommentsSource = strata(func(r Result) string { return orUnknown(r.CommentsSource) })
		g.ByTimeSlice = strata(func(r Result) string { return orUnknown(r.TimeSlice) })
		if slices.ContainsFunc(main, func(r Result) bool { return r.Language != "" && r.Language != "python" }) {
			g.ByLanguage = strata(func(r Result) string { return languageOf(r) })
		}
		if len(noEP) > 0 {
			h := &HostMethodAgg{N: len(noEP)}
			for _, r := range noEP {
				h.HostAcc += r.HostAcc
				h.MethodAcc += r.MethodAcc
				h.ExecReq += r.ExecReq
				h.Mock += r.Mock
			}
			n := float64(len(noEP))
			h.HostAcc, h.MethodAcc, h.ExecReq, h.Mock = h.HostAcc/n, h.MethodAcc/n, h.ExecReq/n, h.Mock/n
			g.NoEndpoint = h
		}
		var corpus metrics.Corpus
		for _, r := range main {
			corpus.AddStats(r.CodeBLEUStats)
		}
		g.CorpusCodeBLEU = corpus.Score()
		// pass@k over sample_index: per sample, n completions of which c hit.
		type nc struct{ n, c int }
		per := map[string]*nc{}
		for _, r := range main {
			p := per[r.SampleID]
			if p == nil {
				p = &nc{}
				per[r.SampleID] = p
			}
			p.n++
			if r.Mock == 1 {
				p.c++
			}
		}
		ids := slices.Sorted(maps.Keys(per)) // a fixed order of addition: the same results, the same bits
		minN := 0
		for i, id := range ids {
			if i == 0 || per[id].n < minN {
				minN = per[id].n
			}
		}
		for _, k := range ks {
			if len(per) == 0 {
				continue
			}
			if k > minN { // pass@k needs k completions of every sample
				g.PassAtKOmitted = append(g.PassAtKOmitted, fmt.Sprintf("pass@%d (n = %d)", k, minN))
				continue
			}
			sum := 0.0
			for _, id := range ids {
				p := per[id]
				sum += stats.PassAtK(p.n, p.c, k)
			}
			g.PassAtK[fmt.Sprintf("pass@%d", k)] = sum / float64(len(per))
		}
		recalls := map[string][]float64{}
		var withDeps []string
		for _, r := range main {
			if len(r.GoldDeps) == 0 {
				continue
			}
			if _, ok := recalls[r.SampleID]; !ok {
				withDeps = append(withDeps, r.SampleID)
			}
			recalls[r.SampleID] = append(recalls[r.SampleID], r.DepRecall)
		}
		for _, k := range ks {
			if len(withDeps) == 0 || k > minN {
				continue
			}
			sum := 0.0
			for _, id := range withDeps {
				sum += stats.ExpectedMaxAtK(recalls[id], k)
			}
			g.DepRecallAtK[fmt.Sprintf("dep_recall@%d", k)] = sum / float64(len(withDeps))
		}
		s.Groups = append(s.Groups, g)
	}
	return s
}

// addAttribution counts each group's completions by attribution.
func (s *Summary) addAttribution(rs []Result) {
	for i := range s.Groups {
		g := &s.Groups[i]
		g.Attribution = &AttributionCounts{}
		for _, r := range rs {
			if r.Setting == g.Setting && r.Model == g.Model {
				g.Attribution.add(r)
			}
		}
	}
}

func (a *AnswerCounts) add(r Result) {
	if r.Truncated {
		a.Truncated++
	}
	if r.Reasoning {
		a.Reasoning++
	}
	switch r.AnswerForm {
	case answer.FormTrimmed:
		a.Trimmed++
	case answer.FormNone:
		a.NoCode++
	case answer.FormEmpty:
		a.Empty++
	}
	if r.Syntax == 0 {
		a.SyntaxErrors++
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// languageOf is a result's language; results written before there was a second
// language are Python's.
func languageOf(r Result) string {
	if r.Language == "" {
		return "python"
	}
	return r.Language
}
