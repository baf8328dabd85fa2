package main

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sccg/decontam"
	"sccg/release"
	"sccg/store"
)

// selectionFixture is the synthetic repositories and API descriptions of the
// sample-selection tests (testdata/selection/README.md).
const selectionFixture = "testdata/selection"

// commitRepos copies the repositories under src/repos (owner/name folders) to a
// temporary folder and commits each as a git clone of github.com/owner/name, the
// way `mine --local` and `corpus pack` find repositories.
func commitRepos(t *testing.T, src string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	root := t.TempDir()
	repos, err := filepath.Glob(filepath.Join(src, "repos", "*", "*"))
	if err != nil || len(repos) == 0 {
		t.Fatalf("no repositories under %s (%v)", src, err)
	}
	for _, repo := range repos {
		full := filepath.Base(filepath.Dir(repo)) + "/" + filepath.Base(repo)
		dir := filepath.Join(root, filepath.FromSlash(full))
		err := filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(repo, p)
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
		gitCommit(t, dir, "https://github.com/"+full+".git")
	}
	return root
}

// gitCommit makes dir a git repository with one commit of everything in it, with
// fixed dates, and origin as its remote.
func gitCommit(t *testing.T, dir, origin string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"remote", "add", "origin", origin}, {"add", "."}, {"commit", "-q", "-m", "snapshot"}} {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2025-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2025-01-01T00:00:00Z",
			"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// selectionDocs are the fixture's API descriptions, as --docs arguments.
func selectionDocs(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(selectionFixture, "docs", "*.json"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no API descriptions under %s (%v)", selectionFixture, err)
	}
	return docs
}

// readExport reads the published records an export wrote into dir.
func readExport(t *testing.T, dir string) []release.Record {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "sccgbench.json"))
	if err != nil {
		t.Fatal(err)
	}
	var recs []release.Record
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	return recs
}

// decontamOutcomes maps every function decontam judged ("owner/repo/path:qualname")
// to its verdict and first reason, with the callees a caller_of decision names.
// It also checks that every duplicate and capped function names a kept one, so no
// cluster is lost without a decision that says so.
func decontamOutcomes(t *testing.T, db string) map[string]string {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fns, err := st.Functions(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	key := map[int64]string{}
	last := map[int64]store.Decision{}
	for _, f := range fns {
		file, err := st.File(ctx, f.FileID)
		if err != nil {
			t.Fatal(err)
		}
		repo, err := st.Repository(ctx, file.RepoID)
		if err != nil {
			t.Fatal(err)
		}
		key[f.ID] = repo.FullName + "/" + file.Path + ":" + f.QualName
		ds, err := st.Decisions(ctx, "function", strconv.FormatInt(f.ID, 10))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if d.Stage == decontam.Stage && d.Verdict != store.Changed {
				last[f.ID] = d
			}
		}
	}
	out := map[string]string{}
	for id, d := range last {
		s := d.Verdict + ": " + d.Reason
		switch d.Reason {
		case decontam.ReasonCallerOf:
			var names []string
			for _, c := range d.Evidence["callees"].([]any) {
				names = append(names, c.(map[string]any)["qualname"].(string))
			}
			s += " " + strings.Join(names, ",")
		case decontam.ReasonExactDuplicate, decontam.ReasonNearDuplicate, decontam.ReasonRepoCap, decontam.ReasonAPICap:
			if k, ok := d.Evidence["kept"].(float64); ok {
				if kd := last[int64(k)]; kd.Verdict != store.Kept {
					t.Errorf("%s is %s of %s, which is not kept (%s: %s)", key[id], d.Reason, key[int64(k)], kd.Verdict, kd.Reason)
				}
				s += " of " + key[int64(k)]
			} else if d.Reason == decontam.ReasonExactDuplicate || d.Reason == decontam.ReasonNearDuplicate {
				t.Errorf("%s: %s names no kept function: %v", key[id], d.Reason, d.Evidence)
			}
		}
		out[key[id]] = s
	}
	return out
}

// A caller and its helper in one file, five copies of one helper in a repository
// capped at 5, two identical functions in main5.py and main6.py, a generic helper no
// endpoint can be told from, and an asyncio.gather of fetchers, built end to end:
// the samples are the functions that make the requests, every caller is rejected
// with the callee it leaves the sample to, and each cluster keeps the member the
// stated rule names.
func TestBuildSelectsRequestFunctions(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end build skipped in -short mode")
	}
	t.Parallel() // its own store and directories; the other slow end-to-end tests run beside it
	repos := commitRepos(t, selectionFixture)
	e, out, _ := newTestEnv(t)
	dir := t.TempDir()
	args := append([]string{"build", "--docs"}, selectionDocs(t)...)
	importTestRun(t, e, 0, append(args, "--local", repos, "--out", dir, "--per-repo", "5")...)

	var got []string
	for _, r := range readExport(t, dir) {
		got = append(got, r.GitHubInfo.Repo+"/"+r.GitHubInfo.FilePath+":"+r.FunctionName)
	}
	slices.Sort(got)
	want := []string{
		"ana/pokedex/pokedex.py:obtener_pokemon",
		"ana/pokedex/views.py:fetch_forecast",
		"bo/quote-bots/authors.py:list_authors",
		"bo/quote-bots/authors.py:search_quotes",
		"bo/quote-bots/bots/bot1.py:get_quote",
		"cy/twins/main5.py:get_archive",
		"dev/weather-cli/client.py:get_forecast",
		"dev/weather-cli/gather.py:fetch_pokemon",
		"dev/weather-cli/gather.py:fetch_quote",
	}
	if !slices.Equal(got, want) {
		t.Errorf("exported samples\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	outcomes := decontamOutcomes(t, e.db)
	for k, w := range map[string]string{
		"ana/pokedex/pokedex.py:Pokedex.__init__":        "rejected: caller_of Pokedex.obtener_pokemon",
		"ana/pokedex/views.py:forecast_view":             "rejected: caller_of fetch_forecast",
		"bo/quote-bots/bots/bot1.py:main":                "rejected: caller_of get_quote",
		"bo/quote-bots/bots/bot5.py:main":                "rejected: caller_of get_quote",
		"bo/quote-bots/bots/bot3.py:get_quote":           "rejected: exact_duplicate of bo/quote-bots/bots/bot1.py:get_quote",
		"cy/twins/main6.py:get_archive":                  "rejected: exact_duplicate of cy/twins/main5.py:get_archive",
		"dev/weather-cli/client.py:main":                 "rejected: caller_of get_forecast",
		"dev/weather-cli/client.py:get_forecast":         "kept: " + decontam.ReasonKeptCaller,
		"dev/weather-cli/gather.py:main":                 "rejected: caller_of fetch_quote,fetch_pokemon",
		"bo/quote-bots/authors.py:search_quotes":         "kept: kept",
		"ana/pokedex/pokedex.py:Pokedex.obtener_pokemon": "kept: kept",
	} {
		if outcomes[k] != w {
			t.Errorf("%s: %q, want %q", k, outcomes[k], w)
		}
	}
	callers := 0
	for _, o := range outcomes {
		if strings.HasPrefix(o, "rejected: caller_of") {
			callers++
		}
	}
	t.Logf("decontam: %d callers rejected as caller_of; %d functions judged", callers, len(outcomes))
	if callers != 9 {
		t.Errorf("%d callers rejected, want 9 (Pokedex.__init__, forecast_view, five bots' main, two mains in weather-cli)", callers)
	}
	if !strings.Contains(out.String(), "rejected_caller_of=9") {
		t.Errorf("the build's output does not count the callers:\n%s", out)
	}

	// A cap of one per repository: every cluster still ends with a recorded reason,
	// and the callers take no slot.
	e2, _, _ := newTestEnv(t)
	importTestRun(t, e2, 0, append(args, "--local", repos, "--out", t.TempDir(), "--per-repo", "1")...)
	capped := decontamOutcomes(t, e2.db)
	for k, w := range map[string]string{
		"bo/quote-bots/authors.py:list_authors":  "kept: kept",
		"bo/quote-bots/authors.py:search_quotes": "rejected: repo_cap",
		"bo/quote-bots/bots/bot1.py:get_quote":   "rejected: repo_cap of dev/weather-cli/quotes.py:get_quote",
		"dev/weather-cli/quotes.py:get_quote":    "kept: " + decontam.ReasonKeptPromoted,
	} {
		if capped[k] != w {
			t.Errorf("--per-repo 1: %s: %q, want %q", k, capped[k], w)
		}
	}
}
