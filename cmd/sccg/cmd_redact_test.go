package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// redactTestInputs writes one OpenAPI document and a repository with two functions
// that call it: one with a docstring that states its goal, one without.
func redactTestInputs(t *testing.T) (docs, repos string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	root := t.TempDir()
	docs, repos = filepath.Join(root, "docs"), filepath.Join(root, "repos")
	repo := filepath.Join(repos, "wx")
	files := map[string]string{
		filepath.Join(docs, "meteo.json"): `{"openapi": "3.0.3", "info": {"title": "Meteostat", "version": "1"},
  "servers": [{"url": "https://meteostat.p.rapidapi.com"}],
  "paths": {
    "/stations/daily": {"get": {"operationId": "daily", "summary": "Daily data",
      "parameters": [{"name": "station", "in": "query", "schema": {"type": "string"}}, {"name": "start", "in": "query", "schema": {"type": "string"}}],
      "responses": {"200": {"description": "ok"}}}},
    "/stations/nearby": {"get": {"operationId": "nearby", "summary": "Nearby stations",
      "parameters": [{"name": "lat", "in": "query", "schema": {"type": "number"}}, {"name": "lon", "in": "query", "schema": {"type": "number"}}],
      "responses": {"200": {"description": "ok"}}}}}}`,
		filepath.Join(repo, "wx.py"): `import requests

HOST = "meteostat.p.rapidapi.com"


def daily_records(station, key):
    """Fetch the daily weather records of a station since the start of 2024."""
    r = requests.get("https://" + HOST + "/stations/daily", params={"station": station, "start": "2024-01-01"},
                     headers={"x-rapidapi-key": key, "x-rapidapi-host": HOST})
    r.raise_for_status()
    return r.json()["data"]


def nearest_station(lat, lon, key):
    # lat and lon are in degrees
    url = "https://meteostat.p.rapidapi.com/stations/nearby"
    r = requests.get(url, params={"lat": lat, "lon": lon}, headers={"x-rapidapi-key": key, "x-rapidapi-host": HOST})
    return r.json()
`,
	}
	for path, body := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"remote", "add", "origin", "https://github.com/dana/wx.git"}, {"add", "."}, {"commit", "-q", "-m", "wx"}} {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2025-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2025-01-01T00:00:00Z", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return docs, repos
}

func readRecords(t *testing.T, path string) map[string]map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, r := range recs {
		out[r["function_name"].(string)] = r
	}
	return out
}

func TestRedactCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end build skipped in -short mode")
	}
	docs, repos := redactTestInputs(t)
	e, out, _ := newTestEnv(t)
	dir := t.TempDir()
	importTestRun(t, e, 0, "build", "--docs", docs, "--local", repos, "--out", dir, "--per-repo", "-1")
	if !strings.Contains(out.String(), "intents by path: original 1, offline 1") {
		t.Fatalf("build summary lacks the intent paths:\n%s", out)
	}
	recs := readRecords(t, filepath.Join(dir, "sccgbench.json"))
	if got := recs["daily_records"]["comments_source"]; got != "original" {
		t.Errorf("daily_records: comments_source %v, want original (its docstring states its goal)", got)
	}
	ns := recs["nearest_station"]
	if ns["comments_source"] != "intent_redacted" || ns["intent_path"] != "offline" {
		t.Errorf("nearest_station: comments_source %v via %v, want intent_redacted via offline (its comment states no goal)", ns["comments_source"], ns["intent_path"])
	}
	intent := ns["comments"].([]any)[0].(map[string]any)["text"].(string)
	for _, bad := range []string{"meteostat", "stations/nearby", "rapidapi"} {
		if strings.Contains(strings.ToLower(intent), bad) {
			t.Errorf("the intent %q gives away %q", intent, bad)
		}
	}

	t.Run("also-original writes a paired intent, once", func(t *testing.T) {
		out.Reset()
		importTestRun(t, e, 0, "--json", "redact", "--also-original")
		var res struct {
			Paired int            `json:"paired"`
			Reused int            `json:"reused"`
			Paths  map[string]int `json:"paths"`
		}
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if res.Paired != 1 || res.Reused != 0 || res.Paths["original"] != 1 || res.Paths["offline"] != 1 {
			t.Errorf("redact --also-original = %+v, want one paired intent and nothing reused", res)
		}
		e.json = false // --json stays set on the env it was parsed into
		dir2 := t.TempDir()
		importTestRun(t, e, 0, "export", "--out", dir2)
		recs := readRecords(t, filepath.Join(dir2, "sccgbench.json"))
		paired, ok := recs["daily_records"]["redacted_intent"].(map[string]any)
		if !ok || paired["comments_source"] != "intent_redacted" || !strings.HasPrefix(paired["text"].(string), "Get the daily records for a given station") {
			t.Errorf("daily_records: redacted_intent = %v, want the offline intent beside the original comment", recs["daily_records"]["redacted_intent"])
		}
		if _, ok := recs["nearest_station"]["redacted_intent"]; ok {
			t.Error("a sample without a human comment got a paired intent")
		}
		out.Reset()
		importTestRun(t, e, 0, "--json", "redact", "--also-original")
		if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Reused != 2 {
			t.Errorf("a rerun reused %d of 2 functions (%v)", res.Reused, err)
		}
		e.json = false
		out.Reset()
		importTestRun(t, e, 0, "stats")
		for _, want := range []string{"intents of kept functions by path: original 1, offline 1", "redacted intents beside a human comment: offline 1"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("stats lacks %q:\n%s", want, out)
			}
		}
		out.Reset()
		importTestRun(t, e, 0, "audit", "SCG-000001")
		for _, want := range []string{"attempt 1  comment  original via original", "attempt 2  paired  intent_redacted via offline", "== masked code"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("audit lacks %q:\n%s", want, out)
			}
		}
	})
}

func TestRedactUsage(t *testing.T) {
	e, _, errb := newTestEnv(t)
	importTestRun(t, e, 2, "redact", "--on-leak", "maybe")
	if !strings.Contains(errb.String(), "--on-leak must be strict or drop") {
		t.Errorf("stderr %q", errb)
	}
	for _, args := range [][]string{
		{"redact", "--llm-base-url", "http://localhost:1/v1"},
		{"redact", "--llm-model", "m"},
		{"redact", "--llm-base-url", "ftp://x", "--llm-model", "m"},
		{"build", "--local", ".", "--on-leak", "never"},
	} {
		e, _, _ := newTestEnv(t)
		importTestRun(t, e, 2, args...)
	}
	e, _, errb = newTestEnv(t)
	importTestRun(t, e, 1, "redact")
	if !strings.Contains(errb.String(), "no kept functions") {
		t.Errorf("stderr %q", errb)
	}
}
