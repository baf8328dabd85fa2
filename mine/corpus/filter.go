package corpus

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"sccg/internal/ahocorasick"
	"sccg/lang"
	"sccg/mine"
	"sccg/store"
)

// Target is what the early filter needs of one crawled API: the mine target with
// only the fields its matching reads, so a pipeline can carry thousands of them in
// its options.
type Target struct {
	APIID     int64         `json:"api_id"`
	Slug      string        `json:"slug"`
	Host      string        `json:"host"`
	Endpoints []TargetRoute `json:"endpoints,omitempty"`
}

// TargetRoute is one documented route of a Target.
type TargetRoute struct {
	Route     string `json:"route"`
	IsCurrent bool   `json:"current,omitempty"`
}

// Targets keeps what the filter needs of mine's targets.
func Targets(ts []mine.Target) []Target {
	out := make([]Target, len(ts))
	for i, t := range ts {
		out[i] = Target{APIID: t.API.ID, Slug: t.API.Slug, Host: t.Host}
		for _, e := range t.Endpoints {
			out[i].Endpoints = append(out[i].Endpoints, TargetRoute{Route: e.Route, IsCurrent: e.IsCurrent})
		}
	}
	return out
}

func (t Target) mine() mine.Target {
	mt := mine.Target{API: store.API{ID: t.APIID, Slug: t.Slug, Host: t.Host}, Host: strings.ToLower(t.Host)}
	for _, e := range t.Endpoints {
		mt.Endpoints = append(mt.Endpoints, store.Endpoint{Route: e.Route, IsCurrent: e.IsCurrent, Host: t.Host})
	}
	return mt
}

// FilterOptions configure the early filter; zero fields mean mine's defaults.
type FilterOptions struct {
	MaxFileBytes    int64 `json:"max_file_bytes"`
	EndpointsPerAPI int   `json:"endpoints_per_api"`
	// Languages are the languages whose files are judged (mine.Languages); empty
	// means every language.
	Languages []lang.Name `json:"languages,omitempty"`
}

func (o FilterOptions) withDefaults() FilterOptions {
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = mine.DefaultMaxFileBytes
	}
	if o.EndpointsPerAPI <= 0 {
		o.EndpointsPerAPI = mine.DefaultEndpointsPerAPI
	}
	return o
}

// Filter is the early filter over corpus rows: one Aho–Corasick pass finds which
// targets' hosts a file names, then each of those gets the layer matching of
// `mine --local` (mine.LocalLayer). It is read-only after NewFilter and safe for
// concurrent use.
type Filter struct {
	opts    FilterOptions
	targets []mine.Target
	hosts   *ahocorasick.Matcher
}

// NewFilter builds the filter for targets.
func NewFilter(targets []Target, opts FilterOptions) *Filter {
	f := &Filter{opts: opts.withDefaults()}
	hosts := make([]string, len(targets))
	for i, t := range targets {
		f.targets = append(f.targets, t.mine())
		hosts[i] = f.targets[i].Host
	}
	f.hosts = ahocorasick.New(hosts)
	return f
}

// Verdicts of Judge, for counting.
const (
	VerdictSkipped  = "skipped"  // not a source file of the languages, or names no target host
	VerdictFound    = "found"    // passed the filter
	VerdictRejected = "rejected" // names a host but is binary, too large or not the repository's own source
	VerdictCorrupt  = "corrupt"  // the row cannot be used
)

// Judge applies the filter to one row of shard (at index). It returns the record
// to write — a found file, or a decision on a row that names a target but cannot
// be used — or nil for a row that is not a candidate, with the verdict. bad is the
// reader's complaint about the row, if any.
func (f *Filter) Judge(shard string, index int64, row Row, bad string) (*Record, string) {
	src := Source{Shard: shard, Row: index, BlobID: row.BlobID, License: row.License}
	if bad != "" {
		subject := rowSubject(shard, index)
		return &Record{Key: "d\x00" + subject, Decision: &Decision{SubjectKind: "corpus_row", Subject: subject,
			Verdict: store.Rejected, Reason: bad, Source: src}}, VerdictCorrupt
	}
	n, skip, ok := mine.SourceOf(row.Path, f.opts.Languages)
	if !ok {
		return nil, VerdictSkipped
	}
	repo := repository(row, n)
	url := fileURL(repo, row.Commit, row.Path)
	size := int64(len(row.Content))
	hit := f.hostsIn(row.Content)
	reason := skip
	if reason == "" {
		reason = mine.Classify(row.Content, f.opts.MaxFileBytes)
	}
	if reason == "" {
		reason = mine.SkipContent(n, row.Content)
	}
	if reason != "" {
		if len(hit) == 0 {
			return nil, VerdictSkipped // an unrelated file: no decision to record
		}
		return &Record{Key: "d\x00" + url + "\x00" + src.key(), Decision: &Decision{SubjectKind: "file", Subject: url,
			Verdict: store.Rejected, Reason: reason, Evidence: map[string]any{"size": size}, Source: src}}, VerdictRejected
	}
	var hits []Hit
	for _, i := range hit {
		t := f.targets[i]
		q, ok := mine.LocalLayer(t, n, row.Content, f.opts.EndpointsPerAPI)
		if !ok {
			continue
		}
		hits = append(hits, Hit{APIID: t.API.ID, API: t.API.Slug, Host: t.Host, MatchLayer: q.Layer, Query: q.Text})
	}
	if len(hits) == 0 {
		return nil, VerdictSkipped
	}
	sha := mine.GitBlobSHA(row.Content)
	return &Record{Key: "f\x00" + repo.FullName + "\x00" + row.Path + "\x00" + sha + "\x00" + src.key(), File: &Found{
		Repo: repo, Path: row.Path, GitSHA: sha, Commit: row.Commit, URL: url, Size: size,
		Content: row.Content, Hits: hits, Source: src, LineDates: row.LineDates}}, VerdictFound
}

// hostsIn lists the targets whose host the content names as a whole host, as mine
// --local decides it (mine.HostBounded): in the content lower-cased (ASCII folding
// is the same unless the content has other bytes).
func (f *Filter) hostsIn(content []byte) []int {
	if !isASCII(content) {
		content = bytes.ToLower(content)
	}
	return f.hosts.FindBounded(content, mine.HostBounded)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// repository is the store's record of a row's repository, whose language is taken
// to be the row's file's n.
func repository(row Row, n lang.Name) store.Repository {
	r := store.Repository{FullName: row.Repo, Source: "corpus", URL: row.RepoURL, Language: mine.LanguageName(n), Topics: []string{},
		License: row.License, Stars: row.Stars, Forks: row.Forks, DefaultBranch: row.Branch,
		CreatedAt: utcDate(row.CreatedAt), UpdatedAt: utcDate(row.UpdatedAt), PushedAt: utcDate(row.PushedAt)}
	if !row.HasRepoURL {
		r.URL = "https://github.com/" + row.Repo
	}
	return r
}

// fileURL names a file as mine --local does: its GitHub URL at the commit, else a
// name that identifies it without revealing where the corpus was made.
func fileURL(r store.Repository, commit, p string) string {
	if strings.HasPrefix(r.URL, "https://github.com/") && commit != "" {
		return r.URL + "/blob/" + commit + "/" + p
	}
	return r.FullName + "/" + p
}
