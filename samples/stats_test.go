package samples

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"sccg/release"
)

func TestSummarize(t *testing.T) {
	mk := func(api, repo, updated string, stars int, code string) release.Record {
		r := release.Record{APIName: api, Code: release.Code{CompleteFunction: code}}
		r.GitHubInfo.Repo, r.GitHubInfo.UpdatedAt, r.GitHubInfo.Stars = repo, updated, stars
		r.APIMetadata.Method, r.APIMetadata.DocMatchType = "get", "url"
		return r
	}
	recs := []release.Record{
		mk("a", "o/r1", "2025-01-01T00:00:00Z", 10, "import requests\nx = 1"),
		mk("a", "o/r1", "2024-01-01T00:00:00Z", 0, "import requests\nimport os"),
		mk("a", "o/r2", "2024-05-01T00:00:00Z", 0, "x = 1"),
		mk("b", "o/r3", "", 2, "import os\nx = 1\ny = 2\nz = 3"),
		mk("c", "o/r4", "2026-01-01T00:00:00Z", 0, ""),
	}
	recs[0].Extra = map[string]json.RawMessage{"api_info": json.RawMessage(`{"pricing":"FREEMIUM","subscribers":1500}`)}
	recs[1].Extra = map[string]json.RawMessage{"api_info": json.RawMessage(`{"pricing":"PAID","subscribers":20}`)}
	recs[2].Extra = map[string]json.RawMessage{"api_info": json.RawMessage(`{"pricing":"free"}`)}
	s, err := Summarize(context.Background(), recs)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"samples", s.Samples, 5},
		{"apis", s.DistinctAPIs, 3},
		{"repositories", s.DistinctRepositories, 4},
		{"loc average", s.EffectiveLOCAverage, 1.8},
		{"loc median", s.EffectiveLOCMedian, 2.0},
		{"one-sample apis", s.APIsWithOneSample, 2},
		{"top 20% of apis (1 of 3) share", s.TopAPIsShare, 0.6},
		{"methods upper-cased", s.Methods, map[string]int{"GET": 5}},
		{"update years", s.UpdateYears, map[string]int{"2024": 2, "2025": 1, "2026": 1, "unknown": 1}},
		{"stars", s.AverageStars, 2.4},
		{"recent updates (2024-2026) share", s.RecentFrom + " " + fmt.Sprint(s.RecentUpdateShare), "2024 0.8"},
		{"subscriber figures over samples that know them", fmt.Sprint(s.WithSubscribers, " ", *s.Subscribers1000Share), "2 0.5"},
		{"pricing figures over samples that know them", fmt.Sprint(s.WithPricing, " ", *s.FreeOrFreemiumShare), "3 0.6667"},
		{"third-party dependencies by count then name", s.TopDependencies, []release.Dependency{{Name: "requests", Samples: 2, Share: 0.4}}},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if !reflect.DeepEqual(c.got, c.want) {
				t.Errorf("got %v, want %v", c.got, c.want)
			}
		})
	}
	t.Run("figures only RapidAPI metadata gives are absent, not 0, when no sample has it", func(t *testing.T) {
		plain := []release.Record{mk("a", "o/r1", "2025-01-01T00:00:00Z", 1, "import requests\nimport models")}
		plain[0].Extra = map[string]json.RawMessage{"dependencies": json.RawMessage(`["requests"]`)}
		s, err := Summarize(context.Background(), plain)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"free_or_freemium_share", "subscribers_1000_share", "samples_with_pricing", "samples_with_subscriber_count"} {
			if strings.Contains(string(b), `"`+k+`"`) {
				t.Errorf("%s is in %s; want it absent", k, b)
			}
		}
		if len(s.TopDependencies) != 1 || s.TopDependencies[0].Name != "requests" {
			t.Errorf("dependencies %v, want the record's own list [requests] (models is the repository's)", s.TopDependencies)
		}
		var old release.Summary
		if err := json.Unmarshal([]byte(`{"samples":1,"samples_with_pricing":0,"free_or_freemium_share":0}`), &old); err != nil {
			t.Errorf("a stats file written with 0 does not read: %v", err)
		}
	})
}
