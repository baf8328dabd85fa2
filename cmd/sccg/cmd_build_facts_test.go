package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sccg/redact"
)

// factsInputs copies testdata/facts (OpenAPI documents of four public APIs, three
// of them hosts that share a suffix, and two repositories) into a temporary folder
// and commits each repository.
func factsInputs(t *testing.T) (docs, repos string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	root := t.TempDir()
	src := filepath.Join("testdata", "facts")
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	repos = filepath.Join(root, "repos")
	for _, name := range []string{"pokedex", "weather"} {
		commitRepo(t, filepath.Join(repos, name), "https://github.com/dana/"+name+".git")
	}
	return filepath.Join(root, "docs"), repos
}

// factRecord is what the test reads of an exported sample.
type factRecord struct {
	FunctionName   string `json:"function_name"`
	APIHost        string `json:"api_host"`
	CommentsSource string `json:"comments_source"`
	Comments       []struct {
		Text string `json:"text"`
	} `json:"comments"`
	GitHubInfo struct {
		FilePath string `json:"file_path"`
	} `json:"github_info"`
	QualityMetrics struct {
		Checks struct {
			Valid bool `json:"is_syntactically_valid"`
		} `json:"completeness_checks"`
	} `json:"quality_metrics"`
	Dependencies      []string `json:"dependencies"`
	SyntaxCheckedWith string   `json:"syntax_checked_with"`
}

// TestBuildHonestFacts builds the fixtures end to end through `sccg build --docs
// … --local …`: narration is not an original intent and no intent is
// contentless; hosts that share a suffix are told apart; the repository's own
// modules are not dependencies; a function the evaluator's Python cannot compile
// is not exported as valid; RapidAPI-only figures are absent; and a build of one
// API warns that two splits are empty.
func TestBuildHonestFacts(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end build skipped in -short mode")
	}
	docs, repos := factsInputs(t)
	e, out, errb := newTestEnv(t)
	dir := t.TempDir()
	// with four samples the published ratios leave validation 0.3 of a sample: the
	// fixtures ask for shares each family-respecting group can fill
	importTestRun(t, e, 0, "build", "--docs", docs, "--local", repos, "--out", dir, "--seed", "1", "--ratios", "0.5,0.25,0.25")
	b, err := os.ReadFile(filepath.Join(dir, "sccgbench.json"))
	if err != nil {
		t.Fatal(err)
	}
	var recs []factRecord
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	byFn := map[string]factRecord{}
	for _, r := range recs {
		byFn[r.GitHubInfo.FilePath+":"+r.FunctionName] = r
		var text []string
		for _, c := range r.Comments {
			text = append(text, c.Text)
		}
		if redact.Contentless(strings.Join(text, "\n")) {
			t.Errorf("%s:%s has a contentless intent %q (%s)", r.GitHubInfo.FilePath, r.FunctionName, text, r.CommentsSource)
		}
		if !r.QualityMetrics.Checks.Valid {
			t.Errorf("%s:%s is exported with is_syntactically_valid false", r.GitHubInfo.FilePath, r.FunctionName)
		}
		if r.SyntaxCheckedWith == "" {
			t.Errorf("%s:%s does not say which Python judged its syntax", r.GitHubInfo.FilePath, r.FunctionName)
		}
	}
	t.Logf("samples: %d\n%s", len(recs), out)

	main, ok := byFn["pokedex.py:main"]
	switch {
	case !ok:
		t.Error("pokedex.py:main is not exported")
	case main.CommentsSource == "original":
		t.Errorf("pokedex.py:main keeps its step-by-step narration as an original intent: %v", main.Comments)
	}
	hosts := map[string]string{"app/weather.py:get_forecast": "api.open-meteo.com", "app/history.py:past_weather": "archive-api.open-meteo.com",
		"app/places.py:find_place": "geocoding-api.open-meteo.com"}
	for fn, host := range hosts {
		if r, ok := byFn[fn]; !ok || r.APIHost != host {
			t.Errorf("%s: host %q (exported %v), want %s", fn, r.APIHost, ok, host)
		}
	}
	if r := byFn["app/weather.py:get_forecast"]; strings.Join(r.Dependencies, ",") != "requests" || r.CommentsSource != "original" {
		t.Errorf("get_forecast: dependencies %v, comments %s; want [requests] (models and schema are the repository's) and its docstring", r.Dependencies, r.CommentsSource)
	}
	if r := byFn["app/places.py:find_place"]; r.CommentsSource == "original" {
		t.Errorf("find_place keeps a section header as its intent: %v", r.Comments)
	}

	// show() holds a PEP 701 f-string: valid only from Python 3.12
	py := byFn["app/weather.py:get_forecast"].SyntaxCheckedWith
	_, shown := byFn["pokedex.py:show"]
	if newer := py >= "Python 3.12" || strings.HasPrefix(py, "Python 4"); shown != newer {
		t.Errorf("pokedex.py:show exported %v under %s, want %v", shown, py, newer)
	}

	sb, err := os.ReadFile(filepath.Join(dir, "stats.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"free_or_freemium_share", "subscribers_1000_share"} {
		if strings.Contains(string(sb), `"`+k+`"`) {
			t.Errorf("stats.json has %s for APIs without RapidAPI metadata", k)
		}
	}
	if !strings.Contains(string(sb), `"syntax_checked_with"`) {
		t.Error("stats.json does not record the Python that judged syntax")
	}
	if strings.Contains(string(sb), `"name": "models"`) || strings.Contains(string(sb), `"name": "json"`) {
		t.Errorf("stats.json counts a repository module or the standard library as a dependency:\n%s", sb)
	}
	if strings.Contains(errb.String(), "split is empty") || !strings.Contains(out.String(), "splitting providers' APIs") {
		t.Errorf("two families (open-meteo's three APIs, pokeapi) should fill three splits API by API, without a warning:\n%s\n%s", out, errb)
	}

	t.Run("one API: two empty splits, warned", func(t *testing.T) {
		e, _, errb := newTestEnv(t)
		importTestRun(t, e, 0, "build", "--docs", filepath.Join(docs, "pokeapi.json"), "--local", repos, "--out", t.TempDir())
		if n := strings.Count(errb.String(), "split is empty"); n != 2 || !strings.Contains(errb.String(), "--ratios") {
			t.Errorf("stderr has %d empty-split warnings, want 2 that say what to do:\n%s", n, errb)
		}
	})
}
