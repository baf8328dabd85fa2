package pipeline

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sccg/internal/golden"
	"sccg/internal/storetest"
	"sccg/leakcheck"
	"sccg/redact"
	"sccg/release"
	"sccg/samples"
	"sccg/split"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestBuildReplaySnapshotGolden builds the benchmark from the replay servers (the
// RapidAPI Hub snapshot and the synthetic GitHub corpus), through the real crawl and
// mine code paths, and compares the export with the golden files: an index of the
// samples (one line each) and stats.json. A change to the corpus or to a stage
// changes them: check the diff, then refresh with -update.
func TestBuildReplaySnapshotGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("replay build skipped in -short mode")
	}
	ctx := context.Background()
	rp, err := StartReplay()
	if err != nil {
		t.Fatal(err)
	}
	defer rp.Close()

	out := t.TempDir()
	s := storetest.Open(t)
	o := Options{Split: split.Options{Seed: 1}, Out: out}
	rp.Apply(&o)
	sum, err := Build(ctx, s, o)
	if err != nil {
		t.Fatalf("build: %v (%+v)", err, sum)
	}
	for _, st := range sum.Stages {
		t.Logf("%-9s %-9s %v %s", st.Stage, st.Status, st.Counts, st.Note)
	}
	if sum.Samples == 0 {
		t.Fatal("the replay build made no samples")
	}
	// Provenance names the search for the sample's own API, not another API's hit
	// on the same file.
	recs, err := release.ReadFile(filepath.Join(out, "sccgbench.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Every sample has an intent, and the generated ones give nothing of their own
	// ground truth away (checked against the exported record, not the store).
	for i := range recs {
		r := &recs[i]
		if r.CommentsSource == samples.CommentsNone || len(r.Comments) == 0 {
			t.Errorf("%s (%s): comments_source %q with %d comments", r.SampleID, r.FunctionName, r.CommentsSource, len(r.Comments))
		}
		// and says what the function is for: none is only a generic verb and "the data"
		if text := leakcheck.CommentText(r); redact.Contentless(text) {
			t.Errorf("%s (%s): the %s intent %q is contentless", r.SampleID, r.FunctionName, r.CommentsSource, text)
		}
		if r.CommentsSource == redact.SourceOriginal {
			continue
		}
		g, err := leakcheck.RecordTruth(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		if rep := leakcheck.LeakCheck(leakcheck.CommentText(r), g); rep.Leaked {
			t.Errorf("%s (%s): the %s intent %q leaks: %v", r.SampleID, r.FunctionName, r.CommentsSource, leakcheck.CommentText(r), rep)
		}
	}
	for _, r := range recs {
		var query string
		_ = json.Unmarshal(r.GitHubInfo.Extra["query"], &query)
		if !strings.Contains(query, r.APIHost) {
			t.Errorf("%s (%s): query_layer %s query %q does not name its own host", r.SampleID, r.APIHost, r.GitHubInfo.QueryLayer, query)
		}
	}
	index, err := exportIndex(out)
	if err != nil {
		t.Fatal(err)
	}
	stats, err := os.ReadFile(filepath.Join(out, "stats.json"))
	if err != nil {
		t.Fatal(err)
	}
	for f, got := range map[string][]byte{"index.tsv": index, "stats.json": stats} {
		golden.Check(t, filepath.Join("testdata", "replay", f), got, *update)
	}
}

// exportIndex renders an export as one tab-separated line per sample: id, split,
// doc_match_type, method, host, route, where it came from and its comment source.
func exportIndex(dir string) ([]byte, error) {
	recs, err := release.ReadFile(filepath.Join(dir, "sccgbench.json"))
	if err != nil {
		return nil, err
	}
	splitOf := map[string]string{}
	for _, name := range release.Names {
		rs, err := release.ReadFile(filepath.Join(dir, "splits", name+".json"))
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			splitOf[r.SampleID] = name
		}
	}
	var b strings.Builder
	for _, r := range recs {
		m := r.APIMetadata
		b.WriteString(strings.Join([]string{r.SampleID, splitOf[r.SampleID], m.DocMatchType, m.Method, r.APIHost, m.Route,
			r.GitHubInfo.Repo + "/" + r.GitHubInfo.FilePath + ":" + r.FunctionName, r.CommentsSource, r.GitHubInfo.QueryLayer}, "\t"))
		b.WriteByte('\n')
	}
	return []byte(b.String()), nil
}
