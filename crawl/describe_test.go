package crawl

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"sccg/internal/storetest"
	"sccg/store"
)

func TestReadDescription(t *testing.T) {
	const dir = "testdata/describe"
	tests := []struct {
		name      string
		file      string
		root      string // default dir
		baseURL   string
		api       string   // OWNER/SLUG host
		endpoints []string // "METHOD host route", in any order
		warnings  []string // reasons that must be among the warnings
		clean     bool     // no warnings at all
		reject    string   // rejection reason
		message   []string // phrases the rejection's message must have
	}{
		{name: "servers per path and per operation, two servers at one level", file: "path-servers.yaml",
			api: "skyline-weather api.skyline-weather.test",
			endpoints: []string{"GET api.skyline-weather.test /v1/forecast", "GET archive-api.skyline-weather.test /v1/archive",
				"GET marine-api.skyline-weather.test /v1/marine", "GET marine-eu.skyline-weather.test /v1/marine"}, clean: true},
		{name: "server variables from defaults and enums", file: "server-variables.yaml", api: "tidewatch eu.tidewatch.test",
			endpoints: []string{"GET eu.tidewatch.test /api/v2/stations/{id}/tides"}, warnings: []string{WarnServerVariable}},
		{name: "relative server URL and no base", file: "relative-server.yaml", reject: RejectNoHost,
			message: []string{"relative-server.yaml", "/api/v3", "`servers`", "x-sccg-host", "--base-url"}},
		{name: "relative server URL with --base-url", file: "relative-server.yaml", baseURL: "https://parks.example-maps.test",
			api: "park-finder parks.example-maps.test", endpoints: []string{"GET parks.example-maps.test /api/v3/parks"},
			warnings: []string{WarnRelativeServer}},
		{name: "relative server URL with the file's x-sccg-base-url, a local server skipped", file: "relative-override.yaml",
			baseURL: "https://ignored.test", api: "trail-conditions trails.example-parks.test",
			endpoints: []string{"GET trails.example-parks.test /v1/trails/{trail}"}, warnings: []string{WarnRelativeServer, WarnServerSkipped}},
		{name: "OpenAPI 3.1 with webhooks and null types", file: "pokedex-31.yaml", api: "pocket-monsters pokedex.example-games.test",
			endpoints: []string{"GET pokedex.example-games.test /api/v2/pokemon/{name}"}, warnings: []string{WarnWebhooksIgnored}},
		{name: "Swagger 2 with host, basePath and schemes", file: "swagger2.json", api: "coin-ticker api.coin-ticker.test",
			endpoints: []string{"GET api.coin-ticker.test /v1/ticker/{symbol}", "POST api.coin-ticker.test /v1/alerts"},
			warnings:  []string{WarnTypeRepaired, WarnNumberAsString}},
		{name: "examples that do not match their schemas", file: "bad-examples.yaml", api: "anime-index api.anime-index.test",
			endpoints: []string{"GET api.anime-index.test /v4/anime"}, warnings: []string{WarnExampleMismatch}},
		{name: "numbers as strings, unknown and misspelt types, a 3.1 type list in 3.0", file: "typos.yaml",
			api: "chart-tracks api.chart-tracks.test", endpoints: []string{"GET api.chart-tracks.test /tracks"},
			warnings: []string{WarnNumberAsString, WarnTypeRepaired, WarnNullTypeRepaired, WarnBooleanAsString, WarnVersionAsNumber, WarnValueDropped}},
		{name: "no servers at all", file: "no-host.yaml", reject: RejectNoHost, message: []string{"no-host.yaml", "declares no `servers`"}},
		{name: "webhooks only", file: "only-webhooks.yaml", reject: RejectNoEndpoints, message: []string{"only-webhooks.yaml", "no operations"}},
		{name: "catalog: external $refs to sibling files", file: "catalog/skycast.test/v1/openapi.yaml", root: dir + "/catalog",
			api: "skycast.test/skycast api.skycast.test", endpoints: []string{"GET api.skycast.test /v1/now"},
			warnings: []string{WarnTypeRepaired, WarnNumberAsString}},
		{name: "catalog: a $ref to a URL is dropped", file: "catalog/skycast.test/v2/openapi.yaml", root: dir + "/catalog",
			api: "skycast.test/skycast api.skycast.test", endpoints: []string{"GET api.skycast.test /v2/conditions/{city}"},
			warnings: []string{WarnExternalRefDropped}},
		{name: "catalog: Swagger host written as a URL, owner from the provider folder", file: "catalog/parcelpost.test/2.0/swagger.yaml",
			root: dir + "/catalog", api: "parcelpost.test/parcel-post-tracking track.parcelpost.test",
			endpoints: []string{"GET track.parcelpost.test /api/v2/parcels/{number}"}, warnings: []string{WarnHostRepaired}},
		{name: "operations written as $refs to files, their own $refs relative to them", file: "split/openapi.yaml",
			api: "lyric-lines api.lyric-lines.test", warnings: []string{WarnRefInlined},
			endpoints: []string{"GET api.lyric-lines.test /v2/songs/{id}/lyrics", "PUT api.lyric-lines.test /v2/songs/{id}/lyrics"}},
		{name: "a fragment is not a description", file: "catalog/shared/schemas.yaml", root: dir + "/catalog",
			reject: RejectNotDescription, message: []string{"shared/schemas.yaml", "`openapi`"}},
		{name: "a README is not a description", file: "catalog/README.md", root: dir + "/catalog", reject: RejectNotDescription},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := tc.root
			if root == "" {
				root = dir
			}
			doc, err := ReadDescription(context.Background(), dir+"/"+tc.file, ReadOptions{Root: root, BaseURL: tc.baseURL})
			if tc.reject != "" {
				var rj *Rejection
				if !errors.As(err, &rj) || !errors.Is(err, ErrBadInput) {
					t.Fatalf("got %v, %v; want a rejection %s", doc, err, tc.reject)
				}
				if rj.Reason != tc.reject {
					t.Errorf("rejected for %s (%s), want %s", rj.Reason, rj.Message, tc.reject)
				}
				for _, m := range tc.message {
					if !strings.Contains(rj.Message, m) {
						t.Errorf("message %q lacks %q", rj.Message, m)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			Normalize(doc)
			if got := apiName(doc.API) + " " + doc.API.Host; got != tc.api {
				t.Errorf("API %q, want %q", got, tc.api)
			}
			var eps []string
			for _, e := range doc.Endpoints {
				eps = append(eps, e.Method+" "+e.Host+" "+e.Route)
			}
			slices.Sort(eps)
			want := slices.Sorted(slices.Values(tc.endpoints))
			if !slices.Equal(eps, want) {
				t.Errorf("endpoints %q, want %q", eps, want)
			}
			var reasons []string
			for _, w := range doc.Warnings {
				reasons = append(reasons, w.Reason)
				if w.File == "" || w.Detail == "" {
					t.Errorf("warning without file or detail: %+v", w)
				}
			}
			for _, r := range tc.warnings {
				if !slices.Contains(reasons, r) {
					t.Errorf("warnings %q lack %s", reasons, r)
				}
			}
			if tc.file == "split/openapi.yaml" { // the parameters came through the inlined operations' own $refs
				for _, e := range doc.Endpoints {
					if len(e.Params) < 2 || e.Params[0].Name != "id" || e.Params[0].Type != "integer" {
						t.Errorf("%s %s: params %+v, want id (integer) first and its own", e.Method, e.Route, e.Params)
					}
					if e.Method == "PUT" && !slices.ContainsFunc(e.Params, func(p store.Param) bool { return p.Name == "text" && p.Location == "body" }) {
						t.Errorf("PUT: params %+v, want the body field text from the properties given as a $ref", e.Params)
					}
				}
			}
			if tc.clean && len(doc.Warnings) > 0 {
				t.Errorf("warnings %+v, want none", doc.Warnings)
			}
		})
	}
}

// Every problem of a file is reported at once, each with where it is.
func TestRepairReportsEveryProblem(t *testing.T) {
	doc, err := ReadDescription(context.Background(), "testdata/describe/typos.yaml", ReadOptions{Root: "testdata/describe"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range doc.Warnings {
		if w.Line > 0 {
			got = append(got, w.Pointer)
		}
	}
	for _, want := range []string{"/info/version", "/paths/~1tracks/get/parameters/0/required", "/paths/~1tracks/get/parameters/0/schema/type",
		"/paths/~1tracks/get/parameters/0/schema/maximum", "/paths/~1tracks/get/parameters/0/schema/minimum",
		"/paths/~1tracks/get/parameters/1/schema/type", "/paths/~1tracks/get/parameters/2/schema/type",
		"/paths/~1tracks/get/parameters/3/schema/type", "/paths/~1tracks/get/parameters/4/schema/type",
		"/paths/~1tracks/get/parameters/4/schema/maxLength"} {
		if !slices.Contains(got, want) {
			t.Errorf("no warning at %s; warnings at %q", want, got)
		}
	}
}

func TestSlugifyDropsAccents(t *testing.T) {
	for in, want := range map[string]string{"PokéAPI": "pokeapi", "Open-Meteo Weather Forecast API": "open-meteo-weather-forecast-api", "Ça va": "ca-va"} {
		if got := Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
	}
}

// A folder laid out like a public catalog imports as is: every description is an
// API named from its provider, a taken slug gets the version, warnings are
// decisions on the API, and the files that are not descriptions are rejected by
// their name under the folder.
func TestImportCatalog(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	sum, err := Run(ctx, s, Options{Source: SourceOpenAPI, Paths: []string{"testdata/describe/catalog"}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Saved != 3 || sum.Bad != 3 || sum.Targets != 6 || sum.Warnings == 0 {
		t.Errorf("summary %+v, want 3 saved, 3 rejected of 6, warnings", sum)
	}
	apis, err := s.APIs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range apis {
		names = append(names, apiName(a)+" "+a.Category)
	}
	slices.Sort(names)
	want := []string{"parcelpost.test/parcel-post-tracking ", "skycast.test/skycast weather", "skycast.test/skycast-v2 "}
	if !slices.Equal(names, want) {
		t.Errorf("APIs %q, want %q", names, want)
	}
	for subject, want := range map[string][]string{
		"README.md":                            {"rejected not_a_description"},
		"shared/schemas.yaml":                  {"rejected not_a_description"},
		"skycast.test/skycast":                 {"warning number_as_string_repaired", "warning type_repaired"},
		"skycast.test/skycast-v2":              {"warning external_ref_dropped", "warning slug_taken"},
		"parcelpost.test/parcel-post-tracking": {"warning host_repaired"},
	} {
		ds, err := s.Decisions(ctx, "", subject)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range ds {
			got = append(got, d.Verdict+" "+d.Reason)
			if d.Stage != Stage || d.RunID != sum.RunID || len(d.Evidence) == 0 {
				t.Errorf("decision %+v: want stage crawl, run %d and evidence", d, sum.RunID)
			}
			if kind := map[bool]string{true: "api", false: "file"}[d.Verdict == "warning"]; d.SubjectKind != kind {
				t.Errorf("decision on %s is about a %s, want %s", subject, d.SubjectKind, kind)
			}
		}
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("decisions on %s: %q, want %q among them", subject, got, w)
			}
		}
	}
	counts := map[string]int{}
	var examples []string
	for _, g := range sum.Findings {
		counts[g.Verdict+" "+g.Reason] = g.Count
		examples = append(examples, g.Examples...)
	}
	for group, n := range map[string]int{"rejected not_a_description": 3, "warning type_repaired": 2} {
		if counts[group] != n {
			t.Errorf("findings %q: %d, want %d (all: %v)", group, counts[group], n, counts)
		}
	}
	for _, want := range []string{"README.md is not a description", "skycast.test/skycast: type \"str\""} {
		if !slices.ContainsFunc(examples, func(e string) bool { return strings.Contains(e, want) }) {
			t.Errorf("no finding example holds %q: %q", want, examples)
		}
	}
}

func TestProviderDir(t *testing.T) {
	for rel, want := range map[string]string{
		"1forge.com/0.0.1/swagger.yaml":                "1forge.com",
		"APIs/1password.com/events/1.0.0/openapi.yaml": "1password.com",
		"catalog/parcelpost.test/2.0/swagger.yaml":     "parcelpost.test",
		"specs/acme/v1/openapi.yaml":                   "acme",
		"acme/openapi.yaml":                            "",
		"src/main/resources/openapi.yaml":              "",
		"openapi.yaml":                                 "",
	} {
		if got := providerDir(rel); got != want {
			t.Errorf("providerDir(%q) = %q, want %q", rel, got, want)
		}
	}
}
