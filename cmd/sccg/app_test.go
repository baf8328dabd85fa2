package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// newTestEnv returns an env with buffers for streams, an empty environment, a fixed
// clock and a store path in a temporary directory.
func newTestEnv(t *testing.T) (*env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: func(string) string { return "" },
		now:    func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) },
		db:     filepath.Join(t.TempDir(), "sccg.db"),
		dbSet:  true, // each test names its own store, as --db would
	}
	return e, &out, &errb
}

func TestExitCodes(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
		stdout string
	}{
		{name: "no command", args: nil, code: 2, stderr: "usage: sccg"},
		{name: "help", args: []string{"help"}, code: 0, stdout: "commands:"},
		{name: "unknown command", args: []string{"bogus"}, code: 2, stderr: `unknown command "bogus"`},
		{name: "unknown flag", args: []string{"stats", "--bogus"}, code: 2, stderr: "flag provided but not defined: -bogus"},
		{name: "unknown global flag", args: []string{"--bogus", "stats"}, code: 2, stderr: "flag provided but not defined"},
		{name: "command help", args: []string{"stats", "--help"}, code: 0, stderr: "usage: sccg stats"},
		{name: "version", args: []string{"version"}, code: 0, stdout: "sccg "},
		{name: "stats on a store that cannot be created", args: []string{"stats", "--db", "/nonexistent-dir/x.db"}, code: 1, stderr: "sccg stats:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, out, errb := newTestEnv(t)
			code := run(context.Background(), tc.args, e)
			if code != tc.code {
				t.Fatalf("exit code = %d, want %d (stderr %q)", code, tc.code, errb.String())
			}
			if tc.stderr != "" && !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr = %q, want it to contain %q", errb.String(), tc.stderr)
			}
			if tc.stdout != "" && !strings.Contains(out.String(), tc.stdout) {
				t.Errorf("stdout = %q, want it to contain %q", out.String(), tc.stdout)
			}
			if strings.Count(strings.TrimSpace(errb.String()), "\n") > 0 && tc.code == 1 {
				t.Errorf("a failure should print one line, got %q", errb.String())
			}
		})
	}
}

func TestStatsOnANewStore(t *testing.T) {
	e, out, _ := newTestEnv(t)
	if code := run(context.Background(), []string{"stats"}, e); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"schema version", "apis  0", "runs  0", "no runs yet"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stats output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestStatsJSONParses(t *testing.T) {
	e, out, errb := newTestEnv(t)
	// --json before the command, --db after it: both places work.
	db := e.db
	e.db = "unused.db"
	if code := run(context.Background(), []string{"--json", "stats", "--db", db}, e); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got struct {
		DB            string           `json:"db"`
		SchemaVersion int              `json:"schema_version"`
		Tables        map[string]int64 `json:"tables"`
		Runs          []any            `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("stats --json is not JSON: %v\n%s", err, out.String())
	}
	if got.DB != db || got.SchemaVersion == 0 || len(got.Tables) == 0 || got.Runs == nil {
		t.Fatalf("unexpected stats: %+v", got)
	}
	for table, n := range got.Tables {
		if n != 0 {
			t.Errorf("new store: %s has %d rows", table, n)
		}
	}
	if errb.Len() != 0 {
		t.Errorf("--json wrote to stderr: %q", errb.String())
	}
}

func TestEveryCommandIsListedOnce(t *testing.T) {
	want := []string{"crawl", "mine", "extract", "align", "decontam", "redact", "split", "export", "import", "build", "demo",
		"prompts", "generate", "baseline", "experiment", "retrieve", "eval", "verify", "leakcheck", "audit", "report", "stats", "version"}
	seen := map[string]int{}
	for _, c := range commands {
		seen[c.name]++
		if c.summary == "" || c.run == nil {
			t.Errorf("command %q lacks a summary or a runner", c.name)
		}
	}
	for _, n := range want {
		if seen[n] != 1 {
			t.Errorf("command %q listed %d times, want once", n, seen[n])
		}
	}
}

func TestParseAcceptsFlagsAfterArguments(t *testing.T) {
	e, _, _ := newTestEnv(t)
	fs := e.flags("import", "FILE")
	split := fs.String("split", "", "")
	pos, err := e.parse(fs, []string{"bench.json", "--db", "x.db", "--split", "test", "more.json"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(pos, ",") != "bench.json,more.json" || e.db != "x.db" || *split != "test" {
		t.Fatalf("pos=%v db=%s split=%s", pos, e.db, *split)
	}
}
