package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sccg/mine/corpus"
)

func TestCorpusAndMineCorpusCLI(t *testing.T) {
	e, _ := mineTestEnv(t)
	dir := t.TempDir()
	repo := filepath.Join(dir, "repos", "scratch")
	os.MkdirAll(repo, 0o755)
	os.WriteFile(filepath.Join(repo, "host.py"), []byte("HOST = 'jokes-hub.p.rapidapi.com'\n"), 0o644)
	shard := filepath.Join(dir, "c.parquet")
	// A stand-in for sccg-beam that records its arguments and exits with $CODE.
	fake := filepath.Join(dir, "fake-beam")
	argsFile := filepath.Join(dir, "args")
	os.WriteFile(fake, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > "+argsFile+"\nexit ${CODE:-0}\n"), 0o755)
	env := map[string]string{}
	e.getenv = func(k string) string { return env[k] }

	tests := []struct {
		name   string
		env    map[string]string
		args   []string
		code   int
		stderr string
		check  func(t *testing.T)
	}{
		{name: "corpus without pack", args: []string{"corpus"}, code: 2, stderr: "corpus pack --local"},
		{name: "pack without out", args: []string{"corpus", "pack", "--local", repo}, code: 2, stderr: "are required"},
		{name: "pack of a missing dir", args: []string{"corpus", "pack", "--local", filepath.Join(dir, "nope"), "--out", shard}, code: 2, stderr: "not a directory"},
		{name: "pack", args: []string{"corpus", "pack", "--local", filepath.Join(dir, "repos"), "--out", shard}, code: 0},
		{name: "corpus and local", args: []string{"mine", "--corpus", shard, "--local", repo}, code: 2, stderr: "exclude each other"},
		{name: "no sccg-beam", env: map[string]string{"SCCG_BEAM": filepath.Join(dir, "missing")}, args: []string{"mine", "--corpus", shard}, code: 1, stderr: "SCCG_BEAM names"},
		{name: "corpus through sccg-beam", env: map[string]string{"SCCG_BEAM": fake},
			args: []string{"mine", "--corpus", shard, "--runner", "dataflow", "--api", "jokes-hub", "--", "--project=p", "--region=r"}, code: 0,
			check: func(t *testing.T) {
				b, _ := os.ReadFile(argsFile)
				got := strings.Fields(string(b))
				want := []string{"--db", e.db, "--corpus", shard, "--runner", "dataflow", "--out", "corpus-out", "--shards", "16",
					"--max-file-bytes", "1048576", "--endpoints-per-api", "5", "--api", "jokes-hub", "--project=p", "--region=r"}
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("sccg-beam got\n%q\nwant\n%q", got, want)
				}
			}},
		{name: "sccg-beam usage error", env: map[string]string{"SCCG_BEAM": fake, "CODE": "2"}, args: []string{"mine", "--corpus", shard}, code: 2, stderr: "refused its arguments"},
		{name: "load without manifest", args: []string{"mine", "--load", dir}, code: 1, stderr: "no manifest.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clear(env)
			for k, v := range tc.env {
				env[k] = v
			}
			t.Setenv("CODE", tc.env["CODE"]) // for the fake, which sees the process environment
			var out, errb strings.Builder
			e.stdout, e.stderr = &out, &errb
			if code := run(context.Background(), tc.args, e); code != tc.code || !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("got code %d stderr %q; want %d, %q", code, errb.String(), tc.code, tc.stderr)
			}
			if tc.check != nil {
				tc.check(t)
			}
		})
	}
	f, err := os.Open(shard)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	var paths []string
	err = corpus.Read(context.Background(), corpus.Parquet, "c.parquet", f, info.Size(), func(_ int64, r corpus.Row, bad string) error {
		paths = append(paths, r.Repo+"/"+r.Path+" "+bad)
		return nil
	})
	if err != nil || len(paths) != 1 || paths[0] != "local/scratch/host.py " {
		t.Errorf("packed rows %q (%v)", paths, err)
	}
}
