package beamjob_test

import (
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
	"sccg/extract"
	"sccg/internal/storetest"
	"sccg/mine"
	"sccg/mine/corpus"
	"sccg/mine/corpus/beamjob"
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
}
