package provenance

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"sccg/store"
)

// examplesShown is how many subjects of each reason the text summary names.
const examplesShown = 3

// Rejections is what the runs of one command rejected, failed on or warned about,
// grouped by stage, verdict, kind of subject and reason: every decision those
// runs recorded except kept and changed ones.
type Rejections struct {
	Total  int              `json:"total"`
	Groups []RejectionGroup `json:"groups"`
}

// RejectionGroup is one reason a stage gave for a verdict on subjects of one kind.
type RejectionGroup struct {
	Stage       string            `json:"stage"`
	Verdict     string            `json:"verdict"`
	SubjectKind string            `json:"subject_kind"`
	Reason      string            `json:"reason"`
	Count       int               `json:"count"`
	Subjects    []RejectedSubject `json:"subjects"`
}

// RejectedSubject is one subject of a group: as the decision names it, as a
// person reads it, and what its reason says past the group's.
type RejectedSubject struct {
	Subject string `json:"subject"`
	Name    string `json:"name"`
	Detail  string `json:"detail,omitempty"`
	RunID   int64  `json:"run_id"`
}

// Watch reads the decisions of the runs a command makes: it remembers the newest
// run when it starts, and Collect returns what the runs since then decided.
type Watch struct {
	s     *store.Store
	mark  int64
	names map[string]string
}

// WatchDecisions starts a watch at the store's newest run.
func WatchDecisions(ctx context.Context, s *store.Store) (*Watch, error) {
	mark, err := s.LastRunID(ctx)
	if err != nil {
		return nil, err
	}
	return &Watch{s: s, mark: mark, names: map[string]string{}}, nil
}

// Collect groups the problem decisions of the runs made since the watch started
// (or since the last Collect) and moves the watch past them.
func (w *Watch) Collect(ctx context.Context) (*Rejections, error) {
	last, err := w.s.LastRunID(ctx)
	if err != nil {
		return nil, err
	}
	ds, err := w.s.DecisionsSince(ctx, w.mark, store.Kept, store.Changed)
	if err != nil {
		return nil, err
	}
	w.mark = last
	out := &Rejections{Groups: []RejectionGroup{}}
	index := map[[4]string]int{}
	for _, d := range ds {
		if d.RunID > last {
			continue // a run that began after this Collect: the next one reads it
		}
		class, detail := splitReason(d.Reason)
		if detail == "" {
			detail = evidenceDetail(d.Evidence)
		}
		key := [4]string{d.Stage, d.Verdict, d.SubjectKind, class}
		i, ok := index[key]
		if !ok {
			i = len(out.Groups)
			index[key] = i
			out.Groups = append(out.Groups, RejectionGroup{Stage: d.Stage, Verdict: d.Verdict, SubjectKind: d.SubjectKind, Reason: class})
		}
		g := &out.Groups[i]
		g.Count++
		out.Total++
		g.Subjects = append(g.Subjects, RejectedSubject{Subject: d.Subject, Name: w.name(ctx, d.SubjectKind, d.Subject), Detail: detail, RunID: d.RunID})
	}
	sortGroups(out.Groups)
	return out, nil
}

// name is how a person reads a subject: a file or function id as the file or
// function it names, a GitHub file URL as owner/repo/path.
func (w *Watch) name(ctx context.Context, kind, subject string) string {
	key := kind + "\x00" + subject
	if n, ok := w.names[key]; ok {
		return n
	}
	n := subjectName(ctx, w.s, kind, subject)
	w.names[key] = n
	return n
}

func subjectName(ctx context.Context, s *store.Store, kind, subject string) string {
	id, err := strconv.ParseInt(subject, 10, 64)
	switch {
	case err == nil && kind == "function":
		if f, err := s.FunctionRefByID(ctx, id); err == nil {
			return f.String()
		}
	case err == nil && kind == "file":
		if f, err := s.FileRefByID(ctx, id); err == nil {
			return f.String()
		}
	case err == nil && kind == "sample":
		return subject
	}
	return githubFileName(subject)
}

// githubFileName shortens https://github.com/OWNER/REPO/blob/REF/PATH to
// OWNER/REPO/PATH; anything else is returned as it is.
func githubFileName(u string) string {
	rest, ok := strings.CutPrefix(u, "https://github.com/")
	if !ok {
		return u
	}
	parts := strings.SplitN(rest, "/", 5)
	if len(parts) == 5 && parts[2] == "blob" {
		return parts[0] + "/" + parts[1] + "/" + parts[4]
	}
	return rest
}

// evidenceDetail is the detail of a decision whose reason is a bare code, read
// from its evidence: its message (a rejected description file), else the first of
// its occurrences and how many there are (an API's warnings of one reason).
func evidenceDetail(ev map[string]any) string {
	if m, ok := ev["message"].(string); ok {
		return m
	}
	items, _ := ev["items"].([]any)
	if len(items) == 0 {
		return ""
	}
	first, _ := items[0].(map[string]any)
	var at []string
	if f, ok := first["file"].(string); ok && f != "" {
		at = append(at, f)
	}
	if l, ok := first["line"].(float64); ok && l > 0 {
		at = append(at, fmt.Sprintf("line %d", int(l)))
	}
	if p, ok := first["pointer"].(string); ok && p != "" {
		at = append(at, p)
	}
	detail, _ := first["detail"].(string)
	if len(at) > 0 {
		detail = strings.Join(at, " ") + ": " + detail
	}
	if n, ok := ev["count"].(float64); ok && n > 1 {
		detail += fmt.Sprintf(" (and %d more)", int(n)-1)
	}
	return detail
}

// splitReason cuts a reason into the class it is grouped by and the detail past
// it: "invalid OpenAPI: paths./x: …" groups under "invalid OpenAPI".
func splitReason(r string) (class, detail string) {
	class, detail, ok := strings.Cut(r, ": ")
	if !ok || strings.TrimSpace(class) == "" {
		return r, ""
	}
	return class, detail
}

// Stages are the stages that record decisions, in pipeline order: those
// internal/pipeline runs, as it runs them, then import. Provenance names them
// rather than importing the stages, which it reads only through the store's
// decisions; the pipeline's test keeps the two lists equal.
var Stages = []string{"crawl", "mine", "extract", "align", "decontam", "redact", "samples", "split", "export", "import"}

// stageOrder ranks stages in pipeline order; import after export, any other
// stage last.
func stageOrder(stage string) int {
	if i := slices.Index(Stages, stage); i >= 0 {
		return i
	}
	return len(Stages)
}

var verdictOrder = map[string]int{store.Rejected: 0, store.Failed: 1}

func sortGroups(gs []RejectionGroup) {
	rank := func(v string) int {
		if r, ok := verdictOrder[v]; ok {
			return r
		}
		return len(verdictOrder)
	}
	slices.SortStableFunc(gs, func(a, b RejectionGroup) int {
		return cmp.Or(cmp.Compare(stageOrder(a.Stage), stageOrder(b.Stage)), cmp.Compare(a.Stage, b.Stage),
			cmp.Compare(rank(a.Verdict), rank(b.Verdict)), cmp.Compare(a.Verdict, b.Verdict),
			cmp.Compare(b.Count, a.Count), cmp.Compare(a.SubjectKind, b.SubjectKind), cmp.Compare(a.Reason, b.Reason))
	})
}

// plural is "1 file", "2 files", "3 repositories".
func plural(n int, kind string) string {
	if n == 1 {
		return "1 " + kind
	}
	switch {
	case strings.HasSuffix(kind, "y") && !strings.HasSuffix(kind, "ey"):
		kind = strings.TrimSuffix(kind, "y") + "ie"
	case strings.HasSuffix(kind, "s") || strings.HasSuffix(kind, "x"):
		kind += "e"
	}
	return fmt.Sprintf("%d %ss", n, kind)
}

// Add appends o's groups (another stage's, say) to r's.
func (r *Rejections) Add(o *Rejections) {
	r.Total += o.Total
	r.Groups = append(r.Groups, o.Groups...)
}

// Write prints the groups, each with up to examplesShown subjects, every line
// indented by indent.
func (r *Rejections) Write(w io.Writer, indent string) {
	for _, g := range r.Groups {
		fmt.Fprintf(w, "%s%s %s %s: %s\n", indent, g.Stage, g.Verdict, plural(g.Count, g.SubjectKind), g.Reason)
		for i, s := range g.Subjects {
			if i == examplesShown {
				fmt.Fprintf(w, "%s    … and %d more (--json lists every one; 'sccg why SUBJECT' explains one)\n", indent, len(g.Subjects)-i)
				break
			}
			line := s.Name
			if s.Detail != "" {
				line += ": " + s.Detail
			}
			fmt.Fprintf(w, "%s    %s\n", indent, line)
		}
	}
}

// DecisionBreakdown counts the store's decisions by stage (in pipeline order),
// verdict and reason, reasons grouped as the commands' summaries group them (the
// part before the first ": "), most frequent first.
func DecisionBreakdown(ctx context.Context, s *store.Store) ([]store.DecisionCount, error) {
	rows, err := s.DecisionBreakdown(ctx)
	if err != nil {
		return nil, err
	}
	out := []store.DecisionCount{}
	index := map[[3]string]int{}
	for _, r := range rows {
		class, _ := splitReason(r.Reason)
		k := [3]string{r.Stage, r.Verdict, class}
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, store.DecisionCount{Stage: r.Stage, Verdict: r.Verdict, Reason: class})
		}
		out[i].Count += r.Count
	}
	slices.SortStableFunc(out, func(a, b store.DecisionCount) int {
		return cmp.Or(cmp.Compare(stageOrder(a.Stage), stageOrder(b.Stage)), cmp.Compare(a.Stage, b.Stage),
			cmp.Compare(a.Verdict, b.Verdict), cmp.Compare(b.Count, a.Count), cmp.Compare(a.Reason, b.Reason))
	})
	return out, nil
}
