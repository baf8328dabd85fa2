package evaluate

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"sccg/lang"
	"sccg/release"
)

func TestThirdPartyAndDepRecall(t *testing.T) {
	tests := []struct {
		name       string
		language   lang.Name
		gold, gen  []string
		wantDeps   []string
		wantRecall float64
	}{
		{"one dependency, imported", lang.Python, []string{"requests", "json"}, []string{"requests"}, []string{"requests"}, 1},
		{"another client is not the dependency", lang.Python, []string{"requests"}, []string{"httpx"}, []string{"requests"}, 0},
		{"submodules count for their package", lang.Python, []string{"requests.adapters", "pandas", "os.path"}, []string{"requests", "pandas.io"},
			[]string{"pandas", "requests"}, 1},
		{"half of two", lang.Python, []string{"django.conf", "requests"}, []string{"requests", "os"}, []string{"django", "requests"}, 0.5},
		{"relative imports and the standard library are not dependencies", lang.Python, []string{".utils", "urllib.request", "json"}, nil, nil, 1},
		{"nothing imported", lang.Python, []string{"aiohttp"}, nil, []string{"aiohttp"}, 0},
		{"JavaScript: packages by name, scoped and deep imports", lang.JavaScript, []string{"axios", "@octokit/rest/dist/x", "lodash/get", "./api"},
			[]string{"axios", "lodash"}, []string{"@octokit/rest", "axios", "lodash"}, 2.0 / 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			deps := ThirdParty(tc.language, tc.gold)
			if !reflect.DeepEqual(deps, tc.wantDeps) {
				t.Errorf("ThirdParty(%q) = %q, want %q", tc.gold, deps, tc.wantDeps)
			}
			if got := DepRecall(tc.language, deps, tc.gen); got != tc.wantRecall {
				t.Errorf("DepRecall(%q, %q) = %v, want %v", deps, tc.gen, got, tc.wantRecall)
			}
		})
	}
}

func TestSummarizeDepRecall(t *testing.T) {
	mk := func(id string, idx int, deps []string, recall float64) Result {
		r := Result{SampleID: id, Setting: "s", Model: "m", SampleIndex: idx, HasEndpoint: true, GoldDeps: deps, Status: "ok"}
		r.DepRecall = recall
		return r
	}
	rs := []Result{
		mk("A", 0, []string{"requests", "pandas"}, 0.5),
		mk("A", 1, []string{"requests", "pandas"}, 1),
		mk("B", 0, []string{"requests"}, 0),
		mk("B", 1, []string{"requests"}, 0),
		mk("C", 0, nil, 1), // no dependency to recall: left out
		mk("C", 1, nil, 1),
	}
	g := Summarize(rs, []int{1, 2}).Groups[0]
	if g.Overall.NDepRecall != 4 || math.Abs(g.Overall.DepRecall-0.375) > 1e-12 {
		t.Errorf("dep_recall over %d = %v, want over 4 = 0.375", g.Overall.NDepRecall, g.Overall.DepRecall)
	}
	// with one completion of C, @2 could not be estimated
	if g := Summarize(rs[:5], []int{1, 2}).Groups[0]; len(g.DepRecallAtK) != 1 {
		t.Errorf("dep_recall@k with a sample of one completion = %v, want @1 only", g.DepRecallAtK)
	}
	// A: @1 the mean of 0.5 and 1 = 0.75, @2 the best = 1; B: 0. Averaged over A, B.
	if math.Abs(g.DepRecallAtK["dep_recall@1"]-0.375) > 1e-12 || math.Abs(g.DepRecallAtK["dep_recall@2"]-0.5) > 1e-12 {
		t.Errorf("dep_recall@k = %v, want @1 0.375, @2 0.5", g.DepRecallAtK)
	}
}

func TestDepRecallFromTheGoldRun(t *testing.T) {
	// SYN-0008's gold code imports requests, pandas and django; a completion that
	// imports requests alone recalls one of three, learnt from running the gold code.
	bench, _, _ := readSynthetic(t)
	gen := Generation{SampleID: "SYN-0008", Setting: "intent", Model: "m", Completion: "import requests\n\n" +
		"def f():\n    return requests.get('https://example.com').json()\n"}
	out := runOrSkip(t, Config{Bench: bench, Generations: []Generation{gen}})
	r := out.Results[0]
	if !reflect.DeepEqual(r.GoldDeps, []string{"django", "pandas", "requests"}) || math.Abs(r.DepRecall-1.0/3) > 1e-12 {
		t.Errorf("gold deps %q, dep_recall %v; want django, pandas, requests and 1/3", r.GoldDeps, r.DepRecall)
	}
}

// TestRecordDependencies: a built record names its gold dependencies, resolved
// against its repository (models is the repository's, not a package); a
// published record names none, and the gold code's imports decide.
func TestRecordDependencies(t *testing.T) {
	var built, published release.Record
	built.Extra = map[string]json.RawMessage{"dependencies": json.RawMessage(`["requests","httpx","requests"]`)}
	if deps, ok := RecordDependencies(&built); !ok || strings.Join(deps, ",") != "httpx,requests" {
		t.Errorf("built record: %v %v, want [httpx requests]", deps, ok)
	}
	if deps, ok := RecordDependencies(&published); ok {
		t.Errorf("published record: %v, want none", deps)
	}
}
