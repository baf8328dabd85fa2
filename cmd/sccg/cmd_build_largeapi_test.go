package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sccg/internal/synthapi"
	"sccg/release"
)

// largeAPIInputs writes a 1,000-path code-hosting description and a chat API's,
// and a repository calling them: one function for each of 30 endpoints under
// /repos/{owner}/{repo} (more than the flat per-API cap of 20 kept), a placeholder
// that holds owner/name, /users/@me beside /users/{user_id}, a generic wrapper
// with concrete callers and one with none.
func largeAPIInputs(t *testing.T) (docs, repos string) {
	t.Helper()
	dir := t.TempDir()
	docs = filepath.Join(dir, "docs")
	if err := os.MkdirAll(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	ops := synthapi.CodeHost(1000)
	for name, body := range map[string][]byte{
		"codehost.json": synthapi.OpenAPI("Code host REST API", "https://api.codehost.test", ops),
		"chat.json":     synthapi.OpenAPI("Chat API", "https://chat.example.test"+synthapi.ChatBase, synthapi.Chat()),
	} {
		if err := os.WriteFile(filepath.Join(docs, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	b.WriteString("import os\n\nimport requests\n\nAPI = \"https://api.codehost.test\"\nHEADERS = {\"Authorization\": \"token \" + os.environ.get(\"CODEHOST_TOKEN\", \"\")}\n")
	b.WriteString(`

def list_commits(repository):
    """List the commits of a repository named owner/name."""
    r = requests.get(f"{API}/repos/{repository}/commits", headers=HEADERS)
    r.raise_for_status()
    return [c["sha"] for c in r.json()]


def repository_info(repository):
    """Describe a repository named owner/name."""
    return requests.get(f"{API}/repos/{repository}", headers=HEADERS).json()["description"]
`)
	n := 0
	for _, op := range ops {
		rest, ok := strings.CutPrefix(op.Path, "/repos/{owner}/{repo}/")
		if !ok || n == 30 {
			continue
		}
		n++
		args := []string{"owner", "repo"}
		for _, m := range pathParamRe.FindAllString(rest, -1) {
			args = append(args, strings.Trim(m, "{}"))
		}
		fmt.Fprintf(&b, `

def %s_%d(%s):
    """%s the %s of a repository (%d)."""
    response = requests.%s(f"{API}/repos/{owner}/{repo}/%s", headers=HEADERS, timeout=%d)
    if response.status_code >= 400:
        raise RuntimeError("%s failed: " + str(response.status_code))
    return response.json()
`, strings.ToLower(op.Method), n, strings.Join(args, ", "), op.Method, rest, n, strings.ToLower(op.Method), rest, 10+n, rest)
	}
	repos = filepath.Join(dir, "repos")
	gitRepo(t, filepath.Join(repos, "hub"), "https://github.com/dana/hub.git", map[string]string{"hub.py": b.String()})
	gitRepo(t, filepath.Join(repos, "bot"), "https://github.com/dana/bot.git", map[string]string{
		"bot.py": `import os

import requests

base_url = "https://chat.example.test/api/v10"
H = {"Authorization": "Bot " + os.environ.get("CHAT_TOKEN", "")}


def getJson(url):
    return requests.get(base_url + url, headers=H).json()


def get_me():
    """Who the bot is."""
    return getJson("/users/@me")["username"]


def get_user(user_id):
    """Look a user up."""
    return getJson(f"/users/{user_id}")


def my_guilds():
    """The guilds the bot is in."""
    r = requests.get(f"{base_url}/users/@me/guilds", headers=H)
    return [g["name"] for g in r.json()]
`,
		"conn.py": `import requests


def get_connection(uri):
    # uri is a chat.example.test URL the caller built
    return requests.get(uri, timeout=5)
`})
	return docs, repos
}

var pathParamRe = regexp.MustCompile(`\{[^{}]+\}`)

// A build over a 1,000-path API and a chat API: every distinct endpoint called
// is a sample (the budget grew with the API), a placeholder holding owner/name
// aligns to the route it spans, /users/@me to itself, the generic wrapper is
// rejected naming its parameter while its callers are samples, and sccg why shows
// both the route candidates and the wrapper's rejection.
func TestBuildLargeAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end build skipped in -short mode")
	}
	// Slow: a build over a 1,000-path description, about 9 s under the race detector.
	t.Parallel() // its own store and directories; the other slow end-to-end tests run beside it
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	docs, repos := largeAPIInputs(t)
	e, out, errb := newTestEnv(t)
	recs := buildLocal(t, e, docs, repos)
	byName := map[string]release.Record{}
	perAPI := map[string]int{}
	for _, r := range recs {
		byName[r.FunctionName] = r
		perAPI[r.APIHost]++
	}
	for name, want := range map[string]string{
		"list_commits":    "GET /repos/{owner}/{repo}/commits",
		"repository_info": "GET /repos/{owner}/{repo}",
		"get_me":          "GET /api/v10/users/@me",
		"get_user":        "GET /api/v10/users/{user_id}",
		"my_guilds":       "GET /api/v10/users/@me/guilds",
	} {
		r, ok := byName[name]
		if !ok {
			t.Errorf("%s is no sample", name)
			continue
		}
		if got := r.APIMetadata.Method + " " + r.APIMetadata.Route; got != want || r.APIMetadata.DocMatchType != "route" {
			t.Errorf("%s aligned to %s (%s), want %s (route)", name, got, r.APIMetadata.DocMatchType, want)
		}
	}
	for _, name := range []string{"getJson", "get_connection"} {
		if _, ok := byName[name]; ok {
			t.Errorf("the generic wrapper %s is a sample", name)
		}
	}
	if perAPI["api.codehost.test"] != 32 {
		t.Errorf("%d samples of the code-hosting API, want all 32 functions (30 endpoints, commits, the repository)", perAPI["api.codehost.test"])
	}
	if strings.Contains(errb.String(), "api_cap") {
		t.Errorf("a sample was lost to the API cap:\n%s", errb.String())
	}

	out.Reset()
	importTestRun(t, e, 0, "why", "hub.py:list_commits")
	if w := out.String(); !strings.Contains(w, `"candidates":["GET /repos/{owner}/{repo}/commits: 2 literal segment(s)`) {
		t.Errorf("why list_commits does not show the route candidates:\n%s", w)
	}
	if w := jsonWhy(t, e, "hub.py:list_commits"); !strings.Contains(w, "GET /repos/{owner}/{repo}/commits: 2 literal segment(s), {owner}/{repo}={repository}; chosen") {
		t.Errorf("why --json list_commits does not show the choice:\n%s", w)
	}
	for subject, param := range map[string]string{"bot.py:getJson": "url", "conn.py:get_connection": "uri"} {
		out.Reset()
		importTestRun(t, e, 0, "why", subject)
		if w := out.String(); !strings.Contains(w, "decontam  rejected  generic_wrapper") || !strings.Contains(w, `"parameter":"`+param+`"`) {
			t.Errorf("why %s does not show the generic_wrapper rejection naming %s:\n%s", subject, param, w)
		}
	}
	if !strings.Contains(errb.String(), "decontam rejected 2 functions: generic_wrapper") {
		t.Errorf("the build does not name the generic wrappers it rejected:\n%s", errb.String())
	}

	// The paper's flat cap keeps 20 of the 32.
	out.Reset()
	importTestRun(t, e, 0, "decontam", "--per-repo", "-1", "--flat-api-cap")
	if w := out.String(); !strings.Contains(w, "api_cap") || !regexp.MustCompile(`api_cap\s+12\b`).MatchString(w) {
		t.Errorf("the flat cap did not drop 12 samples as api_cap:\n%s", w)
	}
}

// jsonWhy is sccg why --json of a subject, as text.
func jsonWhy(t *testing.T, e *env, subject string) string {
	t.Helper()
	buf := e.stdout.(interface {
		Reset()
		String() string
	})
	buf.Reset()
	e.json = true
	defer func() { e.json = false }()
	importTestRun(t, e, 0, "why", subject)
	var v any
	if err := json.Unmarshal([]byte(buf.String()), &v); err != nil {
		t.Fatalf("why --json: %v", err)
	}
	return buf.String()
}

// buildLocal runs sccg build over docs and the local repositories, every
// repository's functions kept (--per-repo -1), and returns the benchmark.
func buildLocal(t *testing.T, e *env, docs, repos string) []release.Record {
	t.Helper()
	dir := t.TempDir()
	importTestRun(t, e, 0, "build", "--docs", docs, "--local", repos, "--out", dir, "--per-repo", "-1")
	recs, err := release.ReadFile(filepath.Join(dir, "sccgbench.json"))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
