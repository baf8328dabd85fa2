package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sccg/lang/python"
	"sccg/store"
)

// alignTestSources are two repositories' files: a real client, an exact copy of it
// in a later repository, and a ToolBench-style wrapper.
var alignTestSources = []struct{ repo, created, path, code string }{
	{"alice/weather", "2021-01-01T00:00:00Z", "wx.py", `import requests

API_KEY = "` + "7a1b" + "2c3d4emsh" + "5f6a7b8c9d0e1f2p" + "3a4b5c" + "jsn6d7e8f9a0b1c" + `"


def current(city):
    """Current temperature for a city."""
    url = "https://wx.p.rapidapi.com/current"
    headers = {"X-RapidAPI-Key": API_KEY, "X-RapidAPI-Host": "wx.p.rapidapi.com"}
    r = requests.get(url, headers=headers, params={"q": city})
    r.raise_for_status()
    return r.json()["temp"]
`},
	{"bob/weather-copy", "2023-01-01T00:00:00Z", "copy.py", `import requests

API_KEY = "` + "7a1b" + "2c3d4emsh" + "5f6a7b8c9d0e1f2p" + "3a4b5c" + "jsn6d7e8f9a0b1c" + `"


def current(city):
    """Current temperature for a city."""
    url = "https://wx.p.rapidapi.com/current"
    headers = {"X-RapidAPI-Key": API_KEY, "X-RapidAPI-Host": "wx.p.rapidapi.com"}
    r = requests.get(url, headers=headers, params={"q": city})
    r.raise_for_status()
    return r.json()["temp"]
`},
	{"bob/weather-copy", "2023-01-01T00:00:00Z", "tools.py", `import requests


def forecast(location: str, toolbench_rapidapi_key: str = "088440d910"):
    url = f"https://wx.p.rapidapi.com/forecast/{location}"
    headers = {"X-RapidAPI-Key": toolbench_rapidapi_key, "X-RapidAPI-Host": "wx.p.rapidapi.com"}
    return requests.get(url, headers=headers).json()
`},
}

// alignTestEnv seeds the env's store with one API and the functions extracted from
// alignTestSources.
func alignTestEnv(t *testing.T) (*env, func() *store.Store) {
	t.Helper()
	e, _, _ := newTestEnv(t)
	ctx := context.Background()
	s, err := e.openStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.Update(ctx, func(tx *store.Tx) error {
		_, err := tx.SaveAPI(ctx, &store.API{Source: "rapidapi", Owner: "o", Slug: "wx", Host: "wx.p.rapidapi.com", CrawledAt: tx.Now()},
			[]store.Endpoint{
				{Host: "wx.p.rapidapi.com", Method: "GET", Route: "/current", IsCurrent: true, Params: []store.Param{{Name: "q", Location: "query", Type: "string"}}},
				{Host: "wx.p.rapidapi.com", Method: "GET", Route: "/forecast/{location}", IsCurrent: true, Params: []store.Param{{Name: "location", Location: "path", Type: "string"}}},
			})
		if err != nil {
			return err
		}
		for _, src := range alignTestSources {
			rid, err := tx.UpsertRepository(ctx, &store.Repository{FullName: src.repo, Source: "local", CreatedAt: src.created, FetchedAt: tx.Now()})
			if err != nil {
				return err
			}
			fid, err := tx.SaveFile(ctx, &store.File{RepoID: rid, Path: src.path, FoundAt: tx.Now()}, []byte(src.code))
			if err != nil {
				return err
			}
			res, err := python.Extract(ctx, []byte(src.code), python.Options{})
			if err != nil {
				return err
			}
			var fns []store.Function
			for _, f := range res.Functions {
				facts, _ := json.Marshal(f.Facts)
				fns = append(fns, store.Function{Name: f.Name, QualName: f.QualName, StartLine: f.StartLine, EndLine: f.EndLine,
					Source: f.Source, Code: f.Code, CodeHash: f.CodeHash, SyntaxOK: true, Status: store.FunctionCandidate,
					Quality: f.Facts.Quality.Score, Facts: facts})
			}
			if err := tx.SaveFunctions(ctx, fid, fns); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return e, func() *store.Store {
		s, err := e.openStore(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
}

func TestAlignDecontamCommands(t *testing.T) {
	e, open := alignTestEnv(t)
	ctx := context.Background()
	steps := []struct {
		name string
		args []string
		want []string
	}{
		{"align", []string{"align"}, []string{"aligned 3 of 3", "url        3", "1 exact copies"}},
		{"decontam", []string{"decontam"}, []string{"kept 1 of 3", "exact_duplicate", "(1 templates)", "RAPIDAPI_KEY 1"}},
	}
	var dumps []string
	for round := 0; round < 2; round++ {
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				out := e.stdout.(interface{ Reset() })
				out.Reset()
				if code := run(ctx, st.args, e); code != 0 {
					t.Fatalf("exit %d: %s", code, e.stderr)
				}
				got := e.stdout.(interface{ String() string }).String()
				for _, w := range st.want {
					if round == 0 && !strings.Contains(got, w) {
						t.Errorf("output lacks %q:\n%s", w, got)
					}
				}
			})
		}
		d, err := open().Dump(ctx, "alignments", "dedup", "kept", "decisions")
		if err != nil {
			t.Fatal(err)
		}
		dumps = append(dumps, d)
	}
	if dumps[0] != dumps[1] {
		t.Errorf("a second align + decontam changed the store")
	}
	kept, err := open().KeptFunctions(ctx)
	if err != nil || len(kept) != 1 {
		t.Fatalf("KeptFunctions = %d, %v; want 1", len(kept), err)
	}
	k := kept[0]
	if strings.Contains(k.Code, "msh") || !strings.Contains(k.Code, "<REDACTED_RAPIDAPI_KEY>") {
		t.Errorf("kept code not redacted:\n%s", k.Code)
	}
	if k.Alignment.DocMatchType != "url" || k.Alignment.Route != "/current" || !k.Alignment.IsPrimary {
		t.Errorf("kept alignment %+v, want the primary url alignment to /current", k.Alignment)
	}

	t.Run("audit-release of an export with the kept code", func(t *testing.T) {
		dir := t.TempDir()
		rec := func(code string) []byte {
			b, _ := json.Marshal([]map[string]any{{"sample_id": "SCG-000001", "code": map[string]any{"complete_function": code}}})
			return b
		}
		os.WriteFile(filepath.Join(dir, "clean.json"), rec(k.Code), 0o644)
		if code := run(ctx, []string{"audit-release", dir}, e); code != 0 {
			t.Errorf("clean export: exit %d, want 0: %s", code, e.stderr)
		}
		os.WriteFile(filepath.Join(dir, "leak.json"), rec(alignTestSources[0].code), 0o644)
		out := e.stdout.(interface{ Reset() })
		out.Reset()
		if code := run(ctx, []string{"audit-release", dir}, e); code != 1 {
			t.Errorf("seeded leak: exit %d, want 1", code)
		}
		got := e.stdout.(interface{ String() string }).String()
		if !strings.Contains(got, "SCG-000001") || !strings.Contains(got, "RAPIDAPI_KEY") || strings.Contains(got, "msh5f6a") {
			t.Errorf("finding listing (sample, kind, masked) wrong:\n%s", got)
		}
	})
}

func TestAlignDecontamUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"align extra argument", []string{"align", "x"}},
		{"align bad threshold", []string{"align", "--threshold", "1.5"}},
		{"decontam zero cap", []string{"decontam", "--per-repo", "0"}},
		{"decontam missing blocklist", []string{"decontam", "--blocklist", "/nonexistent/blocklist.txt"}},
		{"audit-release no argument", []string{"audit-release"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _, errb := newTestEnv(t)
			if code := run(context.Background(), tt.args, e); code != 2 {
				t.Errorf("exit %d, want 2 (stderr %q)", code, errb)
			}
		})
	}
}

func TestDecontamBlocklistAndJSON(t *testing.T) {
	e, open := alignTestEnv(t)
	ctx := context.Background()
	block := filepath.Join(t.TempDir(), "blocklist.txt")
	os.WriteFile(block, []byte("# never sample these\nalice/*\n"), 0o644)
	if code := run(ctx, []string{"align"}, e); code != 0 {
		t.Fatalf("align: exit %d: %s", code, e.stderr)
	}
	e.stdout.(interface{ Reset() }).Reset()
	if code := run(ctx, []string{"--json", "decontam", "--blocklist", block, "--per-repo", "-1"}, e); code != 0 {
		t.Fatalf("decontam: exit %d: %s", code, e.stderr)
	}
	var res struct {
		Kept    int            `json:"kept"`
		Reasons map[string]int `json:"reasons"`
	}
	if err := json.Unmarshal([]byte(e.stdout.(interface{ String() string }).String()), &res); err != nil {
		t.Fatalf("--json output: %v", err)
	}
	// alice's original is blocked, so bob's exact copy stands for their cluster.
	if res.Kept != 1 || res.Reasons["template: blocklisted_repository"] != 1 || res.Reasons["exact_duplicate"] != 0 {
		t.Errorf("kept %d, reasons %v; want alice's function blocklisted and bob's copy kept", res.Kept, res.Reasons)
	}
	kept, _ := open().KeptFunctions(ctx)
	if len(kept) != 1 {
		t.Fatalf("%d kept rows, want 1", len(kept))
	}
	if f, _ := open().Function(ctx, kept[0].FunctionID); f == nil || f.Name != "current" {
		t.Errorf("kept %+v, want bob's copy of current", f)
	}
	fns, _ := open().Functions(ctx, "candidate")
	for _, f := range fns {
		ds, _ := open().Decisions(ctx, "function", fmt.Sprint(f.ID))
		var reasons []string
		for _, d := range ds {
			if d.Stage == "decontam" {
				reasons = append(reasons, d.Verdict+": "+d.Reason)
			}
		}
		if len(reasons) == 0 {
			t.Errorf("function %s has no decontam decision", f.QualName)
		}
	}
}
