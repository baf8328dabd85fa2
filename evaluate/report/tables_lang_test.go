package report

import (
	"reflect"
	"testing"

	"sccg/release"
)

// Table II keeps its totals column and, for a benchmark of several languages,
// gains a column per language; one language keeps the two columns.
func TestTableIIPerLanguage(t *testing.T) {
	py := release.Summary{Samples: 3, Languages: map[string]int{"python": 3}, DistinctAPIs: 2,
		TopDependencies: []release.Dependency{{Name: "requests", Samples: 3, Share: 1}}}
	js := release.Summary{Samples: 1, Languages: map[string]int{"javascript": 1}, DistinctAPIs: 1,
		TopDependencies: []release.Dependency{{Name: "axios", Samples: 1, Share: 1}}}
	total := release.Summary{Samples: 4, Languages: map[string]int{"python": 3, "javascript": 1}, DistinctAPIs: 2,
		TopDependencies: []release.Dependency{{Name: "requests", Samples: 3, Share: 0.75}, {Name: "axios", Samples: 1, Share: 0.25}}}
	st := &release.Stats{Total: total, Splits: map[string]int{"train": 3, "validation": 0, "test": 1},
		Per: map[string]release.Summary{"train": {Languages: map[string]int{"python": 2, "javascript": 1}},
			"test": {Languages: map[string]int{"python": 1}}},
		PerLanguage: map[string]release.Summary{"python": py, "javascript": js}}
	tb := tableII(st, "stats.json")
	if want := []string{"Statistic", "Value", "javascript", "python"}; !reflect.DeepEqual(tb.Head, want) {
		t.Fatalf("head %v, want %v", tb.Head, want)
	}
	rows := map[string][]string{}
	for _, r := range tb.Rows {
		rows[r[0]] = r[1:]
	}
	for label, want := range map[string][]string{
		"Total samples":              {"4", "1", "3"},
		"Train / validation / test":  {"3 / 0 / 1", "1 / 0 / 0", "2 / 0 / 1"},
		"Distinct APIs":              {"2", "1", "2"},
		"Most frequent dependencies": {"requests 75.0%, axios 25.0%", "axios 100.0%", "requests 100.0%"},
	} {
		if !reflect.DeepEqual(rows[label], want) {
			t.Errorf("%s: %v, want %v", label, rows[label], want)
		}
	}
	st.PerLanguage = map[string]release.Summary{"python": py}
	if tb := tableII(st, "stats.json"); len(tb.Head) != 2 {
		t.Errorf("one language: head %v, want Statistic and Value", tb.Head)
	}
}
