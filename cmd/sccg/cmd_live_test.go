package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sccg/internal/gittest"
	"sccg/release"
)

// liveDoc is an OpenAPI description of host with GET routes.
func liveDoc(title, host string, routes ...string) string {
	var paths []string
	for i, r := range routes {
		paths = append(paths, fmt.Sprintf(`%q: {"get": {"operationId": "op%d", "summary": "%s %d", "responses": {"200": {"description": "ok"}}}}`, r, i, title, i))
	}
	return fmt.Sprintf(`{"openapi": "3.0.3", "info": {"title": %q, "version": "1"}, "servers": [{"url": "https://%s"}], "paths": {%s}}`,
		title, host, strings.Join(paths, ", "))
}

// liveInputs writes three API descriptions and two repositories with a made-up
// history: functions first written from 2019 to 2025, one edited years later.
// It returns the descriptions' folder and the repositories' folder.
func liveInputs(t *testing.T) (docs, repos string) {
	t.Helper()
	gittest.Need(t)
	root := t.TempDir()
	docs, repos = filepath.Join(root, "docs"), filepath.Join(root, "repos")
	for name, body := range map[string]string{
		"alpha.json": liveDoc("Alpha Items", "api.alpha.example", "/v1/items", "/v1/items/{id}", "/v1/stats"),
		"beta.json":  liveDoc("Beta Weather", "api.beta.example", "/weather/now"),
		"gamma.json": liveDoc("Gamma Quotes", "api.gamma.example", "/quotes/random", "/authors"),
	} {
		if err := os.MkdirAll(docs, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(docs, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	listItems := "def list_items(limit):\n    \"\"\"List the items.\"\"\"\n    r = requests.get(\"https://api.alpha.example/v1/items\", params={\"limit\": limit})\n    return r.json()\n"
	item := "\n\ndef item(item_id):\n    \"\"\"One item by its id.\"\"\"\n    return requests.get(f\"https://api.alpha.example/v1/items/{item_id}\").json()\n"
	tools := filepath.Join(repos, "tools")
	gittest.Init(t, tools, "git@github.com:ana/tools.git")
	gittest.Commit(t, tools, "2019-05-01T09:00:00Z", map[string]string{"alpha.py": "import requests\n\n\n" + listItems})
	gittest.Commit(t, tools, "2023-03-01T09:00:00Z", map[string]string{"alpha.py": "import requests\n\n\n" + listItems + item})
	gittest.Commit(t, tools, "2025-02-01T09:00:00Z", map[string]string{
		"alpha.py": "import requests\n\n\n" + strings.Replace(listItems, "return r.json()", "return r.json()[\"items\"]", 1) + item,
		"beta.py":  "import requests\n\n\ndef weather(city):\n    \"\"\"The weather in a city now.\"\"\"\n    return requests.get(\"https://api.beta.example/weather/now\", params={\"q\": city}).json()\n",
	})
	quotes := "import requests\n\n\ndef random_quote():\n    \"\"\"A random quote.\"\"\"\n    return requests.get(\"https://api.gamma.example/quotes/random\").json()\n"
	bo := filepath.Join(repos, "quotes")
	gittest.Init(t, bo, "git@github.com:bo/quotes.git")
	gittest.Commit(t, bo, "2020-01-01T12:00:00Z", map[string]string{"gamma.py": quotes})
	gittest.Commit(t, bo, "2024-06-01T12:00:00Z", map[string]string{"gamma.py": quotes +
		"\n\ndef authors(page):\n    \"\"\"Every author, a page at a time.\"\"\"\n    resp = requests.get(\"https://api.gamma.example/authors\", params={\"page\": page})\n    resp.raise_for_status()\n    return resp.json()\n"})
	gittest.Commit(t, bo, "2025-04-01T12:00:00Z", map[string]string{"stats.py": "import requests\n\n\ndef item_stats():\n    \"\"\"How many items there are.\"\"\"\n    return requests.get(\"https://api.alpha.example/v1/stats\").json()[\"count\"]\n"})
	return docs, repos
}

// liveRecords reads an export's records and their splits.
func liveRecords(t *testing.T, dir string) (map[string]release.Record, map[string]string) {
	t.Helper()
	recs, err := release.ReadFile(filepath.Join(dir, "sccgbench.json"))
	if err != nil {
		t.Fatal(err)
	}
	byFn := map[string]release.Record{}
	for _, r := range recs {
		byFn[r.FunctionName] = r
	}
	split := map[string]string{}
	for _, name := range release.Names {
		rs, err := release.ReadFile(filepath.Join(dir, "splits", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			split[r.FunctionName] = name
		}
	}
	return byFn, split
}

// TestLiveBenchmark builds a benchmark from repositories with a made-up history
// and checks what a live benchmark needs: each function dated by its lines (the
// oldest and the newest, as the history wrote them), a test split of only newer
// code with APIs disjoint and the older samples of its APIs left out by name, and
// a diff against a rebuild without one description that retires exactly that
// API's samples.
func TestLiveBenchmark(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end build skipped in -short mode")
	}
	docs, repos := liveInputs(t)
	e, out, errb := newTestEnv(t)
	first := t.TempDir()
	importTestRun(t, e, 0, "build", "--docs", docs, "--local", repos, "--out", first, "--ratios", "0.5,0,0.5", "--time-cutoff", "2024-01-01")
	recs, split := liveRecords(t, first)

	want := map[string][2]string{ // function → first written, last changed
		"list_items":   {"2019-05-01T09:00:00Z", "2025-02-01T09:00:00Z"},
		"item":         {"2023-03-01T09:00:00Z", "2023-03-01T09:00:00Z"},
		"weather":      {"2025-02-01T09:00:00Z", "2025-02-01T09:00:00Z"},
		"random_quote": {"2020-01-01T12:00:00Z", "2020-01-01T12:00:00Z"},
		"authors":      {"2024-06-01T12:00:00Z", "2024-06-01T12:00:00Z"},
		"item_stats":   {"2025-04-01T12:00:00Z", "2025-04-01T12:00:00Z"},
	}
	if len(recs) != len(want) {
		t.Fatalf("built %d samples %v, want %d (stderr %s)", len(recs), recs, len(want), errb)
	}
	for fn, w := range want {
		gi := recs[fn].GitHubInfo
		if gi.FunctionAuthoredAt != w[0] || gi.FunctionModifiedAt != w[1] || gi.FunctionDatedBy != "git_blame" {
			t.Errorf("%s: written %q, changed %q by %q; want %q and %q by git_blame", fn, gi.FunctionAuthoredAt, gi.FunctionModifiedAt,
				gi.FunctionDatedBy, w[0], w[1])
		}
	}

	apiSplit := map[string]string{}
	leftOut := 0
	for fn, r := range recs {
		s := split[fn]
		if s == "" {
			leftOut++
			continue
		}
		if prev, ok := apiSplit[r.APIName]; ok && prev != s {
			t.Errorf("API %s is in %s and %s", r.APIName, prev, s)
		}
		apiSplit[r.APIName] = s
		if s == release.Test && r.GitHubInfo.FunctionAuthoredAt < "2024-01-01" {
			t.Errorf("%s (written %s) is in the test split", fn, r.GitHubInfo.FunctionAuthoredAt)
		}
	}
	testAPIs := 0
	for _, s := range apiSplit {
		if s == release.Test {
			testAPIs++
		}
	}
	if testAPIs == 0 || leftOut == 0 {
		t.Errorf("test split of %d APIs, %d samples left out; want both (splits %v)", testAPIs, leftOut, split)
	}
	if !strings.Contains(out.String(), fmt.Sprintf("left out of every split by the time cutoff: before_cutoff %d", leftOut)) {
		t.Errorf("build output does not count the samples left out:\n%s", out)
	}
	out.Reset()
	importTestRun(t, e, 0, "why", recs["list_items"].SampleID)
	if !strings.Contains(out.String(), "written: first written 2019-05-01T09:00:00Z, last changed 2025-02-01T09:00:00Z (git_blame)") {
		t.Errorf("why does not say when the function was written:\n%s", out)
	}

	// Evaluated at a model's cutoff, every sample is placed by its function's date.
	out.Reset()
	importTestRun(t, e, 0, "eval", "--gold", "--bench", first, "--out", filepath.Join(t.TempDir(), "gold"), "--time-cutoff", "2024-01-01", "--timeout", "30s")
	if !strings.Contains(out.String(), "time slices at 2024-01-01: 6 samples by function_authored_at, 0 by repository created_at (no function date), 0 unknown") {
		t.Errorf("eval does not say what the time slices were read from:\n%s", out)
	}

	// A rebuild without the gamma description, in a fresh store.
	noGamma := filepath.Join(t.TempDir(), "docs")
	if err := os.MkdirAll(noGamma, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"alpha.json", "beta.json"} {
		b, err := os.ReadFile(filepath.Join(docs, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(noGamma, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	second := t.TempDir()
	e2, out2, _ := newTestEnv(t)
	importTestRun(t, e2, 0, "build", "--docs", noGamma, "--local", repos, "--out", second, "--ratios", "0.5,0,0.5")
	out2.Reset()
	importTestRun(t, e2, 0, "--json", "diff", first, second)
	var d release.Diff
	if err := json.Unmarshal(out2.Bytes(), &d); err != nil {
		t.Fatalf("diff --json: %v\n%s", err, out2)
	}
	var retired []string
	for _, x := range d.Retired {
		retired = append(retired, x.Old.API+":"+x.Code.Function)
	}
	if strings.Join(retired, " ") != "gamma-quotes:random_quote gamma-quotes:authors" && strings.Join(retired, " ") != "gamma-quotes:authors gamma-quotes:random_quote" {
		t.Errorf("retired %v, want the gamma API's two samples", retired)
	}
	if len(d.Added) != 0 || len(d.Relabelled) != 0 || len(d.Unchanged) != len(want)-2 {
		t.Errorf("added %d, relabelled %d, unchanged %d; want 0, 0, %d", len(d.Added), len(d.Relabelled), len(d.Unchanged), len(want)-2)
	}
	for _, x := range d.Unchanged {
		if x.OldID != recs[x.Code.Function].SampleID || x.NewID == "" {
			t.Errorf("unchanged %s: ids %s → %s", x.Code, x.OldID, x.NewID)
		}
	}
	out2.Reset()
	e2.json = false // the --json above stays set on the env
	importTestRun(t, e2, 0, "diff", first, second)
	if !strings.Contains(out2.String(), "added 0, retired 2, relabelled 0, unchanged 4") || !strings.Contains(out2.String(), "retired (2), by API: gamma-quotes 2") {
		t.Errorf("diff output:\n%s", out2)
	}
	importTestRun(t, e2, 2, "diff", first)
}
