package replay

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-github/v62/github"
)

// ghTestClock is a settable clock for the server.
type ghTestClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *ghTestClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *ghTestClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func ghTestCorpus() fstest.MapFS {
	repo := func(full string, stars int) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(fmt.Sprintf(`{"full_name":%q,"stargazers_count":%d,"default_branch":"main","license":{"key":"mit","spdx_id":"MIT","name":"MIT License"}}`, full, stars))}
	}
	return fstest.MapFS{
		"repos/alice/weather/repo.json":             repo("alice/weather", 5),
		"repos/alice/weather/files/app/client.py":   {Data: []byte("import requests\n\nURL = \"https://weather.p.rapidapi.com/forecast/daily\"\nheaders = {\"x-rapidapi-host\": \"weather.p.rapidapi.com\"}\n")},
		"repos/alice/weather/files/app/util.py":     {Data: []byte("def helper():\n    return 'weather p rapidapi com is great'\n")},
		"repos/alice/weather/files/README.md":       {Data: []byte("weather.p.rapidapi.com\n")},
		"repos/bob/scripts/repo.json":               repo("bob/scripts", 1),
		"repos/bob/scripts/files/hello.py":          {Data: []byte("hello\n")},
		"repos/bob/scripts/files/tools/weather.pyi": {Data: []byte("HOST: str = 'weather.p.rapidapi.com'\n")},
	}
}

func ghTestServer(t *testing.T, fsys fs.FS, opts GitHubOptions) (*github.Client, *Server, *ghTestClock) {
	t.Helper()
	clock := &ghTestClock{now: time.Date(2024, 5, 6, 7, 8, 0, 0, time.UTC)}
	if opts.Now == nil {
		opts.Now = clock.Now
	}
	h, err := GitHub(fsys, opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := Start(h)
	t.Cleanup(srv.Close)
	c := github.NewClient(srv.Client()).WithAuthToken("t0ken")
	c.BaseURL, _ = url.Parse(srv.URL + "/")
	return c, srv, clock
}

func ghPaths(res *github.CodeSearchResult) []string {
	var out []string
	for _, r := range res.CodeResults {
		out = append(out, r.GetRepository().GetFullName()+"/"+r.GetPath())
	}
	return out
}

func TestGitHubSearchMatching(t *testing.T) {
	c, _, _ := ghTestServer(t, ghTestCorpus(), GitHubOptions{SearchPerMinute: -1})
	tests := []struct {
		name  string
		query string
		want  []string
	}{
		{"phrase across punctuation", `"weather.p.rapidapi.com"`, []string{"alice/weather/README.md", "alice/weather/app/client.py", "alice/weather/app/util.py", "bob/scripts/tools/weather.pyi"}},
		{"language python", `"weather.p.rapidapi.com" language:python`, []string{"alice/weather/app/client.py", "alice/weather/app/util.py", "bob/scripts/tools/weather.pyi"}},
		{"two terms", `"x-rapidapi-host" "weather.p.rapidapi.com" language:python`, []string{"alice/weather/app/client.py"}},
		{"url phrase", `"https://weather.p.rapidapi.com/forecast/daily"`, []string{"alice/weather/app/client.py"}},
		{"extension", `"weather.p.rapidapi.com" extension:pyi`, []string{"bob/scripts/tools/weather.pyi"}},
		{"path", `"weather.p.rapidapi.com" path:app`, []string{"alice/weather/app/client.py", "alice/weather/app/util.py"}},
		{"size range", `"weather.p.rapidapi.com" language:python size:0..60`, []string{"alice/weather/app/util.py", "bob/scripts/tools/weather.pyi"}},
		{"size greater", `"weather.p.rapidapi.com" size:>60`, []string{"alice/weather/app/client.py"}},
		{"in path", `weather in:path`, []string{"bob/scripts/tools/weather.pyi"}},
		{"no match", `"nothing.p.rapidapi.com"`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, _, err := c.Search.Code(context.Background(), tt.query, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := ghPaths(res)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") || res.GetTotal() != len(tt.want) {
				t.Errorf("got %d %v, want %v", res.GetTotal(), got, tt.want)
			}
		})
	}
}

func TestGitHubSearchPagesAndTextMatches(t *testing.T) {
	c, _, _ := ghTestServer(t, ghTestCorpus(), GitHubOptions{SearchPerMinute: -1})
	ctx := context.Background()
	q := `"weather.p.rapidapi.com"`
	var all []string
	opt := &github.SearchOptions{TextMatch: true, ListOptions: github.ListOptions{PerPage: 3}}
	pages := 0
	for {
		res, resp, err := c.Search.Code(ctx, q, opt)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		all = append(all, ghPaths(res)...)
		for _, r := range res.CodeResults {
			if len(r.TextMatches) == 0 {
				t.Errorf("%s: no text matches", r.GetPath())
			}
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	if pages != 2 || len(all) != 4 {
		t.Errorf("got %d pages and %v, want 2 pages of 4 results", pages, all)
	}
	res, _, err := c.Search.Code(ctx, `"weather.p.rapidapi.com" path:app`, &github.SearchOptions{TextMatch: true})
	if err != nil {
		t.Fatal(err)
	}
	frags := map[string]string{}
	for _, r := range res.CodeResults {
		frags[r.GetPath()] = r.TextMatches[0].GetFragment()
	}
	if got := frags["app/client.py"]; !strings.Contains(got, "weather.p.rapidapi.com") {
		t.Errorf("client.py fragment %q does not show the host", got)
	}
	if got := frags["app/util.py"]; strings.Contains(got, "weather.p.rapidapi.com") {
		t.Errorf("util.py fragment %q shows a host the file does not contain", got)
	}
}

func TestGitHubSearchCapAndSaturation(t *testing.T) {
	faults := &GitHubFaults{Saturated: []Saturation{{Term: "weather.p.rapidapi.com", TotalCount: 2500, MaxSizeSpan: 100}}}
	c, _, _ := ghTestServer(t, ghTestCorpus(), GitHubOptions{SearchPerMinute: -1, Faults: faults})
	ctx := context.Background()
	tests := []struct {
		query string
		want  int
	}{
		{`"weather.p.rapidapi.com"`, 2500},
		{`"weather.p.rapidapi.com" size:0..60`, 3},
		{`"weather.p.rapidapi.com" size:0..5000`, 2500},
		{`"x-rapidapi-host" "weather.p.rapidapi.com"`, 1},
	}
	for _, tt := range tests {
		res, _, err := c.Search.Code(ctx, tt.query, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.GetTotal() != tt.want {
			t.Errorf("%s: total %d, want %d", tt.query, res.GetTotal(), tt.want)
		}
	}
	_, _, err := c.Search.Code(ctx, `"weather.p.rapidapi.com"`, &github.SearchOptions{ListOptions: github.ListOptions{Page: 11, PerPage: 100}})
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("page past the 1,000 cap: got %v, want 422", err)
	}
}

func TestGitHubRateLimit(t *testing.T) {
	c, _, clock := ghTestServer(t, ghTestCorpus(), GitHubOptions{SearchPerMinute: 3})
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		_, resp, err := c.Search.Code(ctx, `"hello"`, nil)
		if err != nil {
			t.Fatalf("search %d: %v", i+1, err)
		}
		if resp.Rate.Limit != 3 || resp.Rate.Remaining != 2-i || resp.Header.Get("X-RateLimit-Resource") != "search" {
			t.Errorf("search %d: rate %+v resource %q", i+1, resp.Rate, resp.Header.Get("X-RateLimit-Resource"))
		}
	}
	_, _, err := c.Search.Code(ctx, `"hello"`, nil)
	var rl *github.RateLimitError
	if !errors.As(err, &rl) {
		t.Fatalf("fourth search: got %v, want *RateLimitError", err)
	}
	if want := clock.Now().Add(time.Minute); !rl.Rate.Reset.Time.Equal(want) {
		t.Errorf("reset %v, want %v", rl.Rate.Reset.Time, want)
	}
	// The repository endpoints have their own budget.
	if _, _, err := c.Repositories.Get(ctx, "alice", "weather"); err != nil {
		t.Errorf("core request while search is exhausted: %v", err)
	}
	clock.Add(time.Minute)
	c2 := github.NewClient(nil).WithAuthToken("t0ken") // go-github remembers the limit; a fresh client does not
	c2.BaseURL = c.BaseURL
	if _, _, err := c2.Search.Code(ctx, `"hello"`, nil); err != nil {
		t.Errorf("search after the reset: %v", err)
	}
	// Another token has its own budget.
	c3 := github.NewClient(nil).WithAuthToken("other")
	c3.BaseURL = c.BaseURL
	if _, _, err := c3.Search.Code(ctx, `"hello"`, nil); err != nil {
		t.Errorf("search with another token: %v", err)
	}
}

func TestGitHubScriptedFaults(t *testing.T) {
	faults := &GitHubFaults{
		SecondaryLimit:  []RequestFault{{SearchRequest: 1, RetryAfter: 30}, {SearchRequest: 2}},
		TooManyRequests: []RequestFault{{SearchRequest: 3}},
		Incomplete:      []RequestFault{{SearchRequest: 4}},
	}
	c, srv, _ := ghTestServer(t, ghTestCorpus(), GitHubOptions{SearchPerMinute: -1, Faults: faults})
	ctx := context.Background()
	fresh := func() *github.Client { // go-github refuses to send during a known Retry-After
		n := github.NewClient(nil)
		n.BaseURL = c.BaseURL
		return n
	}
	_, _, err := fresh().Search.Code(ctx, `"weather.p.rapidapi.com"`, nil)
	var ab *github.AbuseRateLimitError
	if !errors.As(err, &ab) || ab.RetryAfter == nil || *ab.RetryAfter != 30*time.Second {
		t.Fatalf("request 1: got %v, want *AbuseRateLimitError with Retry-After 30s", err)
	}
	_, _, err = fresh().Search.Code(ctx, `"weather.p.rapidapi.com"`, nil)
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response.StatusCode != http.StatusForbidden || !strings.Contains(er.Message, "secondary rate limit") {
		t.Fatalf("request 2: got %v, want a 403 secondary limit without headers", err)
	}
	_, _, err = fresh().Search.Code(ctx, `"weather.p.rapidapi.com"`, nil)
	if !errors.As(err, &er) || er.Response.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("request 3: got %v, want a plain 429", err)
	}
	res, _, err := fresh().Search.Code(ctx, `"weather.p.rapidapi.com"`, nil)
	if err != nil || !res.GetIncompleteResults() || len(res.CodeResults) != 2 {
		t.Fatalf("request 4: got %v, %v; want incomplete results with half the page", res, err)
	}
	if reps := srv.Log.Repeats(); len(reps) != 0 {
		t.Errorf("repeats %v: refused requests are not repeats", reps)
	}
}

func TestGitHubReposAndContents(t *testing.T) {
	fsys := ghTestCorpus()
	faults := &GitHubFaults{
		MissingRepos: []string{"carol/gone"},
		BlockedFiles: []FileRef{{Repo: "bob/scripts", Path: "hello.py"}},
		Generated: []GeneratedFile{
			{Repo: "carol/gone", Path: "x.py", Kind: "text", Content: "x = 'weather.p.rapidapi.com'\n"},
			{Repo: "dave/big", Path: "big.py", Kind: "large", Size: 2 << 20, Host: "weather.p.rapidapi.com"},
			{Repo: "dave/big", Path: "bin.py", Kind: "binary", Host: "weather.p.rapidapi.com"},
		},
	}
	c, srv, _ := ghTestServer(t, fsys, GitHubOptions{Faults: faults})
	ctx := context.Background()

	repo, _, err := c.Repositories.Get(ctx, "alice", "weather")
	if err != nil || repo.GetStargazersCount() != 5 || repo.GetLicense().GetSPDXID() != "MIT" {
		t.Fatalf("repo: got %+v, %v", repo, err)
	}
	for _, full := range []string{"carol/gone", "nobody/nothing"} {
		o, n, _ := strings.Cut(full, "/")
		if _, resp, err := c.Repositories.Get(ctx, o, n); err == nil || resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: got %v, want 404", full, err)
		}
	}
	if _, _, err := c.Repositories.Get(ctx, "dave", "big"); err != nil {
		t.Errorf("synthesized repository: %v", err)
	}
	// The search result pins the file to a commit; contents at that commit.
	res, _, err := c.Search.Code(ctx, `"hello"`, nil)
	if err != nil || len(res.CodeResults) != 1 {
		t.Fatalf("search hello: %v %v", res, err)
	}
	hello := res.CodeResults[0]
	if hello.GetSHA() != "ce013625030ba8dba906f756967f9e9ca394464a" { // git hash-object of "hello\n"
		t.Errorf("blob sha %s", hello.GetSHA())
	}
	_, _, resp, err := c.Repositories.GetContents(ctx, "bob", "scripts", "hello.py", nil)
	if err == nil || resp.StatusCode != http.StatusUnavailableForLegalReasons {
		t.Errorf("blocked file: got %v, want 451", err)
	}
	commit := strings.Split(strings.SplitN(res.CodeResults[0].GetHTMLURL(), "/blob/", 2)[1], "/")[0]
	fc, _, resp, err := c.Repositories.GetContents(ctx, "alice", "weather", "app/client.py", &github.RepositoryContentGetOptions{Ref: "main"})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := fc.GetContent()
	if !strings.Contains(body, "x-rapidapi-host") || fc.GetSHA() != gitBlobSHA([]byte(body)) {
		t.Errorf("client.py: sha %s, content %q", fc.GetSHA(), body)
	}
	if _, _, _, err := c.Repositories.GetContents(ctx, "alice", "weather", "app/client.py", &github.RepositoryContentGetOptions{Ref: commit}); err == nil {
		t.Errorf("bob's commit is not alice's: want 404")
	}
	// Conditional request.
	etag := resp.Header.Get("ETag")
	req, _ := c.NewRequest(http.MethodGet, "repos/alice/weather/contents/app/client.py?ref=main", nil)
	req.Header.Set("If-None-Match", etag)
	resp, err = c.Do(ctx, req, nil)
	if err == nil || resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match %s: got %v (%v), want 304", etag, resp.Status, err)
	}
	big, _, _, err := c.Repositories.GetContents(ctx, "dave", "big", "big.py", nil)
	if err != nil || big.GetEncoding() != "none" || big.GetSize() != 2<<20 {
		t.Errorf("2 MB file: got encoding %q size %d, %v", big.GetEncoding(), big.GetSize(), err)
	}
	bin, _, _, err := c.Repositories.GetContents(ctx, "dave", "big", "bin.py", nil)
	if b, _ := bin.GetContent(); err != nil || !strings.Contains(b, "\x00") {
		t.Errorf("binary file: got %q, %v", b, err)
	}
	if srv.Log.Len() == 0 {
		t.Error("nothing logged")
	}
}

func TestGitHubEmbeddedCorpusLoads(t *testing.T) {
	h, err := GitHub(GitHubCorpus(), GitHubOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g := h.(*gitHub)
	if len(g.faults.Generated) == 0 || len(g.faults.Saturated) == 0 {
		t.Errorf("faults.json not loaded: %+v", g.faults)
	}
	for _, gen := range g.faults.Generated {
		if f := g.repos[gen.Repo].files[gen.Path]; f == nil || (gen.Size > 0 && len(f.content) != gen.Size) {
			t.Errorf("generated %s/%s missing or of the wrong size", gen.Repo, gen.Path)
		}
	}
}

// TestGitHubHistory: a repository's history.json gives the commits before HEAD;
// the server lists a file's commits up to a commit (a rename ends the list, as
// git log -- path does), pages them, says what each commit changed, and serves
// the file at any commit of the history.
func TestGitHubHistory(t *testing.T) {
	fsys := ghTestCorpus()
	fsys["repos/alice/weather/repo.json"] = &fstest.MapFile{Data: []byte(`{"full_name":"alice/weather","default_branch":"main","pushed_at":"2024-04-01T00:00:00Z"}`)}
	fsys["repos/alice/weather/history.json"] = &fstest.MapFile{Data: []byte(`{"commits": [
		{"date": "2020-01-01T00:00:00Z", "files": {"client.py": "v1\n"}},
		{"date": "2021-01-01T00:00:00Z", "files": {"client.py": "v2\n"}},
		{"date": "2022-01-01T00:00:00Z", "renames": {"client.py": "app/client.py"}}]}`)}
	c, _, _ := ghTestServer(t, fsys, GitHubOptions{})
	ctx := context.Background()
	list := func(path, sha string, page int) []*github.RepositoryCommit {
		t.Helper()
		cs, _, err := c.Repositories.ListCommits(ctx, "alice", "weather", &github.CommitsListOptions{Path: path, SHA: sha,
			ListOptions: github.ListOptions{Page: page, PerPage: 1}})
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	head := list("app/client.py", "", 1)
	if len(head) != 1 || head[0].GetCommit().GetAuthor().GetDate().Format("2006") != "2024" {
		t.Fatalf("newest commit of app/client.py: %+v", head)
	}
	rename := list("app/client.py", "", 2)
	if len(rename) != 1 || rename[0].GetCommit().GetAuthor().GetDate().Format("2006") != "2022" || len(list("app/client.py", "", 3)) != 0 {
		t.Fatalf("app/client.py's history should end at its rename: %+v", rename)
	}
	detail, _, err := c.Repositories.GetCommit(ctx, "alice", "weather", rename[0].GetSHA(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var moved *github.CommitFile
	for _, f := range detail.Files {
		if f.GetFilename() == "app/client.py" {
			moved = f
		}
	}
	if moved == nil || moved.GetStatus() != "renamed" || moved.GetPreviousFilename() != "client.py" {
		t.Fatalf("the rename commit's files: %+v", detail.Files)
	}
	parent := rename[0].Parents[0].GetSHA()
	old := list("client.py", parent, 1)
	if len(old) != 1 || old[0].GetCommit().GetAuthor().GetDate().Format("2006") != "2021" {
		t.Fatalf("client.py before the rename: %+v", old)
	}
	f, _, _, err := c.Repositories.GetContents(ctx, "alice", "weather", "client.py", &github.RepositoryContentGetOptions{Ref: old[0].GetSHA()})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := f.GetContent(); got != "v2\n" {
		t.Errorf("client.py at 2021: %q", got)
	}
	if _, _, _, err := c.Repositories.GetContents(ctx, "alice", "weather", "app/client.py", &github.RepositoryContentGetOptions{Ref: old[0].GetSHA()}); err == nil {
		t.Error("app/client.py served at a commit before it existed")
	}
}
