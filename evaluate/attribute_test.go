package evaluate

import (
	"strings"
	"testing"

	"sccg/internal/route"
)

// truthOf makes a ground truth with its compiled route, as TruthOf does.
func truthOf(method, route_ string, hosts ...string) GroundTruth {
	g := GroundTruth{Hosts: hosts, Route: route_, Method: method}
	if route_ != "" {
		g.route = route.Compile(route_)
	}
	return g
}

func TestAttribute(t *testing.T) {
	const w, s = "weather.p.rapidapi.com", "stocks.p.rapidapi.com"
	gold := ShownDoc{Key: "ep-daily", Host: w, Method: "GET", Route: "/forecast/{city}"}
	hourly := ShownDoc{Host: w, Method: "GET", Route: "/forecast/{city}/hourly"}
	quote := ShownDoc{Host: s, Method: "GET", Route: "/quote/{symbol}"}
	truth := truthOf("GET", "/forecast/{location}", w)
	call := func(method, host, path string) Captured { return Captured{Method: method, Host: host, Path: path} }
	// scored is a result as the scorer leaves it for these requests.
	scored := func(cs ...Captured) Result {
		r := Result{Requests: cs, HasEndpoint: true}
		r.Syntax = 1
		if bi, m := truth.best(cs); bi >= 0 && m.host && m.endpoint && m.method {
			r.Mock = 1
		}
		return r
	}
	rag := func(docs ...ShownDoc) Shown { return Shown{Docs: docs, Retrieved: true} }
	oracle := func(docs ...ShownDoc) Shown { return Shown{Docs: docs} }
	tests := []struct {
		name       string
		r          Result
		truth      GroundTruth
		shown      Shown
		prompted   bool
		want, note string
		rank       int
	}{
		{"a hit", scored(call("GET", w, "/forecast/paris")), truth, rag(quote, gold), true, AttrHit, "", 2},
		{"a hit whose endpoint was not shown is a hit", scored(call("GET", w, "/forecast/paris")), truth, rag(quote), true, AttrHit, "", 0},
		{"not shown", scored(call("GET", s, "/quote/ibm")), truth, rag(quote, hourly), true, AttrRetrievalMiss, "not among the 2 documents shown", 0},
		{"the retriever found nothing", scored(call("GET", s, "/quote/ibm")), truth, rag(), true, AttrRetrievalMiss, "found no document", 0},
		{"its route shown with another method is not it", scored(call("POST", w, "/forecast/paris")), truth,
			rag(ShownDoc{Host: w, Method: "POST", Route: "/forecast/{city}"}), true, AttrRetrievalMiss, "its route was shown with the method POST", 0},
		{"shown by its endpoint id alone", scored(), truth, rag(ShownDoc{Key: "ep-daily", Host: w, Method: "GET", Route: "/forecast"}), true,
			AttrSelectionMiss, "sent no request", 1},
		{"shown, another shown endpoint called", scored(call("GET", w, "/forecast/paris/hourly")), truth, rag(gold, hourly), true,
			AttrSelectionMiss, "another shown endpoint (GET weather.p.rapidapi.com/forecast/{city}/hourly)", 1},
		{"shown, an endpoint not shown called", scored(call("GET", "api.openweathermap.org", "/data/2.5/weather")), truth, rag(hourly, gold), true,
			AttrSelectionMiss, "an endpoint not shown (GET api.openweathermap.org/data/2.5/weather)", 2},
		{"shown, no request", scored(), truth, oracle(gold), true, AttrSelectionMiss, "sent no request", 1},
		{"shown, code that does not parse", Result{HasEndpoint: true}, truth, oracle(gold), true, AttrSelectionMiss, "does not parse", 1},
		{"shown and called with the wrong method", scored(call("POST", w, "/forecast/paris")), truth, oracle(gold), true,
			AttrGenerationMiss, "with the method POST, not GET", 1},
		{"shown and called on a misspelt host", scored(call("GET", "weather.rapidapi.com", "/forecast/paris")), truth, oracle(gold), true,
			AttrGenerationMiss, "on the host weather.rapidapi.com", 1},
		{"a root route called on another shown API's root is a selection", scored(call("GET", s, "/")), truthOf("GET", "/", w),
			rag(ShownDoc{Host: w, Method: "GET", Route: "/"}, ShownDoc{Host: s, Method: "GET", Route: "/"}), true, AttrSelectionMiss, "another shown endpoint", 1},
		{"no prompt", scored(), truth, Shown{}, false, "", UnattributedNoPrompt, 0},
		{"a prompt without documents (intent)", scored(), truth, oracle(), true, "", UnattributedNoDocs, 0},
		{"documents of a host only (c1)", scored(call("GET", w, "/x")), truth, oracle(ShownDoc{Host: w}), true, "", UnattributedHostOnly, 0},
		{"a label without an endpoint", Result{Requests: []Captured{call("GET", w, "/")}}, truthOf("GET", "", w), oracle(gold), true,
			"", UnattributedNoEndpoint, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := tc.truth
			got, note, rank := attribute(&tc.r, &tr, "ep-daily", tc.shown, tc.prompted)
			if got != tc.want || !strings.Contains(note, tc.note) || rank != tc.rank {
				t.Errorf("got %q (%q, rank %d), want %q (note with %q, rank %d)", got, note, rank, tc.want, tc.note, tc.rank)
			}
		})
	}
}

func TestAttributionCountsAddUp(t *testing.T) {
	var c AttributionCounts
	for _, r := range []Result{{Attribution: AttrHit}, {Attribution: AttrRetrievalMiss}, {Attribution: AttrRetrievalMiss},
		{Attribution: AttrSelectionMiss}, {Attribution: AttrGenerationMiss}, {AttributionNote: UnattributedNoPrompt}} {
		c.add(r)
	}
	if c.N != 6 || c.Attributed() != 5 || c.Count(AttrRetrievalMiss) != 2 || c.Unattributed[UnattributedNoPrompt] != 1 || !c.AddsUp() {
		t.Errorf("counts %+v", c)
	}
}
