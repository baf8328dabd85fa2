package mine_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sccg/internal/replay"
	"sccg/internal/storetest"
	"sccg/mine"
	"sccg/store"
)

// mineGit runs git in dir with a fixed identity and dates, isolated from the
// user's configuration.
func mineGit(t *testing.T, dir, date string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com",
		"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func mineWrite(t *testing.T, root, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func mineFixture(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata/corpus/repos", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestMineLocalRecordsProvenance(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	ctx := context.Background()
	dir := t.TempDir()

	// A clone of alice/weather-app with two commits.
	weather := filepath.Join(dir, "weather-app")
	os.MkdirAll(weather, 0o755)
	mineGit(t, weather, "2021-02-03T04:05:06Z", "init", "-q")
	mineGit(t, weather, "2021-02-03T04:05:06Z", "remote", "add", "origin", "git@github.com:alice/weather-app.git")
	mineWrite(t, weather, "app/client.py", mineFixture(t, "alice/weather-app/files/app/client.py"))
	mineGit(t, weather, "2021-02-03T04:05:06Z", "add", ".")
	mineGit(t, weather, "2021-02-03T04:05:06Z", "commit", "-q", "-m", "first")
	mineWrite(t, weather, "app/current.py", mineFixture(t, "alice/weather-app/files/app/current.py"))
	mineWrite(t, weather, "app/notes.py", mineFixture(t, "alice/weather-app/files/app/notes.py"))
	mineGit(t, weather, "2023-04-05T06:07:08Z", "add", ".")
	mineGit(t, weather, "2023-04-05T06:07:08Z", "commit", "-q", "-m", "second")
	// An uncommitted edit is not what the commit holds: it must not be read.
	mineWrite(t, weather, "app/client.py", []byte("# edited, not committed\n"))
	head := mineGit(t, weather, "", "rev-parse", "HEAD")

	// An owner folder with a clone without a remote.
	bots := filepath.Join(dir, "bob", "bots")
	os.MkdirAll(bots, 0o755)
	mineGit(t, bots, "2020-01-01T00:00:00Z", "init", "-q")
	mineWrite(t, bots, "jokes.py", mineFixture(t, "bob/bots/files/jokes.py"))
	mineWrite(t, bots, "big.py", []byte("HOST = 'jokes-hub.p.rapidapi.com'\n"+strings.Repeat("# pad\n", 2000)))
	mineGit(t, bots, "2020-01-01T00:00:00Z", "add", ".")
	mineGit(t, bots, "2020-01-01T00:00:00Z", "commit", "-q", "-m", "bots")

	// A plain folder.
	scratch := filepath.Join(dir, "scratch")
	mineWrite(t, scratch, "util/host.py", mineFixture(t, "bob/bots/files/util/host.py"))
	mineWrite(t, scratch, "packed.py", []byte("\x00\x01jokes-hub.p.rapidapi.com\x00"))
	mineWrite(t, scratch, "unrelated.py", []byte("print('hi')\n"))

	clock := newFakeClock()
	st := mineTestStore(t, clock)
	opts := mine.Options{MaxFileBytes: 4096}
	stats, err := mine.MineLocal(ctx, st, dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Stored != 4 || stats.Rejected != 2 {
		t.Errorf("stored %d, rejected %d; want 4 and 2 (%+v)", stats.Stored, stats.Rejected, stats)
	}
	files, _ := st.Files(ctx)
	got := map[string]store.File{}
	for _, f := range files {
		r, _ := st.Repository(ctx, f.RepoID)
		got[r.FullName+"/"+f.Path] = f
	}
	tests := []struct {
		key, layer, query, commit, url string
	}{
		{"alice/weather-app/app/client.py", store.LayerEndpointURL, `"https://weather-now.p.rapidapi.com/forecast/daily" language:python`,
			head, "https://github.com/alice/weather-app/blob/" + head + "/app/client.py"},
		{"alice/weather-app/app/current.py", store.LayerRouteHost, `"weather-now.p.rapidapi.com" "/current" language:python`,
			head, "https://github.com/alice/weather-app/blob/" + head + "/app/current.py"},
		{"local/bots/jokes.py", store.LayerRouteHost, `"jokes-hub.p.rapidapi.com" "/random/joke" language:python`, "?", "local/bots/jokes.py"},
		{"local/scratch/util/host.py", store.LayerHost, `"jokes-hub.p.rapidapi.com" language:python`, "", "local/scratch/util/host.py"},
	}
	for _, tt := range tests {
		f, ok := got[tt.key]
		if !ok {
			t.Errorf("%s not stored (have %v)", tt.key, files)
			continue
		}
		content, _ := st.FileContent(ctx, &f)
		if f.QueryLayer != tt.layer || f.Query != tt.query || f.URL != tt.url || (tt.commit != "?" && f.CommitSHA != tt.commit) {
			t.Errorf("%s: got layer %q query %q commit %q url %q; want %q %q %q %q", tt.key, f.QueryLayer, f.Query, f.CommitSHA, f.URL,
				tt.layer, tt.query, tt.commit, tt.url)
		}
		if f.GitSHA != mine.GitBlobSHA(content) {
			t.Errorf("%s: git sha %s is not the content's %s", tt.key, f.GitSHA, mine.GitBlobSHA(content))
		}
	}
	if f := got["alice/weather-app/app/client.py"]; f.ID != 0 {
		if want := mineGit(t, weather, "", "rev-parse", "HEAD:app/client.py"); f.GitSHA != want {
			t.Errorf("client.py: blob %s, want the committed %s", f.GitSHA, want)
		}
	}
	r, err := st.RepositoryByName(ctx, "alice/weather-app")
	if err != nil {
		t.Fatal(err)
	}
	want := store.Repository{ID: r.ID, FullName: "alice/weather-app", Source: "local", URL: "https://github.com/alice/weather-app",
		Language: "Python", Topics: []string{}, DefaultBranch: "main", CreatedAt: "2021-02-03T04:05:06Z",
		UpdatedAt: "2023-04-05T06:07:08Z", PushedAt: "2023-04-05T06:07:08Z", FetchedAt: r.FetchedAt}
	if !mineSameRepo(*r, want) {
		t.Errorf("repository:\n got %+v\nwant %+v", *r, want)
	}
	dump := storetest.MustDump(t, st)
	if strings.Contains(dump, dir) {
		t.Error("the store reveals the local directory")
	}
	// A second run finds every repository done at its commit.
	again, err := mine.MineLocal(ctx, st, dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if again.Stored != 0 || again.Rejected != 0 {
		t.Errorf("second run: %+v, want nothing new", again)
	}
}

func mineSameRepo(a, b store.Repository) bool {
	return a.ID == b.ID && a.FullName == b.FullName && a.Source == b.Source && a.URL == b.URL && a.Language == b.Language &&
		len(a.Topics) == len(b.Topics) && a.DefaultBranch == b.DefaultBranch && a.CreatedAt == b.CreatedAt &&
		a.UpdatedAt == b.UpdatedAt && a.PushedAt == b.PushedAt
}

// The same file found by search and by --local carries the same provenance.
func TestMineLocalMatchesGitHubProvenance(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	ctx := context.Background()
	clock := newFakeClock()
	remote := mineTestStore(t, clock)
	srv := mineTestServer(t, clock, replayNoRequestFaults())
	if _, err := mine.Mine(ctx, remote, mineTestOptions(srv, clock)); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "weather-app")
	os.MkdirAll(dir, 0o755)
	mineGit(t, dir, "2021-02-03T04:05:06Z", "init", "-q")
	mineGit(t, dir, "2021-02-03T04:05:06Z", "remote", "add", "origin", "https://github.com/alice/weather-app")
	for _, p := range []string{"app/client.py", "app/current.py", "app/notes.py"} {
		mineWrite(t, dir, p, mineFixture(t, "alice/weather-app/files/"+p))
	}
	mineGit(t, dir, "2021-02-03T04:05:06Z", "add", ".")
	mineGit(t, dir, "2021-02-03T04:05:06Z", "commit", "-q", "-m", "all")
	local := mineTestStore(t, clock)
	if _, err := mine.MineLocal(ctx, local, dir, mine.Options{}); err != nil {
		t.Fatal(err)
	}
	lf, _ := local.Files(ctx)
	rf, _ := remote.Files(ctx)
	remoteBy := map[string]store.File{}
	for _, f := range rf {
		remoteBy[f.Path] = f
	}
	if len(lf) != 2 {
		t.Fatalf("local run stored %d files, want client.py and current.py", len(lf))
	}
	for _, l := range lf {
		r := remoteBy[l.Path]
		if l.GitSHA != r.GitSHA || l.QueryLayer != r.QueryLayer || l.Query != r.Query || l.Size != r.Size || l.BlobSHA256 != r.BlobSHA256 {
			t.Errorf("%s: local %+v\nremote %+v", l.Path, l, r)
		}
		for name, v := range map[string]string{"commit_sha": l.CommitSHA, "url": l.URL, "found_at": l.FoundAt} {
			if v == "" {
				t.Errorf("%s: local run left %s empty", l.Path, name)
			}
		}
	}
}

func replayNoRequestFaults() replay.GitHubOptions {
	return replay.GitHubOptions{NoRequestFaults: true}
}
