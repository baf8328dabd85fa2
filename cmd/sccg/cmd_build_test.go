package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildTestInputs writes one OpenAPI document and one committed git repository.
func buildTestInputs(t *testing.T) (docs, repos string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	root := t.TempDir()
	docs, repos = filepath.Join(root, "docs"), filepath.Join(root, "repos")
	repo := filepath.Join(repos, "wx")
	for path, body := range map[string]string{
		filepath.Join(docs, "jokes.json"): `{"openapi": "3.0.3", "info": {"title": "Jokes", "version": "1"},
  "servers": [{"url": "https://jokes-now.p.rapidapi.com"}],
  "paths": {"/random": {"get": {"operationId": "random", "summary": "Random joke", "responses": {"200": {"description": "ok"}}}}}}`,
		filepath.Join(docs, "quotes.json"): `{"openapi": "3.0.3", "info": {"title": "Quotes", "version": "1"},
  "servers": [{"url": "https://quotes-now.p.rapidapi.com"}],
  "paths": {"/today": {"get": {"operationId": "today", "summary": "Quote of the day", "responses": {"200": {"description": "ok"}}}}}}`,
		filepath.Join(repo, "jokes.py"): "import requests\n\n\ndef random_joke(key):\n    \"\"\"Tell me a joke.\"\"\"\n" +
			"    r = requests.get(\"https://jokes-now.p.rapidapi.com/random\", headers={\"x-rapidapi-key\": key})\n    return r.json()\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commitRepo(t, repo, "https://github.com/dana/wx.git")
	return docs, repos
}

// commitRepo makes the folder repo a git repository with one commit of all its
// files, at a fixed date, with origin set to remote.
func commitRepo(t *testing.T, repo, remote string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"remote", "add", "origin", remote}, {"add", "."}, {"commit", "-q", "-m", "fixture"}} {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2025-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2025-01-01T00:00:00Z", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

func TestBuildCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end build skipped in -short mode")
	}
	docs, repos := buildTestInputs(t)
	e, out, errb := newTestEnv(t)
	dir := t.TempDir()
	importTestRun(t, e, 0, "build", "--docs", filepath.Join(docs, "jokes.json"), filepath.Join(docs, "quotes.json"), "--local", repos, "--out", dir, "--seed", "2")
	for _, want := range []string{"crawl", "saved=2", "redact", "1 samples", "intents by path: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout = %q, want it to contain %q", out, want)
		}
	}
	if !strings.Contains(errb.String(), "[9/9] export") {
		t.Errorf("stderr = %q, want stage lines", errb)
	}
	b, err := os.ReadFile(filepath.Join(dir, "sccgbench.json"))
	if err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	if err := json.Unmarshal(b, &recs); err != nil || len(recs) != 1 || recs[0]["sample_id"] != "SCG-000001" {
		t.Fatalf("export = %s (%v), want one sample SCG-000001", b, err)
	}
	out.Reset()
	importTestRun(t, e, 0, "audit", "SCG-000001")
	if !strings.Contains(out.String(), "https://github.com/dana/wx/blob/") {
		t.Errorf("audit of the built sample lacks its file URL:\n%s", out)
	}
}

func TestBuildUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"stray argument without --docs", []string{"build", "--local", ".", "docs/"}},
		{"bad ratios", []string{"build", "--local", ".", "--ratios", "x"}},
		{"local is not a directory", []string{"build", "--local", "/nonexistent-sccg"}},
		{"github without tokens", []string{"build"}},
		{"bad format", []string{"build", "--local", ".", "--format", "csv"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, _, _ := newTestEnv(t)
			importTestRun(t, e, 2, tc.args...)
		})
	}
}
