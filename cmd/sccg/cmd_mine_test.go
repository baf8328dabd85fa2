package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sccg/internal/golden"
	"sccg/internal/replay"
	"sccg/store"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// mineTestEnv returns a CLI env whose store holds the two APIs of the mine fixture
// corpus, and a replay server serving that corpus without rate-limit faults.
func mineTestEnv(t *testing.T) (*env, *replay.Server) {
	t.Helper()
	e, _, _ := newTestEnv(t)
	ctx := context.Background()
	s, err := e.openStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.Update(ctx, func(tx *store.Tx) error {
		for slug, routes := range map[string][]string{
			"weather-now": {"/forecast/daily/{location}", "/current", "/v1/aqi"},
			"jokes-hub":   {"/random/joke", "/joke/search"},
		} {
			host := slug + ".p.rapidapi.com"
			var eps []store.Endpoint
			for _, r := range routes {
				eps = append(eps, store.Endpoint{IsCurrent: true, Host: host, Method: "GET", Route: r})
			}
			if _, err := tx.SaveAPI(ctx, &store.API{Source: "rapidapi", Owner: "fixture", Slug: slug, Host: host}, eps); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	h, err := replay.GitHub(os.DirFS("../../mine/testdata/corpus"), replay.GitHubOptions{NoRequestFaults: true, SearchPerMinute: -1, Now: e.now})
	if err != nil {
		t.Fatal(err)
	}
	srv := replay.Start(h)
	t.Cleanup(srv.Close)
	return e, srv
}

func TestMineCLI(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{name: "no token", args: []string{"mine"}, code: 2, stderr: "needs a token: set GITHUB_TOKEN"},
		{name: "local and api base", args: []string{"mine", "--local", ".", "--api-base", "http://x"}, code: 2, stderr: "exclude each other"},
		{name: "zero rate", args: []string{"mine", "--api-base", "http://x", "--search-per-minute", "0"}, code: 2, stderr: "--search-per-minute"},
		{name: "bad size", args: []string{"mine", "--local", ".", "--max-file-bytes", "0"}, code: 2, stderr: "must be positive"},
		{name: "stray argument", args: []string{"mine", "--local", ".", "x"}, code: 2, stderr: "no arguments"},
		{name: "missing local dir", args: []string{"mine", "--local", "/nonexistent-sccg-dir"}, code: 1, stderr: "mine --local"},
	}
	e, _ := mineTestEnv(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb strings.Builder
			e.stdout, e.stderr = &out, &errb
			code := run(context.Background(), tc.args, e)
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("got code %d stdout %q stderr %q; want %d, %q, %q", code, out.String(), errb.String(), tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}

func TestMineCLIReplayGolden(t *testing.T) {
	e, srv := mineTestEnv(t)
	e.getenv = func(k string) string {
		if k == "SCCG_GH" {
			return "tok-1, tok-2"
		}
		return ""
	}
	var out, errb strings.Builder
	e.stdout, e.stderr = &out, &errb
	args := []string{"mine", "--api-base", srv.URL, "--token-env", "SCCG_GH", "--search-per-minute", "-1"}
	if code := run(context.Background(), args, e); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	ctx := context.Background()
	st, err := e.openStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	files, _ := st.Files(ctx)
	var lines []string
	for _, f := range files {
		r, _ := st.Repository(ctx, f.RepoID)
		lines = append(lines, fmt.Sprintf("%s/%s %s", r.FullName, f.Path, f.QueryLayer))
	}
	sort.Strings(lines)
	runs, _ := st.LastRuns(ctx, 1)
	got := out.String() + strings.Join(lines, "\n") + "\n"
	golden.Check(t, filepath.Join("testdata", "mine_cli.golden"), []byte(got), *update)
	if len(runs) != 1 || runs[0].Status != store.RunOK || runs[0].Counts["stored"] != int64(len(files)) {
		t.Errorf("run record %+v", runs)
	}
	for _, r := range srv.Log.All() {
		if a := r.Header.Get("Authorization"); a != "Bearer tok-1" && a != "Bearer tok-2" {
			t.Fatalf("%s sent with %q", r.Path, a)
		}
	}
	for _, r := range srv.Log.Repeats() {
		if !strings.HasSuffix(r, " /rate_limit") { // asked once per token
			t.Errorf("repeated request: %v", r)
		}
	}
	// --json prints the counters; a rerun has nothing to do.
	out.Reset()
	e.json = true
	if code := run(ctx, args, e); code != 0 {
		t.Fatalf("rerun exit %d", code)
	}
	var stats map[string]any
	if err := json.Unmarshal([]byte(out.String()), &stats); err != nil || stats["stored"] != 0.0 || stats["search_requests"] != 0.0 {
		t.Errorf("rerun --json: %s (%v)", out.String(), err)
	}
}

func TestMineCLILocal(t *testing.T) {
	e, _ := mineTestEnv(t)
	dir := t.TempDir()
	src, err := os.ReadFile("../../mine/testdata/corpus/repos/bob/bots/files/jokes.py")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "bots"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "bots", "jokes.py"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	e.stdout, e.stderr = &out, &errb
	if code := run(context.Background(), []string{"mine", "--local", dir}, e); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "mined: 1 files stored") || !strings.Contains(out.String(), "0 requests") {
		t.Errorf("stdout %q", out.String())
	}
}
