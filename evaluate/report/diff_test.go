package report

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sccg/release"
)

// TestReleaseDiffSection: given two releases, the report says what changed
// between them, sample by sample.
func TestReleaseDiffSection(t *testing.T) {
	recs, err := release.ReadFile(filepath.Join("testdata", "export", "sccgbench.json"))
	if err != nil {
		t.Fatal(err)
	}
	stats, err := os.ReadFile(filepath.Join("testdata", "export", "stats.json"))
	if err != nil {
		t.Fatal(err)
	}
	// the rebuild drops the first record's API and moves the route of another
	gone := release.APIKey(&recs[0])
	var next []release.Record
	for _, r := range recs {
		if release.APIKey(&r) != gone {
			next = append(next, r)
		}
	}
	next[0].APIMetadata.Route += "/v2"
	write := func(name string, rs []release.Record) string {
		dir := filepath.Join(t.TempDir(), name)
		b, err := release.EncodeJSON(rs)
		if err != nil {
			t.Fatal(err)
		}
		for f, data := range map[string][]byte{"sccgbench.json": b, "stats.json": stats} {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	old, rebuilt := write("old", recs), write("new", next)
	dir, _ := writeFixture(t, Inputs{Paths: []string{old, rebuilt}}, Options{Rounds: 100})
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	retired := len(recs) - len(next)
	for _, want := range []string{"## What changed between the releases", "### Retired samples", "### Relabelled samples",
		"| all | 0 | " + strconv.Itoa(retired) + " | 1 | " + strconv.Itoa(len(next)-1) + " |", "route |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}
