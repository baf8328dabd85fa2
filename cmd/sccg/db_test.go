package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"sccg/store"
)

func TestDBFlag(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		wantDB    string
		wantDBSet bool
	}{
		{"default", []string{"version"}, defaultDB, false},
		{"before the command", []string{"--db", "a.db", "version"}, "a.db", true},
		{"after the command", []string{"version", "--db", "b.db"}, "b.db", true},
		{"named as the default", []string{"--db", defaultDB, "version"}, defaultDB, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			e, _, errb := newTestEnv(t)
			e.db, e.dbSet = defaultDB, false
			if code := run(context.Background(), tc.args, e); code != 0 {
				t.Fatalf("exit %d: %s", code, errb)
			}
			if e.db != tc.wantDB || e.dbSet != tc.wantDBSet {
				t.Errorf("db = %q (set %v), want %q (set %v)", e.db, e.dbSet, tc.wantDB, tc.wantDBSet)
			}
		})
	}
}

// TestEvalStoresOnlyWhenDBGiven: eval keeps its results in the store when --db is
// given, whether before or after "eval" and even when it names the default file,
// and writes no store when it is not.
func TestEvalStoresOnlyWhenDBGiven(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox")
	}
	_, _, _, bench, _ := evalTestEnv(t)
	bench, _ = filepath.Abs(bench)
	tests := []struct {
		name      string
		args      func(out string) []string
		wantStore bool
	}{
		{"no --db", func(out string) []string { return []string{"eval", "--gold", "--bench", bench, "--out", out} }, false},
		{"--db before eval, default name", func(out string) []string {
			return []string{"--db", defaultDB, "eval", "--gold", "--bench", bench, "--out", out}
		}, true},
		{"--db after eval", func(out string) []string {
			return []string{"eval", "--gold", "--bench", bench, "--out", out, "--db", defaultDB}
		}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			e, _, errb := newTestEnv(t)
			e.db, e.dbSet = defaultDB, false
			if code := run(context.Background(), tc.args(filepath.Join(dir, "out")), e); code != 0 {
				t.Fatalf("exit %d: %s", code, errb)
			}
			_, err := os.Stat(filepath.Join(dir, defaultDB))
			if exists := err == nil; exists != tc.wantStore {
				t.Fatalf("store file exists = %v, want %v", exists, tc.wantStore)
			}
			if !tc.wantStore {
				return
			}
			s, err := store.Open(context.Background(), filepath.Join(dir, defaultDB))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			evs, err := s.LatestEvaluations(context.Background())
			if err != nil || len(evs) == 0 {
				t.Errorf("stored evaluations: %d, %v; want some", len(evs), err)
			}
		})
	}
}
