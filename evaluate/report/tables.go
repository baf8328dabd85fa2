package report

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"sccg/evaluate"
	"sccg/evaluate/retrieve"
	"sccg/evaluate/stats"
	"sccg/release"
)

// table is one table of the report, rendered both as HTML and as Markdown.
type table struct {
	ID      string // the HTML id; also names the table in the manifest
	Title   string
	Caption string
	Head    []string
	Num     []bool // right-aligned (numeric) columns
	Rows    [][]string
	Notes   []string
	Text    bool // cells are free text that may wrap
}

func newTable(id, title, caption string, head ...string) *table {
	t := &table{ID: id, Title: title, Caption: caption, Head: head, Num: make([]bool, len(head))}
	return t
}

// numeric marks columns from i on as numeric.
func (t *table) numeric(from int) *table {
	for i := from; i < len(t.Num); i++ {
		t.Num[i] = true
	}
	return t
}

func (t *table) add(cells ...string) { t.Rows = append(t.Rows, cells) }

// stageNames are Table VI's names of the earliest failed stages.
var stageNames = map[string]string{evaluate.StageSyntax: "Syntax error", evaluate.StageRequest: "Request construction failure",
	evaluate.StageHost: "Host error", evaluate.StageEndpoint: "Endpoint error", evaluate.StageMethod: "Method error",
	evaluate.StageHit: "Mock hit"}

var rate = evaluate.FormatRate

// tableII is the dataset statistics of an export's stats.json: the totals, and
// beside them a column per language when the benchmark has more than one.
func tableII(st *release.Stats, path string) *table {
	langs := slices.Sorted(maps.Keys(st.PerLanguage))
	if len(langs) < 2 {
		langs = nil
	}
	head := []string{"Statistic", "Value"}
	for _, l := range langs {
		head = append(head, l)
	}
	t := newTable("table-ii", "Table II: dataset statistics", "From "+path+".", head...)
	t.Text = true
	// row adds a statistic: its totals' value, and each language's.
	row := func(label string, cell func(s release.Summary) string) {
		cells := []string{label, cell(st.Total)}
		for _, l := range langs {
			cells = append(cells, cell(st.PerLanguage[l]))
		}
		t.add(cells...)
	}
	s := st.Total
	row("Total samples", func(s release.Summary) string { return strconv.Itoa(s.Samples) })
	var splits []string
	for _, name := range []string{"train", "validation", "test"} {
		splits = append(splits, strconv.Itoa(st.Splits[name]))
	}
	cells := []string{"Train / validation / test", strings.Join(splits, " / ")}
	for _, l := range langs {
		var per []string
		for _, name := range []string{"train", "validation", "test"} {
			per = append(per, strconv.Itoa(st.Per[name].Languages[l]))
		}
		cells = append(cells, strings.Join(per, " / "))
	}
	t.add(cells...)
	if n := st.Splits["unassigned"]; n > 0 {
		cells := []string{"Not assigned to a split", strconv.Itoa(n)}
		for _, l := range langs {
			cells = append(cells, strconv.Itoa(st.Per["unassigned"].Languages[l]))
		}
		t.add(cells...)
	}
	row("Distinct APIs", func(s release.Summary) string { return strconv.Itoa(s.DistinctAPIs) })
	row("Distinct repositories", func(s release.Summary) string { return strconv.Itoa(s.DistinctRepositories) })
	row("Average / median effective LOC", func(s release.Summary) string {
		return fmt.Sprintf("%.1f / %g", s.EffectiveLOCAverage, s.EffectiveLOCMedian)
	})
	row("Real human comments (original)", func(s release.Summary) string { return strconv.Itoa(s.CommentsSource["original"]) })
	row("Redacted intent comments (human-style / strict redaction)", func(s release.Summary) string {
		human, strict := s.CommentsSource["intent_humanlike"], s.CommentsSource["intent_redacted"]
		return fmt.Sprintf("%d (%d / %d)", human+strict, human, strict)
	})
	for _, k := range sortedKeys(s.CommentsSource) {
		if k != "original" && k != "intent_humanlike" && k != "intent_redacted" {
			row(fmt.Sprintf("Comment source %q", k), func(s release.Summary) string { return strconv.Itoa(s.CommentsSource[k]) })
		}
	}
	row("Documentation match (url / route / host_only)", func(s release.Summary) string {
		return fmt.Sprintf("%d / %d / %d", s.DocMatchType["url"], s.DocMatchType["route"], s.DocMatchType["host_only"])
	})
	row("HTTP methods", func(s release.Summary) string {
		var methods []string
		for _, m := range sortedKeys(s.Methods) {
			methods = append(methods, fmt.Sprintf("%s %d", m, s.Methods[m]))
		}
		return strings.Join(methods, ", ")
	})
	row("APIs with one sample", func(s release.Summary) string { return strconv.Itoa(s.APIsWithOneSample) })
	row("Samples from the top 20% of APIs", func(s release.Summary) string { return pct(s.TopAPIsShare) + "%" })
	row("Average stars / forks", func(s release.Summary) string { return fmt.Sprintf("%.2f / %.2f", s.AverageStars, s.AverageForks) })
	if s.RecentFrom != "" {
		to, _ := strconv.Atoi(s.RecentFrom)
		row(fmt.Sprintf("Repositories updated %s–%d", s.RecentFrom, to+2), func(l release.Summary) string {
			if l.RecentFrom != s.RecentFrom { // a language's own last years differ: count its samples in the totals' years
				n := 0
				for y, c := range l.UpdateYears {
					if y != "unknown" && y >= s.RecentFrom {
						n += c
					}
				}
				if l.Samples == 0 {
					return "–"
				}
				return pct(float64(n)/float64(l.Samples)) + "%"
			}
			return pct(l.RecentUpdateShare) + "%"
		})
	}
	if s.WithSubscribers > 0 && s.Subscribers1000Share != nil {
		row(fmt.Sprintf("Services with ≥1,000 subscribers (of %d samples that say)", s.WithSubscribers), func(s release.Summary) string {
			if s.Subscribers1000Share == nil {
				return "–"
			}
			return pct(*s.Subscribers1000Share) + "%"
		})
	}
	if s.WithPricing > 0 && s.FreeOrFreemiumShare != nil {
		row(fmt.Sprintf("FREE / FREEMIUM services (of %d samples that say)", s.WithPricing), func(s release.Summary) string {
			if s.FreeOrFreemiumShare == nil {
				return "–"
			}
			return pct(*s.FreeOrFreemiumShare) + "%"
		})
	}
	if len(s.TopDependencies) > 0 {
		row("Most frequent dependencies", func(s release.Summary) string {
			var deps []string
			for _, dep := range s.TopDependencies {
				deps = append(deps, fmt.Sprintf("%s %s%%", dep.Name, fmt.Sprintf("%.1f", 100*dep.Share)))
			}
			return strings.Join(deps, ", ")
		})
	}
	return t
}

// tableIV is the static similarity of every group.
func tableIV(groups []*group) *table {
	t := newTable("table-iv", "Table IV: static similarity", "Means over completions with an endpoint (%); corpus CodeBLEU pools the n-gram statistics.",
		"Setting", "Model", "N", "CodeBLEU", "CodeBLEU (corpus)", "ES", "Prec.", "Recall", "F1").numeric(2)
	for _, g := range groups {
		o := g.Overall
		t.add(g.Setting, g.Model, nOf(g, o.N), pct(o.CodeBLEU), pct(g.CorpusCodeBLEU.Score), pct(o.ES), pct(o.TokenP), pct(o.TokenR), pct(o.TokenF1))
	}
	return t
}

// tableV is the executability diagnostics of every group.
func tableV(groups []*group) *table {
	t := newTable("table-v", "Table V: executability diagnostics", "Rates (%) with their Wilson 95% interval over samples (each the mean of its completions); ParamF1 is a mean.",
		"Setting", "Model", "N", "Syntax", "Dep.", "Secret", "Host@Acc", "Endpoint@Acc", "Method@Acc", "ParamF1", "ExecReq", "Mock", "Robust").numeric(2)
	for _, g := range groups {
		t.add(append([]string{g.Setting, g.Model, nOf(g, g.Overall.N)}, diagnostics(g.Overall)...)...)
	}
	return t
}

// diagnostics are Table V's cells of an aggregate, from Syntax to Robust.
func diagnostics(o evaluate.Agg) []string {
	u := o.Units()
	return []string{rate(o.Syntax, u), rate(o.Dep, u), rate(o.Secret, u), rate(o.HostAcc, u),
		rate(o.EndpointAcc, u), rate(o.MethodAcc, u), pct(o.ParamF1), rate(o.ExecReq, u), rate(o.Mock, u), rate(o.Robust, u)}
}

// multiLanguage reports whether some group holds results of more than one
// language: only then do the tables by language say more than the tables.
func multiLanguage(groups []*group) bool {
	return slices.ContainsFunc(groups, func(g *group) bool { return len(g.ByLanguage) > 1 })
}

// tableVLanguages is Table V for each group's languages; nil for results of one
// language.
func tableVLanguages(groups []*group) *table {
	if !multiLanguage(groups) {
		return nil
	}
	t := newTable("table-v-language", "Table V by language: executability diagnostics",
		"Table V for each language of the samples; rates (%) with their Wilson 95% interval over the language's samples; ParamF1 is a mean.",
		"Setting", "Model", "Language", "N", "Syntax", "Dep.", "Secret", "Host@Acc", "Endpoint@Acc", "Method@Acc", "ParamF1", "ExecReq", "Mock", "Robust").numeric(3)
	for _, g := range groups {
		for _, l := range sortedKeys(g.ByLanguage) {
			a := g.ByLanguage[l]
			t.add(append([]string{g.Setting, g.Model, l, strconv.Itoa(a.N)}, diagnostics(a)...)...)
		}
	}
	return t
}

// tableAnswers is how every group's model answered, the samples it covers and
// those with a root route.
func tableAnswers(groups []*group) *table {
	t := newTable("table-answers", "Answers: how the model answered, and the samples covered",
		"Completions cut at the token limit (scored as they are), with a reasoning block or field (removed before scoring), with prose before the code (trimmed), with no code, empty, or not parsing; the samples of the split evaluated the group covers; the samples whose route is / (any request to their host's root matches them).",
		"Setting", "Model", "Samples", "Truncated", "Reasoning", "Prose trimmed", "No code", "Empty", "Syntax errors", "Root routes").numeric(2)
	for _, g := range groups {
		a := g.Answers
		cov := "–"
		if g.Expected > 0 {
			cov = fmt.Sprintf("%d of %d", g.Covered, g.Expected)
		}
		t.add(g.Setting, g.Model, cov, itoa(a.Truncated), itoa(a.Reasoning), itoa(a.Trimmed), itoa(a.NoCode), itoa(a.Empty),
			itoa(a.SyntaxErrors), itoa(g.RootRoutes))
	}
	return t
}

// nOf is a group's N as the tables print it: the completions, and the samples
// they cover when the group is partial ("7 (6 of 8 samples)").
func nOf(g *group, n int) string {
	if g.Expected > 0 && g.Partial() {
		return fmt.Sprintf("%d (%d of %d samples)", n, g.Covered, g.Expected)
	}
	return strconv.Itoa(n)
}

// failureStages are the stages of Table VI in order, with any other stage a
// summary names after them.
func failureStages(groups []*group) []string {
	stages := slices.Clone(evaluate.Stages)
	for _, g := range groups {
		for _, k := range sortedKeys(g.FailureStages) {
			if !slices.Contains(stages, k) {
				stages = append(stages, k)
			}
		}
	}
	return stages
}

func stageName(s string) string {
	if n, ok := stageNames[s]; ok {
		return n
	}
	if s == "" {
		return "Unclassified residual"
	}
	return "Other: " + s
}

// tableVI is the earliest-failure attribution of every group.
func tableVI(groups []*group) *table {
	stages := failureStages(groups)
	head := []string{"Setting", "Model", "N"}
	for _, s := range stages {
		head = append(head, stageName(s))
	}
	t := newTable("table-vi", "Table VI: earliest-failure attribution",
		"Each completion is counted at the first stage it fails (syntax → request → host → endpoint → method); count and share (%) with its Wilson 95% interval over samples.", head...).numeric(2)
	for _, g := range groups {
		n := 0
		for _, c := range g.FailureStages {
			n += c
		}
		u := n
		if g.Overall.Samples > 0 && g.Overall.N == n {
			u = g.Overall.Samples
		}
		row := []string{g.Setting, g.Model, nOf(g, n)}
		for _, s := range stages {
			c := g.FailureStages[s]
			share := 0.0
			if n > 0 {
				share = float64(c) / float64(n)
			}
			row = append(row, fmt.Sprintf("%d · %s", c, rate(share, u)))
		}
		t.add(row...)
	}
	return t
}

// staircaseModels are the models evaluated in more than one setting (gold aside),
// in order of appearance, with their groups in setting order.
func staircaseModels(groups []*group) ([]string, map[string][]*group) {
	by := map[string][]*group{}
	var models []string
	for _, g := range groups {
		if g.Setting == "gold" {
			continue
		}
		if _, ok := by[g.Model]; !ok {
			models = append(models, g.Model)
		}
		by[g.Model] = append(by[g.Model], g)
	}
	var keep []string
	for _, m := range models {
		if len(by[m]) > 1 {
			keep = append(keep, m)
		} else {
			delete(by, m)
		}
	}
	return keep, by
}

// tableVII is the information-augmentation staircase: each model across settings.
func tableVII(groups []*group) *table {
	models, by := staircaseModels(groups)
	if len(models) == 0 {
		return nil
	}
	t := newTable("table-vii", "Table VII: information-augmentation staircase",
		"Each model across the settings it was run in, in staircase order; rates (%) with their Wilson 95% interval over samples.",
		"Model", "Setting", "N", "Host@Acc", "Endpoint@Acc", "ParamF1", "Mock", "Robust").numeric(2)
	for _, m := range models {
		for _, g := range by[m] {
			t.add(append([]string{m, g.Setting, nOf(g, g.Overall.N)}, staircase(g.Overall)...)...)
		}
	}
	return t
}

// staircase are Table VII's cells of an aggregate.
func staircase(o evaluate.Agg) []string {
	u := o.Units()
	return []string{rate(o.HostAcc, u), rate(o.EndpointAcc, u), pct(o.ParamF1), rate(o.Mock, u), rate(o.Robust, u)}
}

// tableVIILanguages is the staircase of each language: a model across its
// settings on the samples of one language at a time; nil for results of one
// language or no model in several settings.
func tableVIILanguages(groups []*group) *table {
	models, by := staircaseModels(groups)
	if len(models) == 0 || !multiLanguage(groups) {
		return nil
	}
	langs := map[string]bool{}
	for _, g := range groups {
		for l := range g.ByLanguage {
			langs[l] = true
		}
	}
	t := newTable("table-vii-language", "Table VII by language: information-augmentation staircase",
		"Each model across the settings it was run in, on the samples of each language; rates (%) with their Wilson 95% interval over the language's samples.",
		"Language", "Model", "Setting", "N", "Host@Acc", "Endpoint@Acc", "ParamF1", "Mock", "Robust").numeric(3)
	for _, l := range sortedKeys(langs) {
		for _, m := range models {
			for _, g := range by[m] {
				if a, ok := g.ByLanguage[l]; ok {
					t.add(append([]string{l, m, g.Setting, strconv.Itoa(a.N)}, staircase(a)...)...)
				}
			}
		}
	}
	return t
}

func retrievalRate(r retrieve.Rate) string {
	if r.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f [%.1f–%.1f]", 100*r.Rate, 100*r.Lo, 100*r.Hi)
}

// atK returns the rate at cut-off k.
func atK(rs []retrieve.Rate, k int) (retrieve.Rate, bool) {
	for _, r := range rs {
		if r.K == k {
			return r, true
		}
	}
	return retrieve.Rate{}, false
}

// retrievalKs are the cut-offs of Table VIII.
var retrievalKs = []int{1, 3, 5, 10}

// tableVIII is the retrieval hit rates of every retriever.
func tableVIII(reps []*RetrievalReport) *table {
	head := []string{"Retriever", "Metric", "N"}
	for _, k := range retrievalKs {
		head = append(head, fmt.Sprintf("@%d", k))
	}
	t := newTable("table-viii", "Table VIII: retrieval hit rates",
		"A document on a gold host (Host@K) or the labeled endpoint (Endpoint@K) among the first K (%, Wilson 95% interval); Endpoint@K counts the samples whose label names an endpoint.", head...).numeric(2)
	for _, r := range reps {
		for _, m := range []struct {
			name  string
			rates []retrieve.Rate
			n     int
		}{{"Host@K", r.Overall.HostAtK, r.Overall.N}, {"Endpoint@K", r.Overall.EndpointAtK, r.Overall.NEndpoint}} {
			row := []string{r.Name, m.name, strconv.Itoa(m.n)}
			for _, k := range retrievalKs {
				v, ok := atK(m.rates, k)
				if !ok {
					row = append(row, "–")
					continue
				}
				row = append(row, retrievalRate(v))
			}
			t.add(row...)
		}
	}
	return t
}

// tableRanking is each retriever's ranking of the labeled endpoint: top-K accuracy
// at the deeper cut-offs and the mean reciprocal rank.
func tableRanking(reps []*RetrievalReport) *table {
	var ks []int
	for _, r := range reps {
		for _, a := range r.Overall.TopKAccuracy {
			if !slices.Contains(ks, a.K) {
				ks = append(ks, a.K)
			}
		}
	}
	slices.Sort(ks)
	head := []string{"Retriever", "Corpus", "N", "Not in corpus"}
	for _, k := range ks {
		head = append(head, fmt.Sprintf("Top-%d", k))
	}
	head = append(head, "MRR")
	t := newTable("table-ranking", "Ranking of the labeled endpoint", "Top-K accuracy (%, Wilson 95% interval) and mean reciprocal rank (%, percentile bootstrap 95% interval) over the samples whose label names an endpoint.", head...).numeric(2)
	for _, r := range reps {
		o := r.Overall
		row := []string{r.Name, fmt.Sprintf("%s (%d documents)", r.Corpus.Source, r.Corpus.Documents), strconv.Itoa(o.NEndpoint), strconv.Itoa(o.NotInCorpus)}
		for _, k := range ks {
			if v, ok := atK(o.TopKAccuracy, k); ok {
				row = append(row, retrievalRate(v))
			} else {
				row = append(row, "–")
			}
		}
		t.add(append(row, retrieve.MRRCell(o))...)
	}
	return t
}

// tableDepRecall is DevEval's dependency recall of every group that has it.
func tableDepRecall(groups []*group) *table {
	var ks []int
	for _, g := range groups {
		for k := range g.DepRecallAtK {
			if n := atKOf(k, "dep_recall@"); n > 0 && !slices.Contains(ks, n) {
				ks = append(ks, n)
			}
		}
	}
	slices.Sort(ks)
	head := []string{"Setting", "Model", "N", "DepRecall"}
	for _, k := range ks {
		head = append(head, fmt.Sprintf("DepRecall@%d", k))
	}
	t := newTable("table-dep-recall", "Dependency recall", "DevEval's dependency recall (%): the share of the gold code's third-party imports a completion imports, over the completions whose gold code has one; @k over each sample's completions.", head...).numeric(2)
	for _, g := range groups {
		o := g.Overall
		if o.NDepRecall == 0 {
			continue
		}
		row := []string{g.Setting, g.Model, strconv.Itoa(o.NDepRecall), pct(o.DepRecall)}
		for _, k := range ks {
			if v, ok := g.DepRecallAtK[fmt.Sprintf("dep_recall@%d", k)]; ok {
				row = append(row, pct(v))
			} else {
				row = append(row, "–")
			}
		}
		t.add(row...)
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

// tablePassAtK is pass@k of every group that has it.
func tablePassAtK(groups []*group) *table {
	var ks []int
	for _, g := range groups {
		for k := range g.PassAtK {
			if n := atKOf(k, "pass@"); n > 0 && !slices.Contains(ks, n) {
				ks = append(ks, n)
			}
		}
	}
	if len(ks) == 0 {
		return nil
	}
	slices.Sort(ks)
	omitted := false
	for _, g := range groups {
		omitted = omitted || len(g.PassAtKOmitted) > 0
	}
	head := []string{"Setting", "Model", "Samples", "Completions"}
	for _, k := range ks {
		head = append(head, fmt.Sprintf("pass@%d", k))
	}
	if omitted {
		head = append(head, "Not estimable")
	}
	t := newTable("table-pass-at-k", "pass@k", "Unbiased estimator over each sample's completions (Mock), %; pass@k only for k at most the fewest completions of a sample (n), the others not estimable.", head...).numeric(2)
	if omitted {
		t.Num[len(head)-1] = false
	}
	for _, g := range groups {
		if len(g.PassAtK) == 0 {
			continue
		}
		samples := "–"
		switch {
		case g.Overall.Samples > 0:
			samples = strconv.Itoa(g.Overall.Samples)
		case g.Results != nil:
			seen := map[string]bool{}
			for _, r := range g.Results {
				if r.HasEndpoint {
					seen[r.SampleID] = true
				}
			}
			samples = strconv.Itoa(len(seen))
		}
		row := []string{g.Setting, g.Model, samples, strconv.Itoa(g.Overall.N)}
		for _, k := range ks {
			if v, ok := g.PassAtK[fmt.Sprintf("pass@%d", k)]; ok {
				row = append(row, pct(v))
			} else {
				row = append(row, "–")
			}
		}
		if omitted {
			row = append(row, strings.Join(g.PassAtKOmitted, ", "))
		}
		t.add(row...)
	}
	return t
}

// atKOf is k of a summary key such as "pass@3", or 0.
func atKOf(s, prefix string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(s, prefix))
	if err != nil || !strings.HasPrefix(s, prefix) {
		return 0
	}
	return n
}

// stratum is one of the summary's breakdowns.
type stratum struct {
	field, id, title string
	of               func(evaluate.Group) map[string]evaluate.Agg
}

var strata = []stratum{
	{"doc_match_type", "table-doc-match-type", "By documentation match (doc_match_type)", func(g evaluate.Group) map[string]evaluate.Agg { return g.ByDocMatchType }},
	{"comments_source", "table-comments-source", "By comment source (comments_source)", func(g evaluate.Group) map[string]evaluate.Agg { return g.ByCommentsSource }},
	{"time_slice", "table-time-slice", "By time slice (when the function was written: function_authored_at, else the repository's created_at)", func(g evaluate.Group) map[string]evaluate.Agg { return g.ByTimeSlice }},
	{"language", "table-language", "By language", func(g evaluate.Group) map[string]evaluate.Agg { return g.ByLanguage }},
}

// testOptions are the permutation tests' rounds and seed.
type testOptions struct {
	Rounds int
	Seed   uint64
}

// tableStratum breaks every group down by one stratum, each value tested against
// the rest of its group (group-wise permutation test on Mock and ES) when o has
// rounds; without, the table has no p-values.
func tableStratum(groups []*group, s stratum, o testOptions) (*table, error) {
	head := []string{"Setting", "Model", s.field, "N", "Host@Acc", "Endpoint@Acc", "Method@Acc", "ExecReq", "Mock", "ES"}
	caption := "Rates (%) with their Wilson 95% interval over samples."
	if o.Rounds > 0 {
		head = append(head, "p (Mock)", "p (ES)")
		caption = fmt.Sprintf("Rates (%%) with their Wilson 95%% interval over samples; p: a group-wise permutation test (%d rounds, seed %d) of the value against the rest of its setting and model, on Mock and on ES.", o.Rounds, o.Seed)
	}
	t := newTable(s.id, s.title, caption, head...).numeric(3)
	t.Num[2] = false
	untested := 0
	for _, g := range groups {
		aggs := s.of(g.Group)
		keys := sortedKeys(aggs)
		var pair [2]string // of a stratum with two values: one test serves both rows
		for i, k := range keys {
			a := aggs[k]
			u := a.Units()
			row := []string{g.Setting, g.Model, k, strconv.Itoa(a.N), rate(a.HostAcc, u), rate(a.EndpointAcc, u), rate(a.MethodAcc, u),
				rate(a.ExecReq, u), rate(a.Mock, u), pct(a.ES)}
			if o.Rounds > 0 {
				pm, pe := "–", "–"
				switch {
				case g.Results == nil:
					untested++
				case len(keys) == 2 && i == 1:
					pm, pe = pair[0], pair[1]
				case len(keys) > 1:
					in, out, err := splitStratum(g.Results, s.field, k)
					if err != nil {
						return nil, err
					}
					if len(in) > 0 && len(out) > 0 {
						cs, err := evaluate.Compare(in, out, evaluate.CompareOptions{Metrics: []string{"mock", "es"}, Rounds: o.Rounds, Seed: o.Seed})
						if err != nil {
							return nil, fmt.Errorf("report: %s %s/%s: %w", s.field, g.Setting, g.Model, err)
						}
						pm, pe = pval(cs[0].GroupWise.P), pval(cs[1].GroupWise.P)
					}
					pair = [2]string{pm, pe}
				}
				row = append(row, pm, pe)
			}
			t.add(row...)
		}
	}
	if len(t.Rows) == 0 {
		return nil, nil
	}
	if untested > 0 {
		t.Notes = append(t.Notes, "Rows without p-values come from a summary.json without its results.jsonl (or a stratum with one value): the tests need every completion.")
	}
	return t, nil
}

// splitStratum splits results with an endpoint into those whose stratum is v and
// the rest. An empty stratum value is "unknown", as in the summary.
func splitStratum(rs []evaluate.Result, field, v string) (in, out []evaluate.Result, err error) {
	for _, r := range rs {
		if !r.HasEndpoint {
			continue
		}
		x, ok := r.Stratum(field)
		if !ok {
			return nil, nil, fmt.Errorf("unknown stratum %q", field)
		}
		if x == "" {
			x = "unknown"
		}
		if x == v {
			in = append(in, r)
		} else {
			out = append(out, r)
		}
	}
	return in, out, nil
}

// tableNoEndpoint is the samples whose label names no endpoint, scored on host and
// method.
func tableNoEndpoint(groups []*group) *table {
	t := newTable("table-no-endpoint", "Samples without an endpoint", "host_only samples whose label names no route: scored on host and method, and kept out of every table above (%, Wilson 95% interval).",
		"Setting", "Model", "N", "Host@Acc", "Method@Acc", "ExecReq", "Host∧Method").numeric(2)
	for _, g := range groups {
		if h := g.NoEndpoint; h != nil {
			t.add(g.Setting, g.Model, strconv.Itoa(h.N), rate(h.HostAcc, h.N), rate(h.MethodAcc, h.N), rate(h.ExecReq, h.N), rate(h.Mock, h.N))
		}
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

// GridTestKinds are the kinds of a grid's statistics tests in the order both
// their tables list them, each with its heading in the grid's tables.md (`sccg
// experiment`) and its title in the report's table.
var GridTestKinds = []struct{ Kind, Heading, Title string }{
	{"contamination", "Contamination: human comment vs redacted intent, same samples (paired permutation test)", "contamination (paired)"},
	{"comment_source", "Comment source: human comments vs generated intents (group-wise permutation test)", "comment source"},
	{"temporal", "Temporal split (group-wise permutation test)", "temporal split"},
}

// GridTestRow is one row of a grid's statistics tests: one comparison of a test,
// or the test alone when it compared nothing (its Note says why).
type GridTestRow struct {
	Test *GridTest
	// Ran is false for a test without comparisons; the fields below are then empty.
	Ran    bool
	Metric string
	// Result is the paired result of a contamination test that has one (Paired),
	// else the group-wise one.
	Result stats.PermutationResult
	Paired bool
}

// GridTestRows are the rows of the tests of one kind, in the tests' order.
func GridTestRows(tests []GridTest, kind string) []GridTestRow {
	var out []GridTestRow
	for i := range tests {
		ts := &tests[i]
		if ts.Kind != kind {
			continue
		}
		if len(ts.Comparisons) == 0 {
			out = append(out, GridTestRow{Test: ts})
			continue
		}
		for _, c := range ts.Comparisons {
			row := GridTestRow{Test: ts, Ran: true, Metric: c.Metric, Result: c.GroupWise}
			if kind == "contamination" && c.Paired != nil {
				row.Result, row.Paired = *c.Paired, true
			}
			out = append(out, row)
		}
	}
	return out
}

// tableGridTests is the statistics tests the grids ran.
func tableGridTests(grids []*Grid) *table {
	t := newTable("table-grid-tests", "Statistics tests of the experiment grids", "As `sccg experiment` ran them: contamination compares the human comment with the redacted intent of the same samples (paired permutation test); comment source compares human comments with generated intents, and the temporal split the samples before and after the cutoff (group-wise permutation tests). Means of A and B, their difference and the two-sided p-value.",
		"Test", "Cell", "A", "B", "Metric", "n (A / B)", "A", "B", "Δ", "p").numeric(5)
	t.Text = true
	for _, kt := range GridTestKinds {
		for _, g := range grids {
			for _, r := range GridTestRows(g.Index.Tests, kt.Kind) {
				ts := r.Test
				if !r.Ran {
					t.add(kt.Title, ts.Cell, ts.A, ts.B, "–", ts.Note, "", "", "", "")
					continue
				}
				p, n := r.Result, fmt.Sprintf("%d / %d", r.Result.NA, r.Result.NB)
				if r.Paired {
					n = fmt.Sprintf("%d pairs", p.N)
				}
				t.add(kt.Title, ts.Cell, ts.A, ts.B, r.Metric, n, fmt.Sprintf("%.4f", p.MeanA), fmt.Sprintf("%.4f", p.MeanB),
					fmt.Sprintf("%+.4f", p.Diff), pval(p.P))
			}
		}
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

// tableCutoffs is Mock before and after each model's training cutoff: the
// grids' temporal tests on Mock, one row per cell, with what each cell's time
// slices were read from.
func tableCutoffs(d *Data) *table {
	t := newTable("table-cutoffs", "Mock before and after each model's training cutoff",
		"Samples whose function was written (function_authored_at: its oldest line, by git blame) before the cell's cutoff "+
			"against those written on or after it, the model's own cutoff where the grid gives one (models: cutoff), else stats.cutoff; "+
			"a record without the function's date is placed by its repository's created_at (column Dated by). Mock (%) of each side, "+
			"their difference and the two-sided p-value of a group-wise permutation test.",
		"Model", "Setting", "Cutoff", "Dated by (function / repository / unknown)", "n (before / from)", "Mock before", "Mock from", "Δ (from − before)", "p").numeric(4)
	t.Text = true
	for _, g := range d.Grids {
		for _, r := range GridTestRows(g.Index.Tests, "temporal") {
			ts := r.Test
			cutoff := strings.TrimPrefix(ts.A, "before_")
			by := ""
			for _, set := range d.Sets {
				if set.Grid == g && set.Name == ts.Cell && set.Summary.TimeSlices != nil {
					x := set.Summary.TimeSlices
					by = fmt.Sprintf("%d / %d / %d", x.ByFunction, x.ByRepository, x.Unknown)
				}
			}
			setting, _, _ := strings.Cut(ts.Cell, "/")
			switch {
			case !r.Ran:
				t.add(ts.Model, setting, cutoff, by, ts.Note, "", "", "", "")
			case r.Metric == "mock":
				p := r.Result
				t.add(ts.Model, setting, cutoff, by, fmt.Sprintf("%d / %d", p.NA, p.NB), fmt.Sprintf("%.2f", 100*p.MeanA),
					fmt.Sprintf("%.2f", 100*p.MeanB), fmt.Sprintf("%+.2f", -100*p.Diff), pval(p.P))
			}
		}
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

// tableSelection is the endpoint-selection task of the grids: Top-1 and Top-3.
func tableSelection(grids []*Grid) *table {
	t := newTable("table-selection", "Endpoint selection", "The target endpoint among same-API distractors, answered as JSON: Top-1 and Top-3 (%, Wilson 95% interval).",
		"Setting", "Model", "N", "Candidates (mean)", "Unparsed", "Top-1", "Top-3").numeric(2)
	for _, g := range grids {
		for _, c := range g.Index.Cells {
			if s := c.Selection; s != nil {
				t.add(c.Setting, c.Model, strconv.Itoa(s.N), fmt.Sprintf("%.1f", s.MeanCands), strconv.Itoa(s.Unparsed), rate(s.Top1, s.N), rate(s.Top3, s.N))
			}
		}
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

// attributionNames are the attribution table's and figure's names of each
// attribution, and of the completions without one.
var attributionNames = map[string]string{evaluate.AttrHit: "Hit (Mock)", evaluate.AttrRetrievalMiss: "Retrieval miss",
	evaluate.AttrSelectionMiss: "Selection miss", evaluate.AttrGenerationMiss: "Generation miss", "": "Not attributed"}

// attributedGroups are the groups whose completions were attributed (their
// prompts showed documents): the RAG and oracle settings.
func attributedGroups(groups []*group) []*group {
	var out []*group
	for _, g := range groups {
		if a := g.Attribution; a != nil && a.Attributed() > 0 {
			out = append(out, g)
		}
	}
	return out
}

// tableAttribution says, for each setting and model whose prompts showed
// endpoint documents, where grounding failed: the Mock hits, the completions
// whose gold endpoint was not shown (retrieval), shown but not called
// (selection), called and still missed (generation); they and those not
// attributed add up to N. Nil when no group was attributed.
func tableAttribution(groups []*group) *table {
	gs := attributedGroups(groups)
	if len(gs) == 0 {
		return nil
	}
	head := []string{"Setting", "Model", "N"}
	for _, a := range evaluate.Attributions {
		head = append(head, attributionNames[a])
	}
	head = append(head, attributionNames[""])
	t := newTable("table-attribution", "Where grounding fails: retrieval, selection or generation",
		"For each completion whose prompt showed endpoint documents: a Mock hit; a retrieval miss (its gold endpoint was not among the documents shown); "+
			"a selection miss (it was shown, and the code called another endpoint or none); a generation miss (the code called it and still missed: "+
			"the method or the host's spelling). Count and share (%) with its Wilson 95% interval; the four and those not attributed add up to N.",
		head...).numeric(2)
	notes := map[string]int{}
	for _, g := range gs {
		a := g.Attribution
		u := a.N
		if g.Overall.Samples > 0 && g.Overall.N == a.N {
			u = g.Overall.Samples
		}
		cell := func(c int) string {
			share := 0.0
			if a.N > 0 {
				share = float64(c) / float64(a.N)
			}
			return fmt.Sprintf("%d · %s", c, rate(share, u))
		}
		row := []string{g.Setting, g.Model, nOf(g, a.N)}
		for _, k := range evaluate.Attributions {
			row = append(row, cell(a.Count(k)))
		}
		row = append(row, strconv.Itoa(a.N-a.Attributed()))
		t.add(row...)
		for why, n := range a.Unattributed {
			notes[why] += n
		}
		if !a.AddsUp() {
			t.Notes = append(t.Notes, fmt.Sprintf("%s / %s: the counts do not add up to N (%d); a summary from another version of sccg?", g.Setting, g.Model, a.N))
		}
	}
	for _, why := range sortedKeys(notes) {
		t.Notes = append(t.Notes, fmt.Sprintf("Not attributed: %d completion(s): %s.", notes[why], why))
	}
	return t
}
