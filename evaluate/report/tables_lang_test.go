package report

import (
	"reflect"
	"strings"
	"testing"

	"sccg/evaluate"
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

// langGroup is a group of one setting whose results are split by language.
func langGroup(setting string, by map[string]evaluate.Agg) *group {
	g := &group{Setting: setting, Model: "m"}
	g.Group.Setting, g.Group.Model, g.ByLanguage = setting, "m", by
	for _, a := range by {
		g.Overall.N += a.N
		g.Overall.Samples += a.Samples
	}
	return g
}

func agg(n int, mock, host float64) evaluate.Agg {
	a := evaluate.Agg{N: n, Samples: n}
	a.Mock, a.HostAcc, a.Syntax = mock, host, 1
	return a
}

// Tables V and VII gain a table by language when results are of several
// languages; results of one language (a Python benchmark) keep the tables alone.
func TestTablesByLanguage(t *testing.T) {
	intent := langGroup("intent", map[string]evaluate.Agg{"python": agg(8, 0.25, 0.5), "javascript": agg(2, 0.5, 1)})
	oracle := langGroup("oracle", map[string]evaluate.Agg{"python": agg(8, 0.75, 1), "javascript": agg(2, 1, 1)})
	groups := []*group{intent, oracle}

	v := tableVLanguages(groups)
	if v == nil {
		t.Fatal("no Table V by language for results of two languages")
	}
	if want := []string{"intent", "m", "javascript", "2"}; !reflect.DeepEqual(v.Rows[0][:4], want) || len(v.Rows) != 4 {
		t.Fatalf("rows %v, want each setting's languages, javascript first", v.Rows)
	}
	if mock := v.Rows[1][len(v.Head)-2]; !strings.HasPrefix(mock, "25.00") {
		t.Errorf("intent/python Mock cell %q, want 25.00 and its interval", mock)
	}

	vii := tableVIILanguages(groups)
	if vii == nil {
		t.Fatal("no Table VII by language")
	}
	var order []string
	for _, r := range vii.Rows {
		order = append(order, r[0]+"/"+r[2])
	}
	if want := []string{"javascript/intent", "javascript/oracle", "python/intent", "python/oracle"}; !reflect.DeepEqual(order, want) {
		t.Errorf("staircase by language %v, want %v", order, want)
	}

	py := []*group{langGroup("intent", nil), langGroup("oracle", nil)}
	if tableVLanguages(py) != nil || tableVIILanguages(py) != nil {
		t.Error("results of one language got tables by language")
	}
}
