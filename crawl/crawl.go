package crawl

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"sccg/internal/backoff"
	"sccg/internal/progress"
	"sccg/store"
)

// Stage is the name the crawl uses for runs, decisions and work units.
const Stage = "crawl"

// Sources the crawl reads.
const (
	SourceRapidAPI  = "rapidapi"
	SourceOpenAPI   = "openapi"
	SourceToolBench = "toolbench"
)

// ErrNothingCrawled is returned when a run could not crawl a single API (all
// failed, or there was nothing to crawl).
var ErrNothingCrawled = errors.New("nothing could be crawled")

// Options configure a crawl. The zero value of every field has a sensible default
// except Source-specific inputs.
type Options struct {
	Source string // rapidapi (default) | openapi | toolbench

	// RapidAPI discovery. With none of these set, every API the gateway lists is crawled.
	Categories []string // GraphQL searchApis by category
	Queries    []string // GraphQL searchApis by keyword
	APIs       []string // OWNER/SLUG or playground URLs
	Discovery  string   // graphql (default) | pages: HTML search and category pages

	Paths []string // files or folders for the openapi and toolbench sources
	// Roots are the docs folders Paths were found in (default: Paths): a description
	// file is named relative to its root, and its $refs may not leave it; an API
	// imported earlier from a file under them that is gone is removed.
	Roots []string

	// BaseURL is, for the rapidapi source, where requests go instead of HubURL (a
	// replay server); for the openapi source, the URL relative server URLs of a
	// description resolve against when the file does not say.
	BaseURL     string
	Transport   http.RoundTripper // nil means the default transport
	RPS         float64           // requests per second; 0 means unlimited (the CLI defaults to 1)
	MaxAttempts int               // per request, default 4
	// MaxRetryAfter is the longest Retry-After the crawler waits out; a server
	// asking for more ends that request as failed. Default 10 minutes.
	MaxRetryAfter time.Duration
	UserAgent     string // default DefaultUserAgent
	Refresh       bool   // fetch again what the store already has
	PageSize      int    // GraphQL page size, default 20

	Sleep    func(context.Context, time.Duration) error // default: a timer that ctx cancels
	Jitter   func(max time.Duration) time.Duration      // default: uniform in [0, max)
	Now      func() time.Time                           // default time.Now
	Progress progress.Counter                           // nil: no progress output
}

func (o *Options) defaults() {
	if o.Source == "" {
		o.Source = SourceRapidAPI
	}
	if o.Discovery == "" {
		o.Discovery = "graphql"
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 4
	}
	if o.MaxRetryAfter <= 0 {
		o.MaxRetryAfter = 10 * time.Minute
	}
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	if o.PageSize <= 0 {
		o.PageSize = 20
	}
	if o.Sleep == nil {
		o.Sleep = backoff.Sleep
	}
	if o.Jitter == nil {
		o.Jitter = backoff.Jitter
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// Summary counts what a crawl did.
type Summary struct {
	RunID     int64          `json:"run_id"`
	Source    string         `json:"source"`
	Targets   int            `json:"targets"`   // APIs (or files) considered
	Saved     int            `json:"saved"`     // APIs written this run
	Skipped   int            `json:"skipped"`   // already crawled by an earlier run
	Endpoints int            `json:"endpoints"` // endpoints written this run
	Bad       int            `json:"bad"`       // inputs rejected or failed (see decisions)
	Changed   int            `json:"changed"`   // partly read inputs (see decisions)
	Fetched   int            `json:"fetched"`   // HTTP requests answered
	Reused    int            `json:"reused"`    // responses served from the store
	Retries   int            `json:"retries"`
	Warnings  int            `json:"warnings"`          // repaired or ignored problems of saved inputs
	Reasons   map[string]int `json:"reasons,omitempty"` // bad inputs by reason
	// Findings are the run's rejections and warnings by reason, with examples.
	Findings []FindingGroup `json:"findings,omitempty"`
	// Reimported counts description files imported again because their content
	// changed; Removed the APIs deleted because their description was removed, no
	// longer reads, or no longer defines them (see decisions).
	Reimported int `json:"reimported"`
	Removed    int `json:"removed"`
}

// Counts are the summary's figures as a run records them.
func (s *Summary) Counts() map[string]int64 {
	return map[string]int64{"targets": int64(s.Targets), "saved": int64(s.Saved), "skipped": int64(s.Skipped),
		"endpoints": int64(s.Endpoints), "bad": int64(s.Bad), "changed": int64(s.Changed),
		"fetched": int64(s.Fetched), "reused": int64(s.Reused), "retries": int64(s.Retries), "warnings": int64(s.Warnings),
		"reimported": int64(s.Reimported), "removed": int64(s.Removed)}
}

// crawler holds one run's state.
type crawler struct {
	s    *store.Store
	o    Options
	run  int64 // the recorded run
	f    *fetcher
	sum  *Summary
	csrf string
	prog progress.Counter
	// slugs maps the OWNER/SLUG of each description saved this run to its file.
	slugs map[string]string
	// savedAPIs are the ids of the APIs this run saved, and imported the description
	// files it imported (not skipped as unchanged).
	savedAPIs []int64
	imported  map[string]bool
}

// Run crawls the source opts names into s, in one recorded run, and returns what
// it did. Bad input is recorded as decisions and skipped; the error is non-nil
// only when the run was cancelled, the store failed, or nothing could be crawled.
func Run(ctx context.Context, s *store.Store, opts Options) (*Summary, error) {
	opts.defaults()
	args := map[string]any{"source": opts.Source, "categories": opts.Categories, "queries": opts.Queries,
		"apis": opts.APIs, "paths": opts.Paths, "roots": opts.Roots, "base_url": opts.BaseURL, "refresh": opts.Refresh, "discovery": opts.Discovery}
	return store.RecordRun(ctx, s, Stage, args, func(runID int64) (*Summary, error) {
		c := &crawler{s: s, o: opts, run: runID, sum: &Summary{RunID: runID, Source: opts.Source, Reasons: map[string]int{}}}
		err := c.crawl(ctx)
		if c.f != nil {
			c.sum.Fetched, c.sum.Reused, c.sum.Retries = c.f.fetched, c.f.reused, c.f.retries
		}
		if err == nil && c.sum.Saved+c.sum.Skipped == 0 {
			err = fmt.Errorf("crawl %s: %w (%d bad input(s))", opts.Source, ErrNothingCrawled, c.sum.Bad)
		}
		return c.sum, err
	})
}

func (c *crawler) crawl(ctx context.Context) error {
	if c.o.Refresh {
		// Units are named "<source>:…": forget only this source's.
		if err := c.s.Update(ctx, func(tx *store.Tx) error { return tx.ResetUnits(ctx, Stage, c.o.Source+":") }); err != nil {
			return fmt.Errorf("refresh: %w", err)
		}
	}
	switch c.o.Source {
	case SourceRapidAPI:
		return c.crawlRapidAPI(ctx)
	case SourceOpenAPI:
		return c.importFiles(ctx, SourceOpenAPI, func(ctx context.Context, path string) (*Doc, error) {
			return ReadDescription(ctx, path, ReadOptions{Root: c.rootOf(path), BaseURL: c.o.BaseURL})
		})
	case SourceToolBench:
		return c.importFiles(ctx, SourceToolBench, LoadToolBenchFile)
	}
	return fmt.Errorf("unknown source %q (want rapidapi, openapi or toolbench)", c.o.Source)
}

func (c *crawler) start(total int) {
	c.prog = c.o.Progress
	if c.prog == nil {
		c.prog = progress.Nop
	}
	c.prog.SetTotal(int64(total))
}

// bad records a rejected or failed input and counts it.
func (c *crawler) bad(ctx context.Context, verdict, kind, subject, reason string, evidence map[string]any) error {
	c.sum.Bad++
	short := reason
	if i := strings.IndexByte(short, ':'); i > 0 {
		short = strings.TrimSpace(short[:i])
	}
	c.sum.Reasons[verdict+": "+short]++
	c.sum.note(verdict, short, subject+": "+reason)
	// Recorded even when the crawl is being cancelled: the verdict is already known.
	nctx := context.WithoutCancel(ctx)
	return c.s.Update(nctx, func(tx *store.Tx) error {
		return tx.RecordDecision(nctx, store.Decision{RunID: c.run, Stage: Stage, SubjectKind: kind, Subject: subject,
			Verdict: verdict, Reason: reason, Evidence: evidence})
	})
}

// save normalizes doc, builds its OpenAPI document and writes it with its
// decisions and the unit's done-mark in one transaction.
func (c *crawler) save(ctx context.Context, doc *Doc, unit, subjectKind, subject string) error {
	Normalize(doc)
	oa, problems := BuildOpenAPI(doc)
	b, err := MarshalOpenAPI(oa)
	if err != nil {
		return err
	}
	doc.API.OpenAPI = string(b)
	all := append(append([]Problem(nil), doc.Problems...), problems...)
	err = c.s.Update(ctx, func(tx *store.Tx) error {
		if _, err := tx.SaveAPI(ctx, &doc.API, doc.Endpoints); err != nil {
			return err
		}
		c.savedAPIs = append(c.savedAPIs, doc.API.ID)
		for _, p := range all {
			err := tx.RecordDecision(ctx, store.Decision{RunID: c.run, Stage: Stage, SubjectKind: subjectKind, Subject: subject,
				Verdict: store.Changed, Reason: p.Subject + ": " + p.Reason})
			if err != nil {
				return err
			}
		}
		if err := c.recordWarnings(ctx, tx, doc); err != nil {
			return err
		}
		return tx.MarkDone(ctx, Stage, unit, c.run)
	})
	if err != nil {
		return fmt.Errorf("save %s/%s: %w", doc.API.Owner, doc.API.Slug, err)
	}
	c.sum.Saved++
	c.sum.Endpoints += len(doc.Endpoints)
	c.sum.Changed += len(all)
	c.sum.Warnings += len(doc.Warnings)
	for _, w := range doc.Warnings {
		c.sum.note(store.Warning, w.Reason, apiName(doc.API)+": "+w.Detail+w.where())
	}
	return nil
}

// target is one API page to crawl.
type target struct {
	Owner, Slug string
}

func (t target) unit() string { return SourceRapidAPI + ":" + t.Owner + "/" + t.Slug }

// PlaygroundURL is the canonical playground page of an API.
func PlaygroundURL(owner, slug string) string {
	return HubURL + "/" + owner + "/api/" + slug + "/playground"
}

// ParseAPIRef reads OWNER/SLUG or a hub URL (https://rapidapi.com/OWNER/api/SLUG…).
func ParseAPIRef(s string) (owner, slug string, err error) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil {
			return "", "", fmt.Errorf("api %q: %w", s, err)
		}
		parts := strings.Split(strings.Trim(u.Path, "/"), "/")
		if len(parts) >= 3 && parts[1] == "api" && parts[0] != "" && parts[2] != "" {
			return parts[0], parts[2], nil
		}
		return "", "", fmt.Errorf("api %q: want a URL like %s/OWNER/api/SLUG/playground", s, HubURL)
	}
	owner, slug, ok := strings.Cut(s, "/")
	if !ok || owner == "" || slug == "" || strings.Contains(slug, "/") {
		return "", "", fmt.Errorf("api %q: want OWNER/SLUG", s)
	}
	return owner, slug, nil
}

// ReadAPIList reads a file of OWNER/SLUG lines or playground URLs; blank lines and
// lines starting with # are skipped.
func ReadAPIList(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read api list: %w", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read api list %s: %w", path, err)
	}
	return out, nil
}

func (c *crawler) crawlRapidAPI(ctx context.Context) error {
	f, err := newFetcher(ctx, c.s, c.run, &c.o)
	if err != nil {
		return err
	}
	c.f = f
	var targets []target
	seen := map[target]bool{}
	add := func(t target) {
		if !seen[t] {
			seen[t] = true
			targets = append(targets, t)
		}
	}
	for _, ref := range c.o.APIs {
		owner, slug, err := ParseAPIRef(ref)
		if err != nil {
			if err := c.bad(ctx, store.Rejected, "api", ref, "bad API reference: want OWNER/SLUG or a playground URL", nil); err != nil {
				return err
			}
			continue
		}
		add(target{owner, slug})
	}
	searches := discoveries(c.o)
	for _, d := range searches {
		found, err := c.discover(ctx, d)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			if err := c.bad(ctx, store.Failed, "search", d.subject(), "discovery failed: "+err.Error(), nil); err != nil {
				return err
			}
			continue
		}
		for _, t := range found {
			add(t)
		}
	}
	c.sum.Targets = len(targets)
	c.start(len(targets))
	defer c.prog.Done()
	done, err := c.s.DoneUnits(ctx, Stage)
	if err != nil {
		return err
	}
	for _, t := range targets {
		if err := ctx.Err(); err != nil {
			return err
		}
		if done[t.unit()] {
			c.sum.Skipped++
			c.prog.Add(1)
			continue
		}
		if err := c.crawlPage(ctx, t); err != nil {
			return err
		}
		c.prog.Add(1)
	}
	return ctx.Err()
}

// crawlPage fetches, parses and saves one API. Only a cancelled context or a store
// failure is an error; anything wrong with the page is a decision.
func (c *crawler) crawlPage(ctx context.Context, t target) error {
	pageURL := PlaygroundURL(t.Owner, t.Slug)
	ok, err := c.f.allowed(ctx, pageURL)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return c.bad(ctx, store.Failed, "page", pageURL, "robots.txt: "+err.Error(), nil)
	}
	if !ok {
		return c.bad(ctx, store.Rejected, "page", pageURL, "disallowed by robots.txt", nil)
	}
	r, err := c.f.get(ctx, pageURL)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var se *StatusError
		if errors.As(err, &se) {
			return c.bad(ctx, store.Failed, "page", pageURL, se.Reason(), nil)
		}
		return c.bad(ctx, store.Failed, "page", pageURL, "fetch failed: "+err.Error(), nil)
	}
	doc, err := ParsePlayground(r.Body, pageURL)
	if err != nil {
		verdict := store.Rejected
		if errors.Is(err, ErrTruncated) {
			verdict = store.Failed
		}
		return c.bad(ctx, verdict, "page", pageURL, err.Error(), map[string]any{"blob": r.SHA256})
	}
	if doc.API.Owner == "" {
		doc.API.Owner = t.Owner
	}
	if doc.API.Owner != t.Owner || doc.API.Slug != t.Slug {
		doc.Problems = append(doc.Problems, Problem{Subject: "page", Reason: fmt.Sprintf("page documents %s/%s, asked for %s/%s", doc.API.Owner, doc.API.Slug, t.Owner, t.Slug)})
	}
	if NormalizeHost(doc.API.Host) == "" {
		return c.bad(ctx, store.Rejected, "page", pageURL, "no host: the current version has no publicdns address", map[string]any{"blob": r.SHA256})
	}
	doc.API.BlobSHA256 = r.SHA256
	if r.FinalURL != "" && r.FinalURL != pageURL {
		if doc.API.Extra == nil {
			doc.API.Extra = map[string]any{}
		}
		doc.API.Extra["final_url"] = r.FinalURL
	}
	return c.save(ctx, doc, t.unit(), "page", pageURL)
}

// discovery is one search the crawl runs to find APIs.
type discovery struct {
	Term, Category string
}

func (d discovery) subject() string {
	return fmt.Sprintf("searchApis term=%q category=%q", d.Term, d.Category)
}

func discoveries(o Options) []discovery {
	var out []discovery
	for _, cat := range o.Categories {
		out = append(out, discovery{Category: cat})
	}
	for _, q := range o.Queries {
		out = append(out, discovery{Term: q})
	}
	if len(out) == 0 && len(o.APIs) == 0 {
		out = append(out, discovery{}) // everything
	}
	return out
}

func (c *crawler) discover(ctx context.Context, d discovery) ([]target, error) {
	entry := HubURL + "/gateway/graphql"
	if c.o.Discovery == "pages" {
		entry = HubURL + "/search/"
		if d.Category != "" {
			entry = HubURL + "/category/"
		}
	}
	ok, err := c.f.allowed(ctx, entry)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s disallowed by robots.txt", entry)
	}
	if c.o.Discovery == "pages" {
		return c.discoverPages(ctx, d)
	}
	return c.discoverGraphQL(ctx, d)
}

// searchQuery is the GraphQL document the hub's search sends.
const searchQuery = `query searchApis($searchApiWhereInput: SearchApiWhereInput!, $paginationInput: PaginationInput) {
  searchApis(where: $searchApiWhereInput, pagination: $paginationInput) {
    nodes { id name slug title description pricing category user { username } score { popularityScore } }
    pageInfo { endCursor hasNextPage }
    total
  }
}`

type searchResult struct {
	Data *struct {
		SearchApis struct {
			Nodes []struct {
				Slug string `json:"slug"`
				Name string `json:"name"`
				User struct {
					Username string `json:"username"`
				} `json:"user"`
			} `json:"nodes"`
			PageInfo struct {
				EndCursor   string `json:"endCursor"`
				HasNextPage bool   `json:"hasNextPage"`
			} `json:"pageInfo"`
		} `json:"searchApis"`
	} `json:"data"`
	Errors []struct {
		Message string `json:"message"`
	} `json:"errors"`
}

func (c *crawler) discoverGraphQL(ctx context.Context, d discovery) ([]target, error) {
	var out []target
	after := ""
	endpoint := HubURL + "/gateway/graphql"
	for page := 0; page < 1000; page++ {
		where := map[string]any{"term": d.Term}
		if d.Category != "" {
			where["categoryNames"] = []string{d.Category}
		}
		body, _ := json.Marshal(map[string]any{
			"operationName": "searchApis",
			"query":         searchQuery,
			"variables": map[string]any{
				"searchApiWhereInput": where,
				"paginationInput":     map[string]any{"first": c.o.PageSize, "after": after},
			},
		})
		q := url.Values{"term": {d.Term}, "category": {d.Category}, "after": {after}, "first": {fmt.Sprint(c.o.PageSize)}}
		key := endpoint + "#searchApis?" + q.Encode()
		r, err := c.graphql(ctx, key, endpoint, body)
		if err != nil {
			return nil, err
		}
		var res searchResult
		if err := json.Unmarshal(r.Body, &res); err != nil {
			return nil, fmt.Errorf("searchApis page %d: %w", page+1, err)
		}
		if len(res.Errors) > 0 {
			return nil, fmt.Errorf("searchApis page %d: %s", page+1, res.Errors[0].Message)
		}
		if res.Data == nil {
			return nil, fmt.Errorf("searchApis page %d: no data", page+1)
		}
		for _, n := range res.Data.SearchApis.Nodes {
			slug := firstNonEmpty(n.Slug, n.Name)
			if n.User.Username == "" || slug == "" {
				continue
			}
			out = append(out, target{n.User.Username, slug})
		}
		pi := res.Data.SearchApis.PageInfo
		if !pi.HasNextPage || pi.EndCursor == "" || pi.EndCursor == after {
			return out, nil
		}
		after = pi.EndCursor
	}
	return out, fmt.Errorf("searchApis: more than 1000 pages")
}

// graphql posts a GraphQL request with the CSRF token the gateway wants, getting
// one first (and again once if the gateway refuses it). Stored answers are reused.
func (c *crawler) graphql(ctx context.Context, key, endpoint string, body []byte) (*response, error) {
	if !c.o.Refresh {
		if r, _, err := c.f.stored(ctx, key); err != nil {
			return nil, err
		} else if r != nil {
			c.f.reused++
			return r, nil
		}
	}
	for try := 0; try < 2; try++ {
		if c.csrf == "" {
			tok, err := c.csrfToken(ctx)
			if err != nil {
				return nil, err
			}
			c.csrf = tok
		}
		h := http.Header{"Content-Type": {"application/json"}, "Csrf-Token": {c.csrf}}
		r, err := c.f.do(ctx, http.MethodPost, key, endpoint, body, h, false)
		var se *StatusError
		if errors.As(err, &se) && se.Status == http.StatusForbidden && try == 0 {
			c.csrf = ""
			continue
		}
		return r, err
	}
	return nil, errors.New("graphql: CSRF token refused twice")
}

func (c *crawler) csrfToken(ctx context.Context) (string, error) {
	u := HubURL + "/gateway/csrf"
	// A token is per session: never reuse a stored one.
	r, err := c.f.do(ctx, http.MethodGet, u, u, nil, nil, false)
	if err != nil {
		return "", fmt.Errorf("csrf token: %w", err)
	}
	var tok struct {
		Token string `json:"csrfToken"`
	}
	if err := json.Unmarshal(r.Body, &tok); err != nil || tok.Token == "" {
		return "", fmt.Errorf("csrf token: no csrfToken in %.80q", r.Body)
	}
	return tok.Token, nil
}

// discoverPages reads the hub's HTML search or category listing, following its
// rel=next links, and collects the API links on it.
func (c *crawler) discoverPages(ctx context.Context, d discovery) ([]target, error) {
	next := HubURL + "/search/" + url.PathEscape(d.Term)
	if d.Category != "" {
		next = HubURL + "/category/" + url.PathEscape(d.Category)
	}
	var out []target
	for page := 0; next != "" && page < 1000; page++ {
		r, err := c.f.get(ctx, next)
		if err != nil {
			return nil, err
		}
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(r.Body))
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", next, err)
		}
		base, _ := url.Parse(next)
		doc.Find("a[href]").Each(func(_ int, a *goquery.Selection) {
			href, _ := a.Attr("href")
			u, err := base.Parse(href)
			if err != nil {
				return
			}
			if owner, slug, err := ParseAPIRef(HubURL + u.Path); err == nil {
				out = append(out, target{owner, slug})
			}
		})
		next = ""
		if href, ok := doc.Find(`a[rel="next"]`).First().Attr("href"); ok {
			if u, err := base.Parse(href); err == nil {
				next = u.String()
			}
		}
	}
	return out, nil
}
