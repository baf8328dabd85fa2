package mine

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/go-github/v62/github"

	"sccg/internal/blame"
	"sccg/lang"
	"sccg/store"
)

// failure names why a request failed in a way that ends only its own unit — rate
// limits that outlasted every try, or an error answer from the server — and is ""
// for errors that must stop the run (cancellation, a broken connection, the store).
func failure(err error) string {
	var er *github.ErrorResponse
	switch {
	case err == nil:
		return ""
	case errors.Is(err, errGaveUp):
		return "gave up after repeated rate limits"
	case errors.As(err, &er) && er.Response != nil:
		return fmt.Sprintf("request failed (%d %s)", er.Response.StatusCode, http.StatusText(er.Response.StatusCode))
	}
	return ""
}

// searchCap is how many results GitHub serves for one code search.
const searchCap = 1000

// canonicalAPI is the API root fetches are recorded under, whatever server answered,
// so a store's ETags stay valid when --api-base changes.
const canonicalAPI = "https://api.github.com/"

// fileState is what the miner knows about one (repository, path, blob SHA).
type fileState struct {
	id       int64 // stored file, or 0
	rejected bool
}

// repoState is what the miner knows about one repository during a run.
type repoState struct {
	repo    *store.Repository // metadata to save with the first kept file
	missing bool
	fetched bool // metadata was requested in this run
	used    bool // a file of it was stored or judged on its content in this run
}

type ghMiner struct {
	st       *store.Store
	opts     Options
	base     *url.URL
	pool     *pool
	stats    *Stats
	done     map[string]bool
	files    map[string]fileState
	repos    map[string]*repoState
	apiFiles map[int64]int
	counted  map[string]bool // api|file pairs counted in apiFiles during this run
}

// Mine searches GitHub (or the server at opts.APIBase) for files that call the APIs
// in the store, layer by layer, and stores each file found with its repository and
// provenance. It resumes where an earlier run stopped; faults of single repositories
// or files are recorded as decisions and the run goes on.
//
// Mine records itself as one run of the mine stage, with its resolved options.
func Mine(ctx context.Context, st *store.Store, opts Options) (*Stats, error) {
	opts.defaults()
	return store.RecordRun(ctx, st, Stage, opts.RunArgs(), func(runID int64) (*Stats, error) {
		opts.runID = runID
		return mineGitHub(ctx, st, opts)
	})
}

func mineGitHub(ctx context.Context, st *store.Store, opts Options) (*Stats, error) {
	base := opts.APIBase
	if base == "" {
		base = canonicalAPI
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("mine: api base %q: %w", base, err)
	}
	stats := &Stats{}
	m := &ghMiner{st: st, opts: opts, base: u, stats: stats, files: map[string]fileState{},
		repos: map[string]*repoState{}, counted: map[string]bool{},
		pool: newPool(opts.Tokens, opts.SearchPerMinute, opts.Clock, opts.Seed, stats)}
	m.pool.prime = m.prime
	if m.done, err = st.DoneUnits(ctx, Stage); err != nil {
		return nil, fmt.Errorf("mine: %w", err)
	}
	if m.apiFiles, err = st.MinedFileCounts(ctx); err != nil {
		return nil, fmt.Errorf("mine: %w", err)
	}
	targets, err := Targets(ctx, st, opts.APIs)
	if err != nil {
		return nil, err
	}
	if err := m.backdate(ctx); err != nil {
		return stats, err
	}
	opts.Progress.SetTotal(int64(len(targets)))
	defer opts.Progress.Done()
	for _, t := range targets {
		if err := m.mineAPI(ctx, t); err != nil {
			return stats, err
		}
		opts.Progress.Add(1)
	}
	for _, r := range m.repos {
		if r.fetched && !r.missing && !r.used {
			stats.Wasted++
		}
	}
	return stats, nil
}

// prime asks /rate_limit (which costs no budget) how much code search the token
// has left.
func (m *ghMiner) prime(ctx context.Context, token string) (int, time.Time, error) {
	m.stats.Requests++
	lim, _, err := m.client(token).RateLimit.Get(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return 0, time.Time{}, ctx.Err()
		}
		m.opts.Logf("mine: rate_limit: %v", err)
		return -1, time.Time{}, nil // not fatal: the answers' headers still steer
	}
	r := lim.GetCodeSearch()
	if r == nil {
		r = lim.GetSearch()
	}
	if r == nil {
		return -1, time.Time{}, nil
	}
	return r.Remaining, r.Reset.Time, nil
}

// client returns a fresh go-github client for one request. go-github remembers
// rate limits against the wall clock and refuses to send until they pass; the miner
// keeps that state itself, per token and on its own Clock, so it never reuses one.
func (m *ghMiner) client(token string) *github.Client {
	c := github.NewClient(m.opts.HTTPClient)
	if token != "" {
		c = c.WithAuthToken(token)
	}
	c.BaseURL = m.base
	return c
}

// decide records a decision of the mine stage.
func (m *ghMiner) decide(ctx context.Context, kind, subject, verdict, reason string, ev map[string]any) error {
	if verdict == store.Rejected && kind == "file" {
		m.stats.Rejected++
	}
	return m.st.Update(ctx, func(tx *store.Tx) error {
		return tx.RecordDecision(ctx, store.Decision{RunID: m.opts.runID, Stage: Stage, SubjectKind: kind,
			Subject: subject, Verdict: verdict, Reason: reason, Evidence: ev})
	})
}

func (m *ghMiner) markDone(ctx context.Context, units ...string) error {
	err := m.st.Update(ctx, func(tx *store.Tx) error {
		for _, u := range units {
			if err := tx.MarkDone(ctx, Stage, u, m.opts.runID); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		for _, u := range units {
			m.done[u] = true
		}
	}
	return err
}

func unitKey(t Target, layer, text string) string {
	return "github|" + t.API.Slug + "|" + layer + "|" + text
}

// mineAPI runs t's queries from strict to loose.
func (m *ghMiner) mineAPI(ctx context.Context, t Target) error {
	for _, q := range Queries(t, m.opts.EndpointsPerAPI, m.opts.Languages) {
		// A complete host query of a language subsumes that language's looser ones.
		hostDone := "github|" + t.API.Slug + "|host-complete"
		if t.Host != strings.ToLower(t.API.Host) { // another host of the API's
			hostDone = "github|" + t.API.Slug + "|" + t.Host + "|host-complete"
		}
		if qual := queryQualifier(q.Text); qual != "python" {
			hostDone += "|" + qual
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		key := unitKey(t, q.Layer, q.Text)
		rank := store.LayerRank(q.Layer)
		if rank >= store.LayerRank(store.LayerHost) && m.apiFiles[t.API.ID] >= m.opts.MaxPerAPI {
			m.stats.QueriesSkipped++
			if err := m.decide(ctx, "query", key, store.Rejected, "skipped: the API has enough files",
				map[string]any{"files": m.apiFiles[t.API.ID], "max_per_api": m.opts.MaxPerAPI}); err != nil {
				return err
			}
			continue
		}
		if rank > store.LayerRank(store.LayerHost) && m.done[hostDone] {
			m.stats.QueriesSkipped++
			if err := m.decide(ctx, "query", key, store.Rejected, "skipped: subsumed by the complete host query", nil); err != nil {
				return err
			}
			continue
		}
		complete, err := m.runQuery(ctx, t, q.Layer, q.Text, 0, 0)
		if reason := failure(err); reason != "" {
			m.stats.Failed++
			m.opts.Logf("mine %s: %s: %v", t.API.Slug, q.Text, err)
			if err := m.decide(ctx, "query", key, store.Failed, reason, map[string]any{"error": err.Error()}); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("mine %s %s: %w", t.API.Slug, q.Layer, err)
		}
		if q.Layer == store.LayerHost && complete {
			if err := m.markDone(ctx, hostDone); err != nil {
				return err
			}
		}
	}
	return nil
}

// search sends one code search, retrying a page GitHub marks incomplete.
func (m *ghMiner) search(ctx context.Context, text string, page int) (*github.CodeSearchResult, error) {
	opt := &github.SearchOptions{TextMatch: true, ListOptions: github.ListOptions{Page: page, PerPage: m.opts.PerPage}}
	var res *github.CodeSearchResult
	for try := 1; ; try++ {
		_, err := m.pool.do(ctx, resSearch, m.opts.MaxTries, func(token string) (*github.Response, error) {
			m.stats.SearchRequests++
			r, resp, err := m.client(token).Search.Code(ctx, text, opt)
			res = r
			return resp, err
		})
		if err != nil {
			return nil, err
		}
		if !res.GetIncompleteResults() || try >= m.opts.MaxTries {
			return res, nil
		}
		m.opts.Logf("mine: incomplete results for %s page %d, retrying", text, page)
	}
}

// runQuery pages through one query (or, when it is saturated, through the parts it
// splits into) and reports whether every result was seen.
func (m *ghMiner) runQuery(ctx context.Context, t Target, layer, text string, depth, parentTotal int) (bool, error) {
	key := unitKey(t, layer, text)
	if m.done[key+"|split"] {
		return m.runParts(ctx, t, layer, text, depth, 0)
	}
	last, complete := pagesDone(m.done, key), !m.done[key+"|capped"] || minSize(text) > m.opts.MaxFileBytes
	if m.done[key+"|end"] {
		return complete, nil
	}
	for page := 1; last == 0 || page <= last; page++ {
		unit := key + "|p" + strconv.Itoa(page)
		if m.done[unit] {
			if last == 0 {
				last = 1
			}
			continue
		}
		res, err := m.search(ctx, text, page)
		if err != nil {
			return false, err
		}
		total := res.GetTotal()
		if page == 1 && total > searchCap {
			if parentTotal == 0 || total < parentTotal {
				if parts := splitQuery(text, m.opts.MaxFileBytes); len(parts) > 0 && depth < 6 {
					m.stats.Splits++
					if err := m.decide(ctx, "query", key, store.Changed, "split: saturated query",
						map[string]any{"total_count": total, "parts": parts}); err != nil {
						return false, err
					}
					if err := m.markDone(ctx, key+"|split"); err != nil {
						return false, err
					}
					return m.runParts(ctx, t, layer, text, depth, total)
				}
			}
			// Every file over the size cap is rejected unread, so missing some of
			// them loses nothing.
			complete = minSize(text) > m.opts.MaxFileBytes
			if err := m.decide(ctx, "query", key, store.Changed, "capped: saturated query cannot be split further",
				map[string]any{"total_count": total, "served": searchCap}); err != nil {
				return false, err
			}
			if err := m.markDone(ctx, key+"|capped"); err != nil {
				return false, err
			}
		}
		incomplete := res.GetIncompleteResults()
		if incomplete {
			complete = false
		}
		if page == 1 {
			last = max(1, (min(total, searchCap)+m.opts.PerPage-1)/m.opts.PerPage)
		}
		for _, item := range res.CodeResults {
			if err := m.hit(ctx, t, layer, text, item); err != nil {
				return false, err
			}
		}
		units := []string{unit}
		if page == 1 {
			units = append(units, key+"|pages="+strconv.Itoa(last))
		}
		short := len(res.CodeResults) < m.opts.PerPage && !incomplete
		if short || page >= last {
			units = append(units, key+"|end")
		}
		if incomplete {
			units = append(units, key+"|capped")
		}
		if err := m.markDone(ctx, units...); err != nil {
			return false, err
		}
		if short {
			break
		}
	}
	return complete, nil
}

func (m *ghMiner) runParts(ctx context.Context, t Target, layer, text string, depth, total int) (bool, error) {
	complete := true
	for _, p := range splitQuery(text, m.opts.MaxFileBytes) {
		c, err := m.runQuery(ctx, t, layer, p, depth+1, total)
		if err != nil {
			return false, err
		}
		complete = complete && c
	}
	return complete, nil
}

// pagesDone reads how many pages a query has from its done units, or 0.
func pagesDone(done map[string]bool, key string) int {
	prefix := key + "|pages="
	for u := range done {
		if strings.HasPrefix(u, prefix) {
			n, _ := strconv.Atoi(strings.TrimPrefix(u, prefix))
			return n
		}
	}
	return 0
}

var sizeQualifier = regexp.MustCompile(`(^|\s)size:(\S+)`)

// sizeRanges are the first split of a saturated query: most source files are small.
var sizeRanges = [][2]int64{{0, 1023}, {1024, 4095}, {4096, 16383}, {16384, 65535}, {65536, 262143}}

// splitQuery splits a saturated query into parts that together cover it: first by
// size ranges (the last part holds the files over maxBytes), then by halving a
// bounded size range, then by the extensions of its language qualifier. It returns
// nil when the query cannot be split further.
func splitQuery(text string, maxBytes int64) []string {
	m := sizeQualifier.FindStringSubmatch(text)
	if m == nil {
		var parts []string
		for _, r := range sizeRanges {
			if r[1] < maxBytes {
				parts = append(parts, fmt.Sprintf("%s size:%d..%d", text, r[0], r[1]))
			}
		}
		lo := int64(0)
		if len(parts) > 0 {
			lo = sizeRanges[len(parts)-1][1] + 1
		}
		return append(parts, fmt.Sprintf("%s size:%d..%d", text, lo, maxBytes), fmt.Sprintf("%s size:>%d", text, maxBytes))
	}
	a, b, ok := strings.Cut(m[2], "..")
	lo, err1 := strconv.ParseInt(a, 10, 64)
	hi, err2 := strconv.ParseInt(b, 10, 64)
	if !ok || err1 != nil || err2 != nil || hi <= lo {
		// A range too narrow to halve: split by extension, once.
		if ok && err1 == nil && err2 == nil && !strings.Contains(text, "extension:") {
			var parts []string
			for _, ext := range qualifierExtensions[queryQualifier(text)] {
				parts = append(parts, text+" extension:"+ext)
			}
			return parts
		}
		return nil
	}
	mid := lo + (hi-lo)/2
	without := strings.TrimSpace(sizeQualifier.ReplaceAllString(text, " "))
	return []string{fmt.Sprintf("%s size:%d..%d", without, lo, mid), fmt.Sprintf("%s size:%d..%d", without, mid+1, hi)}
}

// minSize is the lower size bound a query's size: qualifier sets, or 0.
func minSize(text string) int64 {
	m := sizeQualifier.FindStringSubmatch(text)
	if m == nil {
		return 0
	}
	v := m[2]
	if strings.HasPrefix(v, ">") {
		n, _ := strconv.ParseInt(strings.TrimPrefix(v, ">"), 10, 64)
		return n + 1
	}
	a, _, _ := strings.Cut(v, "..")
	n, _ := strconv.ParseInt(a, 10, 64)
	return n
}

// commitOf reads the commit a search result's HTML URL pins the file to.
func commitOf(htmlURL string) string {
	_, rest, ok := strings.Cut(htmlURL, "/blob/")
	if !ok {
		return ""
	}
	c, _, _ := strings.Cut(rest, "/")
	return c
}

func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// fileHit is one search result: the file it names, and the subject and evidence
// the decisions about it are recorded with.
type fileHit struct {
	t            Target
	layer, query string
	repo, path   string // owner/name, and the file's path in it
	sha, commit  string // the blob SHA, and the commit the result's URL pins ("" if none)
	lang         lang.Name
	key          string // what m.files knows the file by
	subject      string // the file's URL at its commit
	ev           map[string]any
}

func newFileHit(t Target, layer, query string, item *github.CodeResult) *fileHit {
	h := &fileHit{t: t, layer: layer, query: query, repo: item.GetRepository().GetFullName(),
		path: item.GetPath(), sha: item.GetSHA(), commit: commitOf(item.GetHTMLURL())}
	h.key = h.repo + "\x00" + h.path + "\x00" + h.sha
	h.subject = fmt.Sprintf("https://github.com/%s/blob/%s/%s", h.repo, h.commit, h.path)
	h.ev = map[string]any{"api": t.API.Slug, "query_layer": layer, "query": query}
	return h
}

// reject marks the hit's file as not kept for the rest of the run and records why,
// as verdict store.Rejected, or store.Failed for a fault.
func (m *ghMiner) reject(ctx context.Context, h *fileHit, verdict, reason string, ev map[string]any) error {
	m.files[h.key] = fileState{rejected: true}
	return m.decide(ctx, "file", h.subject, verdict, reason, ev)
}

// hit handles one search result: early filter, de-duplication, then the requests.
func (m *ghMiner) hit(ctx context.Context, t Target, layer, query string, item *github.CodeResult) error {
	m.stats.Hits++
	h := newFileHit(t, layer, query, item)
	if fs, ok := m.files[h.key]; ok {
		m.stats.Deduped++
		if fs.id != 0 {
			return m.addHit(ctx, t, fs.id, layer, query)
		}
		return nil
	}
	// Early filter: the fragments GitHub matched must show the host itself, not
	// only its words scattered over the file.
	showsHost := func(tm *github.TextMatch) bool { return HostIn([]byte(strings.ToLower(tm.GetFragment())), t.Host) }
	if len(item.TextMatches) > 0 && !slices.ContainsFunc(item.TextMatches, showsHost) {
		m.stats.EarlyDropped++
		return m.reject(ctx, h, store.Rejected, "host not in the matched fragment", h.ev)
	}
	if done, err := m.judgedBefore(ctx, h); done || err != nil {
		return err
	}
	n, skip, ok := SourceOf(h.path, m.opts.Languages)
	switch {
	case !ok:
		return m.reject(ctx, h, store.Rejected, ReasonNotSource, h.ev)
	case skip != "":
		m.stats.Skipped++
		return m.reject(ctx, h, store.Rejected, skip, h.ev)
	}
	h.lang = n
	if lo := minSize(query); lo > m.opts.MaxFileBytes {
		h.ev["min_size"] = lo
		return m.reject(ctx, h, store.Rejected, "too large: over --max-file-bytes", h.ev)
	}
	rs, err := m.repo(ctx, h.repo)
	if err != nil {
		return err
	}
	if rs.missing {
		return m.reject(ctx, h, store.Rejected, "repository unavailable", h.ev)
	}
	content, ok, err := m.fetchFile(ctx, h, rs)
	if !ok || err != nil {
		return err
	}
	dates, err := m.dateFile(ctx, h, content)
	if err != nil {
		return err
	}
	m.stats.LineDates.Add(dates.Undated)
	return m.saveFile(ctx, h, rs, content, dates)
}

// judgedBefore reports whether an earlier run stored the hit's file (the hit is
// then added to it) or rejected it: either way there is nothing to fetch. Only a
// missing row means "not judged"; any other store error is returned.
func (m *ghMiner) judgedBefore(ctx context.Context, h *fileHit) (bool, error) {
	r, err := m.st.RepositoryByName(ctx, h.repo)
	switch {
	case err == nil:
		f, err := m.st.FileByKey(ctx, r.ID, h.path, h.sha)
		switch {
		case err == nil:
			m.stats.Deduped++
			m.files[h.key] = fileState{id: f.ID}
			return true, m.addHit(ctx, h.t, f.ID, h.layer, h.query)
		case !errors.Is(err, store.ErrNotFound):
			return false, fmt.Errorf("mine %s %s: %w", h.repo, h.path, err)
		}
	case !errors.Is(err, store.ErrNotFound):
		return false, fmt.Errorf("mine %s: %w", h.repo, err)
	}
	ds, err := m.st.Decisions(ctx, "file", h.subject)
	if err != nil {
		return false, fmt.Errorf("mine %s %s: decisions: %w", h.repo, h.path, err)
	}
	for _, d := range ds {
		if d.Stage == Stage && d.Verdict == store.Rejected {
			m.stats.Deduped++
			m.files[h.key] = fileState{rejected: true}
			return true, nil
		}
	}
	return false, nil
}

// fetchFile requests the hit's file (at its commit) and checks what came back. It
// returns the content to keep, or false when the file was rejected.
func (m *ghMiner) fetchFile(ctx context.Context, h *fileHit, rs *repoState) ([]byte, bool, error) {
	owner, name, _ := strings.Cut(h.repo, "/")
	rel := fmt.Sprintf("repos/%s/%s/contents/%s", url.PathEscape(owner), url.PathEscape(name), escapePath(h.path))
	if h.commit != "" {
		rel += "?ref=" + url.QueryEscape(h.commit)
	}
	status, body, err := m.get(ctx, rel, h.commit != "", &m.stats.ContentRequests)
	if err != nil {
		if reason := failure(err); reason != "" {
			m.stats.Failed++
			h.ev["error"] = err.Error()
			return nil, false, m.reject(ctx, h, store.Failed, reason, h.ev)
		}
		return nil, false, fmt.Errorf("mine %s %s: %w", h.repo, h.path, err)
	}
	rs.used = true
	if status != http.StatusOK {
		h.ev["status"] = status
		return nil, false, m.reject(ctx, h, store.Rejected, fmt.Sprintf("file unavailable (%d %s)", status, http.StatusText(status)), h.ev)
	}
	var rc github.RepositoryContent
	if err := json.Unmarshal(body, &rc); err != nil {
		return nil, false, m.reject(ctx, h, store.Failed, "malformed contents response", map[string]any{"error": err.Error()})
	}
	content, reason := m.decode(&rc)
	if reason == "" && GitBlobSHA(content) != h.sha {
		reason = "content does not match the blob SHA"
	}
	if reason == "" && !HostIn(bytes.ToLower(content), h.t.Host) {
		reason = "host not in content"
		m.stats.Wasted++ // the early filter should have caught it
	}
	if reason == "" {
		if reason = SkipContent(h.lang, content); reason != "" {
			m.stats.Skipped++
		}
	}
	if reason != "" {
		h.ev["size"] = rc.GetSize()
		return nil, false, m.reject(ctx, h, store.Rejected, reason, h.ev)
	}
	return content, true, nil
}

// saveFile stores the hit's file with its repository and the decisions that keep it.
func (m *ghMiner) saveFile(ctx context.Context, h *fileHit, rs *repoState, content []byte, dates *blame.Lines) error {
	f := &store.File{Path: h.path, GitSHA: h.sha, CommitSHA: h.commit, URL: h.subject, Size: int64(len(content)),
		QueryLayer: h.layer, Query: h.query, APIID: h.t.API.ID, LineDates: dates.Encode()}
	err := m.st.Update(ctx, func(tx *store.Tx) error {
		repoID, err := tx.UpsertRepository(ctx, rs.repo)
		if err != nil {
			return err
		}
		f.RepoID = repoID
		if _, err := tx.SaveFile(ctx, f, content); err != nil {
			return err
		}
		for _, d := range KeptDecisions(m.opts.runID, h.subject, h.t.Host, content, h.ev) {
			if err := tx.RecordDecision(ctx, d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("mine %s %s: %w", h.repo, h.path, err)
	}
	m.stats.Stored++
	m.files[h.key] = fileState{id: f.ID}
	m.countFile(h.t, f.ID)
	return nil
}

// decode returns a contents response's bytes, or why they cannot be kept.
func (m *ghMiner) decode(rc *github.RepositoryContent) ([]byte, string) {
	if int64(rc.GetSize()) > m.opts.MaxFileBytes || rc.GetEncoding() == "none" {
		return nil, "too large: over --max-file-bytes"
	}
	var content []byte
	raw := ""
	if rc.Content != nil {
		raw = *rc.Content
	}
	switch rc.GetEncoding() {
	case "base64":
		b, err := base64.StdEncoding.DecodeString(raw)
		if err != nil {
			return nil, "malformed base64 content"
		}
		content = b
	case "":
		content = []byte(raw)
	default:
		return nil, "unsupported content encoding " + rc.GetEncoding()
	}
	return content, Classify(content, m.opts.MaxFileBytes)
}

// Classify says why content cannot be mined as Python source ("" when it can):
// too large or binary. Content that is not valid UTF-8 is kept (the extractor
// decodes it as Latin-1); NotUTF8 names the decision recorded for it.
func Classify(content []byte, maxBytes int64) string {
	switch {
	case int64(len(content)) > maxBytes:
		return "too large: over --max-file-bytes"
	case bytes.IndexByte(content[:min(len(content), 8000)], 0) >= 0:
		return "binary file"
	}
	return ""
}

// NotUTF8 is the reason of the decision recorded for a kept file that is not valid
// UTF-8.
const NotUTF8 = "invalid UTF-8: kept as bytes for the extractor to decode"

// KeptDecisions are the decisions recorded when a file that calls host is stored
// (and, for content that is not valid UTF-8, the note that it was kept as bytes).
func KeptDecisions(runID int64, subject, host string, content []byte, ev map[string]any) []store.Decision {
	ds := []store.Decision{{RunID: runID, Stage: Stage, SubjectKind: "file", Subject: subject, Verdict: store.Kept,
		Reason: "calls " + host, Evidence: ev}}
	if !utf8.Valid(content) {
		ds = append(ds, store.Decision{RunID: runID, Stage: Stage, SubjectKind: "file", Subject: subject,
			Verdict: store.Kept, Reason: NotUTF8})
	}
	return ds
}

func (m *ghMiner) countFile(t Target, fileID int64) {
	k := strconv.FormatInt(t.API.ID, 10) + "|" + strconv.FormatInt(fileID, 10)
	if !m.counted[k] {
		m.counted[k] = true
		m.apiFiles[t.API.ID]++
	}
}

func (m *ghMiner) addHit(ctx context.Context, t Target, fileID int64, layer, query string) error {
	err := m.st.Update(ctx, func(tx *store.Tx) error {
		return tx.AddFileHit(ctx, fileID, t.API.ID, layer, query)
	})
	if err != nil {
		return fmt.Errorf("mine %s: %w", t.API.Slug, err)
	}
	m.countFile(t, fileID)
	return nil
}

// repo returns the repository's metadata, requesting it at most once per run (with
// the ETag of an earlier run's answer).
func (m *ghMiner) repo(ctx context.Context, full string) (*repoState, error) {
	if rs, ok := m.repos[full]; ok {
		return rs, nil
	}
	owner, name, _ := strings.Cut(full, "/")
	status, body, err := m.get(ctx, fmt.Sprintf("repos/%s/%s", url.PathEscape(owner), url.PathEscape(name)), false, &m.stats.RepoRequests)
	rs := &repoState{fetched: true}
	if reason := failure(err); reason != "" {
		m.repos[full] = rs
		rs.missing = true
		return rs, m.decide(ctx, "repository", "https://github.com/"+full, store.Failed, reason, map[string]any{"error": err.Error()})
	}
	if err != nil {
		return nil, fmt.Errorf("mine %s/%s: %w", owner, name, err)
	}
	m.repos[full] = rs
	if status != http.StatusOK {
		rs.missing = true
		ev := map[string]any{"status": status}
		return rs, m.decide(ctx, "repository", "https://github.com/"+full, store.Rejected,
			fmt.Sprintf("repository unavailable (%d %s)", status, http.StatusText(status)), ev)
	}
	var gr github.Repository
	if err := json.Unmarshal(body, &gr); err != nil {
		return nil, fmt.Errorf("mine %s/%s: repository metadata: %w", owner, name, err)
	}
	rs.repo = repositoryRecord(full, &gr)
	return rs, nil
}

func ts(t github.Timestamp) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05Z")
}

// repositoryRecord turns GitHub's repository JSON into the store's record.
func repositoryRecord(full string, gr *github.Repository) *store.Repository {
	r := &store.Repository{FullName: full, Source: "github", URL: gr.GetHTMLURL(), Description: gr.GetDescription(),
		Language: gr.GetLanguage(), Stars: gr.GetStargazersCount(), Forks: gr.GetForksCount(),
		Watchers: gr.GetWatchersCount(), OpenIssues: gr.GetOpenIssuesCount(), Topics: gr.Topics,
		DefaultBranch: gr.GetDefaultBranch(), IsFork: gr.GetFork(), Archived: gr.GetArchived(),
		CreatedAt: ts(gr.GetCreatedAt()), UpdatedAt: ts(gr.GetUpdatedAt()), PushedAt: ts(gr.GetPushedAt())}
	if r.URL == "" {
		r.URL = "https://github.com/" + full
	}
	if l := gr.GetLicense(); l != nil {
		r.License = l.GetSPDXID()
		if r.License == "" || r.License == "NOASSERTION" {
			r.License = l.GetKey()
		}
	}
	if r.Topics == nil {
		r.Topics = []string{}
	}
	return r
}

// fresh reports whether a fetch made at the store time at is recent enough to reuse
// without asking again.
func (m *ghMiner) fresh(at string) bool {
	t, err := time.Parse(time.RFC3339, at)
	return err == nil && m.opts.Clock.Now().Sub(t) < m.opts.MetadataMaxAge
}

// get requests rel (relative to the API root) unless the store holds an answer it
// can reuse (immutable is true for content pinned to a commit), conditionally when
// an earlier fetch left an ETag, records the fetch under its canonical URL, and returns the status
// and body (the stored body on 304). 404, 410 and 451 are answers, not errors.
func (m *ghMiner) get(ctx context.Context, rel string, immutable bool, counter *int) (int, []byte, error) {
	canon := canonicalAPI + rel
	var prev *store.Fetch
	f, err := m.st.LatestFetch(ctx, canon)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return 0, nil, err
	}
	if err == nil && f.Status == http.StatusOK && f.SHA256 != "" {
		// Content at a commit never changes, and metadata fetched a moment ago (by a
		// run that was cut short) is fresh enough: use what the store holds.
		if immutable || m.fresh(f.FetchedAt) {
			m.stats.Cached++
			body, err := m.st.Blob(ctx, f.SHA256)
			return http.StatusOK, body, err
		}
		if f.Headers["ETag"] != "" {
			prev = f
		}
	}
	var buf bytes.Buffer
	resp, err := m.pool.do(ctx, resCore, m.opts.MaxTries, func(token string) (*github.Response, error) {
		*counter++
		c := m.client(token)
		req, err := c.NewRequest(http.MethodGet, rel, nil)
		if err != nil {
			return nil, err
		}
		if prev != nil {
			req.Header.Set("If-None-Match", prev.Headers["ETag"])
		}
		buf.Reset()
		return c.Do(ctx, req, &buf)
	})
	status := 0
	if resp != nil && resp.Response != nil {
		status = resp.StatusCode
	}
	var er *github.ErrorResponse
	switch {
	case err == nil:
	case status == http.StatusNotModified && prev != nil:
		m.stats.NotModified++
		body, err := m.st.Blob(ctx, prev.SHA256)
		return http.StatusOK, body, err
	case errors.As(err, &er) && (status == http.StatusNotFound || status == http.StatusGone || status == http.StatusUnavailableForLegalReasons):
		err := m.st.Update(ctx, func(tx *store.Tx) error {
			return tx.RecordFetch(ctx, &store.Fetch{URL: canon, Status: status, RunID: m.opts.runID}, nil)
		})
		return status, nil, err
	default:
		return status, nil, err
	}
	h := map[string]string{}
	for _, k := range []string{"ETag", "Content-Type", "Last-Modified"} {
		if v := resp.Header.Get(k); v != "" {
			h[k] = v
		}
	}
	body := append([]byte(nil), buf.Bytes()...)
	err = m.st.Update(ctx, func(tx *store.Tx) error {
		return tx.RecordFetch(ctx, &store.Fetch{URL: canon, Status: http.StatusOK, Headers: h, RunID: m.opts.runID}, body)
	})
	return http.StatusOK, body, err
}
