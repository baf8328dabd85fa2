package prompts

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sccg/evaluate"
	"sccg/evaluate/retrieve"
	"sccg/internal/golden"
	"sccg/release"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func testBench(t *testing.T) []release.Record {
	t.Helper()
	recs, err := release.ReadFile(filepath.Join("..", "testdata", "experiment_bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// hostLeaks is a LeakCheck stand-in: a prompt that names the record's host leaks.
var hostLeaks = LeakFunc(func(_ context.Context, r *release.Record, text string) (string, error) {
	if strings.Contains(strings.ToLower(text), r.APIHost) {
		return "host " + r.APIHost, nil
	}
	return "", nil
})

func byID(ps []Prompt) map[string]Prompt {
	m := map[string]Prompt{}
	for _, p := range ps {
		m[p.SampleID] = p
	}
	return m
}

func problemsOf(out *Output) map[string]string {
	m := map[string]string{}
	for _, p := range out.Problems {
		m[p.SampleID] = p.Kind
	}
	return m
}

func TestBuildSettings(t *testing.T) {
	ctx := context.Background()
	recs := testBench(t)
	tests := []struct {
		setting string
		// prompted are the samples that get a prompt; problems the kind reported per sample
		prompted []string
		problems map[string]string
		// in and notIn are what SYN-0001's user message must and must not hold
		in, notIn []string
	}{
		{Intent, []string{"SYN-0001", "SYN-0002", "SYN-0003", "SYN-0005", "SYN-0006"},
			map[string]string{"SYN-0004": ProblemNoIntent, "SYN-0007": ProblemLeak},
			[]string{"Next high tides for a station.", "Function name: high_tides"},
			[]string{"tidewatch", "/tides", "Constraints", "documentation"}},
		{C1, []string{"SYN-0001", "SYN-0002", "SYN-0003", "SYN-0004", "SYN-0007"},
			map[string]string{"SYN-0004": ProblemNoIntent, "SYN-0005": ProblemNoDocs, "SYN-0006": ProblemNoDocs},
			[]string{"Host: tidewatch.p.rapidapi.com"}, []string{"/tides", "Method:", "Parameters:"}},
		{C2, []string{"SYN-0001", "SYN-0002", "SYN-0003", "SYN-0004", "SYN-0007"}, nil,
			[]string{"Route: /tides", "Method: GET", "URL: https://tidewatch.p.rapidapi.com/tides"}, []string{"Parameters:", "Tide predictions"}},
		{OracleC3, []string{"SYN-0001", "SYN-0002", "SYN-0003", "SYN-0004", "SYN-0007"}, nil,
			[]string{"Endpoint: Tide predictions", "Route: /tides", "Headers: x-rapidapi-host: tidewatch.p.rapidapi.com",
				"- station (query, string, required): Station code. Example: 9414290", "- days (query, integer) Example: 2"},
			[]string{"Constraints"}},
		{C4, nil, nil, []string{"Endpoint: Tide predictions", "Import only the requests library"}, []string{"try/except"}},
		{OracleC5, nil, nil, []string{"Endpoint: Tide predictions", "Check the HTTP status code", "try/except"}, []string{"Import only"}},
	}
	for _, tt := range tests {
		t.Run(tt.setting, func(t *testing.T) {
			out, err := Build(ctx, recs, Options{Setting: tt.setting, Leaks: hostLeaks, DropLeaks: true})
			if err != nil {
				t.Fatal(err)
			}
			ps := byID(out.Prompts)
			if tt.prompted != nil {
				var got []string
				for _, p := range out.Prompts {
					got = append(got, p.SampleID)
				}
				if !slices.Equal(got, tt.prompted) {
					t.Errorf("prompted %v, want %v", got, tt.prompted)
				}
			}
			probs := problemsOf(out)
			for id, kind := range tt.problems {
				if probs[id] != kind {
					t.Errorf("%s: problem %q, want %q (all: %v)", id, probs[id], kind, probs)
				}
			}
			p, ok := ps["SYN-0001"]
			if !ok {
				t.Fatalf("no prompt for SYN-0001")
			}
			if p.Setting != tt.setting || p.Task != TaskGenerate || p.FunctionName != "high_tides" || len(p.Messages) != 2 ||
				p.Messages[0].Role != "system" || p.Messages[1].Role != "user" {
				t.Errorf("prompt header %+v", p)
			}
			if p.PromptHash != Hash(p.Messages) || len(p.PromptHash) != 64 {
				t.Errorf("prompt_hash %q does not hash the messages", p.PromptHash)
			}
			user := p.Messages[1].Content
			for _, s := range tt.in {
				if !strings.Contains(user, s) {
					t.Errorf("user message lacks %q:\n%s", s, user)
				}
			}
			for _, s := range tt.notIn {
				if strings.Contains(user, s) {
					t.Errorf("user message holds %q:\n%s", s, user)
				}
			}
			if !strings.Contains(p.Messages[0].Content, "experienced Python engineer") ||
				!strings.Contains(p.Messages[0].Content, "no Markdown code fences") {
				t.Errorf("system message is not the shared core prompt: %s", p.Messages[0].Content)
			}
			if (tt.setting == Intent) != (len(p.Docs) == 0) {
				t.Errorf("docs %+v under %s", p.Docs, tt.setting)
			}
		})
	}
}

func TestNoIntentStillGetsDocumentation(t *testing.T) {
	out, err := Build(context.Background(), testBench(t), Options{Setting: OracleC3})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := byID(out.Prompts)["SYN-0004"]
	if !ok {
		t.Fatal("SYN-0004 (no comments) got no oracle prompt")
	}
	if !strings.Contains(p.Messages[1].Content, "Call the endpoint documented below") || !strings.Contains(p.Messages[1].Content, "Route: /tides/low") {
		t.Errorf("prompt without intent:\n%s", p.Messages[1].Content)
	}
	for _, pr := range out.Problems {
		if pr.SampleID == "SYN-0004" && (pr.Kind != ProblemNoIntent || pr.Skipped) {
			t.Errorf("problem %+v, want a no_intent note", pr)
		}
	}
}

func TestLeakFailsTheBuild(t *testing.T) {
	ctx := context.Background()
	recs := testBench(t)
	_, err := Build(ctx, recs, Options{Setting: Intent, Leaks: hostLeaks})
	var le *LeakError
	if !errors.As(err, &le) || len(le.Leaks) != 1 || le.Leaks[0].SampleID != "SYN-0007" || !strings.Contains(err.Error(), "host tidewatch") ||
		!strings.Contains(err.Error(), "drop_leaks: true") || !strings.Contains(err.Error(), "--drop-leaks") {
		t.Fatalf("err = %v, want a LeakError for SYN-0007", err)
	}
	// By default the intent setting runs package leakcheck: SYN-0007's intent names
	// the host, and high_tides' is clean.
	_, err = Build(ctx, recs, Options{Setting: Intent})
	if !errors.As(err, &le) || len(le.Leaks) != 1 || le.Leaks[0].SampleID != "SYN-0007" || !strings.Contains(le.Leaks[0].Reason, "tidewatch") {
		t.Errorf("intent with the default LeakCheck: err = %v", err)
	}
	// LeakCheck reads the whole user message, the function name included.
	var seen []string
	spy := LeakFunc(func(_ context.Context, r *release.Record, text string) (string, error) {
		seen = append(seen, text)
		return "", nil
	})
	if _, err := Build(ctx, recs[:1], Options{Setting: Intent, Leaks: spy}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || !strings.Contains(seen[0], "high_tides") || !strings.Contains(seen[0], "Next high tides") {
		t.Errorf("leak check saw %q", seen)
	}
}

func TestCatalogFromStoreDocsWins(t *testing.T) {
	recs := testBench(t)
	cat := NewCatalog("docs", []Doc{{API: "Tidewatch", Host: "tidewatch.p.rapidapi.com", Method: "GET", Route: "/tides",
		Name: "Predictions", Description: "Tide predictions for a station.",
		Params: []Param{{Name: "station", Location: "query", Required: true}, {Name: "units", Location: "query"}}}})
	out, err := Build(context.Background(), recs[:1], Options{Setting: OracleC3, Catalog: cat})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Prompts) != 1 || out.Prompts[0].Docs[0].Name != "Predictions" || !strings.Contains(out.Prompts[0].Messages[1].Content, "- units (query)") {
		t.Errorf("the catalog's doc was not used: %+v", out.Prompts)
	}
}

func TestUnknownSettingAndTask(t *testing.T) {
	for _, o := range []Options{{Setting: "c9"}, {Setting: Intent, Task: "rank"}, {Setting: RAGBM25}, {Setting: RAGDense}} {
		if _, err := Build(context.Background(), nil, o); err == nil {
			t.Errorf("Build(%+v) did not fail", o)
		}
	}
	for in, want := range map[string]string{"C0": Intent, "c3": OracleC3, "c5": OracleC5, "rag_bm25": RAGBM25, "oracle-c3": OracleC3} {
		if got, err := NormalizeSetting(in); err != nil || got != want {
			t.Errorf("NormalizeSetting(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestGoldenPrompts(t *testing.T) {
	recs := testBench(t)
	var b bytes.Buffer
	for _, s := range []string{Intent, OracleC3, OracleC5} {
		out, err := Build(context.Background(), recs, Options{Setting: s, Leaks: hostLeaks, DropLeaks: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := Encode(&b, out.Prompts); err != nil {
			t.Fatal(err)
		}
	}
	golden.Check(t, filepath.Join("testdata", "prompts.golden.jsonl"), b.Bytes(), *update)
}

func TestReadFile(t *testing.T) {
	out, err := Build(context.Background(), testBench(t), Options{Setting: OracleC3})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "p.jsonl")
	if err := WriteFile(path, out.Prompts); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(path)
	if err != nil || len(back) != len(out.Prompts) || back[1].Docs[0].Params[0].Name != "number" {
		t.Fatalf("read back %d prompts (%v), want %d", len(back), err, len(out.Prompts))
	}
	b, _ := os.ReadFile(path)
	tampered := strings.Replace(string(b), "Track a parcel", "Track a box", 1)
	os.WriteFile(path, []byte(tampered), 0o644)
	if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), "prompt_hash") {
		t.Errorf("edited prompts: err = %v", err)
	}
	os.WriteFile(path, append(b, b...), 0o644)
	if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), "already prompted") {
		t.Errorf("duplicated prompts: err = %v", err)
	}
}

func TestSelectEndpoint(t *testing.T) {
	recs := testBench(t)
	out, err := Build(context.Background(), recs, Options{Task: TaskSelect})
	if err != nil {
		t.Fatal(err)
	}
	ps := byID(out.Prompts)
	p, ok := ps["SYN-0001"]
	if !ok {
		t.Fatalf("no selection prompt for SYN-0001: %v", out.Problems)
	}
	if p.Setting != TaskSelect || len(p.Candidates) != 4 || !strings.Contains(p.Messages[0].Content, `{"ranking"`) {
		t.Errorf("selection prompt %+v", p)
	}
	for i, c := range p.Candidates {
		if c.ID != "E"+string(rune('1'+i)) || c.Doc.Host != "tidewatch.p.rapidapi.com" {
			t.Errorf("candidate %d: %+v", i, c)
		}
	}
	gold, ok := GoldCandidate(recs[0], p)
	if !ok || p.Candidates[gold[1]-'1'].Doc.Route != "/tides" {
		t.Errorf("gold candidate %q of %+v", gold, p.Candidates)
	}
	if probs := problemsOf(out); probs["SYN-0002"] != ProblemNoDistractor {
		t.Errorf("SYN-0002 (only documented endpoint of its API): %q", probs["SYN-0002"])
	}
	again, _ := Build(context.Background(), recs, Options{Task: TaskSelect})
	if !slices.EqualFunc(again.Prompts, out.Prompts, func(a, b Prompt) bool { return a.PromptHash == b.PromptHash }) {
		t.Error("selection prompts differ between two builds")
	}
}

func TestParseRanking(t *testing.T) {
	tests := []struct {
		answer string
		ids    []string
		how    string
	}{
		{`{"ranking": ["E2", "E1"]}`, []string{"E2", "E1"}, "json"},
		{"Here you go:\n```json\n{\"ranking\": [\"E3\"]}\n```\nGood luck.", []string{"E3"}, "json"},
		{`["E1","E4"]`, []string{"E1", "E4"}, "json"},
		{`{"endpoint": "E5"}`, []string{"E5"}, "json"},
		{`{"ranking": []}`, []string{}, "json"},
		{"I would pick E2, then E1 and E2 again.", []string{"E2", "E1"}, "ids"},
		{"no idea", nil, "none"},
	}
	for _, tt := range tests {
		ids, how := ParseRanking(tt.answer)
		if how != tt.how || !slices.Equal(ids, tt.ids) {
			t.Errorf("ParseRanking(%q) = %v, %s; want %v, %s", tt.answer, ids, how, tt.ids, tt.how)
		}
	}
}

func TestScoreSelection(t *testing.T) {
	recs := testBench(t)
	out, err := Build(context.Background(), recs, Options{Task: TaskSelect})
	if err != nil {
		t.Fatal(err)
	}
	p := byID(out.Prompts)["SYN-0001"]
	gold, _ := GoldCandidate(recs[0], p)
	other := "E1"
	if gold == "E1" {
		other = "E2"
	}
	gens := []evaluate.Generation{
		{SampleID: "SYN-0001", Setting: TaskSelect, Model: "m", Completion: `{"ranking": ["` + gold + `"]}`},
		{SampleID: "SYN-0001", Setting: TaskSelect, Model: "m", SampleIndex: 1, Completion: `{"ranking": ["` + other + `", "` + gold + `"]}`},
		{SampleID: "SYN-0001", Setting: TaskSelect, Model: "m", SampleIndex: 2, Completion: "no idea"},
		{SampleID: "SYN-0404", Setting: TaskSelect, Model: "m", Completion: "E1"},
	}
	res, err := ScoreSelection(recs, out.Prompts, gens)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Groups) != 1 || res.Groups[0].N != 3 || res.Groups[0].Unparsed != 1 {
		t.Fatalf("groups %+v", res.Groups)
	}
	g := res.Groups[0]
	if g.Top1 != 1.0/3 || g.Top3 != 2.0/3 {
		t.Errorf("top1 %.3f top3 %.3f, want 1/3 and 2/3", g.Top1, g.Top3)
	}
	if len(res.Problems) != 1 || !strings.Contains(res.Problems[0], "SYN-0404") {
		t.Errorf("problems %v", res.Problems)
	}
}

func TestRAGPromptsUseTheRetriever(t *testing.T) {
	ctx := context.Background()
	recs := testBench(t)
	corpus, err := retrieve.FromRecords(recs)
	if err != nil {
		t.Fatal(err)
	}
	bm25 := retrieve.NewBM25(corpus, retrieve.DefaultBM25)
	out, err := Build(ctx, recs, Options{Setting: RAGBM25, Retriever: bm25, Corpus: corpus, K: 2})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := byID(out.Prompts)["SYN-0001"]
	if !ok {
		t.Fatal("no rag prompt for SYN-0001")
	}
	user := p.Messages[1].Content
	hits, _ := bm25.Retrieve(ctx, IntentText(recs[0]), 2)
	if len(p.Docs) != len(hits) || len(hits) == 0 {
		t.Fatalf("%d docs for %d hits", len(p.Docs), len(hits))
	}
	for i, h := range hits {
		d := &corpus.Docs[h.Doc]
		if !strings.Contains(user, "["+string(rune('1'+i))+"]\n"+strings.TrimRight(d.Render(), "\n")) || p.Docs[i].Route != d.Route || p.Docs[i].Host != d.Host {
			t.Errorf("hit %d (%s) is not the prompt's document %d:\n%s", i, d.ID, i+1, user)
		}
	}
	if !strings.Contains(user, "Retrieved API documentation") || strings.Contains(user, "Constraints") {
		t.Errorf("rag prompt:\n%s", user)
	}
	if probs := problemsOf(out); probs["SYN-0004"] != ProblemNoIntent {
		t.Errorf("a sample without intent has no query: %v", probs)
	}
	if _, err := Build(ctx, recs, Options{Setting: RAGBM25, Retriever: bm25}); err == nil {
		t.Error("a rag setting without the retriever's corpus did not fail")
	}
}

// TestPromptsAskForTheSamplesLanguage: a TypeScript sample's prompt asks for
// TypeScript and C5's constraints speak of fetch's response and try/catch; a
// Python sample's prompt is the paper's, word for word.
func TestPromptsAskForTheSamplesLanguage(t *testing.T) {
	recs := testBench(t)
	ts := recs[0]
	ts.SampleID, ts.Language = "SYN-TS-1", "typescript"
	out, err := Build(context.Background(), []release.Record{recs[0], ts}, Options{Setting: OracleC5})
	if err != nil {
		t.Fatal(err)
	}
	ps := byID(out.Prompts)
	p, py := ps["SYN-TS-1"], ps[recs[0].SampleID]
	if p.Language != "typescript" || !strings.Contains(p.Messages[0].Content, "self-contained TypeScript function") ||
		strings.Contains(p.Messages[0].Content, "Python") {
		t.Errorf("TypeScript prompt (language %q):\n%s", p.Language, p.Messages[0].Content)
	}
	if !strings.Contains(p.Messages[1].Content, "response.ok") || !strings.Contains(p.Messages[1].Content, "try/catch") {
		t.Errorf("TypeScript C5 constraints:\n%s", p.Messages[1].Content)
	}
	if py.Language != "" || py.Messages[0].Content != systemPrompt || !strings.Contains(py.Messages[1].Content, "try/except") {
		t.Errorf("Python prompt changed (language %q):\n%s", py.Language, py.Messages[0].Content)
	}
}
