package samples

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"sccg/internal/blame"
	"sccg/lang"
	"sccg/provenance"
	"sccg/release"
	"sccg/store"
)

// Kept is one function that survived decontamination, with what a sample is built
// from: its primary alignment and its self-contained code with credentials redacted.
type Kept struct {
	Function  store.Function
	Alignment store.Alignment
	Code      string // released code: self-contained, credentials redacted
	Source    string // the function as written, credentials redacted ("" when unknown)
}

// Source is what a built sample's record is made from besides the kept function:
// its file, repository, documented endpoint and API, and its intents. Nil parts are
// unknown and leave their fields empty.
type Source struct {
	Kept
	File       *store.File
	Repository *store.Repository
	Endpoint   *store.Endpoint
	API        *store.API
	Intents    []store.Intent
	// Hits are every search that found File (all APIs).
	Hits []store.FileHit
}

// SortKey is the stable key built samples are numbered by: repository, path,
// qualname and start line. It does not depend on store ids or insertion order.
func (src *Source) SortKey() string {
	repo, path := "", ""
	if src.Repository != nil {
		repo = strings.ToLower(src.Repository.FullName)
	}
	if src.File != nil {
		path = src.File.Path
	}
	return fmt.Sprintf("%s\x00%s\x00%s\x00%09d\x00%s", repo, path, src.Function.QualName, src.Function.StartLine, src.Function.CodeHash)
}

// paramsSource maps align's params_source to the published spelling.
func paramsSource(s string) json.RawMessage {
	switch s {
	case "documented":
		return json.RawMessage(`"documentation"`)
	case "observed":
		return json.RawMessage(`"code"`)
	}
	return json.RawMessage(`null`)
}

// paramList renders the ground-truth parameters of one location, or null.
func paramList(ps []store.Param, loc string) json.RawMessage {
	type pub struct {
		Name        string `json:"name"`
		Type        string `json:"type,omitempty"`
		Required    bool   `json:"required"`
		Example     string `json:"example,omitempty"`
		Default     string `json:"default,omitempty"`
		Description string `json:"description,omitempty"`
	}
	var out []pub
	for _, p := range ps {
		if p.Location == loc {
			out = append(out, pub{p.Name, p.Type, p.Required, p.Example, p.Default, p.Description})
		}
	}
	if len(out) == 0 {
		return json.RawMessage(`null`)
	}
	b, _ := json.Marshal(out)
	return b
}

func rawJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// APINameOf names the API a sample calls: its slug, or the host's first label for
// a RapidAPI host, or the host.
func APINameOf(api *store.API, host string) string {
	if api != nil && api.Slug != "" {
		return api.Slug
	}
	if strings.HasSuffix(host, ".p.rapidapi.com") {
		return strings.TrimSuffix(host, ".p.rapidapi.com")
	}
	return host
}

// CommentsNone is the comments_source of a sample that has neither an original
// comment nor an intent yet.
const CommentsNone = "none"

// BuildRecord turns a kept function and its sources into a published-format record.
// SampleID is left empty: numbering happens over the whole set.
func BuildRecord(src *Source) (release.Record, error) {
	f, a := &src.Function, &src.Alignment
	facts := &lang.Facts{}
	if len(f.Facts) > 0 {
		var err error
		if facts, err = lang.DecodeFacts(f.Facts); err != nil {
			return release.Record{}, fmt.Errorf("function %d: %w", f.ID, err)
		}
	}
	host := strings.ToLower(a.Host)
	r := release.Record{
		APIName: APINameOf(src.API, host), APIHost: host, FunctionName: f.Name, Language: string(lang.Of(string(facts.Language))),
	}
	if repo := src.Repository; repo != nil {
		r.GitHubInfo = release.GitHubInfo{Repo: repo.FullName, Stars: repo.Stars, Forks: repo.Forks, License: repo.License,
			CreatedAt: repo.CreatedAt, UpdatedAt: repo.UpdatedAt}
		topics := repo.Topics
		if topics == nil {
			topics = []string{}
		}
		r.GitHubInfo.Extra = map[string]json.RawMessage{
			"watchers": rawJSON(repo.Watchers), "open_issues": rawJSON(repo.OpenIssues),
			"description": rawJSON(repo.Description), "language": rawJSON(repo.Language), "topics": rawJSON(topics),
		}
	}
	if fl := src.File; fl != nil {
		layer, query := provenance.QueryHit(fl, src.Hits, a.APIID)
		r.GitHubInfo.FilePath, r.GitHubInfo.FileURL, r.GitHubInfo.QueryLayer = fl.Path, fl.URL, layer
		if r.GitHubInfo.Extra == nil {
			r.GitHubInfo.Extra = map[string]json.RawMessage{}
		}
		r.GitHubInfo.Extra["commit_sha"] = rawJSON(fl.CommitSHA)
		r.GitHubInfo.Extra["query"] = rawJSON(query)
		d := blame.Of(fl.LineDates, f.StartLine, f.EndLine)
		r.GitHubInfo.FunctionAuthoredAt, r.GitHubInfo.FunctionModifiedAt = d.AuthoredAt, d.ModifiedAt
		r.GitHubInfo.FunctionDatedBy, r.GitHubInfo.FunctionDateUnknown = d.Method, d.Unknown
	}
	original := src.Source
	if original == "" {
		original = src.Code
	}
	r.Code = release.Code{CompleteFunction: src.Code, OriginalFunction: original, Extra: map[string]json.RawMessage{
		"has_comments":  rawJSON(facts.Quality.Checks.HasComments || len(facts.Comments) > 0),
		"has_docstring": rawJSON(facts.Docstring != nil),
		"comment_lines": rawJSON(facts.Quality.Checks.CommentLines),
	}}

	m := release.Metadata{Method: strings.ToUpper(a.Method), Route: a.Route, DocMatchType: a.DocMatchType, Headers: map[string]string{}}
	if a.Route != "" && host != "" {
		m.URL = "https://" + host + a.Route
	}
	if strings.HasSuffix(host, ".rapidapi.com") {
		m.Headers["x-rapidapi-host"] = host
	}
	m.Params = paramList(a.Params, "query")
	m.PathParams = paramList(a.Params, "path")
	m.HeaderParams = paramList(a.Params, "header")
	m.Payload = json.RawMessage(`null`)
	if ep := src.Endpoint; ep != nil {
		m.EndpointID, m.EndpointName = ep.Key, ep.Name
		if ep.BodyExample != "" {
			if json.Valid([]byte(ep.BodyExample)) {
				m.Payload = json.RawMessage(ep.BodyExample)
			} else {
				m.Payload = rawJSON(ep.BodyExample)
			}
		}
	}
	m.ParamsSource = paramsSource(a.ParamsSource)
	m.CodeParams = codeParams(facts, a.CallIndex)
	m.Extra = map[string]json.RawMessage{"endpoint_source": rawJSON(a.EndpointSource)}
	r.APIMetadata = m

	r.QualityMetrics = rawJSON(map[string]any{"code_quality_score": facts.Quality.Score, "completeness_checks": facts.Quality.Checks})
	r.Comments, r.CommentsSource = comments(facts, src.Intents)
	deps := facts.Imports.ThirdParty
	if deps == nil {
		deps = []string{}
	}
	r.Extra = map[string]json.RawMessage{
		"source_lines": rawJSON(map[string]any{"qualname": f.QualName, "start": f.StartLine, "end": f.EndLine}),
		// the third-party modules the code imports: neither the standard library nor
		// the repository's own modules (resolved against its files at extraction)
		"dependencies": rawJSON(deps),
	}
	if c := facts.Check; c != nil {
		r.Extra["syntax_checked_with"] = rawJSON(c.Tool + " " + c.Version)
	}
	if in := acceptedIntent(src.Intents, store.RoleComment); in != nil && in.Path != "" {
		r.Extra["intent_path"] = rawJSON(in.Path)
	}
	if in := acceptedIntent(src.Intents, store.RolePaired); in != nil && r.CommentsSource == CommentsOriginal {
		// --also-original: the redacted intent of a sample that keeps its human comment
		r.Extra["redacted_intent"] = rawJSON(map[string]any{"text": in.Text, "comments_source": in.Kind, "intent_path": in.Path})
	}
	if api := src.API; api != nil {
		info := map[string]any{"source": api.Source, "owner": api.Owner, "slug": api.Slug, "title": api.Title,
			"category": api.Category, "pricing": api.Pricing}
		if api.Subscribers != nil {
			info["subscribers"] = *api.Subscribers
		}
		if api.Popularity != nil {
			info["popularity"] = *api.Popularity
		}
		r.Extra["api_info"] = rawJSON(info)
	}
	return r, nil
}

// codeParams lists the parameters the aligned call sends, by name and location
// (values are left out: they may be credentials).
func codeParams(facts *lang.Facts, call int) json.RawMessage {
	type cp struct {
		Name     string `json:"name"`
		Location string `json:"location"`
	}
	out := []cp{}
	if call >= 0 && call < len(facts.Calls) {
		for _, p := range facts.Calls[call].Params {
			out = append(out, cp{p.Name, p.Location})
		}
	}
	return rawJSON(map[string]any{"params": out})
}

// comments picks a sample's comments. Once redact has run on the function, its
// accepted comment intent decides: the original docstring and comments (redact
// judged they state the function's goal), or the intent it wrote. Before that, the
// original comments when they are not all placeholders, else none.
func comments(facts *lang.Facts, intents []store.Intent) ([]release.Comment, string) {
	original := func() []release.Comment {
		var cs []release.Comment
		if d := facts.Docstring; d != nil && strings.TrimSpace(d.Text) != "" {
			cs = append(cs, release.Comment{Text: d.Text, Extra: map[string]json.RawMessage{"type": rawJSON("docstring"), "line": rawJSON(d.StartLine)}})
		}
		for _, c := range facts.Comments {
			if strings.TrimSpace(c.Text) != "" {
				cs = append(cs, release.Comment{Text: c.Text, Extra: map[string]json.RawMessage{"type": rawJSON("comment"), "line": rawJSON(c.StartLine)}})
			}
		}
		return cs
	}
	if in := acceptedIntent(intents, store.RoleComment); in != nil {
		if in.Kind == CommentsOriginal {
			if cs := original(); len(cs) > 0 {
				return cs, CommentsOriginal
			}
		}
		return []release.Comment{{Text: in.Text}}, in.Kind
	}
	if len(intents) == 0 && !facts.CommentsPlaceholder {
		if cs := original(); len(cs) > 0 {
			return cs, CommentsOriginal
		}
	}
	return []release.Comment{}, CommentsNone
}

// CommentsOriginal is the comments_source of a sample that keeps its human comment.
const CommentsOriginal = "original"

// acceptedIntent returns the last accepted intent of role, or nil.
func acceptedIntent(intents []store.Intent, role string) *store.Intent {
	for i := len(intents) - 1; i >= 0; i-- {
		in := &intents[i]
		r := in.Role
		if r == "" {
			r = store.RoleComment
		}
		// a kept human comment is accepted even when LeakCheck flagged it
		if r == role && in.Decision == store.IntentAccepted && (in.Passed || in.Kind == CommentsOriginal) {
			return in
		}
	}
	return nil
}

// dropped reports whether redact dropped the function: its comment's last attempt
// was dropped (--on-leak drop) and none was accepted.
func dropped(intents []store.Intent) bool {
	if acceptedIntent(intents, store.RoleComment) != nil {
		return false
	}
	for _, in := range intents {
		if in.Decision == store.IntentDropped {
			return true
		}
	}
	return false
}

// BuildResult counts what BuildSamples did.
type BuildResult struct {
	Kept       int `json:"kept"`
	Samples    int `json:"samples"`
	Added      int `json:"added"`
	Updated    int `json:"updated"`
	Renumbered int `json:"renumbered"`
	Removed    int `json:"removed"`
	// Dropped counts the kept functions redact dropped (--on-leak drop): no sample.
	Dropped int `json:"dropped"`
	// FunctionDates counts the samples whose function lines are all dated, and
	// the others by why (blame.Reason*).
	FunctionDates blame.Count `json:"function_dates"`
}

// Counts are the result's figures as a run records them.
func (r *BuildResult) Counts() map[string]int64 {
	c := map[string]int64{"kept": int64(r.Kept), "samples": int64(r.Samples), "added": int64(r.Added),
		"updated": int64(r.Updated), "renumbered": int64(r.Renumbered), "removed": int64(r.Removed), "dropped": int64(r.Dropped),
		"dated": int64(r.FunctionDates.Dated), "dates_unknown": int64(r.FunctionDates.UndatedTotal())}
	return c
}

// Stage is the name building samples records its runs under; ImportStage is the
// name imports record theirs under.
const (
	Stage       = "samples"
	ImportStage = "import"
)

// Build makes the samples of every function decontam kept (BuildSamples over
// KeptFromStore), in one recorded run of the samples stage.
func Build(ctx context.Context, s *store.Store) (*BuildResult, error) {
	return store.RecordRun(ctx, s, Stage, map[string]any{}, func(int64) (*BuildResult, error) {
		kept, err := KeptFromStore(ctx, s)
		if err != nil {
			return nil, err
		}
		return BuildSamples(ctx, s, kept)
	})
}

// BuildSamples makes a sample of every kept function and numbers them SCG-000001…
// in SortKey order, so the same kept functions always get the same ids. Built
// samples whose function is no longer kept are removed; imported samples are left
// alone (a store holds one or the other). Running it twice changes nothing.
func BuildSamples(ctx context.Context, s *store.Store, kept []Kept) (*BuildResult, error) {
	existing, err := s.Samples(ctx)
	if err != nil {
		return nil, err
	}
	byFunc := map[int64]store.Sample{}
	for _, e := range existing {
		switch e.Origin {
		case store.OriginImported:
			if len(kept) > 0 {
				return nil, errors.New("build samples: the store holds imported samples; build into a fresh store")
			}
		case store.OriginBuilt:
			byFunc[e.FunctionID] = e
		}
	}
	srcs := make([]*Source, 0, len(kept))
	ndropped := 0
	for i := range kept {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		src, err := loadSource(ctx, s, &kept[i])
		if err != nil {
			return nil, err
		}
		if dropped(src.Intents) {
			ndropped++
			continue
		}
		srcs = append(srcs, src)
	}
	sort.SliceStable(srcs, func(i, j int) bool { return srcs[i].SortKey() < srcs[j].SortKey() })
	res := &BuildResult{Kept: len(kept), Samples: len(srcs), Dropped: ndropped}
	want := map[int64]bool{}
	err = s.Update(ctx, func(tx *store.Tx) error {
		// Free every id first so renumbering never collides with a unique sample_id.
		for fid, e := range byFunc {
			want[fid] = false
			if err := tx.RenameSample(ctx, e.ID, fmt.Sprintf("tmp-%d", e.ID)); err != nil {
				return err
			}
		}
		for i, src := range srcs {
			rec, err := BuildRecord(src)
			if err != nil {
				return err
			}
			rec.SampleID = release.FormatID(i + 1)
			if gi := &rec.GitHubInfo; gi.FunctionAuthoredAt == "" && gi.FunctionDateUnknown == "" {
				res.FunctionDates.Add(blame.ReasonNotDated) // no file to date it from
			} else {
				res.FunctionDates.Add(gi.FunctionDateUnknown)
			}
			b, err := json.Marshal(rec)
			if err != nil {
				return fmt.Errorf("sample %s: %w", rec.SampleID, err)
			}
			smp := store.Sample{SampleID: rec.SampleID, FunctionID: src.Function.ID, AlignmentID: src.Alignment.ID, Origin: store.OriginBuilt,
				APIName: rec.APIName, APIHost: rec.APIHost, FunctionName: rec.FunctionName, Code: src.Code,
				CommentsSource: rec.CommentsSource, DocMatchType: rec.APIMetadata.DocMatchType, Record: b, SortKey: src.SortKey()}
			prev, had := byFunc[src.Function.ID]
			switch {
			case !had:
				res.Added++
			case prev.SampleID != smp.SampleID:
				res.Renumbered++
			case string(prev.Record) != string(b) || prev.AlignmentID != smp.AlignmentID:
				res.Updated++
			}
			if had {
				want[src.Function.ID] = true
				if err := tx.RenameSample(ctx, prev.ID, smp.SampleID); err != nil {
					return err
				}
				smp.CreatedAt = prev.CreatedAt
			}
			if err := tx.PutSample(ctx, &smp); err != nil {
				return err
			}
		}
		for fid, keep := range want {
			if !keep {
				res.Removed++
				if err := tx.DeleteSample(ctx, byFunc[fid].ID); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("build samples: %w", err)
	}
	return res, nil
}

// loadSource reads what a kept function's record is made from.
func loadSource(ctx context.Context, s *store.Store, k *Kept) (*Source, error) {
	src := &Source{Kept: *k}
	var err error
	if src.File, err = s.File(ctx, k.Function.FileID); err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	if src.File != nil {
		if src.Repository, err = s.Repository(ctx, src.File.RepoID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		if src.Hits, err = s.FileHits(ctx, src.File.ID); err != nil {
			return nil, err
		}
	}
	if k.Alignment.APIID != 0 {
		if src.API, err = s.API(ctx, k.Alignment.APIID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		if k.Alignment.EndpointID != 0 {
			eps, err := s.Endpoints(ctx, k.Alignment.APIID)
			if err != nil {
				return nil, err
			}
			for i := range eps {
				if eps[i].ID == k.Alignment.EndpointID {
					src.Endpoint = &eps[i]
				}
			}
		}
	}
	if src.Intents, err = s.FunctionIntents(ctx, k.Function.ID); err != nil {
		return nil, err
	}
	return src, nil
}

// KeptFromStore lists the functions decontam kept, with their primary alignment,
// redacted code and redacted source, by function id.
func KeptFromStore(ctx context.Context, s *store.Store) ([]Kept, error) {
	ks, err := s.KeptFunctions(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Kept, 0, len(ks))
	for _, k := range ks {
		f, err := s.Function(ctx, k.FunctionID)
		if err != nil {
			return nil, fmt.Errorf("kept function: %w", err)
		}
		// Published metadata (code_params, comments) is built from the facts: take
		// decontam's redacted copy, never the extractor's raw one, even when the
		// kept row has none.
		f.Facts = k.Facts
		f.Code, f.Source = k.Code, k.Source
		out = append(out, Kept{Function: *f, Alignment: k.Alignment, Code: k.Code, Source: k.Source})
	}
	return out, nil
}
