package crawl

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"sccg/store"
)

// FindingGroup is a crawl's rejections or warnings of one reason: how many, and up
// to three examples naming the file or API they concern.
type FindingGroup struct {
	Verdict  string   `json:"verdict"`
	Reason   string   `json:"reason"`
	Count    int      `json:"count"`
	Examples []string `json:"examples"`
}

// maxExamples is how many examples a finding group keeps.
const maxExamples = 3

// note counts one finding.
func (s *Summary) note(verdict, reason, example string) {
	for i := range s.Findings {
		g := &s.Findings[i]
		if g.Verdict == verdict && g.Reason == reason {
			g.Count++
			if len(g.Examples) < maxExamples {
				g.Examples = append(g.Examples, example)
			}
			return
		}
	}
	s.Findings = append(s.Findings, FindingGroup{Verdict: verdict, Reason: reason, Count: 1, Examples: []string{example}})
}

// apiName is how decisions name an API: OWNER/SLUG, or SLUG without an owner.
func apiName(a store.API) string {
	if a.Owner == "" {
		return a.Slug
	}
	return a.Owner + "/" + a.Slug
}

// where says where in which file a warning was found.
func (w Warning) where() string {
	var parts []string
	if w.File != "" {
		f := w.File
		if w.Line > 0 {
			f += fmt.Sprintf(":%d", w.Line)
		}
		parts = append(parts, f)
	}
	if w.Pointer != "" {
		parts = append(parts, w.Pointer)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, " ") + ")"
}

// maxWarningItems is how many occurrences one warning decision keeps as evidence.
const maxWarningItems = 50

// recordWarnings records a document's warnings on its API, one decision per
// reason with every occurrence (up to maxWarningItems) as evidence.
func (c *crawler) recordWarnings(ctx context.Context, tx *store.Tx, doc *Doc) error {
	by := groupWarnings(doc.Warnings)
	for _, reason := range slices.Sorted(maps.Keys(by)) {
		ws := by[reason]
		err := tx.RecordDecision(ctx, store.Decision{RunID: c.run, Stage: Stage, SubjectKind: "api", Subject: apiName(doc.API),
			Verdict: store.Warning, Reason: reason, Evidence: warningEvidence(ws)})
		if err != nil {
			return err
		}
	}
	return nil
}

func groupWarnings(ws []Warning) map[string][]Warning {
	out := map[string][]Warning{}
	for _, w := range ws {
		out[w.Reason] = append(out[w.Reason], w)
	}
	return out
}

func warningEvidence(ws []Warning) map[string]any {
	items := ws[:min(len(ws), maxWarningItems)]
	ev := map[string]any{"count": len(ws), "items": items}
	if len(ws) > 0 {
		ev["file"] = ws[0].File
	}
	return ev
}

// rejectFile records a description file that could not be imported, with what
// was repaired before it failed.
func (c *crawler) rejectFile(ctx context.Context, name string, rj *Rejection) error {
	ev := map[string]any{"file": name, "message": rj.Message}
	if len(rj.Warnings) > 0 {
		by := map[string]int{}
		for _, w := range rj.Warnings {
			by[w.Reason]++
		}
		ev["warnings"] = by
	}
	c.sum.Bad++
	c.sum.Reasons[store.Rejected+": "+rj.Reason]++
	c.sum.note(store.Rejected, rj.Reason, rj.Message)
	nctx := context.WithoutCancel(ctx)
	return c.s.Update(nctx, func(tx *store.Tx) error {
		return tx.RecordDecision(nctx, store.Decision{RunID: c.run, Stage: Stage, SubjectKind: "file", Subject: name,
			Verdict: store.Rejected, Reason: rj.Reason, Evidence: ev})
	})
}

// rootOf is the root (of Options.Roots, else Paths) a file was found under: the
// deepest folder that holds it, or the file's own folder.
func (c *crawler) rootOf(path string) string {
	roots := c.o.Roots
	if len(roots) == 0 {
		roots = c.o.Paths
	}
	best := ""
	for _, r := range roots {
		rel, err := filepath.Rel(r, path)
		if err != nil || strings.HasPrefix(rel, "..") || rel == "." {
			continue
		}
		if len(r) > len(best) {
			best = r
		}
	}
	if best == "" {
		return filepath.Dir(path)
	}
	return best
}

// relName names a file relative to its root.
func (c *crawler) relName(path string) string {
	return ReadOptions{Root: c.rootOf(path)}.rel(path)
}

// genericStems are file names that say nothing about the API.
var genericStems = map[string]bool{"openapi": true, "swagger": true, "api": true, "index": true, "spec": true, "openapi-spec": true}

// uniqueSlug keeps two description files from being saved as one API: when
// another file of this run, or one imported before, already has the document's
// owner and slug, the slug gets the API's version (or the file's name) appended,
// with a warning.
func (c *crawler) uniqueSlug(ctx context.Context, doc *Doc, name string) error {
	if c.slugs == nil {
		c.slugs = map[string]string{}
	}
	taken := func(slug string) (bool, error) {
		a := doc.API
		a.Slug = slug
		if f, ok := c.slugs[apiName(a)]; ok {
			return f != doc.API.URL, nil
		}
		prev, err := c.s.APIBySlug(ctx, a.Owner, slug)
		if errors.Is(err, store.ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		return prev.Source == SourceOpenAPI && prev.URL != doc.API.URL, nil
	}
	orig := doc.API.Slug
	candidates := []string{orig}
	if v := Slugify(doc.API.Version); v != "" {
		candidates = append(candidates, orig+"-"+v)
	}
	stem := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	if s := Slugify(stem); s != "" && !genericStems[s] {
		candidates = append(candidates, s)
	}
	candidates = append(candidates, orig+"-"+Slugify(strings.TrimSuffix(name, filepath.Ext(name))))
	for i, slug := range candidates {
		t, err := taken(slug)
		if err != nil {
			return fmt.Errorf("slug of %s: %w", name, err)
		}
		if t && i < len(candidates)-1 {
			continue
		}
		if i > 0 {
			doc.Warnings = append(doc.Warnings, Warning{Reason: WarnSlugTaken, File: name,
				Detail: fmt.Sprintf("another description is already the API %q; this one is saved as %q", apiName(doc.API), slug)})
		}
		doc.API.Slug = slug
		break
	}
	c.slugs[apiName(doc.API)] = doc.API.URL
	return nil
}
