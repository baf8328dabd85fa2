package align

import (
	"fmt"
	"maps"
	"strings"
	"testing"
)

const dedupBase = `import requests

def get_weather(city, key):
    url = "https://weatherstack-forecast.p.rapidapi.com/current"
    headers = {"X-RapidAPI-Key": key, "X-RapidAPI-Host": "weatherstack-forecast.p.rapidapi.com"}
    response = requests.get(url, headers=headers, params={"q": city, "lang": "en"})
    response.raise_for_status()
    data = response.json()
    return data["current"]["temperature"], data["current"]["humidity"], data["location"]["name"]
`

func TestDedup(t *testing.T) {
	near := strings.Replace(dedupBase, `"lang": "en"`, `"lang": "fr"`, 1)
	other := `import requests

def list_news(topic):
    r = requests.post("https://news-feed.p.rapidapi.com/search", json={"query": topic, "limit": 10})
    if r.status_code != 200:
        return []
    return [a["title"] for a in r.json()["articles"]]
`
	items := []DedupItem{
		{FunctionID: 1, CodeHash: "h1", Code: dedupBase, Direct: true, Quality: 70, Repo: "b/two", Path: "w.py", QualName: "get_weather"},
		{FunctionID: 2, CodeHash: "h1", Code: dedupBase, Direct: true, Quality: 70, Repo: "a/one", Path: "w.py", QualName: "get_weather"},
		{FunctionID: 3, CodeHash: "h1", Code: dedupBase, Direct: true, Quality: 90, Repo: "c/three", Path: "w.py", QualName: "get_weather"},
		{FunctionID: 4, CodeHash: "h2", Code: near, Direct: true, Quality: 80, Repo: "a/one", Path: "x.py", QualName: "get_weather"},
		{FunctionID: 5, CodeHash: "h3", Code: other, Direct: true, Quality: 10, Repo: "a/one", Path: "n.py", QualName: "list_news"},
	}
	got, st := Dedup(items, DedupOptions{})
	want := map[int64]struct {
		cluster int64
		kind    string
		rank    int
	}{
		1: {3, DedupExact, 4},          // exact copy of 3, ranked after 2 by repository
		2: {3, DedupExact, 3},          // same quality as 1: the repository breaks the tie
		3: {3, DedupRepresentative, 1}, // best quality of the near cluster
		4: {3, DedupNear, 2},
		5: {5, DedupRepresentative, 5},
	}
	for _, e := range got {
		w := want[e.FunctionID]
		if e.Cluster != w.cluster || e.Kind != w.kind || e.Rank != w.rank {
			t.Errorf("function %d: cluster %d kind %s rank %d, want cluster %d kind %s rank %d", e.FunctionID, e.Cluster, e.Kind, e.Rank,
				w.cluster, w.kind, w.rank)
		}
		if e.Kind == DedupNear && (e.Similarity < 0.85 || e.Similarity >= 1) {
			t.Errorf("function %d: near similarity %.3f, want in [0.85, 1)", e.FunctionID, e.Similarity)
		}
	}
	if st.ExactGroups != 1 || st.ExactDropped != 2 || st.NearClusters != 1 || st.Clusters != 2 || st.Largest != 4 {
		t.Errorf("stats %+v, want 1 exact group dropping 2, 1 near cluster, 2 clusters, largest 4", st)
	}

	t.Run("threshold is configurable", func(t *testing.T) {
		got, _ := Dedup(items, DedupOptions{Threshold: 0.99})
		for _, e := range got {
			if e.FunctionID == 4 && e.Kind != DedupRepresentative {
				t.Errorf("at threshold 0.99 function 4 is %s of %d, want its own representative", e.Kind, e.Cluster)
			}
		}
	})
}

// The representative of a cluster depends on what the functions are, never on the
// order they arrived in or their row ids: every arrival order of the same items
// gives the same clusters, kinds and ranks.
func TestDedupIsOrderIndependent(t *testing.T) {
	caller := strings.Replace(dedupBase, "def get_weather(city, key):", "def main(city, key):", 1)
	tests := []struct {
		name  string
		items []DedupItem
		rep   string // the key of the representative of every item's cluster
	}{
		{"identical functions in two files of one repository", []DedupItem{
			{CodeHash: "h", Code: dedupBase, Direct: true, Quality: 60, Repo: "o/r", Path: "main6.py", QualName: "get_weather", StartLine: 3},
			{CodeHash: "h", Code: dedupBase, Direct: true, Quality: 60, Repo: "o/r", Path: "main5.py", QualName: "get_weather", StartLine: 3},
		}, "o/r/main5.py:get_weather"},
		{"a direct request function before a better-scored caller", []DedupItem{
			{CodeHash: "h1", Code: caller, Direct: false, Quality: 90, Repo: "a/a", Path: "app.py", QualName: "main", StartLine: 3},
			{CodeHash: "h2", Code: dedupBase, Direct: true, Quality: 50, Repo: "z/z", Path: "w.py", QualName: "get_weather", StartLine: 3},
		}, "z/z/w.py:get_weather"},
		{"repository names compare case-insensitively", []DedupItem{
			{CodeHash: "h", Code: dedupBase, Direct: true, Quality: 60, Repo: "Zed/r", Path: "a.py", QualName: "get_weather"},
			{CodeHash: "h", Code: dedupBase, Direct: true, Quality: 60, Repo: "alpha/r", Path: "b.py", QualName: "get_weather"},
		}, "alpha/r/b.py:get_weather"},
	}
	key := func(it DedupItem) string { return it.Repo + "/" + it.Path + ":" + it.QualName }
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var first map[string]string
			for _, perm := range [][]int{{0, 1}, {1, 0}} {
				for ids := int64(1); ids <= 2; ids++ {
					var items []DedupItem
					for n, i := range perm {
						it := tc.items[i]
						it.FunctionID = int64(n+1) * ids * 7 // row ids in every arrival order
						items = append(items, it)
					}
					entries, _ := Dedup(items, DedupOptions{})
					byID := map[int64]DedupItem{}
					for _, it := range items {
						byID[it.FunctionID] = it
					}
					got := map[string]string{}
					for _, e := range entries {
						got[key(byID[e.FunctionID])] = fmt.Sprintf("%s %s rank=%d", key(byID[e.Cluster]), e.Kind, e.Rank)
						if key(byID[e.Cluster]) != tc.rep {
							t.Errorf("order %v ids x%d: %s is in the cluster of %s, want %s", perm, ids, key(byID[e.FunctionID]),
								key(byID[e.Cluster]), tc.rep)
						}
					}
					if first == nil {
						first = got
					} else if !maps.Equal(first, got) {
						t.Errorf("order %v ids x%d: %v, want %v", perm, ids, got, first)
					}
				}
			}
		})
	}
}

func TestCodeQuality(t *testing.T) {
	// the same code in a starred repository and in a local clone without stars
	starred := map[string]float64{"syntax": 20, "api_call": 20, "response_handling": 15, "length": 10, "repo_signals": 6.8}
	local := map[string]float64{"syntax": 20, "api_call": 20, "response_handling": 15, "length": 10, "repo_signals": 0}
	if a, b := CodeQuality(starred), CodeQuality(local); a != 65 || b != 65 {
		t.Errorf("CodeQuality = %g and %g, want 65 for both", a, b)
	}
}
