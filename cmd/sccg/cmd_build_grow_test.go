package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sccg/store"
)

// growDocs are synthetic OpenAPI descriptions of four APIs; quotes-broken documents
// the quotes API without the route its callers use, as a first draft might, and
// cats-truncated is a file cut short. A name's "-suffix" is dropped when written.
var growDocs = map[string]string{
	"jokes.json": `{"openapi": "3.0.3", "info": {"title": "Jokes Now", "version": "1"},
  "servers": [{"url": "https://jokes-now.p.rapidapi.com"}],
  "paths": {"/random": {"get": {"operationId": "random", "summary": "Random joke",
    "parameters": [{"name": "category", "in": "query", "schema": {"type": "string"}}],
    "responses": {"200": {"description": "ok"}}}}}}`,
	"cats.json": `{"openapi": "3.0.3", "info": {"title": "Cat Breeds", "version": "2"},
  "servers": [{"url": "https://cat-breeds.p.rapidapi.com"}],
  "paths": {"/breeds/{id}": {"get": {"operationId": "breed", "summary": "One breed",
    "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
    "responses": {"200": {"description": "ok"}}}},
    "/breeds": {"get": {"operationId": "breeds", "summary": "All breeds", "responses": {"200": {"description": "ok"}}}}}}`,
	"quotes.json": `{"openapi": "3.0.3", "info": {"title": "Quotes Daily", "version": "1"},
  "servers": [{"url": "https://quotes-daily.p.rapidapi.com"}],
  "paths": {"/today": {"get": {"operationId": "today", "summary": "Quote of the day",
    "parameters": [{"name": "lang", "in": "query", "schema": {"type": "string"}}],
    "responses": {"200": {"description": "ok"}}}},
    "/authors/{name}": {"get": {"operationId": "author", "summary": "Quotes of an author",
    "parameters": [{"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}],
    "responses": {"200": {"description": "ok"}}}}}}`,
	"quotes-broken.json": `{"openapi": "3.0.3", "info": {"title": "Quotes Daily", "version": "1"},
  "servers": [{"url": "https://quotes-daily.p.rapidapi.com"}],
  "paths": {"/yesterday": {"get": {"operationId": "yesterday", "summary": "Quote of yesterday",
    "responses": {"200": {"description": "ok"}}}}}}`,
	"cats-truncated.json": `{"openapi": "3.0.3", "info": {"title": "Cat Breeds", "version": "2"},
  "servers": [{"url": "https://cat-breeds.p.rapidapi.com"}],
  "paths": {"/breeds/{id}": {"get": `,
	"weather.yaml": `openapi: 3.0.3
info: {title: Weatherly, version: "3"}
servers: [{url: "https://api.weatherly.example/v3"}]
paths:
  /forecast/{city}:
    get:
      operationId: forecast
      summary: Forecast for a city
      parameters:
        - {name: city, in: path, required: true, schema: {type: string}}
        - {name: days, in: query, schema: {type: integer}}
      responses: {"200": {description: ok}}
`,
}

// growRepos are the repositories' Python files: two git clones and one plain folder.
var growRepos = map[string]map[string]string{
	"wx": {
		"jokes.py": `import requests


def random_joke(key, category="dad"):
    """Fetch a random joke of a category."""
    r = requests.get("https://jokes-now.p.rapidapi.com/random", params={"category": category},
                     headers={"x-rapidapi-key": key, "x-rapidapi-host": "jokes-now.p.rapidapi.com"})
    r.raise_for_status()
    return r.json()["joke"]
`,
		"quotes.py": `import requests

BASE = "https://quotes-daily.p.rapidapi.com"


def quote_of_the_day(key, lang="en"):
    """Return today's quote in a language."""
    resp = requests.get(BASE + "/today", params={"lang": lang}, headers={"X-RapidAPI-Key": key})
    if resp.status_code != 200:
        return None
    return resp.json().get("quote")


def quotes_by(key, author):
    """List the quotes of one author."""
    resp = requests.get(f"{BASE}/authors/{author}", headers={"X-RapidAPI-Key": key}, timeout=10)
    resp.raise_for_status()
    return [q["text"] for q in resp.json()]
`,
		"weather.py": `import os

import httpx


async def forecast(city, days=3):
    """Get the forecast for a city for some days."""
    async with httpx.AsyncClient() as client:
        r = await client.get(f"https://api.weatherly.example/v3/forecast/{city}", params={"days": days},
                             headers={"Authorization": os.environ["WEATHERLY_TOKEN"]})
        r.raise_for_status()
        return r.json()["daily"]
`,
	},
	"pets": {
		"cats.py": `import requests

HEADERS = {"x-rapidapi-host": "cat-breeds.p.rapidapi.com"}


def breed(key, breed_id):
    """Describe one cat breed."""
    h = dict(HEADERS, **{"x-rapidapi-key": key})
    return requests.get("https://cat-breeds.p.rapidapi.com/breeds/" + breed_id, headers=h).json()


def all_breeds(key):
    """Names of every cat breed."""
    h = dict(HEADERS, **{"x-rapidapi-key": key})
    data = requests.get("https://cat-breeds.p.rapidapi.com/breeds", headers=h).json()
    return sorted(b["name"] for b in data)


def walk_weather(city):
    """Is it dry enough in a city to let the cat out this week?"""
    r = requests.get("https://api.weatherly.example/v3/forecast/" + city, params={"days": 7})
    return all(d["rain_mm"] < 1 for d in r.json()["daily"])
`,
		"bot/jokes.py": `import requests


class JokeBot:
    def __init__(self, key):
        self.key = key

    def tell(self):
        """Tell a pun."""
        url = "https://jokes-now.p.rapidapi.com/random"
        out = requests.get(url, params={"category": "pun"}, headers={"X-RapidAPI-Key": self.key})
        return out.json().get("joke", "no joke today")
`,
	},
	"tools": {
		"breeds.py": breedNames,
	},
	"scripts": {
		"daily.py": `import json
import urllib.request


def daily_digest(key):
    """Print the quote of the day and one cat breed."""
    req = urllib.request.Request("https://quotes-daily.p.rapidapi.com/today?lang=fr",
                                 headers={"X-RapidAPI-Key": key})
    with urllib.request.urlopen(req) as r:
        quote = json.load(r)["quote"]
    print(quote)
`,
	},
}

// breedNames is a function two plain folders end up holding, an exact duplicate.
const breedNames = `import requests


def breed_names(key):
    """The names of every cat breed, sorted."""
    r = requests.get("https://cat-breeds.p.rapidapi.com/breeds", headers={"X-RapidAPI-Key": key})
    return sorted(b["name"] for b in r.json())
`

// growGitRepos are the folders of growRepos that are git clones, with their remotes.
var growGitRepos = map[string]string{"wx": "https://github.com/dana/wx.git", "pets": "https://github.com/lee/pets.git"}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func growGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2024-03-01T00:00:00Z", "GIT_COMMITTER_DATE=2024-03-01T00:00:00Z", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// growInputs writes the repositories under root/repos and returns that folder and an
// empty docs folder root/docs.
func growInputs(t *testing.T) (docs, repos string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	root := t.TempDir()
	docs, repos = filepath.Join(root, "docs"), filepath.Join(root, "repos")
	if err := os.MkdirAll(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, files := range growRepos {
		dir := filepath.Join(repos, name)
		writeFiles(t, dir, files)
		if remote, ok := growGitRepos[name]; ok {
			for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"remote", "add", "origin", remote}, {"add", "."}, {"commit", "-q", "-m", "first"}} {
				growGit(t, dir, args...)
			}
		}
	}
	return docs, repos
}

// setDocs makes docs hold exactly the named descriptions, "quotes-broken.json" as
// quotes.json.
func setDocs(t *testing.T, docs string, names ...string) {
	t.Helper()
	entries, _ := os.ReadDir(docs)
	for _, e := range entries {
		os.Remove(filepath.Join(docs, e.Name()))
	}
	for _, n := range names {
		body, ok := growDocs[n]
		if !ok {
			t.Fatalf("no doc %s", n)
		}
		if i := strings.IndexByte(n, '-'); i > 0 {
			n = n[:i] + filepath.Ext(n)
		}
		writeFiles(t, docs, map[string]string{n: body})
	}
}

// buildInto runs sccg build into the store of e and returns the exported files
// (relative path → content) and what the build printed.
func buildInto(t *testing.T, e *env, out *bytes.Buffer, docs, repos string) (map[string]string, string) {
	t.Helper()
	out.Reset()
	dir := t.TempDir()
	importTestRun(t, e, 0, "build", "--docs", docs, "--local", repos, "--out", dir, "--seed", "3")
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, out.String()
}

// sampleKeys lists the exported samples as "id host route" lines.
func sampleKeys(t *testing.T, files map[string]string) []string {
	t.Helper()
	var recs []struct {
		ID   string `json:"sample_id"`
		Host string `json:"api_host"`
		Fn   string `json:"function_name"`
		Meta struct {
			Route string `json:"route"`
		} `json:"api_metadata"`
	}
	if err := json.Unmarshal([]byte(files["sccgbench.json"]), &recs); err != nil {
		t.Fatalf("export: %v", err)
	}
	var out []string
	for _, r := range recs {
		out = append(out, r.ID+" "+r.Fn+" "+r.Host+" "+r.Meta.Route)
	}
	return out
}

func sameExport(t *testing.T, got, want map[string]string) {
	t.Helper()
	for name, w := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("incremental export lacks %s", name)
		} else if g != w {
			t.Errorf("incremental %s differs from the fresh one:\n--- incremental\n%s\n--- fresh\n%s", name, g, w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("incremental export has %s, the fresh one does not", name)
		}
	}
}

// rebuildLikeFresh builds docs and repos into a new store, calls change, builds again
// into the same store and checks that the second build says each of say and exports
// what a fresh store's build exports, and that the change made a difference. It
// returns the store's env and its stdout, and the fresh export.
func rebuildLikeFresh(t *testing.T, docs, repos string, change func(), say ...string) (*env, *bytes.Buffer, map[string]string) {
	t.Helper()
	e, out, _ := newTestEnv(t)
	before, _ := buildInto(t, e, out, docs, repos)
	change()
	got, printed := buildInto(t, e, out, docs, repos)
	t.Logf("second build:\n%s", printed)
	for _, w := range say {
		if !strings.Contains(printed, w) {
			t.Errorf("second build's summary lacks %q:\n%s", w, printed)
		}
	}
	fresh, fout, _ := newTestEnv(t)
	want, _ := buildInto(t, fresh, fout, docs, repos)
	if strings.Join(sampleKeys(t, before), "\n") == strings.Join(sampleKeys(t, want), "\n") {
		t.Fatalf("the change made no difference to the benchmark; the test proves nothing:\n%s", strings.Join(sampleKeys(t, want), "\n"))
	}
	t.Logf("first: %q\nfinal: %q", sampleKeys(t, before), sampleKeys(t, want))
	sameExport(t, got, want)
	return e, out, want
}

// TestBuildGrowsLikeFresh builds with a first set of descriptions, changes them,
// builds again in the same store, and compares the export byte for byte with a fresh
// store's build of the final set.
func TestBuildGrowsLikeFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end builds skipped in -short mode")
	}
	// Slow: four builds in each of four cases.
	t.Parallel() // its own store and directories; the other slow end-to-end tests run beside it
	tests := []struct {
		name         string
		first, final []string
		redid        []string // what the second build's summary must say
	}{
		{name: "add the other half", first: []string{"jokes.json", "cats.json"},
			final: []string{"jokes.json", "cats.json", "quotes.json", "weather.yaml"},
			redid: []string{"endpoint catalog changed", "mined again for 2 new target"}},
		{name: "fix one, remove one", first: []string{"jokes.json", "cats.json", "quotes-broken.json", "weather.yaml"},
			final: []string{"jokes.json", "quotes.json", "weather.yaml"},
			redid: []string{"endpoint catalog changed", "removed 1 API"}},
		{name: "a route documented away", first: []string{"jokes.json", "quotes.json"},
			final: []string{"jokes.json", "quotes-broken.json"},
			redid: []string{"endpoint catalog changed (1 host(s) changed)", "mined again for 1 new target"}},
		{name: "one no longer reads", first: []string{"jokes.json", "cats.json", "quotes.json"},
			final: []string{"jokes.json", "cats-truncated.json", "quotes.json"},
			redid: []string{"endpoint catalog changed", "removed 1 API"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			docs, repos := growInputs(t)
			setDocs(t, docs, tc.first...)
			e, out, want := rebuildLikeFresh(t, docs, repos, func() { setDocs(t, docs, tc.final...) }, tc.redid...)

			// A third build with nothing changed redoes nothing.
			again, printed := buildInto(t, e, out, docs, repos)
			sameExport(t, again, want)
			if strings.Contains(printed, "redid") || strings.Contains(printed, "mined again") {
				t.Errorf("an unchanged rebuild redid work:\n%s", printed)
			}
		})
	}
}

// TestBuildRepositoryChange changes a repository between two builds — edits and
// adds files of a plain folder (no git), or commits to a git clone — and checks that
// the second build reads it again and equals a fresh build.
func TestBuildRepositoryChange(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end builds skipped in -short mode")
	}
	// Slow: three builds in each case.
	t.Parallel() // its own store and directories; the other slow end-to-end tests run beside it
	tests := []struct {
		name   string
		change func(t *testing.T, repos string)
		say    string
	}{
		{name: "plain folder edited", say: "changed files", change: func(t *testing.T, repos string) {
			// The edit adds a copy of tools' breed_names: which copy stands for the
			// two must not depend on which was stored first.
			writeFiles(t, filepath.Join(repos, "scripts"), map[string]string{"breeds.py": breedNames,
				"daily.py": strings.Replace(growRepos["scripts"]["daily.py"], "fr", "de", 1)})
		}},
		{name: "git clone at a new commit", say: "moved to a new commit", change: func(t *testing.T, repos string) {
			wx := filepath.Join(repos, "wx")
			if err := os.Remove(filepath.Join(wx, "weather.py")); err != nil {
				t.Fatal(err)
			}
			writeFiles(t, wx, map[string]string{"quotes.py": strings.Replace(growRepos["wx"]["quotes.py"], "lang=\"en\"", "lang=\"it\"", 1)})
			growGit(t, wx, "add", "-A")
			growGit(t, wx, "commit", "-q", "-m", "second")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			docs, repos := growInputs(t)
			setDocs(t, docs, "jokes.json", "cats.json", "quotes.json", "weather.yaml")
			rebuildLikeFresh(t, docs, repos, func() { tc.change(t, repos) }, tc.say)
		})
	}
}

// TestBuildMinesOnlyNewTargets checks that a repository already searched for a set
// of APIs is searched again only for the APIs added since.
func TestBuildMinesOnlyNewTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end builds skipped in -short mode")
	}
	// Slow: three builds.
	t.Parallel() // its own store and directories; the other slow end-to-end tests run beside it
	docs, repos := growInputs(t)
	setDocs(t, docs, "jokes.json", "cats.json")
	e, out, _ := newTestEnv(t)
	buildInto(t, e, out, docs, repos)
	setDocs(t, docs, "jokes.json", "cats.json", "quotes.json")
	buildInto(t, e, out, docs, repos)
	buildInto(t, e, out, docs, repos)

	s, err := store.Open(context.Background(), e.db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs, err := s.LastRuns(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	var searched []string
	for i := len(runs) - 1; i >= 0; i-- {
		if r := runs[i]; r.Stage == "mine" {
			searched = append(searched, fmt.Sprintf("%d/%d", r.Counts["targets_searched"], r.Counts["repos_searched"]))
		}
	}
	// 4 repositories × 2 APIs, then 4 × the 1 new API, then nothing.
	if got, want := strings.Join(searched, " "), "8/4 4/4 0/0"; got != want {
		t.Errorf("mine runs searched (targets/repositories) %s, want %s", got, want)
	}
}
