package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"sccg/store"
)

// extractTestEnv returns a CLI env whose store holds one repository with two files.
func extractTestEnv(t *testing.T) *env {
	t.Helper()
	e, _, _ := newTestEnv(t)
	ctx := context.Background()
	s, err := e.openStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	files := map[string]string{
		"a.py": "import requests\n\ndef get(q):\n    return requests.get('https://x.p.rapidapi.com/s', params={'q': q}).json()\n",
		"b.py": "def nothing():\n    return 1\n",
	}
	err = s.Update(ctx, func(tx *store.Tx) error {
		id, err := tx.UpsertRepository(ctx, &store.Repository{FullName: "o/r", Source: "local"})
		if err != nil {
			return err
		}
		for _, p := range []string{"a.py", "b.py"} {
			if _, err := tx.SaveFile(ctx, &store.File{RepoID: id, Path: p, GitSHA: p}, []byte(files[p])); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestExtractCLI(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{name: "first run", args: []string{"extract"}, code: 0, stdout: "extracted 2 files (0 already done)"},
		{name: "second run resumes", args: []string{"extract"}, code: 0, stdout: "extracted 0 files (2 already done)"},
		{name: "refresh", args: []string{"extract", "--refresh", "--workers", "1"}, code: 0, stdout: "1 candidate functions"},
		{name: "json", args: []string{"--json", "extract", "--refresh"}, code: 0, stdout: `"candidates": 1`},
		{name: "bad timeout", args: []string{"extract", "--timeout", "0s"}, code: 2, stderr: "--timeout"},
		{name: "bad workers", args: []string{"extract", "--workers", "-1"}, code: 2, stderr: "--workers"},
		{name: "bad max bytes", args: []string{"extract", "--max-bytes", "0"}, code: 2, stderr: "--max-bytes"},
		{name: "too large", args: []string{"extract", "--refresh", "--max-bytes", "40"}, code: 0, stdout: "1 too large"},
		{name: "stray argument", args: []string{"extract", "x"}, code: 2, stderr: "no arguments"},
		{name: "no python to judge syntax: counted, said", args: []string{"extract", "--refresh", "--python", "no-such-python-sccg"}, code: 0,
			stdout: "1 candidates unchecked: no Python to judge their syntax"},
	}
	e := extractTestEnv(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb strings.Builder
			e.stdout, e.stderr, e.json = &out, &errb, false
			if code := run(context.Background(), tc.args, e); code != tc.code {
				t.Fatalf("sccg %s: exit %d, want %d (stderr %q)", strings.Join(tc.args, " "), code, tc.code, errb.String())
			}
			if !strings.Contains(out.String(), tc.stdout) {
				t.Errorf("stdout = %q, want it to contain %q", out.String(), tc.stdout)
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr = %q, want it to contain %q", errb.String(), tc.stderr)
			}
		})
	}
	s, err := e.openStore(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fns, err := s.Functions(context.Background(), store.FunctionCandidate)
	if err != nil || len(fns) != 1 || fns[0].QualName != "get" {
		t.Fatalf("candidates = %+v, %v; want get", fns, err)
	}
	var facts struct {
		Calls []struct{ Host, Path string }
	}
	if err := json.Unmarshal(fns[0].Facts, &facts); err != nil || len(facts.Calls) != 1 || facts.Calls[0].Host != "x.p.rapidapi.com" {
		t.Errorf("facts = %s, want one call to x.p.rapidapi.com", fns[0].Facts)
	}
}
