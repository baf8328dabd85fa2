package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sccg/store"
)

// importTestRun runs one sccg invocation against e and fails the test on an
// unexpected exit code.
func importTestRun(t *testing.T, e *env, want int, args ...string) {
	t.Helper()
	if code := run(context.Background(), args, e); code != want {
		t.Fatalf("sccg %s: exit %d, want %d (stderr %q)", strings.Join(args, " "), code, want, e.stderr)
	}
}

func TestImportExportCLI(t *testing.T) {
	fixture := filepath.Join("..", "..", "samples", "testdata", "mini.json")
	tests := []struct {
		name   string
		args   func(out string) []string
		code   int
		stdout string
		files  []string
	}{
		{name: "import with split", args: func(string) []string { return []string{"import", fixture, "--split", "validation"} }, code: 0, stdout: "imported 2 records"},
		{name: "import needs a file", args: func(string) []string { return []string{"import"} }, code: 2},
		{name: "import bad split", args: func(string) []string { return []string{"import", fixture, "--split", "holdout"} }, code: 2},
		{name: "import missing file", args: func(string) []string { return []string{"import", "nope.json"} }, code: 1},
		{name: "export json", args: func(out string) []string { return []string{"export", "--out", out} }, code: 0, stdout: "train / validation / test: 0 / 1 / 1",
			files: []string{"sccgbench.json", "splits/train.json", "splits/validation.json", "splits/test.json", "stats.json"}},
		{name: "export jsonl", args: func(out string) []string { return []string{"export", "--out", out, "--format", "jsonl"} }, code: 0,
			files: []string{"sccgbench.jsonl", "splits/test.jsonl", "stats.json"}},
		{name: "export needs --out", args: func(string) []string { return []string{"export"} }, code: 2},
		{name: "export bad format", args: func(out string) []string { return []string{"export", "--out", out, "--format", "xml"} }, code: 2},
	}
	e, out, _ := newTestEnv(t)
	importTestRun(t, e, 0, "import", fixture)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out.Reset()
			dir := t.TempDir()
			importTestRun(t, e, tc.code, tc.args(dir)...)
			if !strings.Contains(out.String(), tc.stdout) {
				t.Errorf("stdout = %q, want it to contain %q", out, tc.stdout)
			}
			for _, f := range tc.files {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("export did not write %s: %v", f, err)
				}
			}
		})
	}
}

func TestExportEmptyStoreFails(t *testing.T) {
	e, _, errb := newTestEnv(t)
	importTestRun(t, e, 1, "export", "--out", t.TempDir())
	if !strings.Contains(errb.String(), "no samples") {
		t.Errorf("stderr = %q, want it to say the store has no samples", errb)
	}
}

func TestExportEmptyStoreWrapsErrNoSamples(t *testing.T) {
	e, _, _ := newTestEnv(t)
	err := runExport(context.Background(), e, []string{"--out", t.TempDir()})
	if !errors.Is(err, store.ErrNoSamples) {
		t.Errorf("runExport on an empty store = %v, want it to wrap store.ErrNoSamples", err)
	}
}
