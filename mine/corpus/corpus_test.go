package corpus

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"sccg/internal/storetest"
	"sccg/store"
)

// stackRow has The Stack v2's column shapes: a license list, timestamps, a branch
// ref.
type stackRow struct {
	BlobID     string    `parquet:"blob_id"`
	Path       string    `parquet:"path"`
	Repo       string    `parquet:"repo_name"`
	Revision   string    `parquet:"revision_id"`
	Branch     string    `parquet:"branch_name"`
	Licenses   []string  `parquet:"detected_licenses,list"`
	Stars      int64     `parquet:"star_events_count"`
	Forks      int32     `parquet:"fork_events_count"`
	Created    time.Time `parquet:"gha_created_at,timestamp(millisecond)"`
	Pushed     time.Time `parquet:"gha_pushed_at,timestamp(microsecond)"`
	Content    *string   `parquet:"content,optional"`
	LengthByte int64     `parquet:"length_bytes"`
}

func TestReadParquetStackColumns(t *testing.T) {
	src := "import requests\n"
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[stackRow](&buf)
	_, err := w.Write([]stackRow{
		{BlobID: "b1", Path: "a.py", Repo: "o/r", Revision: "c1", Branch: "refs/heads/main", Licenses: []string{"MIT", "Apache-2.0"},
			Stars: 7, Forks: 2, Created: time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC), Pushed: time.Date(2021, 1, 2, 3, 4, 5, 0, time.UTC), Content: &src},
		{BlobID: "b2", Path: "b.py", Repo: "o/r", Content: nil},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var rows []Row
	var bads []string
	err = Read(context.Background(), Parquet, "s.parquet", bytes.NewReader(buf.Bytes()), int64(buf.Len()), func(i int64, r Row, bad string) error {
		rows = append(rows, r)
		bads = append(bads, bad)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("read %d rows, want 2", len(rows))
	}
	r := rows[0]
	want := Row{Repo: "o/r", Path: "a.py", Content: []byte(src), BlobID: "b1", Commit: "c1", Branch: "main", License: "MIT, Apache-2.0",
		Stars: 7, Forks: 2, CreatedAt: "2020-01-02T03:04:05Z", PushedAt: "2021-01-02T03:04:05Z", HasContent: true}
	if r.Repo != want.Repo || r.Path != want.Path || string(r.Content) != src || r.BlobID != want.BlobID || r.Commit != want.Commit ||
		r.Branch != want.Branch || r.License != want.License || r.Stars != 7 || r.Forks != 2 || r.CreatedAt != want.CreatedAt ||
		r.PushedAt != want.PushedAt || !r.HasContent || r.HasRepoURL || bads[0] != "" {
		t.Errorf("row 0:\n got %+v\nwant %+v (bad %q)", r, want, bads[0])
	}
	if bads[1] != "corrupt row: no content" {
		t.Errorf("row 1: bad %q, want no content", bads[1])
	}
	if err := Read(context.Background(), Parquet, "x.parquet", strings.NewReader("not parquet"), 11, func(int64, Row, string) error { return nil }); err == nil {
		t.Error("a file that is not Parquet read without an error")
	}
}

func TestReadJSONLExports(t *testing.T) {
	lines := strings.Join([]string{
		`{"sample_repo_name": "o/r", "sample_path": "a.py", "id": "b1", "content": "x = 1\n", "stars": "12", "created_at": 1577934245}`,
		``,
		`{"repository": "o/r2", "path": "b.py", "content_base64": "aGk=", "repo_url": "", "detected_licenses": ["MIT"]}`,
		`[1, 2]`,
		`{"repo_name": "o/r3", "path": "", "content": "y"}`,
	}, "\n")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(lines))
	zw.Close()
	type got struct {
		i   int64
		r   Row
		bad string
	}
	var all []got
	err := Read(context.Background(), JSONL, "export.json.gz", &gz, 0, func(i int64, r Row, bad string) error {
		all = append(all, got{i, r, bad})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 4 {
		t.Fatalf("read %d rows, want 4 (the empty line skipped): %+v", len(all), all)
	}
	if r := all[0].r; all[0].i != 0 || r.Repo != "o/r" || r.Path != "a.py" || r.BlobID != "b1" || string(r.Content) != "x = 1\n" ||
		r.Stars != 12 || r.CreatedAt != "2020-01-02T03:04:05Z" || all[0].bad != "" {
		t.Errorf("BigQuery-style row: %+v", all[0])
	}
	if r := all[1].r; all[1].i != 2 || r.Repo != "o/r2" || string(r.Content) != "hi" || !r.HasRepoURL || r.RepoURL != "" || r.License != "MIT" {
		t.Errorf("base64 row: %+v", all[1])
	}
	if all[2].i != 3 || !strings.HasPrefix(all[2].bad, "corrupt row: not a JSON object") {
		t.Errorf("array line: %+v", all[2])
	}
	if all[3].bad != "corrupt row: no path" {
		t.Errorf("row without a path: %+v", all[3])
	}
}

func TestNames(t *testing.T) {
	tests := []struct{ glob, root, shard, label string }{
		{"/data/stack/python/*.parquet", "/data/stack/python/", "/data/stack/python/train-0001.parquet", "python/*.parquet"},
		{"gs://bucket/stack/train-*.parquet", "gs://bucket/stack/", "gs://bucket/stack/train-7.parquet", "gs://bucket/stack/train-*.parquet"},
		{"/tmp/x/one.jsonl", "/tmp/x/", "/tmp/x/one.jsonl", "x/one.jsonl"},
		{"shard.parquet", "", "shard.parquet", "shard.parquet"},
	}
	for _, tt := range tests {
		if got := Root(tt.glob); got != tt.root {
			t.Errorf("Root(%q) = %q, want %q", tt.glob, got, tt.root)
		}
		if got := Label(tt.glob); got != tt.label {
			t.Errorf("Label(%q) = %q, want %q", tt.glob, got, tt.label)
		}
		if got := ShardName(tt.root, tt.shard); strings.Contains(got, "/data/") || strings.HasPrefix(got, "/") {
			t.Errorf("ShardName(%q, %q) = %q: not relative", tt.root, tt.shard, got)
		}
	}
}

// writeOutputs writes records as one output shard and a manifest for apis.
func writeOutputs(t *testing.T, dir string, apis []ManifestAPI, recs ...*Record) {
	t.Helper()
	var lines [][]byte
	for _, r := range recs {
		b, err := r.Encode()
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, b)
	}
	var buf bytes.Buffer
	name := OutputName(0, 1)
	o, err := WriteOutput(&buf, name, lines)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644)
	m := Manifest{Corpus: "test/*", CreatedAt: "2026-11-30T12:00:00Z", APIs: apis, Outputs: []OutputShard{o}}
	m.Finish()
	b, _ := json.MarshalIndent(m, "", "  ")
	os.WriteFile(filepath.Join(dir, ManifestName), b, 0o644)
}

func TestLoadChecksItsInput(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	var apiID int64
	err := st.Update(ctx, func(tx *store.Tx) error {
		var err error
		apiID, err = tx.SaveAPI(ctx, &store.API{Source: "rapidapi", Slug: "weather", Host: "weather.p.rapidapi.com"},
			[]store.Endpoint{{IsCurrent: true, Host: "weather.p.rapidapi.com", Method: "GET", Route: "/now"}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	f := NewFilter([]Target{{APIID: apiID, Slug: "weather", Host: "weather.p.rapidapi.com", Endpoints: []TargetRoute{{Route: "/now", IsCurrent: true}}}}, FilterOptions{})
	rec, verdict := f.Judge("s.jsonl", 0, Row{Repo: "o/r", Path: "w.py", Commit: "c1", HasContent: true,
		Content: []byte("requests.get('https://WEATHER.p.rapidapi.com/now')")}, "")
	if verdict != VerdictFound || rec.File.Hits[0].MatchLayer != store.LayerEndpointURL {
		t.Fatalf("judge: %s %+v", verdict, rec)
	}

	if _, err := Load(ctx, st, t.TempDir(), LoadOptions{}); !errors.Is(err, ErrNoManifest) {
		t.Errorf("load without a manifest: %v, want ErrNoManifest", err)
	}
	other := t.TempDir()
	writeOutputs(t, other, []ManifestAPI{{ID: apiID, Slug: "jokes"}}, rec)
	if _, err := Load(ctx, st, other, LoadOptions{}); err == nil || !strings.Contains(err.Error(), "does not have") {
		t.Errorf("load of another store's outputs: %v", err)
	}
	dir := t.TempDir()
	writeOutputs(t, dir, []ManifestAPI{{ID: apiID, Slug: "weather"}}, rec)
	part := filepath.Join(dir, OutputName(0, 1))
	good, _ := os.ReadFile(part)
	os.WriteFile(part, append(append([]byte(nil), good...), 0), 0o644)
	if _, err := Load(ctx, st, dir, LoadOptions{}); err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("load of a changed shard: %v", err)
	}
	os.WriteFile(part, good, 0o644)
	stats, err := Load(ctx, st, dir, LoadOptions{})
	if err != nil || stats.Loaded != 1 || stats.Stored != 1 {
		t.Fatalf("load: %+v, %v", stats, err)
	}
	files, _ := st.Files(ctx)
	srcs, _ := st.CorpusSources(ctx, files[0].ID)
	if len(files) != 1 || files[0].QueryLayer != store.LayerCorpus || files[0].URL != "https://github.com/o/r/blob/c1/w.py" ||
		len(srcs) != 1 || srcs[0].Shard != "s.jsonl" || srcs[0].MatchLayer != store.LayerEndpointURL || srcs[0].Output != OutputName(0, 1) {
		t.Errorf("stored %+v with sources %+v", files, srcs)
	}
}

// TestFilterHostBoundaries: the early filter counts a host only where it stands
// whole, as mine --local does: hosts that share a suffix are different APIs.
func TestFilterHostBoundaries(t *testing.T) {
	f := NewFilter([]Target{
		{APIID: 1, Slug: "forecast", Host: "api.open-meteo.com"},
		{APIID: 2, Slug: "archive", Host: "archive-api.open-meteo.com"},
		{APIID: 3, Slug: "geocoding", Host: "geocoding-api.open-meteo.com"},
	}, FilterOptions{})
	tests := []struct {
		name, content string
		want          []string
	}{
		{"archive only", `requests.get("https://archive-api.open-meteo.com/v1/archive", params=p)`, []string{"archive"}},
		{"geocoding only", `requests.get("https://geocoding-api.open-meteo.com/v1/search")`, []string{"geocoding"}},
		{"forecast only", `requests.get("https://api.open-meteo.com/v1/forecast")`, []string{"forecast"}},
		{"archive and forecast", "A = 'https://archive-api.open-meteo.com/v1/archive'\nF = 'https://API.open-meteo.com/v1/forecast'", []string{"forecast", "archive"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, verdict := f.Judge("s.jsonl", 0, Row{Repo: "o/r", Path: "w.py", Content: []byte("import requests\n" + tt.content + "\n"), HasContent: true}, "")
			var got []string
			if rec != nil && rec.File != nil {
				for _, h := range rec.File.Hits {
					got = append(got, h.API)
				}
			}
			if verdict != VerdictFound || strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("verdict %s, hits %v; want found with %v", verdict, got, tt.want)
			}
		})
	}
}
