package samples

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sccg/internal/golden"
	"sccg/internal/storetest"
	"sccg/provenance"
	"sccg/release"
	"sccg/split"
	"sccg/store"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// buildFixtureStore seeds a store with the fixture, builds its samples, records
// the intents, rebuilds (so the intents become comments) and splits it.
func buildFixtureStore(t *testing.T, fns []builtFn) (*store.Store, []int64) {
	t.Helper()
	ctx := context.Background()
	s := storetest.Open(t)
	ids := seedBuilt(t, s, fns)
	build := func() *BuildResult {
		kept, err := KeptFromStore(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		res, err := BuildSamples(ctx, s, kept)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	build()
	addIntents(t, s, fns, ids)
	build()
	if _, err := split.Run(ctx, s, split.Options{Seed: 1}); err != nil {
		t.Fatal(err)
	}
	return s, ids
}

func TestBuildSamples(t *testing.T) {
	ctx := context.Background()
	fns := builtFixture()
	s, ids := buildFixtureStore(t, fns)
	recs, _, err := Records(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	byFn := map[string]release.Record{}
	for _, r := range recs {
		byFn[r.FunctionName] = r
	}
	tests := []struct {
		name      string
		got, want any
	}{
		{"three samples", len(recs), 3},
		{"numbered by repository", recs[0].SampleID + " " + recs[0].GitHubInfo.Repo + ", " + recs[2].SampleID + " " + recs[2].GitHubInfo.Repo,
			"SCG-000001 alice/wx, SCG-000003 carol/misc"},
		{"url sample metadata", byFn["get_forecast"].APIMetadata.URL + " " + byFn["get_forecast"].APIMetadata.Method + " " + byFn["get_forecast"].APIMetadata.EndpointID,
			"https://weather-now.p.rapidapi.com/forecast/{city} GET ep_forecast"},
		{"documented params by location", string(byFn["get_forecast"].APIMetadata.PathParams) + " " + string(byFn["get_forecast"].APIMetadata.ParamsSource),
			`[{"name":"city","type":"string","required":true}] "documentation"`},
		{"payload from the documented example", string(byFn["search"].APIMetadata.Payload), `{"q":"rome"}`},
		{"host_only keeps no route", byFn["fetch"].APIMetadata.URL + "|" + byFn["fetch"].APIMetadata.Route + "|" + byFn["fetch"].APIMetadata.DocMatchType, "||host_only"},
		{"original docstring is the comment", byFn["get_forecast"].CommentsSource + ": " + byFn["get_forecast"].Comments[0].Text, "original: Return the 5-day forecast for a city."},
		{"passing intent is the comment", byFn["fetch"].CommentsSource + ": " + byFn["fetch"].Comments[0].Text, "intent_redacted: Fetch a weather resource and return its JSON."},
		{"complete function is the redacted code", strings.Contains(byFn["get_forecast"].Code.CompleteFunction, "<REDACTED_RAPIDAPI_KEY>"), true},
		{"file URL at its commit", byFn["search"].GitHubInfo.FileURL, "https://github.com/bob/trip/blob/c0ffee01/trip/client.py"},
		{"api name from the API slug", byFn["search"].APIName, "trip-planner"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %v, want %v", tc.got, tc.want)
			}
		})
	}

	t.Run("rebuilding changes nothing", func(t *testing.T) {
		before := storetest.MustDump(t, s, "samples", "intents", "splits")
		kept, _ := KeptFromStore(ctx, s)
		res, err := BuildSamples(ctx, s, kept)
		if err != nil {
			t.Fatal(err)
		}
		after := storetest.MustDump(t, s, "samples", "intents", "splits")
		if before != after || res.Added+res.Updated+res.Renumbered+res.Removed != 0 {
			t.Errorf("second build changed the store (%+v):\n%s\nvs\n%s", res, before, after)
		}
	})

	t.Run("a new function sorting first renumbers, intents follow their sample", func(t *testing.T) {
		extra := builtFixture()[1]
		extra.repo = "aaron/first"
		more := seedBuilt(t, s, []builtFn{extra})
		kept, _ := KeptFromStore(ctx, s)
		res, err := BuildSamples(ctx, s, kept)
		if err != nil {
			t.Fatal(err)
		}
		if res.Added != 1 || res.Renumbered != 3 || res.Samples != 4 {
			t.Errorf("result %+v, want 1 added and 3 renumbered", res)
		}
		first, err := s.SampleByID(ctx, "SCG-000001")
		if err != nil || first.FunctionID != more[0] {
			t.Fatalf("SCG-000001 = %+v (%v), want function %d", first, err, more[0])
		}
		last, err := s.SampleByID(ctx, "SCG-000004")
		if err != nil || last.FunctionID != ids[2] {
			t.Fatalf("SCG-000004 = %+v (%v), want function %d", last, err, ids[2])
		}
		ins, _ := s.FunctionIntents(ctx, last.FunctionID)
		if len(ins) != 2 {
			t.Errorf("intents of the renumbered sample: %d, want 2", len(ins))
		}
	})
}

func TestAuditGolden(t *testing.T) {
	ctx := context.Background()
	s, _ := buildFixtureStore(t, builtFixture())
	imp := storetest.Open(t)
	recs, err := release.ReadFile("testdata/mini.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Import(ctx, imp, recs, ImportOptions{Split: release.Validation, Source: "mini.json"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, id string
		st       *store.Store
	}{
		{"url", "SCG-000001", s},
		{"route", "SCG-000002", s},
		{"host_only", "SCG-000003", s},
		{"imported", "SCG-000007", imp},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := provenance.LoadAudit(ctx, tc.st, tc.id)
			if err != nil {
				t.Fatal(err)
			}
			if a.Record.APIMetadata.DocMatchType != tc.name && tc.name != "imported" {
				t.Fatalf("%s is a %s sample, want %s", tc.id, a.Record.APIMetadata.DocMatchType, tc.name)
			}
			var buf bytes.Buffer
			if err := a.WriteText(&buf); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "audit", tc.name+".txt"), buf.Bytes(), *update)
		})
	}
	t.Run("unknown sample", func(t *testing.T) {
		if _, err := provenance.LoadAudit(ctx, s, "SCG-999999"); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("err = %v, want not found", err)
		}
	})
}

func TestExportDeterministic(t *testing.T) {
	ctx := context.Background()
	var outs [2]map[string][]byte
	for i := range outs {
		s, _ := buildFixtureStore(t, builtFixture())
		dir := t.TempDir()
		res, err := Export(ctx, s, dir, release.JSON)
		if err != nil {
			t.Fatal(err)
		}
		outs[i] = map[string][]byte{}
		for _, f := range res.Files {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			outs[i][f] = b
		}
	}
	if len(outs[0]) != 5 {
		t.Fatalf("export wrote %d files, want 5", len(outs[0]))
	}
	for f, b := range outs[0] {
		if !bytes.Equal(b, outs[1][f]) {
			t.Errorf("%s differs between two builds of the same inputs", f)
		}
	}
	golden.Check(t, filepath.Join("testdata", "export", "sccgbench.json"), outs[0]["sccgbench.json"], *update)
	golden.Check(t, filepath.Join("testdata", "export", "stats.json"), outs[0]["stats.json"], *update)
}
