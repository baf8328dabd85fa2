package replay

import (
	"bytes"
	"crypto/sha1"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

//go:embed all:testdata/github
var githubFS embed.FS

// GitHubCorpus is the embedded synthetic code corpus: repos/<owner>/<repo>/repo.json
// (GitHub's repository JSON), repos/<owner>/<repo>/files/<path> (the files at HEAD)
// and faults.json (the scripted faults, see GitHubFaults).
func GitHubCorpus() fs.FS {
	sub, err := fs.Sub(githubFS, "testdata/github")
	if err != nil {
		panic(err) // the embedded directory always exists
	}
	return sub
}

// GitHubOptions configures the GitHub replay server.
type GitHubOptions struct {
	// Now is the server clock that rate-limit windows follow; tests pass a fake one.
	// Nil means time.Now.
	Now func() time.Time
	// SearchPerMinute is the code-search budget of each token per minute: 0 means
	// GitHub's 10, a negative value means unlimited.
	SearchPerMinute int
	// CorePerHour is the budget of every other endpoint per token and hour: 0 means
	// GitHub's 5,000, a negative value means unlimited.
	CorePerHour int
	// Faults replaces the corpus's faults.json when non-nil.
	Faults *GitHubFaults
	// NoRequestFaults drops the scripted rate-limit faults (secondary limits, 429s,
	// incomplete results) but keeps the content faults; the demo uses it to run fast.
	NoRequestFaults bool
}

// GitHubFaults scripts what the replay server does wrong, as faults.json holds it.
type GitHubFaults struct {
	// SecondaryLimit answers the given search requests (1-based, counted over the
	// server's life) with a 403 secondary rate limit; RetryAfter 0 sends neither a
	// Retry-After header nor the documentation URL, only the message.
	SecondaryLimit []RequestFault `json:"secondary_limit,omitempty"`
	// TooManyRequests answers the given search requests with a bare 429.
	TooManyRequests []RequestFault `json:"too_many_requests,omitempty"`
	// Incomplete answers the given search requests with incomplete_results: true
	// and only the first half of the page.
	Incomplete []RequestFault `json:"incomplete_results,omitempty"`
	// MissingRepos are repositories that search still finds but that 404.
	MissingRepos []string `json:"missing_repos,omitempty"`
	// BlockedFiles answer 451 Unavailable For Legal Reasons.
	BlockedFiles []FileRef `json:"blocked_files,omitempty"`
	// Generated are files made at serve time, so big or binary fixtures need not be
	// committed. A repository that is not in the corpus is synthesized.
	Generated []GeneratedFile `json:"generated_files,omitempty"`
	// Saturated makes queries report more results than the 1,000 GitHub serves.
	Saturated []Saturation `json:"saturated,omitempty"`
}

// RequestFault names one search request by its 1-based arrival number.
type RequestFault struct {
	SearchRequest int `json:"search_request"`
	RetryAfter    int `json:"retry_after,omitempty"` // seconds
}

// FileRef names a file of a repository.
type FileRef struct {
	Repo string `json:"repo"`
	Path string `json:"path"`
}

// GeneratedFile is a file the server makes deterministically.
type GeneratedFile struct {
	Repo string `json:"repo"`
	Path string `json:"path"`
	// Kind is "large" (Python padded with comments to Size bytes), "binary" (NUL
	// bytes around the host), "invalid_utf8" (Python with Latin-1 bytes) or "text"
	// (Content as given).
	Kind    string `json:"kind"`
	Size    int    `json:"size,omitempty"`
	Host    string `json:"host,omitempty"`
	Content string `json:"content,omitempty"`
}

// Saturation makes a query whose only search term is Term report TotalCount
// results unless it carries a size: range no wider than MaxSizeSpan (0: never).
type Saturation struct {
	Term        string `json:"term"`
	TotalCount  int    `json:"total_count"`
	MaxSizeSpan int    `json:"max_size_span"`
}

type ghFile struct {
	path    string
	content []byte
	sha     string // git blob SHA
	tokens  []token
	lang    string
}

type ghRepo struct {
	fullName string
	meta     map[string]any
	metaJSON []byte
	commit   string
	branch   string
	files    map[string]*ghFile
	missing  bool
	// history are the commits before HEAD as history.json gives them, oldest
	// first; commits is the whole history, HEAD last, built from it.
	history  []historyEntry
	commits  []*ghCommit
	byCommit map[string]*ghCommit
}

// historyEntry is one commit of a repository's history.json: its author date,
// the files it writes (path → content; null removes) and renames (old → new path).
type historyEntry struct {
	Date    string             `json:"date"`
	Message string             `json:"message,omitempty"`
	Files   map[string]*string `json:"files,omitempty"`
	Renames map[string]string  `json:"renames,omitempty"`
}

// ghCommit is one commit the server serves: the tree it holds and what it changed.
type ghCommit struct {
	sha, parent, date, message string
	tree                       map[string]*ghFile
	status                     map[string]string // path → added | modified | removed | renamed
	renamedFrom                map[string]string // new path → old path
}

type token struct {
	text       string
	start, end int
}

type window struct {
	start time.Time
	used  int
}

// gitHub is the replay handler.
type gitHub struct {
	opts    GitHubOptions
	faults  GitHubFaults
	repos   map[string]*ghRepo
	order   []*ghFile // every file, by repository then path
	repoOf  map[*ghFile]*ghRepo
	blocked map[string]bool
	now     func() time.Time

	mu       sync.Mutex
	searches int
	windows  map[string]*window // token|resource → current window
}

// GitHub returns a handler that serves the corpus in fsys (laid out as GitHubCorpus
// describes) the way the GitHub REST API serves repositories, as go-github sees it:
// /search/code, /repos/{o}/{r}, /repos/{o}/{r}/contents/{path}?ref= (at any
// commit of its history), /repos/{o}/{r}/commits?path=&sha= (a file's commits),
// /repos/{o}/{r}/commits/{sha} (a commit and the files it changed), /rate_limit.
// A repository's history is HEAD alone (its files, dated by pushed_at) unless a
// history.json gives the commits before it.
func GitHub(fsys fs.FS, opts GitHubOptions) (http.Handler, error) {
	g := &gitHub{opts: opts, repos: map[string]*ghRepo{}, repoOf: map[*ghFile]*ghRepo{},
		blocked: map[string]bool{}, windows: map[string]*window{}, now: opts.Now}
	if g.now == nil {
		g.now = time.Now
	}
	if opts.Faults != nil {
		g.faults = *opts.Faults
	} else if b, err := fs.ReadFile(fsys, "faults.json"); err == nil {
		if err := json.Unmarshal(b, &g.faults); err != nil {
			return nil, fmt.Errorf("github replay: faults.json: %w", err)
		}
	}
	if opts.NoRequestFaults {
		g.faults.SecondaryLimit, g.faults.TooManyRequests, g.faults.Incomplete = nil, nil, nil
	}
	if err := g.load(fsys); err != nil {
		return nil, err
	}
	return g, nil
}

func (g *gitHub) load(fsys fs.FS) error {
	metas, _ := fs.Glob(fsys, "repos/*/*/repo.json")
	for _, m := range metas {
		dir := path.Dir(m)
		full := strings.TrimPrefix(dir, "repos/")
		b, err := fs.ReadFile(fsys, m)
		if err != nil {
			return fmt.Errorf("github replay %s: %w", full, err)
		}
		var meta map[string]any
		if err := json.Unmarshal(b, &meta); err != nil {
			return fmt.Errorf("github replay %s: repo.json: %w", full, err)
		}
		r := g.repo(full, meta)
		if hb, err := fs.ReadFile(fsys, dir+"/history.json"); err == nil {
			var h struct {
				Commits []historyEntry `json:"commits"`
			}
			if err := json.Unmarshal(hb, &h); err != nil {
				return fmt.Errorf("github replay %s: history.json: %w", full, err)
			}
			r.history = h.Commits
		}
		root := dir + "/files"
		err = fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			r.files[strings.TrimPrefix(p, root+"/")] = newGHFile(strings.TrimPrefix(p, root+"/"), data)
			return nil
		})
		if err != nil && !errorsIsNotExist(err) {
			return fmt.Errorf("github replay %s: %w", full, err)
		}
	}
	for _, gen := range g.faults.Generated {
		r := g.repos[gen.Repo]
		if r == nil {
			owner, name, _ := strings.Cut(gen.Repo, "/")
			r = g.repo(gen.Repo, map[string]any{"full_name": gen.Repo, "name": name, "owner": map[string]any{"login": owner},
				"default_branch": "main", "language": "Python", "created_at": "2021-03-04T05:06:07Z",
				"updated_at": "2023-03-04T05:06:07Z", "pushed_at": "2023-03-04T05:06:07Z"})
		}
		r.files[gen.Path] = newGHFile(gen.Path, generate(gen))
	}
	for _, m := range g.faults.MissingRepos {
		if r := g.repos[m]; r != nil {
			r.missing = true
		}
	}
	for _, b := range g.faults.BlockedFiles {
		g.blocked[b.Repo+"\x00"+b.Path] = true
	}
	for _, n := range slices.Sorted(maps.Keys(g.repos)) {
		r := g.repos[n]
		paths := slices.Sorted(maps.Keys(r.files))
		h := sha1.New()
		h.Write([]byte(n))
		for _, p := range paths {
			f := r.files[p]
			g.order = append(g.order, f)
			g.repoOf[f] = r
			fmt.Fprintf(h, "\x00%s %s", p, f.sha)
		}
		r.commit = hex.EncodeToString(h.Sum(nil))
		r.buildCommits()
	}
	return nil
}

// buildCommits makes the repository's commits: those of its history.json, oldest
// first, then HEAD (the files at the default branch, dated by pushed_at).
func (r *ghRepo) buildCommits() {
	tree := map[string]*ghFile{}
	parent := ""
	r.byCommit = map[string]*ghCommit{}
	add := func(c *ghCommit, next map[string]*ghFile, renamed map[string]string) {
		c.parent, c.tree, c.status, c.renamedFrom = parent, next, map[string]string{}, renamed
		for p, f := range next {
			switch old, ok := tree[p]; {
			case renamed[p] != "":
				c.status[p] = "renamed"
			case !ok:
				c.status[p] = "added"
			case old.sha != f.sha:
				c.status[p] = "modified"
			}
		}
		for p := range tree {
			if _, ok := next[p]; !ok && !slices.Contains(slices.Collect(maps.Values(renamed)), p) {
				c.status[p] = "removed"
			}
		}
		r.commits = append(r.commits, c)
		r.byCommit[c.sha] = c
		tree, parent = next, c.sha
	}
	for i, e := range r.history {
		next := maps.Clone(tree)
		renamed := map[string]string{}
		for old, nu := range e.Renames {
			next[nu] = next[old]
			delete(next, old)
			renamed[nu] = old
		}
		for p, content := range e.Files {
			if content == nil {
				delete(next, p)
				continue
			}
			next[p] = newGHFile(p, []byte(*content))
		}
		sum := sha1.Sum([]byte(fmt.Sprintf("%s\x00%d\x00%s", r.fullName, i, e.Date)))
		add(&ghCommit{sha: hex.EncodeToString(sum[:]), date: e.Date, message: e.Message}, next, renamed)
	}
	date, _ := r.meta["pushed_at"].(string)
	for _, k := range []string{"updated_at", "created_at"} {
		if date == "" {
			date, _ = r.meta[k].(string)
		}
	}
	if date == "" {
		date = "2020-01-01T00:00:00Z"
	}
	add(&ghCommit{sha: r.commit, date: date, message: "HEAD"}, maps.Clone(r.files), map[string]string{})
}

func errorsIsNotExist(err error) bool {
	pe, ok := err.(*fs.PathError)
	return ok && pe.Err == fs.ErrNotExist
}

func (g *gitHub) repo(full string, meta map[string]any) *ghRepo {
	owner, name, _ := strings.Cut(full, "/")
	if _, ok := meta["full_name"]; !ok {
		meta["full_name"] = full
	}
	if _, ok := meta["name"]; !ok {
		meta["name"] = name
	}
	if _, ok := meta["owner"]; !ok {
		meta["owner"] = map[string]any{"login": owner}
	}
	if _, ok := meta["html_url"]; !ok {
		meta["html_url"] = "https://github.com/" + full
	}
	if _, ok := meta["id"]; !ok {
		h := sha1.Sum([]byte(full))
		meta["id"] = int64(h[0])<<16 | int64(h[1])<<8 | int64(h[2])
	}
	branch, _ := meta["default_branch"].(string)
	if branch == "" {
		branch = "main"
		meta["default_branch"] = branch
	}
	b, _ := json.Marshal(meta)
	r := &ghRepo{fullName: full, meta: meta, metaJSON: b, branch: branch, files: map[string]*ghFile{}}
	g.repos[full] = r
	return r
}

// gitBlobSHA is the SHA git gives content as a blob object.
func gitBlobSHA(content []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

func newGHFile(p string, content []byte) *ghFile {
	f := &ghFile{path: p, content: content, sha: gitBlobSHA(content), tokens: tokenize(string(content))}
	switch path.Ext(p) {
	case ".py", ".pyw", ".pyi":
		f.lang = "python"
	case ".js", ".cjs", ".mjs", ".jsx":
		f.lang = "javascript"
	case ".ts", ".cts", ".mts":
		f.lang = "typescript"
	case ".tsx":
		f.lang = "tsx"
	case ".ipynb":
		f.lang = "jupyter notebook"
	case ".md":
		f.lang = "markdown"
	}
	return f
}

// generate makes a GeneratedFile's content; the same entry always gives the same bytes.
func generate(gen GeneratedFile) []byte {
	var b bytes.Buffer
	switch gen.Kind {
	case "large":
		fmt.Fprintf(&b, "import requests\n\nHOST = %q\n\n\ndef fetch(path):\n    return requests.get(\"https://\" + HOST + path, headers={\"x-rapidapi-host\": HOST}).json()\n\n", gen.Host)
		for i := 0; b.Len() < gen.Size; i++ {
			fmt.Fprintf(&b, "# generated table row %08d: %s\n", i, strings.Repeat("0123456789abcdef", 4))
		}
		b.Truncate(gen.Size)
	case "binary":
		for i := 0; i < 64; i++ {
			b.WriteByte(byte(i * 7))
			b.WriteByte(0)
		}
		b.WriteString(gen.Host)
		for i := 0; i < 64; i++ {
			b.WriteByte(0)
			b.WriteByte(byte(255 - i))
		}
	case "invalid_utf8":
		fmt.Fprintf(&b, "# -*- coding: latin-1 -*-\n# Auteur: Fran\xe7ois M\xfcller\nimport requests\n\n\ndef get(q):\n    return requests.get(\"https://%s/search\", params={\"q\": q}, headers={\"x-rapidapi-host\": %q})\n", gen.Host, gen.Host)
	default:
		b.WriteString(gen.Content)
	}
	return b.Bytes()
}

// tokenize splits text into lower-case runs of letters and digits with their byte
// offsets, the way code search indexes it: punctuation separates tokens.
func tokenize(s string) []token {
	var out []token
	start := -1
	for i, r := range s {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case alnum && start < 0:
			start = i
		case !alnum && start >= 0:
			out = append(out, token{strings.ToLower(s[start:i]), start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, token{strings.ToLower(s[start:]), start, len(s)})
	}
	return out
}

// ServeHTTP routes a request.
func (g *gitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if r.Method != http.MethodGet {
		ghError(w, http.StatusNotFound, "Not Found", "")
		return
	}
	switch {
	case p == "/rate_limit":
		g.rateLimit(w, r)
	case p == "/search/code":
		n, ok := g.admit(w, r, "search")
		if !ok {
			return
		}
		g.search(w, r, n)
	case strings.HasPrefix(p, "/repos/"):
		if _, ok := g.admit(w, r, "core"); !ok {
			return
		}
		parts := strings.SplitN(strings.TrimPrefix(p, "/repos/"), "/", 4)
		switch {
		case len(parts) == 2:
			g.repoMeta(w, r, parts[0]+"/"+parts[1])
		case len(parts) == 4 && parts[2] == "contents":
			g.contents(w, r, parts[0]+"/"+parts[1], parts[3])
		case len(parts) == 3 && parts[2] == "commits":
			g.fileCommits(w, r, parts[0]+"/"+parts[1])
		case len(parts) == 4 && parts[2] == "commits":
			g.commitDetail(w, parts[0]+"/"+parts[1], parts[3])
		default:
			ghError(w, http.StatusNotFound, "Not Found", "")
		}
	default:
		ghError(w, http.StatusNotFound, "Not Found", "")
	}
}

func ghError(w http.ResponseWriter, status int, msg, doc string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	body := map[string]string{"message": msg}
	if doc != "" {
		body["documentation_url"] = doc
	}
	json.NewEncoder(w).Encode(body)
}

func (g *gitHub) limit(resource string) (int, time.Duration) {
	if resource == "search" {
		switch {
		case g.opts.SearchPerMinute == 0:
			return 10, time.Minute
		case g.opts.SearchPerMinute < 0:
			return math.MaxInt32, time.Minute
		}
		return g.opts.SearchPerMinute, time.Minute
	}
	switch {
	case g.opts.CorePerHour == 0:
		return 5000, time.Hour
	case g.opts.CorePerHour < 0:
		return math.MaxInt32, time.Hour
	}
	return g.opts.CorePerHour, time.Hour
}

// windowFor returns the token's current window of resource; callers hold g.mu.
func (g *gitHub) windowFor(tok, resource string, now time.Time) (*window, int, time.Time) {
	limit, span := g.limit(resource)
	key := tok + "\x00" + resource
	win := g.windows[key]
	if win == nil || !now.Before(win.start.Add(span)) {
		win = &window{start: now}
		g.windows[key] = win
	}
	return win, limit, win.start.Add(span)
}

func setRateHeaders(h http.Header, resource string, limit, used int, reset time.Time) {
	h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(limit-used, 0)))
	h.Set("X-RateLimit-Used", strconv.Itoa(used))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
	h.Set("X-RateLimit-Resource", resource)
}

// admit charges the request to its token's budget, answers it with the scripted
// faults or the primary rate limit when due, and reports whether to go on.
func (g *gitHub) admit(w http.ResponseWriter, r *http.Request, resource string) (int, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	tok := r.Header.Get("Authorization")
	n := 0
	if resource == "search" {
		g.searches++
		n = g.searches
		for _, f := range g.faults.SecondaryLimit {
			if f.SearchRequest == n {
				if f.RetryAfter > 0 {
					w.Header().Set("Retry-After", strconv.Itoa(f.RetryAfter))
					ghError(w, http.StatusForbidden, "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
						"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits")
				} else {
					ghError(w, http.StatusForbidden, "You have exceeded a secondary rate limit and have been temporarily blocked from content creation.", "")
				}
				return n, false
			}
		}
		for _, f := range g.faults.TooManyRequests {
			if f.SearchRequest == n {
				ghError(w, http.StatusTooManyRequests, "Too Many Requests", "")
				return n, false
			}
		}
	}
	win, limit, reset := g.windowFor(tok, resource, now)
	if win.used >= limit {
		setRateHeaders(w.Header(), resource, limit, win.used, reset)
		ghError(w, http.StatusForbidden, "API rate limit exceeded for user ID 1.",
			"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-the-primary-rate-limit")
		return n, false
	}
	win.used++
	setRateHeaders(w.Header(), resource, limit, win.used, reset)
	return n, true
}

func (g *gitHub) rateLimit(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	now := g.now()
	tok := r.Header.Get("Authorization")
	res := map[string]any{}
	for _, name := range []string{"core", "search"} {
		win, limit, reset := g.windowFor(tok, name, now)
		res[name] = map[string]any{"limit": limit, "remaining": max(limit-win.used, 0), "used": win.used, "reset": reset.Unix()}
	}
	g.mu.Unlock()
	res["code_search"] = res["search"]
	writeJSON(w, http.StatusOK, map[string]any{"resources": res, "rate": res["core"]})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (g *gitHub) repoMeta(w http.ResponseWriter, r *http.Request, full string) {
	repo := g.repos[full]
	if repo == nil || repo.missing {
		ghError(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest/repos/repos#get-a-repository")
		return
	}
	sum := sha1.Sum(repo.metaJSON)
	etag := `"` + hex.EncodeToString(sum[:]) + `"`
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Write(repo.metaJSON)
}

func (g *gitHub) contents(w http.ResponseWriter, r *http.Request, full, p string) {
	repo := g.repos[full]
	if repo == nil || repo.missing {
		ghError(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest/repos/contents#get-repository-content")
		return
	}
	ref := r.URL.Query().Get("ref")
	f := repo.files[p]
	if c := repo.byCommit[ref]; c != nil {
		f = c.tree[p]
	} else if ref != "" && ref != repo.branch {
		f = nil
	}
	if f == nil {
		ghError(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest/repos/contents#get-repository-content")
		return
	}
	if g.blocked[full+"\x00"+p] {
		ghError(w, http.StatusUnavailableForLegalReasons, "Repository access blocked", "")
		return
	}
	etag := `W/"` + f.sha + `"`
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	at := repo.commit
	if repo.byCommit[ref] != nil {
		at = ref
	}
	body := map[string]any{
		"type": "file", "name": path.Base(p), "path": p, "sha": f.sha, "size": len(f.content),
		"url":          fmt.Sprintf("https://api.github.com/repos/%s/contents/%s?ref=%s", full, p, at),
		"html_url":     fmt.Sprintf("https://github.com/%s/blob/%s/%s", full, at, p),
		"git_url":      fmt.Sprintf("https://api.github.com/repos/%s/git/blobs/%s", full, f.sha),
		"download_url": fmt.Sprintf("https://raw.githubusercontent.com/%s/%s/%s", full, at, p),
	}
	if len(f.content) > 1<<20 { // GitHub leaves out the content of files over 1 MB
		body["encoding"], body["content"] = "none", ""
	} else {
		body["encoding"], body["content"] = "base64", wrap60(base64.StdEncoding.EncodeToString(f.content))
	}
	writeJSON(w, http.StatusOK, body)
}

// commitJSON is a commit as the commits endpoints list it.
func (repo *ghRepo) commitJSON(c *ghCommit) map[string]any {
	who := map[string]any{"name": "Ada", "email": "ada@example.com", "date": c.date}
	parents := []map[string]any{}
	if c.parent != "" {
		parents = append(parents, map[string]any{"sha": c.parent,
			"url": fmt.Sprintf("https://api.github.com/repos/%s/commits/%s", repo.fullName, c.parent)})
	}
	return map[string]any{
		"sha": c.sha, "html_url": fmt.Sprintf("https://github.com/%s/commit/%s", repo.fullName, c.sha),
		"url":     fmt.Sprintf("https://api.github.com/repos/%s/commits/%s", repo.fullName, c.sha),
		"commit":  map[string]any{"author": who, "committer": who, "message": c.message},
		"parents": parents,
	}
}

// fileCommits lists, newest first, the commits from sha (default HEAD) back that
// changed path (as git log -- path does, without following renames), paged.
func (g *gitHub) fileCommits(w http.ResponseWriter, r *http.Request, full string) {
	repo := g.repos[full]
	if repo == nil || repo.missing {
		ghError(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest/commits/commits#list-commits")
		return
	}
	q := r.URL.Query()
	from := len(repo.commits) - 1
	if sha := q.Get("sha"); sha != "" && sha != repo.branch {
		c := repo.byCommit[sha]
		if c == nil {
			ghError(w, http.StatusNotFound, "No commit found for SHA: "+sha, "https://docs.github.com/rest/commits/commits#list-commits")
			return
		}
		from = slices.Index(repo.commits, c)
	}
	p := q.Get("path")
	var list []map[string]any
	for i := from; i >= 0; i-- {
		if c := repo.commits[i]; p == "" || c.status[p] != "" {
			list = append(list, repo.commitJSON(c))
		}
	}
	perPage, _ := strconv.Atoi(q.Get("per_page"))
	if perPage <= 0 {
		perPage = 30
	}
	perPage = min(perPage, 100)
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)
	lo := min((page-1)*perPage, len(list))
	hi := min(lo+perPage, len(list))
	setLinks(w.Header(), r.URL, page, max((len(list)+perPage-1)/perPage, 1))
	out := list[lo:hi]
	if out == nil {
		out = []map[string]any{}
	}
	writeJSON(w, http.StatusOK, out)
}

// commitDetail serves one commit with the files it changed.
func (g *gitHub) commitDetail(w http.ResponseWriter, full, sha string) {
	repo := g.repos[full]
	var c *ghCommit
	if repo != nil && !repo.missing {
		c = repo.byCommit[sha]
	}
	if c == nil {
		ghError(w, http.StatusNotFound, "No commit found for SHA: "+sha, "https://docs.github.com/rest/commits/commits#get-a-commit")
		return
	}
	body := repo.commitJSON(c)
	files := []map[string]any{}
	for _, p := range slices.Sorted(maps.Keys(c.status)) {
		f := map[string]any{"filename": p, "status": c.status[p]}
		if old := c.renamedFrom[p]; old != "" {
			f["previous_filename"] = old
		}
		files = append(files, f)
	}
	body["files"] = files
	writeJSON(w, http.StatusOK, body)
}

// wrap60 breaks base64 text into lines as GitHub does.
func wrap60(s string) string {
	var b strings.Builder
	for len(s) > 60 {
		b.WriteString(s[:60])
		b.WriteByte('\n')
		s = s[60:]
	}
	b.WriteString(s)
	b.WriteByte('\n')
	return b.String()
}

// codeQuery is a parsed code-search query.
type codeQuery struct {
	terms      [][]string // each a phrase of tokens
	rawTerms   []string
	language   string
	inPath     bool
	paths      []string
	extensions []string
	repos      []string
	sizeMin    int
	sizeMax    int // -1: unbounded
	hasSize    bool
}

// parseCodeQuery reads GitHub's legacy code-search syntax: "quoted phrases", bare
// words and the qualifiers language:, in:, path:, extension:, repo: and size:.
func parseCodeQuery(q string) (codeQuery, error) {
	cq := codeQuery{sizeMax: -1}
	for _, f := range splitQuery(q) {
		if strings.HasPrefix(f, `"`) {
			t := strings.Trim(f, `"`)
			cq.addTerm(t)
			continue
		}
		k, v, ok := strings.Cut(f, ":")
		if !ok || v == "" {
			cq.addTerm(f)
			continue
		}
		switch strings.ToLower(k) {
		case "language":
			cq.language = strings.ToLower(v)
		case "in":
			cq.inPath = strings.Contains(v, "path") && !strings.Contains(v, "file")
		case "path":
			cq.paths = append(cq.paths, strings.Trim(v, "/"))
		case "extension":
			cq.extensions = append(cq.extensions, strings.TrimPrefix(strings.ToLower(v), "."))
		case "repo":
			cq.repos = append(cq.repos, v)
		case "size":
			lo, hi, err := parseSize(v)
			if err != nil {
				return cq, err
			}
			cq.sizeMin, cq.sizeMax, cq.hasSize = lo, hi, true
		default:
			cq.addTerm(f)
		}
	}
	if len(cq.terms) == 0 {
		return cq, fmt.Errorf("the search query must contain at least one search term")
	}
	return cq, nil
}

func (cq *codeQuery) addTerm(t string) {
	toks := tokenize(t)
	if len(toks) == 0 {
		return
	}
	ph := make([]string, len(toks))
	for i, tk := range toks {
		ph[i] = tk.text
	}
	cq.terms = append(cq.terms, ph)
	cq.rawTerms = append(cq.rawTerms, strings.ToLower(t))
}

func splitQuery(q string) []string {
	var out []string
	var cur strings.Builder
	inQ := false
	for _, r := range q {
		switch {
		case r == '"':
			inQ = !inQ
			cur.WriteRune(r)
		case unicode.IsSpace(r) && !inQ:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// parseSize reads N, >N, >=N, <N, <=N, A..B, *..B and A..* into an inclusive range.
func parseSize(v string) (int, int, error) {
	atoi := func(s string) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("bad size qualifier %q", v)
		}
		return n, nil
	}
	switch {
	case strings.Contains(v, ".."):
		a, b, _ := strings.Cut(v, "..")
		lo, hi := 0, -1
		var err error
		if a != "*" {
			if lo, err = atoi(a); err != nil {
				return 0, 0, err
			}
		}
		if b != "*" {
			if hi, err = atoi(b); err != nil {
				return 0, 0, err
			}
		}
		return lo, hi, nil
	case strings.HasPrefix(v, ">="):
		n, err := atoi(v[2:])
		return n, -1, err
	case strings.HasPrefix(v, ">"):
		n, err := atoi(v[1:])
		return n + 1, -1, err
	case strings.HasPrefix(v, "<="):
		n, err := atoi(v[2:])
		return 0, n, err
	case strings.HasPrefix(v, "<"):
		n, err := atoi(v[1:])
		return 0, n - 1, err
	}
	n, err := atoi(v)
	return n, n, err
}

// match reports whether f of repo matches the query and, when it does, the
// [start, end) byte spans of the first occurrence of each term.
func (cq codeQuery) match(repo string, f *ghFile) ([][2]int, bool) {
	if cq.language != "" && f.lang != cq.language {
		return nil, false
	}
	if len(cq.repos) > 0 && !contains(cq.repos, repo) {
		return nil, false
	}
	if len(cq.extensions) > 0 && !contains(cq.extensions, strings.TrimPrefix(path.Ext(f.path), ".")) {
		return nil, false
	}
	under := func(p string) bool { return p == "" || f.path == p || strings.HasPrefix(f.path, p+"/") }
	if len(cq.paths) > 0 && !slices.ContainsFunc(cq.paths, under) {
		return nil, false
	}
	size := len(f.content)
	if size < cq.sizeMin || (cq.sizeMax >= 0 && size > cq.sizeMax) {
		return nil, false
	}
	toks := f.tokens
	if cq.inPath {
		toks = tokenize(f.path)
	}
	var spans [][2]int
	for _, ph := range cq.terms {
		at := findPhrase(toks, ph)
		if at < 0 {
			return nil, false
		}
		spans = append(spans, [2]int{toks[at].start, toks[at+len(ph)-1].end})
	}
	return spans, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func findPhrase(toks []token, ph []string) int {
outer:
	for i := 0; i+len(ph) <= len(toks); i++ {
		for j, w := range ph {
			if toks[i+j].text != w {
				continue outer
			}
		}
		return i
	}
	return -1
}

// saturatedTotal is the total a scripted saturation reports for cq, or 0.
func (g *gitHub) saturatedTotal(cq codeQuery) int {
	for _, s := range g.faults.Saturated {
		if len(cq.rawTerms) != 1 || cq.rawTerms[0] != strings.ToLower(s.Term) {
			continue
		}
		if cq.hasSize && s.MaxSizeSpan > 0 && cq.sizeMax >= 0 && cq.sizeMax-cq.sizeMin < s.MaxSizeSpan {
			continue
		}
		return s.TotalCount
	}
	return 0
}

// searchCap is how many results GitHub serves for one query at most.
const searchCap = 1000

func (g *gitHub) search(w http.ResponseWriter, r *http.Request, n int) {
	q := r.URL.Query()
	cq, err := parseCodeQuery(q.Get("q"))
	if err != nil {
		ghError(w, http.StatusUnprocessableEntity, "Validation Failed: "+err.Error(), "https://docs.github.com/rest/search/search#search-code")
		return
	}
	perPage, _ := strconv.Atoi(q.Get("per_page"))
	if perPage <= 0 {
		perPage = 30
	}
	perPage = min(perPage, 100)
	page, _ := strconv.Atoi(q.Get("page"))
	if page <= 0 {
		page = 1
	}
	if (page-1)*perPage >= searchCap {
		ghError(w, http.StatusUnprocessableEntity, "Only the first 1000 search results are available", "https://docs.github.com/v3/search/")
		return
	}
	type hit struct {
		f     *ghFile
		spans [][2]int
	}
	var hits []hit
	for _, f := range g.order {
		if spans, ok := cq.match(g.repoOf[f].fullName, f); ok {
			hits = append(hits, hit{f, spans})
		}
	}
	total := len(hits)
	if s := g.saturatedTotal(cq); s > total {
		total = s
	}
	served := min(len(hits), searchCap)
	lo := min((page-1)*perPage, served)
	hi := min(lo+perPage, served)
	items := []map[string]any{}
	textMatch := strings.Contains(r.Header.Get("Accept"), "text-match")
	for _, h := range hits[lo:hi] {
		repo := g.repoOf[h.f]
		item := map[string]any{
			"name": path.Base(h.f.path), "path": h.f.path, "sha": h.f.sha,
			"url":      fmt.Sprintf("https://api.github.com/repos/%s/contents/%s?ref=%s", repo.fullName, h.f.path, repo.commit),
			"git_url":  fmt.Sprintf("https://api.github.com/repos/%s/git/blobs/%s", repo.fullName, h.f.sha),
			"html_url": fmt.Sprintf("https://github.com/%s/blob/%s/%s", repo.fullName, repo.commit, h.f.path),
			"score":    1.0,
			"repository": map[string]any{
				"id": repo.meta["id"], "name": repo.meta["name"], "full_name": repo.fullName, "owner": repo.meta["owner"],
				"private": false, "html_url": repo.meta["html_url"], "description": repo.meta["description"],
				"fork": repo.meta["fork"], "url": "https://api.github.com/repos/" + repo.fullName,
			},
		}
		if textMatch {
			item["text_matches"] = textMatches(h.f, h.spans, cq.inPath)
		}
		items = append(items, item)
	}
	incomplete := false
	for _, f := range g.faults.Incomplete {
		if f.SearchRequest == n {
			incomplete = true
			items = items[:len(items)/2]
		}
	}
	last := max((min(total, searchCap)+perPage-1)/perPage, 1)
	setLinks(w.Header(), r.URL, page, last)
	writeJSON(w, http.StatusOK, map[string]any{"total_count": total, "incomplete_results": incomplete, "items": items})
}

// textMatches builds the fragments GitHub returns with the text-match media type:
// the lines around each term's first occurrence.
func textMatches(f *ghFile, spans [][2]int, inPath bool) []map[string]any {
	src := string(f.content)
	prop := "content"
	if inPath {
		src, prop = f.path, "path"
	}
	var out []map[string]any
	for _, sp := range spans {
		ls := strings.LastIndexByte(src[:sp[0]], '\n') + 1
		le := strings.IndexByte(src[sp[1]:], '\n')
		if le < 0 {
			le = len(src)
		} else {
			le += sp[1]
		}
		frag := src[ls:le]
		out = append(out, map[string]any{
			"object_type": "FileContent", "property": prop, "fragment": frag,
			"matches": []map[string]any{{"text": src[sp[0]:sp[1]], "indices": []int{sp[0] - ls, sp[1] - ls}}},
		})
	}
	return out
}

// setLinks writes the Link header go-github reads pages from.
func setLinks(h http.Header, u *url.URL, page, last int) {
	link := func(p int, rel string) string {
		c := *u
		q := c.Query()
		q.Set("page", strconv.Itoa(p))
		c.RawQuery = q.Encode()
		return fmt.Sprintf(`<%s>; rel="%s"`, c.RequestURI(), rel)
	}
	var ls []string
	if page < last {
		ls = append(ls, link(page+1, "next"), link(last, "last"))
	}
	if page > 1 {
		ls = append(ls, link(1, "first"), link(page-1, "prev"))
	}
	if len(ls) > 0 {
		h.Set("Link", strings.Join(ls, ", "))
	}
}

// StartGitHub serves the corpus in fsys (GitHubCorpus() for the embedded one) on a
// loopback address. For a demo that should not wait, pass NoRequestFaults and a
// negative SearchPerMinute, and mine with a negative mine.Options.SearchPerMinute.
func StartGitHub(fsys fs.FS, opts GitHubOptions) (*Server, error) {
	h, err := GitHub(fsys, opts)
	if err != nil {
		return nil, err
	}
	return Start(h), nil
}
