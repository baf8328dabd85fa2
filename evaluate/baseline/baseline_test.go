package baseline

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sccg/evaluate"
	"sccg/evaluate/prompts"
	"sccg/evaluate/sandbox"
	"sccg/lang"
	"sccg/release"
)

func testBench(t *testing.T) []release.Record {
	t.Helper()
	recs, err := release.ReadFile(filepath.Join("..", "testdata", "experiment_bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

var noLeaks = prompts.LeakFunc(func(context.Context, *release.Record, string) (string, error) { return "", nil })

func TestTemplate(t *testing.T) {
	tests := []struct {
		name   string
		doc    *prompts.Doc
		robust bool
		in     []string
		notIn  []string
	}{
		{"no documentation", nil, false,
			[]string{`url = "https://api.example.com/"`, "requests.get(url, headers=headers)", "def f(*args, **kwargs):"}, []string{"RapidAPI"}},
		{"rapidapi GET with query parameters", &prompts.Doc{Host: "tides.p.rapidapi.com", Method: "GET", Route: "/tides",
			Params: []prompts.Param{{Name: "station", Location: "query", Example: "9414290"}, {Name: "days", Location: "query"}}}, false,
			[]string{`url = "https://tides.p.rapidapi.com/tides"`, `"X-RapidAPI-Host": "tides.p.rapidapi.com"`, `"X-RapidAPI-Key": "YOUR_RAPIDAPI_KEY"`,
				`params = {"days": "example", "station": "9414290"}`, "requests.get(url, headers=headers, params=params)"}, []string{"try:"}},
		{"POST with a path parameter and a body example", &prompts.Doc{Host: "parcels.p.rapidapi.com", URL: "https://parcels.p.rapidapi.com/parcels/{number}/track",
			Method: "POST", Headers: map[string]string{"x-rapidapi-host": "parcels.p.rapidapi.com"}, Body: `{"carrier": "auto", "notify": true, "n": 2}`,
			Params: []prompts.Param{{Name: "number", Location: "path", Example: "AB 1/2"}}}, false,
			[]string{`url = "https://parcels.p.rapidapi.com/parcels/AB%201%2F2/track"`, `payload = {"carrier": "auto", "n": 2, "notify": True}`,
				"requests.post(url, headers=headers, json=payload)"}, []string{`"X-RapidAPI-Host"`}},
		{"header and body parameters, an unusual method", &prompts.Doc{Host: "api.acme.io", Method: "PROPFIND", Route: "/files/{id}",
			Params: []prompts.Param{{Name: "X-Api-Token", Location: "header"}, {Name: "depth", Location: "body"}}}, false,
			[]string{`url = "https://api.acme.io/files/1"`, `"X-Api-Token": "YOUR_API_KEY"`, `payload = {"depth": "example"}`,
				`requests.request("PROPFIND", url, headers=headers, json=payload)`}, []string{"RapidAPI"}},
		{"C5: status check and exception handling", &prompts.Doc{Host: "tides.p.rapidapi.com", Method: "GET", Route: "/tides"}, true,
			[]string{"try:", "if response.status_code != 200:", "except requests.exceptions.RequestException:"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Template(lang.Python, "f", tt.doc, tt.robust)
			for _, s := range tt.in {
				if !strings.Contains(got, s) {
					t.Errorf("template lacks %q:\n%s", s, got)
				}
			}
			for _, s := range tt.notIn {
				if strings.Contains(got, s) {
					t.Errorf("template holds %q:\n%s", s, got)
				}
			}
		})
	}
}

func TestGenerateUnknownAndMissing(t *testing.T) {
	ctx := context.Background()
	recs := testBench(t)
	ps := []prompts.Prompt{{SampleID: "SYN-0001", Setting: prompts.Intent, Task: prompts.TaskGenerate, FunctionName: "high_tides"}}
	if _, err := Generate(ctx, "oracle", recs, ps, Options{}); err == nil {
		t.Error("an unknown baseline did not fail")
	}
	if _, err := Generate(ctx, BM25NearestTrain, recs, ps, Options{}); err == nil {
		t.Error("bm25-nearest-train without the train split did not fail")
	}
	if _, err := Generate(ctx, Gold, recs, []prompts.Prompt{{SampleID: "SYN-9999"}}, Options{}); err == nil {
		t.Error("a prompt for a sample the benchmark lacks did not fail")
	}
	gens, err := Generate(ctx, Null, recs, ps, Options{})
	if err != nil || len(gens) != 1 || gens[0].Model != Null || gens[0].Setting != prompts.Intent || !strings.Contains(gens[0].Completion, "def high_tides(") {
		t.Errorf("null: %+v, %v", gens, err)
	}
}

func TestSelectionAnswers(t *testing.T) {
	ctx := context.Background()
	recs := testBench(t)
	out, err := prompts.Build(ctx, recs, prompts.Options{Task: prompts.TaskSelect})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{Gold, Null, DocTemplate} {
		gens, err := Generate(ctx, name, recs, out.Prompts, Options{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := prompts.ScoreSelection(recs, out.Prompts, gens)
		if err != nil {
			t.Fatal(err)
		}
		g := res.Groups[0]
		switch name {
		case Gold:
			if g.Top1 != 1 {
				t.Errorf("gold Top-1 %.2f", g.Top1)
			}
		case Null:
			if g.Top3 != 0 || g.Unparsed != 0 {
				t.Errorf("null: %+v", g)
			}
		case DocTemplate:
			var ans map[string][]string
			json.Unmarshal([]byte(gens[0].Completion), &ans)
			if len(ans["ranking"]) != len(out.Prompts[0].Candidates) || ans["ranking"][0] != "E1" || g.Unparsed != 0 {
				t.Errorf("doc-template keeps the order shown: %s, %+v", gens[0].Completion, g)
			}
		}
	}
	if _, err := Generate(ctx, BM25NearestTrain, recs, out.Prompts, Options{Nearest: nearestFirst{recs[0]}}); err == nil {
		t.Error("bm25-nearest-train answered the selection task")
	}
}

type nearestFirst struct{ r release.Record }

func (n nearestFirst) Nearest(context.Context, string, lang.Name) (release.Record, bool, error) {
	return n.r, true, nil
}

// TestDocTemplateIsTheCeilingCheck runs the baselines in the sandbox: doc-template
// hits every sample whose gold endpoint is documented under oracle-c3, none under
// intent; null hits nothing; gold is each sample's own code.
func TestDocTemplateIsTheCeilingCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox")
	}
	ctx := context.Background()
	recs := testBench(t)
	var gens []evaluate.Generation
	counts := map[string]int{}
	for _, s := range []string{prompts.Intent, prompts.C1, prompts.OracleC3, prompts.OracleC5} {
		out, err := prompts.Build(ctx, recs, prompts.Options{Setting: s, Leaks: noLeaks})
		if err != nil {
			t.Fatal(err)
		}
		counts[s] = len(out.Prompts)
		for _, name := range []string{DocTemplate, Null, Gold} {
			g, err := Generate(ctx, name, recs, out.Prompts, Options{})
			if err != nil {
				t.Fatal(err)
			}
			gens = append(gens, g...)
		}
	}
	res, err := evaluate.Run(ctx, evaluate.Config{Bench: recs, Generations: gens,
		Sandbox: sandbox.Options{Limits: sandbox.Limits{Timeout: 30 * time.Second}}})
	if err != nil {
		t.Fatal(err)
	}
	documented := 0
	for _, r := range recs {
		if prompts.Documented(r) {
			documented++
		}
	}
	mock := map[string]float64{}
	n := map[string]int{}
	for _, r := range res.Results {
		mock[r.Setting+"/"+r.Model] += r.Mock
		n[r.Setting+"/"+r.Model]++
	}
	if counts[prompts.OracleC3] != documented || mock[prompts.OracleC3+"/"+DocTemplate] != float64(documented) {
		t.Errorf("doc-template under oracle-c3 hit %.0f of %d prompts; %d samples are documented",
			mock[prompts.OracleC3+"/"+DocTemplate], counts[prompts.OracleC3], documented)
	}
	if mock[prompts.Intent+"/"+DocTemplate] != 0 || n[prompts.Intent+"/"+DocTemplate] == 0 {
		t.Errorf("doc-template under intent hit %.0f of %d", mock[prompts.Intent+"/"+DocTemplate], n[prompts.Intent+"/"+DocTemplate])
	}
	for _, s := range []string{prompts.Intent, prompts.OracleC3} {
		if mock[s+"/"+Null] != 0 {
			t.Errorf("null hit %.0f under %s", mock[s+"/"+Null], s)
		}
	}
	if mock[prompts.OracleC3+"/"+Gold] != float64(documented) {
		t.Errorf("gold hit %.0f of the %d documented samples", mock[prompts.OracleC3+"/"+Gold], documented)
	}
	for _, g := range res.Summary.Groups {
		if g.Model == DocTemplate && g.Setting == prompts.OracleC5 && g.Overall.Robust != 1 {
			t.Errorf("doc-template under oracle-c5: Robust %.2f, want 1 (it follows the constraints)", g.Overall.Robust)
		}
		if g.Model == Null && g.Overall.Syntax != 1 {
			t.Errorf("null under %s: Syntax %.2f", g.Setting, g.Overall.Syntax)
		}
	}
}

func TestNearestTrain(t *testing.T) {
	ctx := context.Background()
	recs := testBench(t)
	var train []release.Record
	for _, r := range recs {
		if s, _, _ := evaluate.RecordSplit(r); s == release.Train {
			train = append(train, r)
		}
	}
	train = append(train, release.Record{SampleID: "T-2", Comments: []release.Comment{{Text: "Track the parcel and tell me where it is"}},
		Code: release.Code{CompleteFunction: "def track():\n    pass\n"}}, release.Record{SampleID: "T-3"})
	n, err := NewNearestTrain(train)
	if err != nil || n.Len() != 2 {
		t.Fatalf("index of %d train intents, %v; want 2 (one has none)", n.Len(), err)
	}
	for query, want := range map[string]string{"Which stations report water levels?": "SYN-0003", "where is my parcel": "T-2"} {
		r, ok, err := n.Nearest(ctx, query, lang.Python)
		if err != nil || !ok || r.SampleID != want {
			t.Errorf("nearest to %q: %s (%v, %v), want %s", query, r.SampleID, ok, err, want)
		}
	}
	if _, ok, _ := n.Nearest(ctx, "zzz qqq", lang.Python); ok {
		t.Error("a query sharing no term found a neighbour")
	}
	ps := []prompts.Prompt{{SampleID: "SYN-0002", Setting: prompts.Intent, Task: prompts.TaskGenerate, FunctionName: "track_parcel"}}
	gens, err := Generate(ctx, BM25NearestTrain, recs, ps, Options{Nearest: n})
	if err != nil || len(gens) != 1 || gens[0].Completion != "def track():\n    pass\n" {
		t.Errorf("bm25-nearest-train copies the neighbour's code: %+v, %v", gens, err)
	}
	if _, err := NewNearestTrain([]release.Record{{SampleID: "x"}}); err == nil {
		t.Error("an index of no intents did not fail")
	}
}

// TestTemplateJavaScript: for a JavaScript or TypeScript sample doc-template writes
// an async function calling the global fetch with the documented request, and C5
// adds the status check and try/catch; null is a function that sends nothing.
func TestTemplateJavaScript(t *testing.T) {
	doc := &prompts.Doc{Host: "parcels.p.rapidapi.com", URL: "https://parcels.p.rapidapi.com/parcels/{number}/track",
		Method: "POST", Body: `{"carrier": "auto", "notify": true}`,
		Params: []prompts.Param{{Name: "number", Location: "path", Example: "AB1"}, {Name: "lang", Location: "query", Example: "en"}}}
	tests := []struct {
		name   string
		n      lang.Name
		fn     string
		robust bool
		in     []string
		notIn  []string
	}{
		{"javascript", lang.JavaScript, "trackParcel", false, []string{
			"async function trackParcel(...args) {",
			`const url = new URL("https://parcels.p.rapidapi.com/parcels/AB1/track");`,
			`const params = {"lang": "en"};`, "url.searchParams.set(key, value)",
			`"X-RapidAPI-Key": "YOUR_RAPIDAPI_KEY"`, `"Content-Type": "application/json"`,
			`const payload = {"carrier": "auto", "notify": true};`,
			`await fetch(url, { method: "POST", headers, body: JSON.stringify(payload) });`, "return response.json();"},
			[]string{"try {", "import requests"}},
		{"typescript method, C5", lang.TypeScript, "ParcelService.track", true, []string{
			"async function track(...args) {", "  try {", "if (!response.ok) {", "} catch (error) {"}, []string{"def "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Template(tt.n, tt.fn, doc, tt.robust)
			for _, s := range tt.in {
				if !strings.Contains(got, s) {
					t.Errorf("template lacks %q:\n%s", s, got)
				}
			}
			for _, s := range tt.notIn {
				if strings.Contains(got, s) {
					t.Errorf("template has %q:\n%s", s, got)
				}
			}
		})
	}
	if got := NullFunction(lang.JavaScript, "f"); got != "import axios from \"axios\";\n\nasync function f(...args) {\n  return null;\n}\n" {
		t.Errorf("null for JavaScript = %q", got)
	}
}

// TestNearestTrainStaysWithinTheLanguage: a JavaScript sample is answered with
// the code of a JavaScript train sample even when a Python one's intent is closer.
func TestNearestTrainStaysWithinTheLanguage(t *testing.T) {
	py := release.Record{SampleID: "P", Language: "python", Comments: []release.Comment{{Text: "fetch the tide times for a station"}},
		Code: release.Code{CompleteFunction: "def tides(): pass"}}
	js := release.Record{SampleID: "J", Language: "javascript", Comments: []release.Comment{{Text: "get times of the moon"}},
		Code: release.Code{CompleteFunction: "function moon() {}"}}
	n, err := NewNearestTrain([]release.Record{py, js})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if r, ok, err := n.Nearest(ctx, "tide times for a station", lang.JavaScript); err != nil || !ok || r.SampleID != "J" {
		t.Errorf("javascript nearest = %s %v %v, want J", r.SampleID, ok, err)
	}
	if r, ok, _ := n.Nearest(ctx, "tide times for a station", lang.Python); !ok || r.SampleID != "P" {
		t.Errorf("python nearest = %s %v, want P", r.SampleID, ok)
	}
	if _, ok, _ := n.Nearest(ctx, "tide times", lang.TypeScript); ok {
		t.Error("a TypeScript sample was answered although the train split has none")
	}
}
