package align

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sccg/lang"
	"sccg/lang/frontends"
	"sccg/store"
)

// rulesCatalog documents, in the shapes of their real descriptions, the APIs the
// label-rule fixtures call: GitHub (one route under several methods), Spotify and
// Discord behind a fixed base path, Jikan and the New York Times with a literal
// segment that code selects with a parameter.
func rulesCatalog() *Catalog {
	var eps []store.Endpoint
	add := func(api int64, host, method, route string) {
		eps = append(eps, store.Endpoint{ID: int64(len(eps) + 1), APIID: api, Version: "1", IsCurrent: true, Host: host, Method: method, Route: route})
	}
	for _, m := range []string{"GET", "PATCH", "DELETE"} {
		add(1, "api.github.com", m, "/repos/{owner}/{repo}")
	}
	add(1, "api.github.com", "GET", "/repos/{owner}/{repo}/actions/runs")
	add(1, "api.github.com", "POST", "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches")
	add(1, "api.github.com", "GET", "/repos/{owner}/{repo}/issues")
	add(1, "api.github.com", "POST", "/repos/{owner}/{repo}/issues")
	add(1, "api.github.com", "GET", "/repos/{owner}/{repo}/forks")
	add(1, "api.github.com", "POST", "/repos/{owner}/{repo}/forks")
	add(1, "api.github.com", "GET", "/users/{username}/repos")
	for _, r := range []string{"/v1/artists/{id}", "/v1/albums/{id}", "/v1/search", "/v1/me"} {
		add(2, "api.spotify.com", "GET", r)
	}
	for _, r := range []string{"/v4/anime/{id}/full", "/v4/manga/{id}/full", "/v4/anime", "/v4/anime/{id}"} {
		add(3, "api.jikan.moe", "GET", r)
	}
	for _, r := range []string{"viewed", "emailed", "shared"} {
		add(4, "api.nytimes.com", "GET", "/svc/mostpopular/v2/"+r+"/{period}.json")
	}
	add(5, "discord.com", "GET", "/api/v10/users/@me")
	add(5, "discord.com", "POST", "/api/v10/channels/{channel_id}/messages")
	add(5, "discord.com", "PUT", "/api/v10/applications/{application_id}/commands")
	return NewCatalog(eps)
}

// TestLabelRules extracts the label-rule fixtures in Python, JavaScript and
// TypeScript with their frontends and checks each function's primary label, or
// the refusal that keeps it out, and the rule that decided: a function's own
// request over a helper's, no method the code does not send, an empty segment as
// an empty parameter, and generic wrappers and resource selectors in the forms each
// language writes them, their concrete callers labelled with the endpoint they name.
func TestLabelRules(t *testing.T) {
	type want struct {
		label string // "METHOD host route" or "refused reason (parameter)"
		rule  string // a substring of one of the decided rules, when one must be shown
	}
	tests := map[string]map[string]want{
		"github_actions.py": {
			"default_branch":      {"GET api.github.com /repos/{owner}/{repo}", ""},
			"is_workflow_success": {"GET api.github.com /repos/{owner}/{repo}/actions/runs", "own request: call #1"},
			"dispatch":            {"POST api.github.com /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", "helper default_branch"},
			"lock_issues":         {"PUT api.github.com /repos/{repository}/issues host_only", "no route the path fits as well as any documents PUT"},
			"open_lab_issue":      {"POST api.github.com /repos/{owner}/{repo}/issues", "{owner}= {repo}=fetch-lab"},
			"spotify_get":         {"refused generic_wrapper (path)", ""},
			"artist":              {"GET api.spotify.com /v1/artists/{id}", ""},
			"jikan":               {"refused generic_wrapper (endpoint)", ""},
			"top_anime":           {"GET api.jikan.moe /v4/anime", ""},
			"full_entry":          {"refused resource_selected_by_parameter (kind)", "every documented route it could name (2) has a literal"},
			"full_manga":          {"GET api.jikan.moe /v4/manga/{id}/full", ""},
			"discord":             {"refused generic_wrapper (endpoint)", "fits 3 documented route(s) only by standing for their literal segments"},
			"bot_user":            {"GET discord.com /api/v10/users/@me", ""},
		},
		"fetchlab.js": {
			"defaultBranch":       {"GET api.github.com /repos/{owner}/{repo}", ""},
			"isWorkflowSuccess":   {"GET api.github.com /repos/{owner}/{repo}/actions/runs", "own request"},
			"createIssue":         {"POST api.github.com /repos/{owner}/{repo}/issues", "{owner}= {repo}=javascript-fetch-lab"},
			"renameRepo":          {"PATCH api.github.com /repos/{fork}/javascript-fetch-lab/forks host_only", "documents PATCH"},
			"getData":             {"refused generic_wrapper (param)", ""},
			"getArtists":          {"GET api.spotify.com /v1/artists/{id}", ""},
			"getAlbum":            {"GET api.spotify.com /v1/albums/{id}", ""},
			"discordRequest":      {"refused generic_wrapper (endpoint)", ""},
			"botUser":             {"GET discord.com /api/v10/users/@me", ""},
			"mostPopular":         {"refused resource_selected_by_parameter (topic)", ""},
			"mostViewed":          {"GET api.nytimes.com /svc/mostpopular/v2/viewed/{period}.json", ""},
			"Profile.loadProfile": {"refused generic_wrapper (url)", "the component state url"},
		},
		"Popular.tsx": {
			"fullEntry":     {"refused resource_selected_by_parameter (type)", ""},
			"fullAnime":     {"GET api.jikan.moe /v4/anime/{id}/full", ""},
			"defaultBranch": {"GET api.github.com /repos/{owner}/{repo}", ""},
			"latestRuns":    {"GET api.github.com /repos/{owner}/{repo}/actions/runs", "own request"},
			"removeIssues":  {"DELETE api.github.com /repos/{repository}/issues host_only", "documents DELETE"},
			"Viewer":        {"refused generic_wrapper (location)", "the component state location"},
			"labIssues":     {"POST api.github.com /repos/{owner}/{repo}/issues", "{owner}= {repo}=fetch-lab"},
			"discordGet":    {"refused generic_wrapper (endpoint)", "the path after its fixed base"},
			"me":            {"GET discord.com /api/v10/users/@me", ""},
		},
	}
	cat := rulesCatalog()
	for name, fns := range tests {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "rules", name))
			if err != nil {
				t.Fatal(err)
			}
			fe, _, _, ok := frontends.ForPath(name)
			if !ok {
				t.Fatalf("no frontend reads %s", name)
			}
			res, err := fe.Extract(context.Background(), name, src, lang.ExtractOptions{})
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, f := range res.Functions {
				w, ok := fns[f.QualName]
				if !ok {
					continue
				}
				seen[f.QualName] = true
				as, _ := AlignFunction(f.Code, &f.Facts, cat)
				i := slices.IndexFunc(as, func(a store.Alignment) bool { return a.IsPrimary })
				if i < 0 {
					t.Errorf("%s: no primary alignment", f.QualName)
					continue
				}
				a := as[i]
				var ev Evidence
				if err := json.Unmarshal(a.Evidence, &ev); err != nil {
					t.Fatal(err)
				}
				got := a.Method + " " + a.Host + " " + a.Route
				if a.DocMatchType == MatchHostOnly {
					got += " host_only"
				}
				if ev.Refused != nil {
					got = "refused " + ev.Refused.Reason + " (" + ev.Refused.Parameter + ")"
				}
				if got != w.label {
					t.Errorf("%s: %s, want %s (rules %q)", f.QualName, got, w.label, ev.Rules)
				}
				if w.rule != "" && !slices.ContainsFunc(ev.Rules, func(r string) bool { return strings.Contains(r, w.rule) }) {
					t.Errorf("%s: rules %q, want one saying %q", f.QualName, ev.Rules, w.rule)
				}
			}
			for q := range fns {
				if !seen[q] {
					t.Errorf("%s was not extracted", q)
				}
			}
		})
	}
}
