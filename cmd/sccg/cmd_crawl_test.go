package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sccg/crawl"
	"sccg/internal/replay"
)

// crawlTestEnv is an env with buffers and a fixed clock plus a RapidAPI replay
// server without scripted faults (the crawl package tests those), so the CLI never
// really waits.
func crawlTestEnv(t *testing.T) (*env, *bytes.Buffer, *bytes.Buffer, *replay.Server) {
	t.Helper()
	e, out, errb := newTestEnv(t)
	h, err := replay.RapidAPI(replay.RapidAPIOptions{NoFaults: true})
	if err != nil {
		t.Fatal(err)
	}
	srv := replay.Start(h)
	t.Cleanup(srv.Close)
	return e, out, errb, srv
}

func TestCrawlCommand(t *testing.T) {
	ctx := context.Background()
	e, out, errb, srv := crawlTestEnv(t)
	list := filepath.Join(t.TempDir(), "apis.txt")
	os.WriteFile(list, []byte("# named APIs\nhttps://rapidapi.com/moviedb/api/movie-database-alt/playground\n\nnewsflow/news-headlines-api\n"), 0o644)
	code := run(ctx, []string{"crawl", "--base-url", srv.URL, "--rps", "1000", "--api", "skyward-labs/weatherstack-forecast", "--apis", list, "--json"}, e)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errb)
	}
	var sum crawl.Summary
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out)
	}
	if sum.Saved != 3 || sum.Bad != 0 || sum.Targets != 3 {
		t.Errorf("summary %+v, want 3 saved", sum)
	}
	if reps := srv.Log.Repeats(); len(reps) != 0 {
		t.Errorf("repeats: %v", reps)
	}

	// export-openapi writes a document that validates.
	out.Reset()
	if code := run(ctx, []string{"crawl", "export-openapi", "skyward-labs/weatherstack-forecast"}, e); code != 0 {
		t.Fatalf("export-openapi exit %d: %s", code, errb)
	}
	if err := crawl.ValidateOpenAPI(ctx, out.Bytes()); err != nil {
		t.Errorf("exported document: %v", err)
	}
	if !strings.Contains(out.String(), `"/forecast/daily/{location}"`) || !strings.Contains(out.String(), `weatherstack-forecast.p.rapidapi.com`) {
		t.Errorf("exported document lacks the route or host:\n%.400s", out)
	}
	file := filepath.Join(t.TempDir(), "w.json")
	if code := run(ctx, []string{"crawl", "export-openapi", "--out", file, "newsflow/news-headlines-api"}, e); code != 0 {
		t.Fatalf("export-openapi --out exit %d: %s", code, errb)
	}
	if b, err := os.ReadFile(file); err != nil || crawl.ValidateOpenAPI(ctx, b) != nil {
		t.Errorf("--out file: %v", err)
	}

	// A rerun fetches nothing and says so.
	out.Reset()
	e.json = false // --json above set the global flag on this env
	n := srv.Log.Len()
	if code := run(ctx, []string{"crawl", "--base-url", srv.URL, "--rps", "1000", "--api", "skyward-labs/weatherstack-forecast"}, e); code != 0 {
		t.Fatalf("rerun exit %d: %s", code, errb)
	}
	if srv.Log.Len() != n || !strings.Contains(out.String(), "1 already done") {
		t.Errorf("rerun made %d requests; output %s", srv.Log.Len()-n, out)
	}
}

func TestCrawlCommandErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		args   func(base string) []string
		code   int
		stderr string
		stdout string
	}{
		{"unknown source", func(string) []string { return []string{"crawl", "--source", "wsdl"} }, 2, `unknown --source "wsdl"`, ""},
		{"paths need a file source", func(string) []string { return []string{"crawl", "some.json"} }, 2, "PATHs are for --source openapi", ""},
		{"openapi needs paths", func(string) []string { return []string{"crawl", "--source", "openapi"} }, 2, "needs at least one PATH", ""},
		{"bad discovery", func(string) []string { return []string{"crawl", "--discovery", "dns"} }, 2, "unknown --discovery", ""},
		{"export needs one api", func(string) []string { return []string{"crawl", "export-openapi"} }, 2, "takes one OWNER/SLUG", ""},
		{"export unknown api", func(string) []string { return []string{"crawl", "export-openapi", "no/such"} }, 1, "not found", ""},
		{"nothing crawled exits 1", func(b string) []string {
			return []string{"crawl", "--base-url", b, "--rps", "1000", "--api", "ghostdev/retired-api"}
		}, 1, "crawl rejected 1 page: no API data in page", ""},
		{"bad input is counted, run goes on", func(b string) []string {
			return []string{"crawl", "--base-url", b, "--rps", "1000", "--api", "ghostdev/retired-api", "--api", "jokester/dad-jokes-daily"}
		}, 0, "", "1 API(s) saved"},
		{"missing apis file", func(b string) []string { return []string{"crawl", "--apis", "/nonexistent/list"} }, 2, "read api list", ""},
		{"a relative server URL without a base is rejected, saying what to add", func(string) []string {
			return []string{"crawl", "--source", "openapi", filepath.Join(publishedDocs, "relative-server.yaml")}
		}, 1, "crawl rejected 1 file: no_host\n    relative-server.yaml: relative-server.yaml says nowhere which host serves its 1 operation(s) (GET /parks)", ""},
		{"--base-url resolves a relative server URL", func(string) []string {
			return []string{"crawl", "--source", "openapi", "--base-url", "https://parks.example-maps.test", filepath.Join(publishedDocs, "relative-server.yaml")}
		}, 0, "crawl warning 1 api: relative_server_resolved", "1 API(s) saved with 1 endpoint(s)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, out, errb, srv := crawlTestEnv(t)
			code := run(ctx, tc.args(srv.URL), e)
			if code != tc.code || !strings.Contains(errb.String(), tc.stderr) || !strings.Contains(out.String(), tc.stdout) {
				t.Errorf("exit %d, stderr %q, stdout %q; want %d, %q, %q", code, errb, out, tc.code, tc.stderr, tc.stdout)
			}
		})
	}
}
