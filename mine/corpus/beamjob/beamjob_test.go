package beamjob_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sccg/align"
	"sccg/decontam"
	"sccg/extract"
	"sccg/internal/blame"
	"sccg/internal/storetest"
	"sccg/mine"
	"sccg/mine/corpus"
	"sccg/mine/corpus/beamjob"
	"sccg/provenance"
	"sccg/redact"
	"sccg/release"
	"sccg/samples"
	"sccg/split"
	"sccg/store"
)

const replayRepos = "../../../internal/replay/testdata/github/repos"

// gitRepos commits every repository of the GitHub replay corpus as a clone under
// owner folders (origin on GitHub, default branch and dates from repo.json), the
// way `mine --local` finds them.
func gitRepos(tb testing.TB) string {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git not on PATH")
	}
	root := tb.TempDir()
	metas, err := filepath.Glob(filepath.Join(replayRepos, "*", "*", "repo.json"))
	if err != nil || len(metas) == 0 {
		tb.Fatalf("no replay repositories (%v)", err)
	}
	for _, meta := range metas {
		b, err := os.ReadFile(meta)
		if err != nil {
			tb.Fatal(err)
		}
		var r struct {
			FullName      string `json:"full_name"`
			DefaultBranch string `json:"default_branch"`
			PushedAt      string `json:"pushed_at"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			tb.Fatal(err)
		}
		dir := filepath.Join(root, filepath.FromSlash(r.FullName))
		files := filepath.Join(filepath.Dir(meta), "files")
		err = filepath.WalkDir(files, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(files, p)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			dst := filepath.Join(dir, rel)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			return os.WriteFile(dst, data, 0o644)
		})
		if err != nil {
			tb.Fatal(err)
		}
		git(tb, dir, r.PushedAt, "init", "-q", "-b", cmp(r.DefaultBranch, "main"))
		git(tb, dir, r.PushedAt, "remote", "add", "origin", "https://github.com/"+r.FullName+".git")
		git(tb, dir, r.PushedAt, "add", ".")
		git(tb, dir, r.PushedAt, "commit", "-q", "-m", "snapshot")
	}
	return root
}

// twinHosts are catalog endpoints the twins of addTwins call.
var twinHosts = []string{"weatherstack-forecast.p.rapidapi.com/current", "open-meteo-data.p.rapidapi.com/stations/daily",
	"air-quality-index.p.rapidapi.com/v1/aqi", "realtime-stock-quotes.p.rapidapi.com/market/movers",
	"crypto-prices-live.p.rapidapi.com/coins/markets", "currency-converter-pro.p.rapidapi.com/convert",
	"football-live-scores.p.rapidapi.com/fixtures", "basketball-stats.p.rapidapi.com/players"}

// addTwins commits, under root, repositories that each hold one function twice, in
// main5.py and main6.py: the copy that stands for each pair must not depend on the
// order the files are mined in, and --local and the corpus load them in different
// orders.
func addTwins(tb testing.TB, root string) {
	tb.Helper()
	for n, url := range twinHosts {
		full := fmt.Sprintf("twin-files/copies-%d", n)
		dir := filepath.Join(root, filepath.FromSlash(full))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
		code := fmt.Sprintf("import os\nimport requests\n\n\ndef fetch_%d(params=None):\n"+
			"    headers = {\"x-rapidapi-key\": os.environ[\"RAPIDAPI_KEY\"]}\n"+
			"    r = requests.get(\"https://%s\", headers=headers, params=params, timeout=10)\n"+
			"    return r.json()\n", n, url)
		for _, f := range []string{"main5.py", "main6.py"} {
			if err := os.WriteFile(filepath.Join(dir, f), []byte(code), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
		date := "2025-03-01T00:00:00Z"
		git(tb, dir, date, "init", "-q", "-b", "main")
		git(tb, dir, date, "remote", "add", "origin", "https://github.com/"+full+".git")
		git(tb, dir, date, "add", ".")
		git(tb, dir, date, "commit", "-q", "-m", "copies")
	}
}

func cmp(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func git(tb testing.TB, dir, date string, args ...string) {
	tb.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// catalogStore opens a store holding the APIs of the replay catalog, the ones the
// corpus calls.
func catalogStore(tb testing.TB) *store.Store {
	tb.Helper()
	ctx := context.Background()
	b, err := os.ReadFile("../../../internal/replay/testdata/catalog.json")
	if err != nil {
		tb.Fatal(err)
	}
	var cat struct {
		APIs []struct {
			Owner, Slug, Host string
			Endpoints         []struct{ Method, Route string }
		}
	}
	if err := json.Unmarshal(b, &cat); err != nil {
		tb.Fatal(err)
	}
	st := storetest.Open(tb)
	err = st.Update(ctx, func(tx *store.Tx) error {
		for _, a := range cat.APIs {
			var eps []store.Endpoint
			for _, e := range a.Endpoints {
				eps = append(eps, store.Endpoint{IsCurrent: true, Host: a.Host, Method: e.Method, Route: e.Route})
			}
			if _, err := tx.SaveAPI(ctx, &store.API{Source: "rapidapi", Owner: a.Owner, Slug: a.Slug, Host: a.Host}, eps); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

// config is a job over corpus for the APIs of st.
func config(tb testing.TB, st *store.Store, glob, out string) beamjob.Config {
	tb.Helper()
	ts, err := mine.Targets(context.Background(), st, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return beamjob.Config{Corpus: glob, Out: out, Shards: 4, Targets: corpus.Targets(ts), CreatedAt: "2026-11-30T12:00:00Z"}
}

// pack writes the repositories under dir as one Parquet shard.
func pack(tb testing.TB, dir, shard string) {
	tb.Helper()
	f, err := os.Create(shard)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := corpus.Pack(context.Background(), dir, f, corpus.PackOptions{RowGroupRows: 32}); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// extractAndAlign runs the stages after mining, as `sccg extract && sccg align` do.
func extractAndAlign(tb testing.TB, st *store.Store) {
	tb.Helper()
	ctx := context.Background()
	if _, err := extract.Run(ctx, st, extract.Options{}); err != nil {
		tb.Fatal(err)
	}
	if _, err := align.Run(ctx, st, align.Options{}); err != nil {
		tb.Fatal(err)
	}
}

// exportOf runs the stages after alignment on st, as `sccg decontam && sccg redact
// && sccg split && sccg export` do, and returns the exported records, one JSON line
// each, without the query layer (which says how a file was found: a search layer or
// the corpus).
func exportOf(tb testing.TB, st *store.Store) []string {
	tb.Helper()
	ctx := context.Background()
	if _, err := decontam.Run(ctx, st, decontam.Options{}); err != nil {
		tb.Fatal(err)
	}
	if _, err := redact.Run(ctx, st, redact.Options{}); err != nil {
		tb.Fatal(err)
	}
	if _, err := samples.Build(ctx, st); err != nil {
		tb.Fatal(err)
	}
	if _, err := split.Run(ctx, st, split.Options{}); err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	if _, err := samples.Export(ctx, st, dir, release.JSON); err != nil {
		tb.Fatal(err)
	}
	recs, err := release.ReadFile(filepath.Join(dir, "sccgbench.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		r.GitHubInfo.QueryLayer = ""
		b, err := json.Marshal(r)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

// mined describes what a store holds after mining, extraction and alignment, in
// terms that do not depend on row ids or on how the files were found.
type mined struct {
	files      []string
	functions  []string
	alignments []string
}

func describe(tb testing.TB, st *store.Store, layerOf func(store.File) string) mined {
	tb.Helper()
	ctx := context.Background()
	files, err := st.Files(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	var m mined
	name := map[int64]string{}
	for _, f := range files {
		r, err := st.Repository(ctx, f.RepoID)
		if err != nil {
			tb.Fatal(err)
		}
		key := r.FullName + "/" + f.Path + "@" + f.GitSHA
		name[f.ID] = key
		hits, err := st.FileHits(ctx, f.ID)
		if err != nil {
			tb.Fatal(err)
		}
		var apis []string
		for _, h := range hits {
			apis = append(apis, fmt.Sprint(h.APIID)+" "+h.Query)
		}
		slices.Sort(apis)
		m.files = append(m.files, fmt.Sprintf("%s commit=%s url=%s size=%d blob=%s layer=%s branch=%s created=%s pushed=%s hits=%v",
			key, f.CommitSHA, f.URL, f.Size, f.BlobSHA256, layerOf(f), r.DefaultBranch, r.CreatedAt, r.PushedAt, apis))
		fns, err := st.FunctionsOfFile(ctx, f.ID)
		if err != nil {
			tb.Fatal(err)
		}
		for _, fn := range fns {
			fkey := key + ":" + fn.QualName + ":" + fmt.Sprint(fn.StartLine)
			m.functions = append(m.functions, fmt.Sprintf("%s %s %s %q %.4f hash=%s facts=%s", fkey, fn.Status, fn.RejectReason,
				fn.Code, fn.Quality, fn.CodeHash, fn.Facts))
			as, err := st.Alignments(ctx, fn.ID)
			if err != nil {
				tb.Fatal(err)
			}
			for _, a := range as {
				m.alignments = append(m.alignments, fmt.Sprintf("%s #%d endpoint=%d %s %s %s %s primary=%t %s", fkey, a.CallIndex,
					a.EndpointID, a.Method, a.Host, a.Route, a.DocMatchType, a.IsPrimary, a.Evidence))
			}
		}
	}
	slices.Sort(m.files)
	slices.Sort(m.functions)
	slices.Sort(m.alignments)
	return m
}

func same(t *testing.T, what string, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("%s only through Beam: %s", what, g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%s only with --local: %s", what, w)
		}
	}
}

// Mining a packed copy of the replay corpus through the Beam pipeline (prism, in
// this process) and loading it yields the files, functions and alignments that
// `mine --local` yields on the same repositories; loading it again changes nothing.
func TestBeamMatchesLocal(t *testing.T) {
	ctx := context.Background()
	repos := gitRepos(t)
	addTwins(t, repos)

	local := catalogStore(t)
	if _, err := mine.MineLocal(ctx, local, repos, mine.Options{}); err != nil {
		t.Fatal(err)
	}
	extractAndAlign(t, local)
	want := describe(t, local, func(f store.File) string { return f.QueryLayer })
	if len(want.files) < 100 || len(want.alignments) < 100 {
		t.Fatalf("--local found only %d files and %d alignments", len(want.files), len(want.alignments))
	}

	work := t.TempDir()
	shard := filepath.Join(work, "corpus", "replay.parquet")
	os.MkdirAll(filepath.Dir(shard), 0o755)
	pack(t, repos, shard)
	out := filepath.Join(work, "out")
	st := catalogStore(t)
	if err := beamjob.Run(ctx, "prism", config(t, st, shard, out)); err != nil {
		t.Fatal(err)
	}
	stats, err := corpus.Load(ctx, st, out, corpus.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Loaded == 0 || stats.Files == 0 {
		t.Fatalf("load: %+v", stats)
	}
	// the shard carries git blame's line dates (corpus pack), so the corpus path
	// dates what --local dates: the exports compared below hold them
	if stats.LineDates.Dated != stats.Files || len(stats.LineDates.Undated) != 0 {
		t.Errorf("load dated %d of %d files (undated %v)", stats.LineDates.Dated, stats.Files, stats.LineDates.Undated)
	}
	extractAndAlign(t, st)
	got := describe(t, st, func(f store.File) string {
		srcs, err := st.CorpusSources(ctx, f.ID)
		if err != nil || len(srcs) == 0 {
			t.Errorf("%s: no corpus source (%v)", f.Path, err)
			return ""
		}
		if f.QueryLayer != store.LayerCorpus || srcs[0].Shard != "replay.parquet" || srcs[0].BlobID != f.GitSHA {
			t.Errorf("%s: layer %q, source %+v", f.Path, f.QueryLayer, srcs[0])
		}
		return srcs[0].MatchLayer
	})
	t.Logf("%d files, %d functions, %d alignments; load %+v", len(got.files), len(got.functions), len(got.alignments), stats)
	same(t, "file", got.files, want.files)
	same(t, "function", got.functions, want.functions)
	same(t, "alignment", got.alignments, want.alignments)

	before := storetest.MustDump(t, st)
	again, err := corpus.Load(ctx, st, out, corpus.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Loaded != 0 || again.Skipped != stats.Loaded {
		t.Errorf("second load: %+v, want every shard skipped", again)
	}
	if after := storetest.MustDump(t, st); after != before {
		t.Error("loading the same outputs again changed the store")
	}
	if strings.Contains(before, work) || strings.Contains(before, repos) {
		t.Error("the store reveals a local directory")
	}

	// The benchmarks built from both are the same: the same functions stand for
	// their clusters and fill the caps, whichever order the files arrived in.
	wantRecs, gotRecs := exportOf(t, local), exportOf(t, st)
	if len(wantRecs) < 20 {
		t.Fatalf("--local exported only %d samples", len(wantRecs))
	}
	same(t, "sample", gotRecs, wantRecs)
	if !strings.Contains(wantRecs[0], `"function_authored_at":"`) {
		t.Errorf("--local exported no function dates: %s", wantRecs[0])
	}
	twins := 0
	for _, r := range wantRecs {
		if strings.Contains(r, `"file_path":"main6.py"`) {
			t.Errorf("main6.py stands for its twin in main5.py: %s", r)
		}
		if strings.Contains(r, `"file_path":"main5.py"`) {
			twins++
		}
	}
	if twins != len(twinHosts) {
		t.Errorf("%d of the %d twins exported", twins, len(twinHosts))
	}

	// A sample built from a corpus file shows the corpus row in its audit.
	recs, _, err := samples.Records(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	a, err := provenance.LoadAudit(ctx, st, recs[0].SampleID)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := a.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "corpus        replay.parquet row ") || !strings.Contains(text.String(), "found by      corpus: ") {
		t.Errorf("the audit does not show the corpus source:\n%s", text.String())
	}
}

// A corpus with a corrupt row, a row without content, a binary file and a 50 MB file
// that name a host, and a shard that is not Parquet at all: the pipeline keeps going,
// and every one ends as a recorded decision; the good file is stored.
func TestBeamRecordsBadRows(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "corpus")
	os.MkdirAll(dir, 0o755)
	host := "weatherstack-forecast.p.rapidapi.com"
	row := func(repo, path, content string) string {
		b, _ := json.Marshal(map[string]any{"repo_name": repo, "path": path, "content": content, "revision_id": "c0ffee",
			"star_events_count": 3})
		return string(b)
	}
	big := "HOST = '" + host + "'\n" + strings.Repeat("# padding to fifty megabytes of source\n", 50<<20/39)
	lines := []string{
		row("ana/good", "client.py", "import requests\n\ndef now(q):\n    return requests.get('https://"+host+"/current', params={'q': q}).json()\n"),
		`{"repo_name": "ana/broken", "path": "x.py", "content": "unterminated`,
		row("ana/bin", "packed.py", "\x00\x01\x02 "+host+" \x00"),
		row("ana/big", "table.py", big),
		`{"repo_name": "ana/empty", "path": "empty.py"}`,
		row("ana/other", "readme.py", "print('no host here')\n"),
	}
	if err := os.WriteFile(filepath.Join(dir, "part-0.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "part-1.parquet"), []byte("PAR1 this is not a parquet file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("a stray file in the corpus folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := catalogStore(t)
	out := filepath.Join(t.TempDir(), "out")
	if err := beamjob.Run(ctx, "", config(t, st, filepath.Join(dir, "*"), out)); err != nil {
		t.Fatal(err)
	}
	m, err := corpus.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Counts["rows"] != 6 || m.Counts["found"] != 1 || m.Counts["rejected"] != 2 || m.Counts["corrupt"] != 2 || m.Counts["unreadable_shards"] != 2 {
		t.Errorf("manifest counts %v", m.Counts)
	}
	ls, err := corpus.Load(ctx, st, out, corpus.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := st.Files(ctx)
	if len(files) != 1 || files[0].Path != "client.py" {
		t.Errorf("stored %v, want only client.py", files)
	}
	// a shard with no line_dates column holds no history: the lines are not dated,
	// and that is counted with its reason
	if ls.LineDates.Dated != 0 || ls.LineDates.Undated[blame.ReasonCorpus] != 1 {
		t.Errorf("load dated %d, undated %v; want 0 and 1 %q", ls.LineDates.Dated, ls.LineDates.Undated, blame.ReasonCorpus)
	}
	tests := []struct{ kind, subject, reason string }{
		{"corpus_row", "part-0.jsonl#1", "corrupt row: not a JSON object"},
		{"file", "https://github.com/ana/bin/blob/c0ffee/packed.py", "binary file"},
		{"file", "https://github.com/ana/big/blob/c0ffee/table.py", "too large: over --max-file-bytes"},
		{"corpus_row", "part-0.jsonl#4", "corrupt row: no content"},
		{"corpus_shard", "part-1.parquet", "unreadable shard"},
		{"corpus_shard", "notes.txt", "unreadable shard"},
	}
	for _, tt := range tests {
		ds, err := st.Decisions(ctx, tt.kind, tt.subject)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) != 1 || !strings.HasPrefix(ds[0].Reason, tt.reason) || ds[0].Verdict == store.Kept {
			t.Errorf("%s %s: decisions %+v, want one starting %q", tt.kind, tt.subject, ds, tt.reason)
		}
	}
	if ds, _ := st.Decisions(ctx, "file", "https://github.com/ana/other/blob/c0ffee/readme.py"); len(ds) != 0 {
		t.Errorf("a file naming no host got decisions: %+v", ds)
	}
}
