package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestVerifyCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox")
	}
	t.Parallel() // its own store and directories; the other slow end-to-end tests run beside it
	ctx := context.Background()
	e, out, errb, bench, _ := evalTestEnv(t)
	dir := t.TempDir()
	if code := run(ctx, []string{"verify", "--bench", bench, "--out", dir, "--fix", "--timeout", "30s"}, e); code != 0 {
		t.Fatalf("verify: exit %d, stderr %s", code, errb)
	}
	if !strings.Contains(out.String(), "verified 8 samples") || !strings.Contains(out.String(), "consistent") {
		t.Errorf("verify output:\n%s", out)
	}
	for _, f := range []string{"verified.json", "clean.json", "summary.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	out.Reset()
	e.json = true
	if code := run(ctx, []string{"verify", "--bench", bench, "--timeout", "30s"}, e); code != 0 {
		t.Fatalf("verify --json: exit %d, stderr %s", code, errb)
	}
	var rep struct {
		Samples []struct {
			SampleID     string `json:"sample_id"`
			Verification struct {
				Verdict string `json:"verdict"`
			} `json:"verification"`
		} `json:"samples"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Samples) != 8 {
		t.Fatalf("verify --json: %v, %d samples:\n%s", err, len(rep.Samples), out)
	}
	for _, s := range rep.Samples {
		if s.Verification.Verdict == "" {
			t.Errorf("%s has no verdict", s.SampleID)
		}
	}
	if code := run(ctx, []string{"verify"}, e); code != 2 {
		t.Errorf("verify without --bench: exit %d, want 2", code)
	}
}
