package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"sccg/evaluate"
)

// group is one (setting, model) of one result set, as the tables show it.
type group struct {
	Setting string
	Model   string // the model, told apart from a namesake of another set by the set's name
	evaluate.Group
	Results []evaluate.Result // the group's completions; nil when its set has no results.jsonl
	Set     *ResultSet
}

// label names a group in a figure.
func (g *group) label() string { return g.Setting + " / " + g.Model }

// paperSettings is the staircase of the paper (Table VII) and the reference
// release's ablations, in order; settings not listed come after the retrieval
// ones, by name, and gold last.
var paperSettings = []string{"intent", "c0", "c1", "c2", "rag-bm25", "rag-learned", "rag-dense", "rag-minilm", "rag-bge", "rag-hybrid",
	"rag-hyde", "rag-capir", "oracle-c3", "c3", "c4", "oracle-c5", "c5", "gold"}

// settingRank orders settings: the grids' order, then the paper's.
type settingRank struct{ order []string }

func newSettingRank(gridOrder []string) settingRank {
	order := slices.Clone(gridOrder)
	for _, s := range paperSettings {
		if !slices.Contains(order, s) {
			order = append(order, s)
		}
	}
	return settingRank{order: order}
}

func (r settingRank) rank(s string) int {
	if i := slices.Index(r.order, s); i >= 0 {
		return 2 * i
	}
	if strings.HasPrefix(s, "rag-") {
		return 2*slices.Index(r.order, "rag-capir") + 1
	}
	return 2*slices.Index(r.order, "gold") - 1
}

func (r settingRank) compare(a, b string) int {
	return cmp.Or(cmp.Compare(r.rank(a), r.rank(b)), strings.Compare(a, b))
}

// collectGroups lists every set's groups, with their results, ordered by setting
// and then by the model's first appearance. A (setting, model) found in more than
// one set gets the set's name after the model.
func collectGroups(sets []*ResultSet, rank settingRank) []*group {
	type sm struct{ setting, model string }
	count := map[sm]int{}
	for _, s := range sets {
		for _, g := range s.Summary.Groups {
			count[sm{g.Setting, g.Model}]++
		}
	}
	var out []*group
	var models []string
	for _, s := range sets {
		by := map[sm][]evaluate.Result{}
		for _, r := range s.Results {
			by[sm{r.Setting, r.Model}] = append(by[sm{r.Setting, r.Model}], r)
		}
		for _, g := range s.Summary.Groups {
			k := sm{g.Setting, g.Model}
			model := g.Model
			if count[k] > 1 {
				model = fmt.Sprintf("%s [%s]", g.Model, s.Name)
			}
			rs := by[k]
			if s.Results != nil && rs == nil {
				rs = []evaluate.Result{}
			}
			out = append(out, &group{Setting: g.Setting, Model: model, Group: g, Results: rs, Set: s})
			if !slices.Contains(models, model) {
				models = append(models, model)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *group) int {
		return cmp.Or(rank.compare(a.Setting, b.Setting), cmp.Compare(slices.Index(models, a.Model), slices.Index(models, b.Model)))
	})
	return out
}

// pct formats a 0–1 value as a percentage.
func pct(v float64) string { return fmt.Sprintf("%.2f", 100*v) }

// pval formats a permutation test's p-value.
func pval(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return fmt.Sprintf("%.3f", p)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
