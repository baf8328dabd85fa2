package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sccg/internal/golden"
	"sccg/internal/storetest"
	"sccg/provenance"
	"sccg/samples"
	"sccg/split"
)

// TestProvenanceKnowsTheStageOrder: provenance orders decisions by stage without
// importing the stages, so its list must be the pipeline's, then import.
func TestProvenanceKnowsTheStageOrder(t *testing.T) {
	want := append(slices.Clone(Stages), samples.ImportStage)
	if !slices.Equal(provenance.Stages, want) {
		t.Errorf("provenance.Stages = %v, want the pipeline's order %v", provenance.Stages, want)
	}
}

const weatherDoc = `{
  "openapi": "3.0.3",
  "info": {"title": "Weather Now", "version": "1.0"},
  "servers": [{"url": "https://weather-now.p.rapidapi.com"}],
  "paths": {
    "/forecast/{city}": {
      "get": {
        "operationId": "forecast",
        "summary": "Forecast",
        "parameters": [
          {"name": "city", "in": "path", "required": true, "schema": {"type": "string"}},
          {"name": "units", "in": "query", "schema": {"type": "string"}, "example": "metric"}
        ],
        "responses": {"200": {"description": "ok"}}
      }
    },
    "/alerts": {
      "get": {
        "operationId": "alerts",
        "summary": "Weather alerts",
        "parameters": [{"name": "region", "in": "query", "required": true, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "ok"}}
      }
    }
  }
}`

const tripDoc = `{
  "openapi": "3.0.3",
  "info": {"title": "Trip Planner", "version": "1.0"},
  "servers": [{"url": "https://trip-planner.p.rapidapi.com"}],
  "paths": {
    "/v1/search": {
      "post": {
        "operationId": "search",
        "summary": "Search trips",
        "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"q": {"type": "string"}}}, "example": {"q": "rome"}}}},
        "responses": {"200": {"description": "ok"}}
      }
    }
  }
}`

// pipelineRepos are the repositories of the end-to-end test: owner/name → path → content.
var pipelineRepos = map[string]map[string]string{
	"alice/wx": {"wx/api.py": `import requests


def get_forecast(city, key):
    """Return the forecast for a city."""
    url = "https://weather-now.p.rapidapi.com/forecast/" + city
    headers = {"x-rapidapi-key": key, "x-rapidapi-host": "weather-now.p.rapidapi.com"}
    r = requests.get(url, headers=headers, params={"units": "metric"})
    r.raise_for_status()
    return r.json()
`},
	"bob/trip": {"trip/client.py": `import httpx

BASE = "https://trip-planner.p.rapidapi.com"
HEADERS = {"x-rapidapi-host": "trip-planner.p.rapidapi.com", "x-rapidapi-key": "0123456789abcdef0123456789abcdef0123456789abcdef01"}


def search(q):
    path = "/v1/search"
    resp = httpx.post(BASE + path, json={"q": q}, headers=HEADERS)
    if resp.status_code != 200:
        return None
    return resp.json()
`},
	"carol/misc": {"misc.py": `import requests
from settings import PATHS


def fetch(kind, key):
    host = "weather-now.p.rapidapi.com"
    try:
        return requests.get("https://" + host + PATHS[kind], headers={"x-rapidapi-host": host, "x-rapidapi-key": key}).json()
    except requests.RequestException:
        return None
`},
}

// writePipelineInputs writes the OpenAPI documents and commits each repository with
// fixed dates, so two calls produce byte-identical inputs.
func writePipelineInputs(t *testing.T) (docs, repos string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	root := t.TempDir()
	docs, repos = filepath.Join(root, "docs"), filepath.Join(root, "repos")
	for name, body := range map[string]string{"weather.json": weatherDoc, "trip.json": tripDoc} {
		writeFile(t, filepath.Join(docs, name), body)
	}
	for full, files := range pipelineRepos {
		dir := filepath.Join(repos, strings.ReplaceAll(full, "/", "__"))
		for p, body := range files {
			writeFile(t, filepath.Join(dir, p), body)
		}
		gitRun(t, dir, "init", "-q", "-b", "main")
		gitRun(t, dir, "remote", "add", "origin", "https://github.com/"+full+".git")
		gitRun(t, dir, "add", ".")
		gitRun(t, dir, "commit", "-q", "-m", "initial")
	}
	return docs, repos
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2025-02-03T04:05:06Z", "GIT_COMMITTER_DATE=2025-02-03T04:05:06Z",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func readExport(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, f := range []string{"sccgbench.json", "splits/train.json", "splits/validation.json", "splits/test.json", "stats.json"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		out[f] = b
	}
	return out
}

func TestBuildEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end build skipped in -short mode")
	}
	ctx := context.Background()
	docs, repos := writePipelineInputs(t)
	opts := func(out string) Options {
		return Options{Docs: []string{docs}, Local: repos, Out: out, Split: split.Options{Seed: 1}}
	}

	s := storetest.Open(t)
	out1 := t.TempDir()
	sum, err := Build(ctx, s, opts(out1))
	if err != nil {
		t.Fatalf("build: %v (%+v)", err, sum)
	}
	recs, _, err := samples.Records(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range recs {
		got[r.FunctionName] = r.SampleID + " " + r.APIMetadata.DocMatchType
	}
	t.Logf("samples: %v; stages: %+v", got, sum.Stages)
	if len(recs) == 0 || sum.Samples != len(recs) {
		t.Fatalf("build made %d samples (summary %d), want some", len(recs), sum.Samples)
	}
	for _, st := range sum.Stages {
		if st.Stage == "redact" && st.Status != StatusOK {
			t.Errorf("redact stage status %q, want %q", st.Status, StatusOK)
		}
	}
	for _, r := range recs {
		if r.CommentsSource == samples.CommentsNone || len(r.Comments) == 0 {
			t.Errorf("%s (%s) has comments_source %q and %d comments: every sample needs an intent", r.SampleID, r.FunctionName, r.CommentsSource, len(r.Comments))
		}
	}
	if sum.IntentPaths["original"]+sum.IntentPaths["offline"] != len(recs) {
		t.Errorf("intent paths %v do not add up to the %d samples", sum.IntentPaths, len(recs))
	}
	t.Run("each stage's run records its resolved options", func(t *testing.T) {
		runs, err := s.LastRuns(ctx, 50)
		if err != nil {
			t.Fatal(err)
		}
		args := map[string]map[string]any{}
		for _, r := range runs {
			if _, seen := args[r.Stage]; !seen {
				args[r.Stage] = r.Args
			}
		}
		want := map[string][]string{
			"mine":     {"local", "max_per_api", "endpoints_per_api", "max_file_bytes"},
			"extract":  {"workers", "timeout", "max_bytes"},
			"align":    {"threshold", "perms", "shingle"},
			"decontam": {"per_repo", "per_api", "blocklist", "factory_similarity", "factory_min_share"},
			"split":    {"seed", "ratios", "name_similarity"},
		}
		for stage, keys := range want {
			for _, k := range keys {
				if _, ok := args[stage][k]; !ok {
					t.Errorf("%s run args %v lack %q", stage, args[stage], k)
				}
			}
		}
		if args["decontam"]["per_repo"] != float64(5) || args["decontam"]["per_api"] != float64(20) ||
			args["align"]["threshold"] != 0.85 || args["align"]["perms"] != float64(256) {
			t.Errorf("defaults not resolved into the runs: decontam %v, align %v", args["decontam"], args["align"])
		}
		if _, ok := args["samples"]; !ok {
			t.Error("building samples recorded no run")
		}
	})

	first := readExport(t, out1)
	if bytes.Contains(first["sccgbench.json"], []byte("0123456789abcdef0123456789abcdef")) {
		t.Error("the export contains the hard-coded key")
	}

	t.Run("audit of each kind of sample", func(t *testing.T) {
		for _, r := range recs {
			kind := r.APIMetadata.DocMatchType
			a, err := provenance.LoadAudit(ctx, s, r.SampleID)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := a.WriteText(&buf); err != nil {
				t.Fatal(err)
			}
			// Temporary directory names must not leak into the lineage shown.
			if strings.Contains(buf.String(), os.TempDir()) {
				t.Errorf("audit of %s shows a local path:\n%s", r.SampleID, buf.String())
			}
			golden.Check(t, filepath.Join("testdata", "audit", kind+".txt"), buf.Bytes(), *update)
		}
	})

	t.Run("rerun changes nothing", func(t *testing.T) {
		before := storetest.MustDump(t, s, "samples", "splits", "kept", "alignments", "functions", "files", "intents", "masked", "decisions")
		out2 := t.TempDir()
		if _, err := Build(ctx, s, opts(out2)); err != nil {
			t.Fatal(err)
		}
		after := storetest.MustDump(t, s, "samples", "splits", "kept", "alignments", "functions", "files", "intents", "masked", "decisions")
		if before != after {
			t.Error("a second build changed the store")
		}
		for f, b := range readExport(t, out2) {
			if !bytes.Equal(b, first[f]) {
				t.Errorf("%s differs after a rerun", f)
			}
		}
	})

	t.Run("same inputs, fresh store: byte-identical export", func(t *testing.T) {
		docs2, repos2 := writePipelineInputs(t)
		o := opts(t.TempDir())
		o.Docs, o.Local = []string{docs2}, repos2
		if _, err := Build(ctx, storetest.Open(t), o); err != nil {
			t.Fatal(err)
		}
		for f, b := range readExport(t, o.Out) {
			if !bytes.Equal(b, first[f]) {
				t.Errorf("%s differs between two builds of the same inputs", f)
			}
		}
	})

	t.Run("interrupted build resumes to the same export", func(t *testing.T) {
		s2 := storetest.Open(t)
		cctx, cancel := context.WithCancel(ctx)
		o := opts(t.TempDir())
		o.Logf = func(format string, args ...any) {
			if strings.HasPrefix(format, "[%d/%d] %s") && len(args) == 3 && args[2] == "align" {
				cancel()
			}
		}
		if _, err := Build(cctx, s2, o); !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted build: err = %v, want context.Canceled", err)
		}
		o.Logf = nil
		if _, err := Build(ctx, s2, o); err != nil {
			t.Fatal(err)
		}
		for f, b := range readExport(t, o.Out) {
			if !bytes.Equal(b, first[f]) {
				t.Errorf("%s differs after an interrupted build resumed", f)
			}
		}
	})
}

func TestClassifyDocs(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.json"), weatherDoc)
	writeFile(t, filepath.Join(dir, "sub", "tool.json"), `{"tool_name": "x", "api_list": []}`)
	writeFile(t, filepath.Join(dir, "b.yaml"), "openapi: 3.0.3\n")
	writeFile(t, filepath.Join(dir, "notes.txt"), "not a doc")
	tests := []struct {
		name      string
		paths     []string
		openapi   int
		toolbench int
		wantErr   bool
	}{
		{"folder", []string{dir}, 2, 1, false},
		{"one file", []string{filepath.Join(dir, "sub", "tool.json")}, 0, 1, false},
		{"missing", []string{filepath.Join(dir, "nope")}, 0, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, tb, err := ClassifyDocs(tc.paths)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if len(o) != tc.openapi || len(tb) != tc.toolbench {
				t.Errorf("openapi %v, toolbench %v; want %d and %d", o, tb, tc.openapi, tc.toolbench)
			}
		})
	}
}
