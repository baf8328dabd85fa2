package decontam

import (
	"encoding/json"
	"fmt"
	"testing"

	"sccg/lang"
	"sccg/store"
)

// A caller and the same-file functions it calls, as decontam sees them: each
// function's calls name the helpers they pass through.
func TestDecideCallers(t *testing.T) {
	call := func(via ...string) lang.Call {
		c := lang.Call{Library: "requests", Method: "GET"}
		if len(via) > 0 {
			c.InHelper, c.Via = via[len(via)-1], via
		}
		return c
	}
	const endpoint = "api.example.org GET /r/{id}"
	fn := func(id int64, qual string, aligned []int, calls ...lang.Call) Candidate {
		c := Candidate{FunctionID: id, Repo: "o/app", Path: "app.py", FileID: 7, Name: qual, QualName: qual, APIID: 1,
			Code: fmt.Sprintf("def %s():\n    pass\n", qual), Facts: &lang.Facts{Calls: calls}}
		if len(aligned) > 0 {
			c.AlignedCalls = map[int]string{}
		}
		for _, k := range aligned {
			c.AlignedCalls[k] = endpoint
		}
		return c
	}
	tests := []struct {
		name  string
		cands []Candidate
		why   map[string]string // NotStandalone of the file
		want  map[int64]string  // function → its first reason, or the kept note it carries
		other string            // a function whose own requests align with another endpoint
	}{
		{"a main() calling a fetch helper: the helper is the sample",
			[]Candidate{fn(1, "main", []int{0}, call("fetch_pokemon")), fn(2, "fetch_pokemon", nil, call())}, nil,
			map[int64]string{1: `caller_of [{"function_id":2,"qualname":"fetch_pokemon"}]`, 2: `kept for [{"function_id":1,"qualname":"main"}]`}, ""},
		{"facts from before Via name the helper alone",
			[]Candidate{fn(1, "Pokedex.__init__", []int{0}, lang.Call{InHelper: "Pokedex.obtener_pokemon"}), fn(2, "Pokedex.obtener_pokemon", nil, call())}, nil,
			map[int64]string{1: `caller_of [{"function_id":2,"qualname":"Pokedex.obtener_pokemon"}]`,
				2: `kept for [{"function_id":1,"qualname":"Pokedex.__init__"}]`}, ""},
		{"a generic helper that is not aligned: the caller stays and says why",
			[]Candidate{fn(1, "main", []int{0}, call("get_json"))}, map[string]string{"get_json": whyUnaligned},
			map[int64]string{1: `kept caller {"requests_through":[{"qualname":"get_json","why":"not aligned with a documented endpoint"}]}`}, ""},
		{"three levels: the innermost function that can stand alone is the sample",
			[]Candidate{fn(1, "main", []int{0}, call("get_weather", "_get")), fn(2, "get_weather", []int{0}, call("_get"))},
			map[string]string{"_get": whyUnaligned},
			map[int64]string{1: `caller_of [{"function_id":2,"qualname":"get_weather"}]`,
				2: `kept caller {"requests_through":[{"qualname":"_get","why":"not aligned with a documented endpoint"}]}`}, ""},
		{"an asyncio.gather of fetchers: the unaligned request does not keep the caller",
			[]Candidate{fn(1, "main", []int{0, 1}, call("fetch_a"), call("fetch_b"), call("fetch_c")), fn(2, "fetch_a", nil, call()),
				fn(3, "fetch_b", nil, call())}, map[string]string{"fetch_c": whyUnaligned},
			map[int64]string{1: `caller_of [{"function_id":2,"qualname":"fetch_a"},{"function_id":3,"qualname":"fetch_b"}]`,
				2: `kept for [{"function_id":1,"qualname":"main"}]`, 3: `kept for [{"function_id":1,"qualname":"main"}]`}, ""},
		{"one request no callee can stand for keeps the caller",
			[]Candidate{fn(1, "main", []int{0, 1}, call("fetch_a"), call("post_raw")), fn(2, "fetch_a", nil, call())},
			map[string]string{"post_raw": whyExtract + "extracted code does not parse on its own"},
			map[int64]string{1: `kept caller {"other_callees":[{"function_id":2,"qualname":"fetch_a"}],"requests_through":[{"qualname":"post_raw","why":"rejected by extract: extracted code does not parse on its own"}]}`,
				2: "kept"}, ""},
		{name: "a helper that only gets its endpoint from the caller's arguments cannot stand for it",
			cands: []Candidate{fn(1, "current_weather", []int{0}, call("_get")), fn(2, "_get", nil, call())}, other: "_get",
			want: map[int64]string{1: `kept caller {"requests_through":[{"qualname":"_get","why":"` + whyOtherEndpoint + `"}]}`, 2: "kept"}},
		{"a function that makes a request itself is no caller",
			[]Candidate{fn(1, "main", []int{0, 1}, call(), call("fetch_a")), fn(2, "fetch_a", nil, call())}, nil,
			map[int64]string{1: "kept", 2: "kept"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dedup := map[int64]store.DedupEntry{}
			endpoints := map[string][]string{}
			for _, c := range tt.cands {
				endpoints[c.QualName] = []string{endpoint}
				if c.QualName == tt.other {
					endpoints[c.QualName] = []string{"api.example.org GET "}
				}
			}
			for n := range tt.cands {
				tt.cands[n].NotStandalone, tt.cands[n].FileEndpoints = tt.why, endpoints
				id := tt.cands[n].FunctionID
				dedup[id] = store.DedupEntry{FunctionID: id, Cluster: id, Kind: store.DedupRepresentative, Rank: int(id)}
			}
			for _, v := range Decide(tt.cands, dedup, DecideOptions{}) {
				got := "kept"
				switch {
				case !v.Keep:
					b, _ := json.Marshal(v.Reasons[0].Evidence["callees"])
					got = v.Reasons[0].Code + " " + string(b)
				case v.Notes["caller"] != nil:
					b, _ := json.Marshal(v.Notes["caller"])
					got = "kept caller " + string(b)
				case v.Notes["callers"] != nil:
					b, _ := json.Marshal(v.Notes["callers"])
					got = "kept for " + string(b)
				}
				if got != tt.want[v.FunctionID] {
					t.Errorf("function %d: %s\nwant %s", v.FunctionID, got, tt.want[v.FunctionID])
				}
			}
		})
	}
}

// Five identical request functions in one repository and four callers of them, with
// a cap of 5: the callers are rejected as callers, so they take no slot, and the
// cluster keeps its representative.
func TestDecideCapsKeepClusters(t *testing.T) {
	var cands []Candidate
	dedup := map[int64]store.DedupEntry{}
	for i := int64(1); i <= 9; i++ {
		c := Candidate{FunctionID: i, Repo: "o/app", FileID: i, Path: fmt.Sprintf("main%d.py", i), QualName: "fetch", APIID: 1,
			Code: "def fetch():\n    pass\n", Facts: &lang.Facts{Calls: []lang.Call{{}}}}
		if i > 5 {
			c.FileID, c.QualName, c.Path = i-5, "main", fmt.Sprintf("main%d.py", i-5)
			c.Facts = &lang.Facts{Calls: []lang.Call{{InHelper: "fetch"}}}
			c.AlignedCalls = map[int]string{0: "q GET /random"}
			c.FileEndpoints = map[string][]string{"fetch": {"q GET /random"}}
		}
		cands = append(cands, c)
		// the callers rank first, as a higher quality score would have put them
		rank, cluster := int(i)+4, int64(1)
		if i > 5 {
			rank, cluster = int(i)-5, i
		}
		dedup[i] = store.DedupEntry{FunctionID: i, Cluster: cluster, Kind: store.DedupExact, Rank: rank}
	}
	var kept []int64
	reasons := map[string]int{}
	for _, v := range Decide(cands, dedup, DecideOptions{Caps: CapOptions{PerRepo: 5}}) {
		if v.Keep {
			kept = append(kept, v.FunctionID)
		} else {
			reasons[v.Reasons[0].Code]++
		}
	}
	if fmt.Sprint(kept) != "[1]" || reasons[ReasonCallerOf] != 4 || reasons[ReasonExactDuplicate] != 4 {
		t.Errorf("kept %v, rejected %v; want [1] kept, 4 caller_of and 4 exact duplicates", kept, reasons)
	}
}

// Functions align refused — generic wrappers, whose path comes whole from a
// parameter, and functions whose parameter selects the resource — ask for no
// endpoint: they are rejected, naming the parameter, and a same-file caller that
// passes a concrete path is the request function.
func TestDecideGenericWrappers(t *testing.T) {
	const me = "chat.example.test GET /api/v10/users/@me"
	wrapper := func(id int64, qual, param string) Candidate {
		return Candidate{FunctionID: id, Repo: "o/bot", FileID: 1, QualName: qual, APIID: 1, Host: "chat.example.test",
			Route: "/api/v10{" + param + "}", Code: "def " + qual + "(" + param + "):\n    pass\n",
			Facts:   &lang.Facts{Calls: []lang.Call{{Method: "GET", PathFrom: param}}},
			Refused: map[string]any{"reason": ReasonGenericWrapper, "parameter": param}}
	}
	caller := func(id int64, qual, via string) Candidate {
		return Candidate{FunctionID: id, Repo: "o/bot", FileID: 1, QualName: qual, APIID: 1, Host: "chat.example.test",
			Route: "/api/v10/users/@me", Documented: true, Code: "def " + qual + "():\n    pass\n",
			Facts:        &lang.Facts{Calls: []lang.Call{{Method: "GET", InHelper: via, Via: []string{via}}}},
			AlignedCalls: map[int]string{0: me}}
	}
	documented := wrapper(5, "city", "city")
	documented.Documented, documented.Route, documented.Refused = true, "/{city}", nil
	mixed := wrapper(6, "both", "url")
	mixed.Facts.Calls = append(mixed.Facts.Calls, lang.Call{Method: "GET"})
	mixed.Refused = nil // align made the concrete request primary
	selector := wrapper(7, "full_entry", "kind")
	selector.Refused = map[string]any{"reason": ReasonResourceSelected, "parameter": "kind"}
	tests := []struct {
		name  string
		cands []Candidate
		want  map[int64]string
	}{
		{"a wrapper with a concrete caller", []Candidate{wrapper(1, "getJson", "url"), caller(2, "get_me", "getJson")},
			map[int64]string{1: "generic_wrapper url", 2: "kept caller names no one endpoint: generic_wrapper (url)"}},
		{"a resource selected by a parameter, with a concrete caller", []Candidate{selector, caller(8, "full_manga", "full_entry")},
			map[int64]string{7: "resource_selected_by_parameter kind", 8: "kept caller names no one endpoint: resource_selected_by_parameter (kind)"}},
		{"a wrapper nobody in its file calls", []Candidate{wrapper(3, "get_connection", "uri")},
			map[int64]string{3: "generic_wrapper uri"}},
		{"a caller that passes its own parameter on is a wrapper too",
			[]Candidate{wrapper(1, "getJson", "url"), func() Candidate {
				c := caller(4, "fetch", "getJson")
				c.Facts.Calls[0].PathFrom, c.Documented, c.Route = "path", false, "/api/v10{path}"
				c.Refused = map[string]any{"reason": ReasonGenericWrapper, "parameter": "path"}
				return c
			}()},
			map[int64]string{1: "generic_wrapper url", 4: "generic_wrapper path"}},
		{"a whole path from a parameter that fits a documented route asks for it", []Candidate{documented},
			map[int64]string{5: "kept"}},
		{"a function with a concrete request besides", []Candidate{mixed}, map[int64]string{6: "kept"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			endpoints := map[string][]string{}
			for _, c := range tt.cands {
				endpoints[c.QualName] = []string{c.Host + " GET " + c.Route}
			}
			for n := range tt.cands {
				tt.cands[n].FileEndpoints = endpoints
			}
			for _, v := range Decide(tt.cands, nil, DecideOptions{}) {
				got := "kept"
				switch {
				case !v.Keep:
					got = fmt.Sprint(v.Reasons[0].Code, " ", v.Reasons[0].Evidence["parameter"])
				case v.Notes["caller"] != nil:
					through := v.Notes["caller"].(map[string]any)["requests_through"].([]callee)
					got = "kept caller " + through[0].Why
				}
				if got != tt.want[v.FunctionID] {
					t.Errorf("function %d: %s, want %s", v.FunctionID, got, tt.want[v.FunctionID])
				}
			}
		})
	}
}
