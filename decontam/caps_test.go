package decontam

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"sccg/internal/synthapi"
)

func TestAPIBudget(t *testing.T) {
	tests := []struct {
		name      string
		opt       CapOptions
		endpoints int
		want      int
	}{
		{"a handful of endpoints", CapOptions{}, 5, 20},
		{"as many endpoints as the base", CapOptions{}, 20, 20},
		{"one more", CapOptions{}, 21, 21},
		{"500 endpoints", CapOptions{}, 500, 100},
		{"1,000 endpoints", CapOptions{}, 1000, 142},
		{"flat", CapOptions{FlatAPI: true}, 1000, 20},
		{"no cap", CapOptions{PerAPI: -1}, 1000, -1},
		{"another base", CapOptions{PerAPI: 10}, 1000, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.opt.APIBudget(tt.endpoints); got != tt.want {
				t.Errorf("APIBudget(%d) = %d, want %d", tt.endpoints, got, tt.want)
			}
		})
	}
}

// flatCaps is the flat per-API cap as it was: clusters in order, the first member
// under both caps kept.
func flatCaps(clusters [][]Candidate, perRepo, perAPI int) map[int64]int {
	repos, apis := map[string]int{}, map[int64]int{}
	for _, ms := range clusters {
		for _, c := range ms {
			if (perRepo > 0 && repos[c.Repo] >= perRepo) || apis[c.APIID] >= perAPI {
				continue
			}
			repos[c.Repo]++
			apis[c.APIID]++
			break
		}
	}
	return apis
}

func keptPerAPI(clusters [][]Candidate, outs []CapOutcome) map[int64]int {
	got := map[int64]int{}
	for n, o := range outs {
		if o.Kept >= 0 {
			got[clusters[n][o.Kept].APIID]++
		}
	}
	return got
}

// TestCapsKeepSmallAPIsAsBefore checks, over random stores of small APIs (a
// handful of endpoints each, samples piled on a few), that every API keeps as
// many samples as under the flat per-API cap.
func TestCapsKeepSmallAPIsAsBefore(t *testing.T) {
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 1))
		var clusters [][]Candidate
		for i := range 60 + r.IntN(200) {
			api := int64(r.IntN(8))
			eps := 1 + int(api)%6
			ep := fmt.Sprintf("GET /e%d", min(r.IntN(eps), r.IntN(eps))) // a few endpoints draw most samples
			c := Candidate{FunctionID: int64(i), Repo: fmt.Sprintf("r/%d", r.IntN(400)), APIID: api, Endpoint: ep, APIEndpoints: eps}
			clusters = append(clusters, []Candidate{c})
		}
		want := flatCaps(clusters, -1, DefaultPerAPI)
		got := keptPerAPI(clusters, ApplyCaps(clusters, CapOptions{PerRepo: -1}))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("seed %d: kept per API %v, the flat cap keeps %v", seed, got, want)
		}
	}
}

func TestCapsPreferUnrepresentedEndpoints(t *testing.T) {
	c := func(id int64, ep string) []Candidate {
		return []Candidate{{FunctionID: id, Repo: fmt.Sprintf("r/%d", id), APIID: 1, Endpoint: ep, APIEndpoints: 3}}
	}
	clusters := [][]Candidate{c(1, "A"), c(2, "A"), c(3, "A"), c(4, "A"), c(5, "B"), c(6, "C")}
	outs := ApplyCaps(clusters, CapOptions{PerAPI: 3})
	var kept []int64
	for n, o := range outs {
		if o.Kept >= 0 {
			kept = append(kept, clusters[n][0].FunctionID)
		} else if o.Capped[0] != ReasonAPICap {
			t.Errorf("cluster %d capped as %q, want %s", n, o.Capped[0], ReasonAPICap)
		}
	}
	if fmt.Sprint(kept) != "[1 5 6]" {
		t.Errorf("kept %v, want one sample of each endpoint [1 5 6]", kept)
	}
	if d := outs[1].Detail[0]; d["api_budget"] != 3 || d["endpoints_represented"] != 3 {
		t.Errorf("api_cap detail = %v", d)
	}
}

// TestCapsLargeAPI caps a 1,000-path API's candidates: 20 samples each of 10
// popular endpoints first, then one each of many others. Every endpoint keeps a
// sample while the API's budget has room, no endpoint keeps more than the
// per-endpoint cap beyond the base budget, and when the budget is short it goes
// to distinct endpoints.
func TestCapsLargeAPI(t *testing.T) {
	ops := synthapi.CodeHost(1000)
	endpoints := len(ops)
	opt := CapOptions{PerRepo: -1}
	budget := opt.APIBudget(endpoints)
	tests := []struct {
		name        string
		others      int // endpoints with one sample each, after the popular ones
		kept        int
		represented int
	}{
		{"budget has room", 100, 10*DefaultPerEndpoint + 100, 110},
		{"budget is short", 300, budget, budget},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var clusters [][]Candidate
			add := func(op synthapi.Operation) {
				id := int64(len(clusters) + 1)
				clusters = append(clusters, []Candidate{{FunctionID: id, Repo: fmt.Sprintf("r/%d", id), APIID: 1,
					Endpoint: "api.codehost.test " + op.Method + " " + op.Path, APIEndpoints: endpoints}})
			}
			for i := range 200 {
				add(ops[i%10])
			}
			for i := 10; i < 10+tt.others; i++ {
				add(ops[i])
			}
			outs := ApplyCaps(clusters, opt)
			perEndpoint := map[string]int{}
			kept, endpointCapped := 0, 0
			for n, o := range outs {
				switch {
				case o.Kept >= 0:
					perEndpoint[clusters[n][0].Endpoint]++
					kept++
				case o.Capped[0] == ReasonEndpointCap:
					endpointCapped++
				}
			}
			if kept != tt.kept || len(perEndpoint) != tt.represented {
				t.Errorf("kept %d samples of %d endpoints (budget %d), want %d of %d", kept, len(perEndpoint), budget, tt.kept, tt.represented)
			}
			for ep, n := range perEndpoint {
				if n > DefaultPerEndpoint {
					t.Errorf("%s kept %d samples, more than the per-endpoint cap %d", ep, n, DefaultPerEndpoint)
				}
			}
			if tt.others < budget && endpointCapped == 0 {
				t.Error("no cluster was capped as endpoint_cap")
			}
			// The flat cap keeps the base budget, whatever the API's size.
			flat := ApplyCaps(clusters, CapOptions{PerRepo: -1, FlatAPI: true})
			if got := keptPerAPI(clusters, flat)[1]; got != DefaultPerAPI {
				t.Errorf("flat cap kept %d, want %d", got, DefaultPerAPI)
			}
		})
	}
}
