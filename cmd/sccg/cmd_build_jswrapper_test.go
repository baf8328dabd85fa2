package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sccg/internal/synthapi"
	"sccg/release"
)

// A JavaScript generic wrapper builds as the Python one does: the wrapper, whose
// path comes whole from its parameter, is rejected as generic_wrapper naming the
// parameter, and the same-file functions that pass it concrete paths are the
// samples, each aligned to the route it names.
func TestBuildJSGenericWrapper(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end build skipped in -short mode")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	root := t.TempDir()
	docs := filepath.Join(root, "docs")
	if err := os.MkdirAll(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	chat := synthapi.OpenAPI("Chat API", "https://chat.example.test"+synthapi.ChatBase, synthapi.Chat())
	if err := os.WriteFile(filepath.Join(docs, "chat.json"), chat, 0o644); err != nil {
		t.Fatal(err)
	}
	repos := filepath.Join(root, "repos")
	gitRepo(t, filepath.Join(repos, "bot"), "https://github.com/dana/jsbot.git", map[string]string{"bot.js": `const BASE = 'https://chat.example.test/api/v10';
const H = { Authorization: ` + "`Bot ${process.env.CHAT_TOKEN}`" + ` };

async function getJson(path) {
  const r = await fetch(BASE + path, { headers: H });
  if (!r.ok) throw new Error(` + "`chat ${r.status}`" + `);
  return r.json();
}

/** Who the bot is. */
async function getMe() {
  return (await getJson('/users/@me')).username;
}

/** Look a user up. */
async function getUser(userId) {
  return getJson(` + "`/users/${userId}`" + `);
}

module.exports = { getJson, getMe, getUser };
`})
	e, out, errb := newTestEnv(t)
	recs := buildLocal(t, e, docs, repos)
	byName := map[string]release.Record{}
	for _, r := range recs {
		byName[r.FunctionName] = r
	}
	if _, ok := byName["getJson"]; ok {
		t.Error("the generic wrapper getJson is a sample")
	}
	for name, want := range map[string]string{"getMe": "GET /api/v10/users/@me", "getUser": "GET /api/v10/users/{user_id}"} {
		r, ok := byName[name]
		if !ok {
			t.Errorf("the caller %s is no sample", name)
			continue
		}
		if got := r.APIMetadata.Method + " " + r.APIMetadata.Route; got != want || r.APIMetadata.DocMatchType != "route" || r.Language != "javascript" {
			t.Errorf("%s: %s %s aligned to %s (%s), want %s (route)", name, r.Language, r.FunctionName, got, r.APIMetadata.DocMatchType, want)
		}
	}
	if !strings.Contains(errb.String(), "generic_wrapper") {
		t.Errorf("the build does not name the generic wrapper it rejected:\n%s", errb.String())
	}
	out.Reset()
	importTestRun(t, e, 0, "why", "bot.js:getJson")
	if w := out.String(); !strings.Contains(w, "decontam  rejected  generic_wrapper") || !strings.Contains(w, `"parameter":"path"`) {
		t.Errorf("why getJson does not show the generic_wrapper rejection naming path:\n%s", w)
	}
	if w := out.String(); !strings.Contains(w, "rule: refused: generic_wrapper: the request's whole path comes from the function's parameter path") {
		t.Errorf("why getJson does not list the rule that refused its label:\n%s", w)
	}
}
