package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"sccg/evaluate"
	"sccg/evaluate/prompts"
)

// TestEvalAttributesRAGCompletions runs `sccg eval --prompts` on hand-made
// prompts and completions of each kind: a hit, a retrieval miss, a selection
// miss, a generation miss, a completion whose prompt showed nothing (intent) and
// one whose prompt is not in the file. Each result says which it is, and the
// group's counts add up to its completions.
func TestEvalAttributesRAGCompletions(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox end to end")
	}
	ctx := context.Background()
	e, out, errb, bench, _ := evalTestEnv(t)
	dir := t.TempDir()
	weather := prompts.Doc{Key: "ep-1", Host: "weatherly.p.rapidapi.com", Method: "GET", Route: "/current"}
	translate := prompts.Doc{Host: "translit.p.rapidapi.com", Method: "POST", Route: "/v2/translate"}
	news := prompts.Doc{Host: "newsy.p.rapidapi.com", Method: "GET", Route: "/search"}
	bin := prompts.Doc{Host: "binlookup.p.rapidapi.com", Method: "GET", Route: "/lookup"}
	prompt := func(setting, id string, docs ...prompts.Doc) prompts.Prompt {
		return prompts.Prompt{SampleID: id, Setting: setting, Task: prompts.TaskGenerate,
			Messages: []prompts.Message{{Role: "user", Content: setting + " " + id}}, Docs: docs}
	}
	ps := []prompts.Prompt{
		prompt(prompts.RAGBM25, "SYN-0001", news, weather),  // hit
		prompt(prompts.RAGBM25, "SYN-0002", news, weather),  // its endpoint not shown
		prompt(prompts.RAGBM25, "SYN-0005", bin, news),      // shown; another shown endpoint called
		prompt(prompts.RAGBM25, "SYN-0004", bin, translate), // shown; called with the wrong method
		prompt(prompts.Intent, "SYN-0008"),                  // shows nothing
	}
	promptsFile := filepath.Join(dir, "prompts.jsonl")
	if err := prompts.WriteFile(promptsFile, ps); err != nil {
		t.Fatal(err)
	}
	call := func(fn, method, url string) string {
		return "import requests\n\ndef " + fn + "(*args, **kwargs):\n    return requests.request(\"" + method + "\", \"" + url + "\", params={\"q\": \"x\"}).json()\n"
	}
	gens := []evaluate.Generation{
		{SampleID: "SYN-0001", Setting: prompts.RAGBM25, Model: "m", Completion: call("current_weather", "GET", "https://weatherly.p.rapidapi.com/current")},
		{SampleID: "SYN-0002", Setting: prompts.RAGBM25, Model: "m", Completion: call("translate", "GET", "https://newsy.p.rapidapi.com/search")},
		{SampleID: "SYN-0005", Setting: prompts.RAGBM25, Model: "m", Completion: call("search_news", "GET", "https://binlookup.p.rapidapi.com/lookup")},
		{SampleID: "SYN-0004", Setting: prompts.RAGBM25, Model: "m", Completion: call("check_bin", "POST", "https://binlookup.p.rapidapi.com/lookup")},
		{SampleID: "SYN-0003", Setting: prompts.RAGBM25, Model: "m", Completion: call("user_profile", "GET", "https://ticktalk.p.rapidapi.com/user/a/profile")},
		{SampleID: "SYN-0008", Setting: prompts.Intent, Model: "m", Completion: call("reverse", "GET", "https://geoloc.p.rapidapi.com/reverse")},
	}
	gensFile := filepath.Join(dir, "gens.jsonl")
	if err := evaluate.WriteGenerations(gensFile, gens); err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "out")
	if code := run(ctx, []string{"eval", "--bench", bench, "--generations", gensFile, "--prompts", promptsFile, "--out", res,
		"--timeout", "30s", "--partial"}, e); code != 0 {
		t.Fatalf("eval --prompts: exit %d, stderr %s", code, errb)
	}
	rs, err := evaluate.ReadResults(res)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ attribution, note string }{
		"SYN-0001": {evaluate.AttrHit, ""},
		"SYN-0002": {evaluate.AttrRetrievalMiss, "not among the 2 documents shown"},
		"SYN-0005": {evaluate.AttrSelectionMiss, "another shown endpoint (GET binlookup.p.rapidapi.com/lookup)"},
		"SYN-0004": {evaluate.AttrGenerationMiss, "with the method POST, not GET"},
		"SYN-0003": {"", evaluate.UnattributedNoPrompt},
		"SYN-0008": {"", evaluate.UnattributedNoDocs},
	}
	for _, r := range rs {
		w := want[r.SampleID]
		if r.Attribution != w.attribution || !strings.Contains(r.AttributionNote, w.note) {
			t.Errorf("%s: attribution %q (%q), want %q (%q)", r.SampleID, r.Attribution, r.AttributionNote, w.attribution, w.note)
		}
	}
	for _, line := range []string{
		"rag-bm25/m attribution: hit 1, retrieval_miss 1, selection_miss 1, generation_miss 1 (of 5 completions); not attributed: " + evaluate.UnattributedNoPrompt + " 1",
		"intent/m attribution: hit 0, retrieval_miss 0, selection_miss 0, generation_miss 0 (of 1 completions); not attributed: " + evaluate.UnattributedNoDocs + " 1",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q:\n%s", line, out)
		}
	}
	sum, err := evaluate.ReadSummary(filepath.Join(res, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range sum.Groups {
		if g.Attribution == nil || !g.Attribution.AddsUp() {
			t.Errorf("%s/%s: attribution %+v does not add up", g.Setting, g.Model, g.Attribution)
		}
	}
}
