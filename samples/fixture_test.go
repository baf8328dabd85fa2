package samples

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"sccg/internal/blame"
	"sccg/lang"
	"sccg/store"
)

// builtFn describes one kept function of the fixture store.
type builtFn struct {
	repo, path, content string
	qualname, name      string
	start, end          int
	facts               lang.Facts
	align               []store.Alignment // primary first
	code                string            // redacted self-contained code
	redactions          string
	api                 string // slug of the aligned API
	endpointRoute       string // route of the aligned endpoint, "" for none
	cluster             int    // index of the fixture function it is a duplicate of, -1 for itself
	intents             []store.Intent
}

const wxFile = `import os
import requests

API_KEY = "<REDACTED_RAPIDAPI_KEY>"
HEADERS = {"x-rapidapi-key": API_KEY, "x-rapidapi-host": "weather-now.p.rapidapi.com"}


def get_forecast(city):
    """Return the 5-day forecast for a city."""
    url = "https://weather-now.p.rapidapi.com/forecast/" + city
    r = requests.get(url, headers=HEADERS, params={"units": "metric"})
    r.raise_for_status()
    return r.json()
`

const tripFile = `import httpx

BASE = "https://trip-planner.p.rapidapi.com"


class Client:
    def search(self, q):
        # look for trips
        return httpx.post(BASE + "/v1/search", json={"q": q}, headers={"x-rapidapi-host": "trip-planner.p.rapidapi.com"}).json()
`

const miscFile = `import requests


def fetch(path):
    host = "weather-now.p.rapidapi.com"
    return requests.get("https://" + host + path, headers={"x-rapidapi-host": host}).json()
`

func builtFixture() []builtFn {
	return []builtFn{
		{
			repo: "alice/wx", path: "wx/api.py", content: wxFile, qualname: "get_forecast", name: "get_forecast", start: 8, end: 13,
			facts: lang.Facts{
				Calls: []lang.Call{{Line: 11, Library: "requests", Callee: "requests.get", Method: "GET", URLExpr: `url`,
					URL: "https://weather-now.p.rapidapi.com/forecast/{city}", Host: "weather-now.p.rapidapi.com", Path: "/forecast/{city}",
					HasRapidAPIHost: true, HasRapidAPIKey: true, Params: []lang.CallParam{{Name: "units", Location: "query", Example: "metric", Literal: true}}}},
				Imports:   lang.Imports{Stdlib: []string{"os"}, ThirdParty: []string{"requests"}},
				Docstring: &lang.Text{Text: "Return the 5-day forecast for a city.", StartLine: 9, EndLine: 9},
				Signature: "def get_forecast(city)", Parameters: []string{"city"}, StatusCheck: true, SyntaxOK: true, EffectiveLOC: 5,
				PulledIn: []lang.PulledIn{{Name: "API_KEY", Kind: "constant", StartLine: 4, EndLine: 4}, {Name: "HEADERS", Kind: "constant", StartLine: 5, EndLine: 5}},
				Quality:  lang.Quality{Score: 92, Checks: lang.Checks{HasImports: true, HasAPICall: true, HasResponseHandling: true, IsSyntacticallyValid: true, HasDocstring: true, CommentLines: 1}},
			},
			align: []store.Alignment{{CallIndex: 0, Host: "weather-now.p.rapidapi.com", Route: "/forecast/{city}", Method: "GET", DocMatchType: "url",
				EndpointSource: "documented", ParamsSource: "documented", IsPrimary: true,
				Evidence: json.RawMessage(`{"rule":"url_literal","literal":"https://weather-now.p.rapidapi.com/forecast/","line":10,"host":"weather-now.p.rapidapi.com","host_rule":"url"}`)}},
			code:       "import os\nimport requests\n\nAPI_KEY = \"<REDACTED_RAPIDAPI_KEY>\"\nHEADERS = {\"x-rapidapi-key\": API_KEY, \"x-rapidapi-host\": \"weather-now.p.rapidapi.com\"}\n\ndef get_forecast(city):\n    \"\"\"Return the 5-day forecast for a city.\"\"\"\n    url = \"https://weather-now.p.rapidapi.com/forecast/\" + city\n    r = requests.get(url, headers=HEADERS, params={\"units\": \"metric\"})\n    r.raise_for_status()\n    return r.json()\n",
			redactions: `[{"kind":"RAPIDAPI_KEY","rule":"header value","line":4}]`,
			api:        "weather-now", endpointRoute: "/forecast/{city}", cluster: -1,
		},
		{
			repo: "bob/trip", path: "trip/client.py", content: tripFile, qualname: "Client.search", name: "search", start: 7, end: 9,
			facts: lang.Facts{
				Calls: []lang.Call{{Line: 9, Library: "httpx", Callee: "httpx.post", Method: "POST", URLExpr: `BASE + "/v1/search"`,
					URL: "https://trip-planner.p.rapidapi.com/v1/search", Host: "trip-planner.p.rapidapi.com", Path: "/v1/search",
					HasRapidAPIHost: true, Params: []lang.CallParam{{Name: "q", Location: "json"}}}},
				Imports:   lang.Imports{ThirdParty: []string{"httpx"}},
				Comments:  []lang.Text{{Text: "look for trips", StartLine: 8, EndLine: 8}},
				Signature: "def search(self, q)", SyntaxOK: true, EffectiveLOC: 2,
				PulledIn: []lang.PulledIn{{Name: "BASE", Kind: "constant", StartLine: 3, EndLine: 3}},
				Quality:  lang.Quality{Score: 71, Checks: lang.Checks{HasImports: true, HasAPICall: true, IsSyntacticallyValid: true, HasComments: true, CommentLines: 1}},
			},
			align: []store.Alignment{{CallIndex: 0, Host: "trip-planner.p.rapidapi.com", Route: "/v1/search", Method: "POST", DocMatchType: "route",
				EndpointSource: "documented", ParamsSource: "documented", IsPrimary: true,
				Evidence: json.RawMessage(`{"rule":"route_match","line":9,"url_expr":"BASE + \"/v1/search\"","host":"trip-planner.p.rapidapi.com","host_rule":"url","matched_route":"/v1/search"}`)}},
			code:       "import httpx\n\nBASE = \"https://trip-planner.p.rapidapi.com\"\n\nclass Client:\n    def search(self, q):\n        # look for trips\n        return httpx.post(BASE + \"/v1/search\", json={\"q\": q}, headers={\"x-rapidapi-host\": \"trip-planner.p.rapidapi.com\"}).json()\n",
			redactions: `[]`, api: "trip-planner", endpointRoute: "/v1/search", cluster: -1,
		},
		{
			repo: "carol/misc", path: "misc.py", content: miscFile, qualname: "fetch", name: "fetch", start: 4, end: 6,
			facts: lang.Facts{
				Calls: []lang.Call{{Line: 6, Library: "requests", Callee: "requests.get", Method: "GET", URLExpr: `"https://" + host + path`,
					URL: "https://weather-now.p.rapidapi.com{path}", Host: "weather-now.p.rapidapi.com", Path: "{path}", HasRapidAPIHost: true}},
				Imports:   lang.Imports{ThirdParty: []string{"requests"}},
				Signature: "def fetch(path)", SyntaxOK: true, EffectiveLOC: 2, CommentsPlaceholder: false,
				Quality: lang.Quality{Score: 55, Checks: lang.Checks{HasImports: true, HasAPICall: true, IsSyntacticallyValid: true}},
			},
			align: []store.Alignment{{CallIndex: 0, Host: "weather-now.p.rapidapi.com", Method: "GET", DocMatchType: "host_only",
				EndpointSource: "none", ParamsSource: "none", IsPrimary: true,
				Evidence: json.RawMessage(`{"rule":"host_only","line":5,"host":"weather-now.p.rapidapi.com","host_rule":"x-rapidapi-host","host_literal":"weather-now.p.rapidapi.com"}`)}},
			code:       "import requests\n\ndef fetch(path):\n    host = \"weather-now.p.rapidapi.com\"\n    return requests.get(\"https://\" + host + path, headers={\"x-rapidapi-host\": host}).json()\n",
			redactions: `[]`, api: "weather-now", cluster: -1,
			intents: []store.Intent{
				{Attempt: 1, Kind: "intent_humanlike", Path: "llm", Model: "m", Prompt: `[{"role":"user","content":"…"}]`, Response: "Call weather-now.p.rapidapi.com to fetch a path.",
					Text: "Call weather-now.p.rapidapi.com to fetch a path.", Leak: json.RawMessage(`{"leaked":true,"leaks":[{"kind":"host","found":"weather-now.p.rapidapi.com"}]}`),
					Decision: store.IntentRetry, Reason: "leaked"},
				{Attempt: 2, Kind: "intent_redacted", Path: "fallback", Model: "offline", Text: "Fetch a weather resource and return its JSON.",
					Leak: json.RawMessage(`{"leaked":false,"leaks":[]}`), Passed: true, Decision: store.IntentAccepted},
			},
		},
	}
}

// seedBuilt fills s as crawl … decontam would: APIs, repositories, files, functions,
// alignments, dedup, kept rows and decisions for fns. It returns the function ids.
func seedBuilt(t *testing.T, s *store.Store, fns []builtFn) []int64 {
	t.Helper()
	ctx := context.Background()
	ids := make([]int64, len(fns))
	err := s.Update(ctx, func(tx *store.Tx) error {
		apiIDs := map[string]int64{}
		eps := map[string]store.Endpoint{}
		for _, spec := range []struct {
			owner, slug string
			eps         []store.Endpoint
		}{
			{"alice-apis", "weather-now", []store.Endpoint{{Key: "ep_forecast", Name: "Forecast", Method: "GET", Route: "/forecast/{city}", IsCurrent: true,
				Params: []store.Param{{Name: "city", Location: "path", Type: "string", Required: true}, {Name: "units", Location: "query", Type: "string", Example: "metric"}}}}},
			{"trips-inc", "trip-planner", []store.Endpoint{{Key: "ep_search", Name: "Search trips", Method: "POST", Route: "/v1/search", IsCurrent: true,
				BodyExample: `{"q":"rome"}`, Params: []store.Param{{Name: "q", Location: "body", Type: "string", Required: true}}}}},
		} {
			host := spec.slug + ".p.rapidapi.com"
			for i := range spec.eps {
				spec.eps[i].Host = host
			}
			api := &store.API{Source: "rapidapi", Owner: spec.owner, Slug: spec.slug, Title: spec.slug, Host: host,
				URL: "https://rapidapi.com/" + spec.owner + "/api/" + spec.slug}
			id, err := tx.SaveAPI(ctx, api, spec.eps)
			if err != nil {
				return err
			}
			apiIDs[spec.slug] = id
			for _, e := range spec.eps {
				eps[spec.slug+" "+e.Route] = e
			}
		}
		for i, fn := range fns {
			repo := &store.Repository{FullName: fn.repo, Source: "local", URL: "https://github.com/" + fn.repo, Stars: 3 * (i + 1), Forks: i,
				License: "MIT", Language: "Python", CreatedAt: "2023-0" + fmt.Sprint(i+1) + "-01T00:00:00Z", UpdatedAt: "2025-01-01T00:00:00Z"}
			rid, err := tx.UpsertRepository(ctx, repo)
			if err != nil {
				return err
			}
			commit := fmt.Sprintf("c0ffee%02d", i)
			file := &store.File{RepoID: rid, Path: fn.path, GitSHA: fmt.Sprintf("b10b%02d", i), CommitSHA: commit,
				URL: "https://github.com/" + fn.repo + "/blob/" + commit + "/" + fn.path, QueryLayer: "host", Query: fn.align[0].Host, APIID: apiIDs[fn.api]}
			if i%2 == 0 {
				// every other file's lines are dated, a day apart
				times := make([]int64, strings.Count(strings.TrimSuffix(fn.content, "\n"), "\n")+1)
				for n := range times {
					times[n] = time.Date(2022, 1, 1+i, 0, 0, 0, 0, time.UTC).Unix() + int64(n)*86400
				}
				file.LineDates = blame.FromTimes(blame.MethodGit, times, "").Encode()
			}
			fid, err := tx.SaveFile(ctx, file, []byte(fn.content))
			if err != nil {
				return err
			}
			facts, _ := json.Marshal(fn.facts)
			lines := strings.Split(fn.content, "\n")
			f := store.Function{Name: fn.name, QualName: fn.qualname, StartLine: fn.start, EndLine: fn.end,
				Source: strings.Join(lines[fn.start-1:fn.end], "\n"), Code: fn.code, CodeHash: fmt.Sprintf("hash%02d", i),
				SyntaxOK: true, Status: store.FunctionCandidate, Quality: fn.facts.Quality.Score, Facts: facts}
			fs := []store.Function{f}
			if err := tx.SaveFunctions(ctx, fid, fs); err != nil {
				return err
			}
			ids[i] = fs[0].ID
			as := append([]store.Alignment(nil), fn.align...)
			as[0].APIID = apiIDs[fn.api]
			if fn.endpointRoute != "" {
				ep := eps[fn.api+" "+fn.endpointRoute]
				as[0].EndpointID, as[0].Params = ep.ID, ep.Params
			}
			if err := tx.SaveAlignments(ctx, fs[0].ID, as); err != nil {
				return err
			}
			subject := fmt.Sprint(fs[0].ID)
			for _, d := range []store.Decision{
				{Stage: "mine", SubjectKind: "file", Subject: file.URL, Verdict: store.Kept, Reason: "calls " + fn.align[0].Host},
				{Stage: "align", SubjectKind: "function", Subject: subject, Verdict: store.Kept, Reason: fn.align[0].DocMatchType,
					Evidence: map[string]any{"calls": len(as)}},
				{Stage: "decontam", SubjectKind: "function", Subject: subject, Verdict: store.Kept, Reason: "no template signal"},
			} {
				if err := tx.RecordDecision(ctx, d); err != nil {
					return err
				}
			}
			k := &store.KeptFunction{FunctionID: fs[0].ID, Alignment: as[0], Code: fn.code, Source: f.Source,
				Redactions: json.RawMessage(fn.redactions), Facts: facts, InputHash: "in" + subject}
			if err := tx.SaveKept(ctx, k); err != nil {
				return err
			}
		}
		var ds []store.DedupEntry
		for i, fn := range fns {
			c := ids[i]
			kind := store.DedupRepresentative
			if fn.cluster >= 0 {
				c, kind = ids[fn.cluster], store.DedupNear
			}
			ds = append(ds, store.DedupEntry{FunctionID: ids[i], Cluster: c, Kind: kind, Similarity: 1})
		}
		return tx.SaveDedup(ctx, ds)
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// addIntents records the fixture's intent attempts on the kept functions, as
// redact does.
func addIntents(t *testing.T, s *store.Store, fns []builtFn, ids []int64) {
	t.Helper()
	ctx := context.Background()
	err := s.Update(ctx, func(tx *store.Tx) error {
		for i, fn := range fns {
			if len(fn.intents) > 0 {
				if err := tx.ReplaceFunctionIntents(ctx, ids[i], fn.intents); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
