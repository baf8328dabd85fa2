package provenance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sccg/lang/frontends"
	"strings"

	"sccg/internal/blame"
	"sccg/lang"
	"sccg/release"
	"sccg/store"
)

// Audit is the whole lineage of one sample, as `sccg audit` shows it: the store's
// rows about it plus what they say decoded (the record, the extractor's facts, the
// function's lines in its file).
type Audit struct {
	store.Lineage
	Record release.Record `json:"record"`
	Facts  *lang.Facts    `json:"facts,omitempty"`
	Lines  []NumberedLine `json:"lines,omitempty"` // the function's lines in its file
}

// NumberedLine is one line of a source file.
type NumberedLine struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

// LoadAudit gathers the audit of the sample named sampleID; the error wraps
// store.ErrNotFound when there is no such sample.
func LoadAudit(ctx context.Context, s *store.Store, sampleID string) (*Audit, error) {
	l, err := s.SampleLineage(ctx, sampleID)
	if err != nil {
		return nil, err
	}
	a := &Audit{Lineage: *l}
	if err := a.Record.UnmarshalJSON(l.Sample.Record); err != nil {
		return nil, fmt.Errorf("audit %s: record: %w", sampleID, err)
	}
	if f := l.Function; f != nil {
		if len(f.Facts) > 0 {
			if a.Facts, err = lang.DecodeFacts(f.Facts); err != nil {
				return nil, fmt.Errorf("audit %s: %w", sampleID, err)
			}
		}
		lines := strings.Split(f.Source, "\n")
		start := f.StartLine
		if l.File != nil {
			if content, err := s.FileContent(ctx, l.File); err == nil {
				all := strings.Split(string(content), "\n")
				if f.StartLine >= 1 && f.EndLine <= len(all) && f.StartLine <= f.EndLine {
					lines = all[f.StartLine-1 : f.EndLine]
				}
			} else if !errors.Is(err, store.ErrNotFound) {
				return nil, fmt.Errorf("audit %s: %w", sampleID, err)
			}
		}
		for i, t := range lines {
			a.Lines = append(a.Lines, NumberedLine{N: start + i, Text: strings.TrimRight(t, "\r")})
		}
	}
	return a, nil
}

// AuditText is what `sccg audit` shows of the sample named sampleID, or "" when
// the store has none: the lineage on each sample's page of the report.
func AuditText(ctx context.Context, s *store.Store, sampleID string) (string, error) {
	a, err := LoadAudit(ctx, s, sampleID)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := a.WriteText(&b); err != nil {
		return "", err
	}
	return b.String(), nil
}

// compactJSON renders raw JSON on one line with sorted keys, or "" for empty values.
func compactJSON(b []byte) string {
	var v any
	if len(b) == 0 || json.Unmarshal(b, &v) != nil || v == nil {
		return ""
	}
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			return ""
		}
	case []any:
		if len(x) == 0 {
			return ""
		}
	}
	out, _ := json.Marshal(v)
	return string(release.UnescapeHTML(out))
}

func anyJSON(v any) string {
	b, _ := json.Marshal(v)
	return compactJSON(b)
}

// WriteText writes the audit in readable form.
func (a *Audit) WriteText(w io.Writer) error {
	var b bytes.Buffer
	smp, r := &a.Sample, &a.Record
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	kv := func(k, v string) {
		if v != "" {
			p("  %-13s %s", k, v)
		}
	}
	section := func(name string) { p("\n== %s", name) }

	p("%s  (%s sample)", smp.SampleID, smp.Origin)
	kv("api", fmt.Sprintf("%s  host %s", r.APIName, r.APIHost))
	kv("function", r.FunctionName)
	switch {
	case a.Split != nil:
		kv("split", fmt.Sprintf("%s  (family %s, seed %d)", a.Split.Split, a.Split.Family, a.Split.Seed))
	default:
		kv("split", "none assigned (run 'sccg split')")
	}
	kv("comments", fmt.Sprintf("%s: %s", r.CommentsSource, commentsText(r.Comments)))

	gi := &r.GitHubInfo
	section("source")
	if repo := a.Repository; repo != nil {
		kv("repository", fmt.Sprintf("%s  (%s, %s)", repo.FullName, repo.Source, orNone(repo.URL)))
		kv("license", orNone(repo.License))
		kv("signals", fmt.Sprintf("%d stars, %d forks, %d watchers", repo.Stars, repo.Forks, repo.Watchers))
		kv("dates", fmt.Sprintf("created %s, updated %s, pushed %s", orNone(repo.CreatedAt), orNone(repo.UpdatedAt), orNone(repo.PushedAt)))
	} else {
		if smp.Origin == store.OriginImported {
			p("  (what the import knew, from github_info)")
		}
		kv("repository", orNone(gi.Repo))
		kv("license", orNone(gi.License))
		kv("signals", fmt.Sprintf("%d stars, %d forks", gi.Stars, gi.Forks))
		kv("dates", fmt.Sprintf("created %s, updated %s", orNone(gi.CreatedAt), orNone(gi.UpdatedAt)))
	}
	kv("written", blame.Dates{AuthoredAt: gi.FunctionAuthoredAt, ModifiedAt: gi.FunctionModifiedAt,
		Method: gi.FunctionDatedBy, Unknown: gi.FunctionDateUnknown}.Text())
	if f := a.File; f != nil {
		kv("file", f.URL)
		kv("commit", fmt.Sprintf("%s  (blob %s)", orNone(f.CommitSHA), orNone(f.GitSHA)))
		var apiID int64
		if a.API != nil {
			apiID = a.API.ID
		}
		layer, query := QueryHit(f, a.FileHits, apiID)
		kv("found by", fmt.Sprintf("%s: %s", layer, query))
		for _, h := range a.FileHits {
			if h.QueryLayer != layer || h.Query != query {
				kv("also found by", fmt.Sprintf("%s: %s", h.QueryLayer, h.Query))
			}
		}
		for _, c := range a.Corpus {
			kv("corpus", fmt.Sprintf("%s row %d (blob %s, license %s; %s evidence; loaded from %s)", c.Shard, c.Row,
				orNone(c.BlobID), orNone(c.License), c.MatchLayer, c.Output))
		}
	} else {
		kv("file", orNone(gi.FileURL))
		kv("path", gi.FilePath)
		kv("found by", orNone(gi.QueryLayer))
	}

	if f := a.Function; f != nil {
		path := r.GitHubInfo.FilePath
		if a.File != nil {
			path = a.File.Path
		}
		section(fmt.Sprintf("function lines (%s:%d-%d, %s)", path, f.StartLine, f.EndLine, f.QualName))
		for _, l := range a.Lines {
			p("  %4d | %s", l.N, l.Text)
		}
		section("extraction")
		kv("status", fmt.Sprintf("%s, syntax ok %v, quality %.1f, code hash %s", f.Status, f.SyntaxOK, f.Quality, short(f.CodeHash)))
		if fa := a.Facts; fa != nil {
			kv("signature", fa.Signature)
			var pulled []string
			for _, pi := range fa.PulledIn {
				pulled = append(pulled, fmt.Sprintf("%s (%s, lines %d-%d)", pi.Name, pi.Kind, pi.StartLine, pi.EndLine))
			}
			kv("pulled in", orNone(strings.Join(pulled, "; ")))
			kv("unresolved", strings.Join(fa.Unresolved, ", "))
			kv("imports", fmt.Sprintf("stdlib [%s], third-party [%s]", strings.Join(fa.Imports.Stdlib, " "), strings.Join(fa.Imports.ThirdParty, " ")))
			for i, c := range fa.Calls {
				call := fmt.Sprintf("#%d line %d %s %s %s", i, c.Line, c.Callee, orNone(c.Method), orNone(c.URL))
				if c.InHelper != "" {
					call += " (in helper " + c.InHelper + ")"
				}
				kv("call", call)
			}
			kv("checks", fmt.Sprintf("status check %v, exception handling %v, effective LOC %d", fa.StatusCheck, fa.ExceptionHandling, fa.EffectiveLOC))
		}
	} else {
		section("code")
		p("  (imported: no extraction record; %d lines of complete_function, %d effective)",
			strings.Count(r.Code.CompleteFunction, "\n")+1, frontends.EffectiveLOC(r))
	}

	section("alignment")
	m := &r.APIMetadata
	if len(a.Alignments) > 0 {
		for _, al := range a.Alignments {
			tag := "call"
			if al.ID == smp.AlignmentID || (smp.AlignmentID == 0 && al.IsPrimary) {
				tag = "PRIMARY"
			}
			kv(tag, fmt.Sprintf("#%d %s  %s %s  host %s", al.CallIndex, al.DocMatchType, orNone(al.Method), orNone(al.Route), al.Host))
			if tag != "PRIMARY" {
				continue
			}
			kv("sources", fmt.Sprintf("endpoint %s, params %s", al.EndpointSource, al.ParamsSource))
			var ps []string
			for _, pr := range al.Params {
				s := pr.Name + " (" + pr.Location
				if pr.Required {
					s += ", required"
				}
				ps = append(ps, s+")")
			}
			kv("params", orNone(strings.Join(ps, ", ")))
			kv("evidence", compactJSON(al.Evidence))
			kv("alternatives", compactJSON(al.Alternatives))
		}
		if ep := a.Endpoint; ep != nil {
			kv("endpoint", fmt.Sprintf("%s (%s) %s %s, version %s", ep.Name, ep.Key, ep.Method, ep.Route, orNone(ep.Version)))
		}
		if api := a.API; api != nil {
			name := api.Slug
			if api.Owner != "" {
				name = api.Owner + "/" + api.Slug
			}
			kv("api record", fmt.Sprintf("%s (%s) %s", name, api.Source, docRef(api.URL)))
		}
	} else {
		if smp.Origin == store.OriginImported {
			p("  (what the import knew, from api_metadata)")
		}
		kv("match", fmt.Sprintf("%s  %s %s  %s", m.DocMatchType, orNone(m.Method), orNone(m.Route), orNone(m.URL)))
		kv("endpoint", fmt.Sprintf("%s (%s)", orNone(m.EndpointName), orNone(m.EndpointID)))
		kv("params", fmt.Sprintf("query %s, path %s, header %s, source %s", orNone(compactJSON(m.Params)),
			orNone(compactJSON(m.PathParams)), orNone(compactJSON(m.HeaderParams)), orNone(compactJSON(m.ParamsSource))))
	}

	section("de-duplication")
	if d := a.Dedup; d != nil {
		kv("cluster", fmt.Sprintf("%d: %s, similarity %.2f, %d functions in the cluster", d.Cluster, d.Kind, d.Similarity, a.ClusterSize))
	} else {
		p("  (no de-duplication record)")
	}

	section("decisions")
	if len(a.Decisions) == 0 {
		p("  (none recorded)")
	}
	for _, d := range a.Decisions {
		line := fmt.Sprintf("  [%s] %s %s: %s", d.Stage, d.SubjectKind, d.Verdict, d.Reason)
		if len(d.Evidence) > 0 {
			line += "  " + anyJSON(d.Evidence)
		}
		p("%s", line)
	}

	section("credential redactions")
	switch {
	case a.Kept == nil && smp.Origin == store.OriginImported:
		p("  (imported: the release says credentials are redacted; no record of which)")
	case a.Kept == nil:
		p("  (no kept record)")
	default:
		var reds []map[string]any
		_ = json.Unmarshal(a.Kept.Redactions, &reds)
		if len(reds) == 0 {
			p("  (none: no credential-like literal in the code)")
		}
		for _, rd := range reds {
			p("  %s", anyJSON(rd))
		}
	}

	section("intents")
	if len(a.Intents) == 0 {
		switch {
		case smp.Origin == store.OriginImported:
			p("  (imported: the comments are the release's; 'sccg leakcheck' checks them)")
		default:
			p("  (no intent attempts recorded; the redact stage has not run on this sample)")
		}
	}
	for _, in := range a.Intents {
		verdict := "FAILED LeakCheck"
		if in.Passed {
			verdict = "passed LeakCheck"
		}
		role := in.Role
		if role == "" {
			role = store.RoleComment
		}
		p("  attempt %d  %s  %s via %s  %s  model %s  → %s", in.Attempt, role, in.Kind, orNone(in.Path), verdict, orNone(in.Model), orNone(in.Decision))
		if in.Reason != "" {
			p("    why: %s", in.Reason)
		}
		if in.Prompt != "" {
			var msgs []struct{ Role, Content string }
			if json.Unmarshal([]byte(in.Prompt), &msgs) == nil {
				for _, m := range msgs {
					p("    prompt %s:", m.Role)
					for _, l := range strings.Split(strings.TrimRight(m.Content, "\n"), "\n") {
						p("      | %s", l)
					}
				}
			} else {
				p("    prompt: %s", in.Prompt)
			}
		}
		if in.Response != "" && in.Response != in.Text {
			p("    response: %q", in.Response)
		}
		p("    %q", in.Text)
		if l := compactJSON(in.Leak); l != "" {
			p("    leak check: %s", l)
		}
	}
	if m := a.Masked; m != nil {
		section("masked code (what the intent generators read)")
		for _, l := range strings.Split(strings.TrimRight(m.Code, "\n"), "\n") {
			p("  | %s", l)
		}
		var phs []map[string]any
		_ = json.Unmarshal(m.Placeholders, &phs)
		for _, ph := range phs {
			p("  placeholder %s", anyJSON(ph))
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

func commentsText(cs []release.Comment) string {
	if len(cs) == 0 {
		return "(no comments)"
	}
	var ts []string
	for _, c := range cs {
		t := []rune(strings.Join(strings.Fields(c.Text), " "))
		if len(t) > 100 {
			t = append(t[:97], []rune("...")...)
		}
		ts = append(ts, fmt.Sprintf("%q", string(t)))
	}
	return strings.Join(ts, "; ")
}

// docRef shows where an API's documentation came from: its URL, or for a local
// file only the file's name (the folder is the importer's machine's business).
func docRef(u string) string {
	if strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") || u == "" {
		return orNone(u)
	}
	return "file " + filepath.Base(u)
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
