package report

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"sccg/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// fixtureInputs are the synthetic experiment of testdata/: a grid of three
// settings × two models, a gold self-check and a BM25 retrieval report over 12
// samples of the demo's test split, with the export's stats.json.
var fixtureInputs = Inputs{Paths: []string{"testdata/export", "testdata/grid", "testdata/gold", "testdata/retrieval.json"}}

func writeFixture(t *testing.T, in Inputs, o Options) (string, *Manifest) {
	t.Helper()
	d, err := Load(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	m, err := Write(context.Background(), d, dir, o)
	if err != nil {
		t.Fatal(err)
	}
	return dir, m
}

func TestMarkdownGolden(t *testing.T) {
	dir, _ := writeFixture(t, fixtureInputs, Options{Rounds: 500})
	got, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "report.golden.md"), got, *update)
}
