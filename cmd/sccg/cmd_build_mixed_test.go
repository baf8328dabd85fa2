package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sccg/internal/golden"
	"sccg/store"
)

// A folder of Python, JavaScript and TypeScript repositories builds into one
// benchmark through the real stages: a browser script, a React component, a Node
// service with an axios instance, a TypeScript service class and a Python
// function become samples of their languages; installed dependencies, build
// output, a declaration file and a minified bundle are skipped by mine, a
// RapidAPI snippet pasted at the top level is no function, and one pasted into a
// function is a template, each with its reason.
func TestBuildMixedLanguages(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end build skipped in -short mode")
	}
	root := filepath.Join("testdata", "mixed")
	var docs []string
	for _, d := range []string{"weather.json", "jokes.json", "stocks.json"} {
		docs = append(docs, filepath.Join(root, "docs", d))
	}
	e, out, _ := newTestEnv(t)
	dir := t.TempDir()
	importTestRun(t, e, 0, append(append([]string{"build", "--docs"}, docs...), "--local", filepath.Join(root, "repos"), "--out", dir)...)
	if !strings.Contains(out.String(), "samples") {
		t.Fatalf("build said %q", out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "sccgbench.json"))
	if err != nil {
		t.Fatal(err)
	}
	var recs []struct {
		Language     string `json:"language"`
		FunctionName string `json:"function_name"`
		GitHubInfo   struct {
			Repo     string `json:"repo"`
			FilePath string `json:"file_path"`
		} `json:"github_info"`
		APIMetadata struct {
			Method       string `json:"method"`
			Route        string `json:"route"`
			DocMatchType string `json:"doc_match_type"`
		} `json:"api_metadata"`
		Dependencies []string `json:"dependencies"`
	}
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	var g strings.Builder
	fmt.Fprintln(&g, "samples:")
	var lines []string
	byLang := map[string]int{}
	for _, r := range recs {
		byLang[r.Language]++
		lines = append(lines, fmt.Sprintf("  %-10s %s/%s:%s %s %s (%s) deps=%s", r.Language, r.GitHubInfo.Repo, r.GitHubInfo.FilePath,
			r.FunctionName, r.APIMetadata.Method, r.APIMetadata.Route, r.APIMetadata.DocMatchType, strings.Join(r.Dependencies, ",")))
	}
	slices.Sort(lines)
	fmt.Fprintln(&g, strings.Join(lines, "\n"))
	fmt.Fprintln(&g, "samples by language:")
	for _, l := range []string{"python", "javascript", "typescript"} {
		fmt.Fprintf(&g, "  %s %d\n", l, byLang[l])
	}
	st, err := store.Open(context.Background(), e.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := st.DecisionBreakdown(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(&g, "rejections by stage and reason:")
	for _, r := range rows {
		if r.Verdict != store.Rejected {
			continue
		}
		fmt.Fprintf(&g, "  %s %d %s\n", r.Stage, r.Count, r.Reason)
	}
	golden.Check(t, filepath.Join("testdata", "build_mixed.golden"), []byte(g.String()), *update)

	for lang, want := range map[string]int{"python": 1, "javascript": 3, "typescript": 2} {
		if byLang[lang] != want {
			t.Errorf("%s samples: %d, want %d", lang, byLang[lang], want)
		}
	}
	var stats struct {
		Languages []store.LanguageCount `json:"languages"`
	}
	out.Reset()
	e.json = true
	importTestRun(t, e, 0, "stats")
	if err := json.Unmarshal(out.Bytes(), &stats); err != nil {
		t.Fatalf("stats --json: %v\n%s", err, out)
	}
	if len(stats.Languages) != 3 || stats.Languages[0].Language != "python" || stats.Languages[0].Samples != 1 {
		t.Errorf("stats by language %+v, want python first with one sample", stats.Languages)
	}
	sb, err := os.ReadFile(filepath.Join(dir, "stats.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exported struct {
		PerLanguage map[string]struct {
			Samples         int `json:"samples"`
			TopDependencies []struct {
				Name string `json:"name"`
			} `json:"top_dependencies"`
		} `json:"per_language"`
	}
	if err := json.Unmarshal(sb, &exported); err != nil {
		t.Fatal(err)
	}
	if got := exported.PerLanguage["javascript"]; got.Samples != 3 || len(got.TopDependencies) == 0 {
		t.Errorf("stats.json per_language javascript %+v, want 3 samples with npm dependencies", got)
	}
}
