package align

import (
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
		{FunctionID: 1, CodeHash: "h1", Code: dedupBase, RepoCreatedAt: "2022-01-01T00:00:00Z", Quality: 70},
		{FunctionID: 2, CodeHash: "h1", Code: dedupBase, RepoCreatedAt: "2020-01-01T00:00:00Z", Quality: 70},
		{FunctionID: 3, CodeHash: "h1", Code: dedupBase, RepoCreatedAt: "", Quality: 90},
		{FunctionID: 4, CodeHash: "h2", Code: near, RepoCreatedAt: "2023-01-01T00:00:00Z", Quality: 80},
		{FunctionID: 5, CodeHash: "h3", Code: other, RepoCreatedAt: "2019-01-01T00:00:00Z", Quality: 10},
	}
	got, st := Dedup(items, DedupOptions{})
	want := map[int64]struct {
		cluster int64
		kind    string
	}{
		1: {4, DedupExact},          // exact copy of 2, whose cluster is represented by 4
		2: {4, DedupNear},           // earliest copy of h1, near-duplicate of 4
		3: {4, DedupExact},          // no creation date sorts last
		4: {4, DedupRepresentative}, // best quality in the near cluster
		5: {5, DedupRepresentative},
	}
	for _, e := range got {
		w := want[e.FunctionID]
		if e.Cluster != w.cluster || e.Kind != w.kind {
			t.Errorf("function %d: cluster %d kind %s, want cluster %d kind %s", e.FunctionID, e.Cluster, e.Kind, w.cluster, w.kind)
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
