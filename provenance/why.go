package provenance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"sccg/internal/blame"
	"sccg/store"
)

// Subject kinds `sccg why` explains; each is also the prefix that names one
// (function:12, file:dana/wx/jokes.py, doc:specs/weather.yaml, …).
const (
	whySample      = "sample"
	whyFunction    = "function"
	whyFile        = "file"
	whyRepository  = "repo"
	whyAPI         = "api"
	whyDescription = "doc"
)

var whyKinds = []string{whySample, whyFunction, whyFile, whyRepository, whyAPI, whyDescription}

// Candidate is one thing of the store a name may mean.
type Candidate struct {
	Kind    string `json:"kind"`
	Subject string `json:"subject"` // what `sccg why` takes to name it alone
	Name    string `json:"name"`
}

// Report answers "why is X (not) in the benchmark?": the subject, every
// decision on its way from input to sample, and a verdict in words.
type Report struct {
	Query       string   `json:"query"`
	Subject     Node     `json:"subject"`
	Upstream    []Node   `json:"upstream,omitempty"` // what it came from: repository, file, function; description file
	InBenchmark bool     `json:"in_benchmark"`
	Samples     []string `json:"samples,omitempty"`
	KeptOutBy   *Step    `json:"kept_out_by,omitempty"`
	Verdict     string   `json:"verdict"`
}

// Node is one subject on the way: its decisions in pipeline order, facts the
// tables hold about it, and its parts (the functions of a file, the files of a
// repository, the functions aligned to an API).
type Node struct {
	Kind      string   `json:"kind"`
	Subject   string   `json:"subject"`
	Name      string   `json:"name"`
	Decisions []Step   `json:"decisions"`
	Facts     []string `json:"facts,omitempty"`
	Parts     []Node   `json:"parts,omitempty"`
	// Outcome says where it ended: a sample, or the decision that kept it out.
	Outcome   string   `json:"outcome,omitempty"`
	Samples   []string `json:"samples,omitempty"`
	KeptOutBy *Step    `json:"kept_out_by,omitempty"`
}

// Step is one decision; Current is false when a later run of its stage
// decided on the subject again.
type Step struct {
	Stage       string         `json:"stage"`
	SubjectKind string         `json:"subject_kind"`
	Subject     string         `json:"subject"`
	Verdict     string         `json:"verdict"`
	Reason      string         `json:"reason"`
	Evidence    map[string]any `json:"evidence,omitempty"`
	RunID       int64          `json:"run_id,omitempty"`
	Current     bool           `json:"current"`
}

// AmbiguousError is a name that means several things of the store.
type AmbiguousError struct {
	Query      string
	Candidates []Candidate
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%q names %d things in the store; say which with one of the subjects listed", e.Query, len(e.Candidates))
}

// whyLimit bounds the candidates a name may match and the parts a node lists.
const whyLimit = 50

var sampleIDPattern = regexp.MustCompile(`(?i)^SCG-\d+$`)

// Explainer answers why questions over one store.
type Explainer struct {
	s *store.Store
}

// NewExplainer answers why questions over s.
func NewExplainer(s *store.Store) *Explainer { return &Explainer{s: s} }

// Resolve finds every thing of the store q may mean: KIND:NAME looks among one
// kind, a bare name among all.
func (x *Explainer) Resolve(ctx context.Context, q string) ([]Candidate, error) {
	kinds := whyKinds
	name := q
	if k, rest, ok := strings.Cut(q, ":"); ok && rest != "" {
		switch k {
		case "repository":
			k = whyRepository
		case "description":
			k = whyDescription
		}
		if slices.Contains(whyKinds, k) {
			kinds, name = []string{k}, rest
		}
	}
	var out []Candidate
	seen := map[[2]string]bool{}
	add := func(c Candidate) {
		if k := [2]string{c.Kind, c.Subject}; !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	for _, k := range kinds {
		cs, err := x.candidates(ctx, k, name, len(kinds) == 1)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			add(c)
		}
	}
	return out, nil
}

// candidates are the things of one kind name may mean; explicit is true when the
// kind was asked for, so an id needs no other shape.
func (x *Explainer) candidates(ctx context.Context, kind, name string, explicit bool) ([]Candidate, error) {
	s := x.s
	id, idErr := strconv.ParseInt(name, 10, 64)
	var out []Candidate
	switch kind {
	case whySample:
		if !sampleIDPattern.MatchString(name) && !explicit {
			return nil, nil
		}
		smp, err := s.SampleByID(ctx, strings.ToUpper(name))
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, Candidate{whySample, smp.SampleID, fmt.Sprintf("sample %s (%s, %s)", smp.SampleID, smp.FunctionName, smp.APIHost)})
	case whyFunction:
		var fs []store.FunctionRef
		switch {
		case idErr == nil:
			f, err := s.FunctionRefByID(ctx, id)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return nil, err
			}
			if f != nil {
				fs = append(fs, *f)
			}
		case strings.Contains(name, ":"):
			i, j := strings.Index(name, ":"), strings.LastIndex(name, ":")
			var err error
			if i == j { // path:name
				fs, err = s.FunctionRefsNamed(ctx, "", name[:i], name[j+1:])
			} else {
				fs, err = s.FunctionRefsNamed(ctx, name[:i], name[i+1:j], name[j+1:])
			}
			if err != nil {
				return nil, err
			}
		case explicit:
			var err error
			if fs, err = s.FunctionRefsNamed(ctx, "", "", name); err != nil {
				return nil, err
			}
		}
		for _, f := range fs {
			out = append(out, functionCandidate(f))
		}
	case whyFile:
		if idErr == nil && explicit {
			f, err := s.FileRefByID(ctx, id)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return nil, err
			}
			if f != nil {
				out = append(out, fileCandidate(*f))
			}
			return out, nil
		}
		fs, err := s.FileRefsNamed(ctx, name, whyLimit)
		if err != nil {
			return nil, err
		}
		stored := map[string]bool{}
		for _, f := range fs {
			out = append(out, fileCandidate(f))
			stored[f.URL] = true
		}
		// files mine rejected are known only by their decisions
		ds, err := x.decidedFiles(ctx, name)
		if err != nil {
			return nil, err
		}
		for _, u := range ds {
			if !stored[u] {
				out = append(out, Candidate{whyFile, whyFile + ":" + u, "file " + githubFileName(u) + " (rejected by mine, not stored)"})
			}
		}
	case whyRepository:
		r, err := x.repository(ctx, name)
		if err != nil {
			return nil, err
		}
		if r != nil {
			out = append(out, Candidate{whyRepository, whyRepository + ":" + r.FullName, "repository " + r.FullName})
			return out, nil
		}
		ps, err := s.DecidedSubjects(ctx, "repository", name, whyLimit)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			out = append(out, Candidate{whyRepository, whyRepository + ":" + p[1], "repository " + p[1] + " (not stored)"})
		}
	case whyAPI:
		var as []store.API
		if idErr == nil && explicit {
			a, err := s.API(ctx, id)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return nil, err
			}
			if a != nil {
				as = append(as, *a)
			}
		} else {
			var err error
			if as, err = s.APIsNamed(ctx, name); err != nil {
				return nil, err
			}
		}
		for _, a := range as {
			out = append(out, Candidate{whyAPI, whyAPI + ":" + strconv.FormatInt(a.ID, 10), apiName(a)})
		}
	case whyDescription:
		paths := map[string]bool{}
		ps, err := s.DecidedSubjects(ctx, "file", name, whyLimit)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			if p[0] == "crawl" {
				paths[p[1]] = true
			}
		}
		as, err := s.APIsFromFile(ctx, name)
		if err != nil {
			return nil, err
		}
		for _, a := range as {
			if a.Source != "rapidapi" {
				paths[a.URL] = true
			}
		}
		for _, p := range slices.Sorted(maps.Keys(paths)) {
			out = append(out, Candidate{whyDescription, whyDescription + ":" + p, "description file " + p})
		}
	}
	return out, nil
}

func functionCandidate(f store.FunctionRef) Candidate {
	return Candidate{whyFunction, whyFunction + ":" + strconv.FormatInt(f.ID, 10), fmt.Sprintf("function %s (line %d)", f, f.StartLine)}
}

func fileCandidate(f store.FileRef) Candidate {
	return Candidate{whyFile, whyFile + ":" + strconv.FormatInt(f.ID, 10), "file " + f.String() + " (" + f.URL + ")"}
}

func apiName(a store.API) string {
	name := a.Slug
	if a.Owner != "" {
		name = a.Owner + "/" + a.Slug
	}
	return fmt.Sprintf("api %s (host %s, %s)", name, a.Host, a.Source)
}

// decidedFiles are the subjects of mine's file decisions that name: the subject
// itself, a path ending in it, or a GitHub file URL whose owner/repo/path it is.
func (x *Explainer) decidedFiles(ctx context.Context, name string) ([]string, error) {
	tail := name
	if parts := strings.SplitN(name, "/", 3); len(parts) == 3 {
		tail = parts[2] // owner/repo/path: look for the path, then check the owner and repo
	}
	ps, err := x.s.DecidedSubjects(ctx, "file", tail, whyLimit)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range ps {
		if p[0] != "mine" {
			continue
		}
		u := p[1]
		if u == name || githubFileName(u) == name || strings.HasSuffix(u, "/"+name) || tail == name {
			if !slices.Contains(out, u) {
				out = append(out, u)
			}
		}
	}
	return out, nil
}

// repository finds a stored repository by full name or URL (nil when none).
func (x *Explainer) repository(ctx context.Context, name string) (*store.Repository, error) {
	r, err := x.s.RepositoryByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		r, err = x.s.RepositoryByURL(ctx, name)
	}
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return r, err
}

// Explain builds the report of one resolved candidate.
func (x *Explainer) Explain(ctx context.Context, q string, c Candidate) (*Report, error) {
	rep := &Report{Query: q}
	_, name, _ := strings.Cut(c.Subject, ":")
	var err error
	switch c.Kind {
	case whySample:
		err = x.explainSample(ctx, rep, c.Subject)
	case whyFunction:
		id, _ := strconv.ParseInt(name, 10, 64)
		err = x.explainFunction(ctx, rep, id)
	case whyFile:
		if id, perr := strconv.ParseInt(name, 10, 64); perr == nil {
			err = x.explainFile(ctx, rep, id)
		} else {
			err = x.explainRejectedFile(ctx, rep, name)
		}
	case whyRepository:
		err = x.explainRepository(ctx, rep, name)
	case whyAPI:
		id, _ := strconv.ParseInt(name, 10, 64)
		err = x.explainAPI(ctx, rep, id)
	case whyDescription:
		err = x.explainDescription(ctx, rep, name)
	}
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// decisions reads the decisions on a subject (any of its names, one kind), in
// pipeline order, each marked current or superseded by a later run of its stage.
func (x *Explainer) decisions(ctx context.Context, stage, kind string, subjects ...string) ([]Step, error) {
	ds, err := x.s.SubjectDecisions(ctx, kind, subjects...)
	if err != nil {
		return nil, err
	}
	newest := map[string]int64{}
	for _, d := range ds {
		if stage == "" || d.Stage == stage {
			newest[d.Stage] = max(newest[d.Stage], d.RunID)
		}
	}
	out := []Step{}
	for _, d := range ds {
		if stage != "" && d.Stage != stage {
			continue
		}
		out = append(out, Step{Stage: d.Stage, SubjectKind: d.SubjectKind, Subject: d.Subject, Verdict: d.Verdict,
			Reason: d.Reason, Evidence: d.Evidence, RunID: d.RunID, Current: d.RunID == newest[d.Stage]})
	}
	slices.SortStableFunc(out, func(a, b Step) int { return stageOrder(a.Stage) - stageOrder(b.Stage) })
	return out, nil
}

// blocking is the decision that kept a node out: its first current rejection in
// pipeline order, else its first current failure.
func blocking(steps []Step) *Step {
	for _, v := range []string{store.Rejected, store.Failed} {
		for i := range steps {
			if steps[i].Current && steps[i].Verdict == v {
				s := steps[i]
				return &s
			}
		}
	}
	return nil
}

// keptOut sets what kept a node out from its own decisions: prefix and the
// blocking decision, or otherwise when none blocks.
func (n *Node) keptOut(prefix, otherwise string) {
	n.KeptOutBy = blocking(n.Decisions)
	if n.KeptOutBy != nil {
		n.Outcome = prefix + stepText(n.KeptOutBy)
	} else {
		n.Outcome = otherwise
	}
}

// decidedNode is a subject known only by the decisions on it (a file or
// repository mine rejected and did not store).
func (x *Explainer) decidedNode(ctx context.Context, kind, decisionKind, subject, name string) (Node, error) {
	n := Node{Kind: kind, Subject: kind + ":" + subject, Name: name}
	var err error
	if n.Decisions, err = x.decisions(ctx, "", decisionKind, subject); err != nil {
		return n, err
	}
	n.keptOut("kept out: ", "not stored by mine")
	return n, nil
}

func stepText(s *Step) string {
	return fmt.Sprintf("%s %s it (%s)", s.Stage, s.Verdict, s.Reason)
}

// functionNode explains one function: its decisions and the sample it became.
func (x *Explainer) functionNode(ctx context.Context, f store.FunctionRef) (Node, error) {
	n := Node{Kind: whyFunction, Subject: whyFunction + ":" + strconv.FormatInt(f.ID, 10), Name: fmt.Sprintf("%s (line %d)", f, f.StartLine)}
	if written, err := x.written(ctx, f); err != nil {
		return n, err
	} else if written != "" {
		n.Facts = append(n.Facts, "written: "+written)
	}
	var err error
	if n.Decisions, err = x.decisions(ctx, "", "function", strconv.FormatInt(f.ID, 10)); err != nil {
		return n, err
	}
	smp, err := x.s.SampleOfFunction(ctx, f.ID)
	switch {
	case err == nil:
		sn, err := x.sampleNode(ctx, smp)
		if err != nil {
			return n, err
		}
		n.Parts = append(n.Parts, sn)
		n.Samples = []string{smp.SampleID}
		n.Outcome = sn.Outcome
	case errors.Is(err, store.ErrNotFound):
		n.KeptOutBy = blocking(n.Decisions)
		switch {
		case n.KeptOutBy != nil:
			n.Outcome = "kept out: " + stepText(n.KeptOutBy)
		case len(n.Decisions) == 0:
			n.Outcome = "no sample: no stage has decided on it yet"
		default:
			last := n.Decisions[len(n.Decisions)-1]
			n.Outcome = fmt.Sprintf("no sample yet: the last stage that decided on it is %s (%s); run the stages after it", last.Stage, last.Reason)
		}
	default:
		return n, err
	}
	return n, nil
}

// written says when the function's lines were written, or why that is unknown.
func (x *Explainer) written(ctx context.Context, f store.FunctionRef) (string, error) {
	fn, err := x.s.Function(ctx, f.ID)
	if err != nil {
		return "", err
	}
	fl, err := x.s.File(ctx, f.FileID)
	if err != nil {
		return "", err
	}
	return blame.Of(fl.LineDates, fn.StartLine, fn.EndLine).Text(), nil
}

// sampleNode is a sample: its split and the decisions on it.
func (x *Explainer) sampleNode(ctx context.Context, smp *store.Sample) (Node, error) {
	n := Node{Kind: whySample, Subject: smp.SampleID, Name: smp.SampleID, Samples: []string{smp.SampleID}}
	var err error
	if n.Decisions, err = x.decisions(ctx, "", "sample", smp.SampleID); err != nil {
		return n, err
	}
	n.Facts = append(n.Facts, fmt.Sprintf("api %s, host %s, %s", smp.APIName, smp.APIHost, smp.DocMatchType))
	if smp.Split != "" {
		n.Outcome = fmt.Sprintf("sample %s, in the %s split", smp.SampleID, smp.Split)
		if a, err := x.s.SplitOf(ctx, smp.ID); err == nil && a.Family != "" {
			n.Facts = append(n.Facts, fmt.Sprintf("split %s (family %s, seed %d)", a.Split, a.Family, a.Seed))
		}
	} else {
		n.Outcome = fmt.Sprintf("sample %s, in no split yet (run sccg split)", smp.SampleID)
		for _, d := range n.Decisions {
			if d.Stage == "split" && d.Verdict == store.Rejected && d.Current {
				n.Outcome = fmt.Sprintf("sample %s, left out of every split: %s", smp.SampleID, d.Reason)
			}
		}
	}
	return n, nil
}

// fileNode explains a stored file: mine's and extract's decisions and each of
// its functions.
func (x *Explainer) fileNode(ctx context.Context, f store.FileRef, withParts bool) (Node, error) {
	n := Node{Kind: whyFile, Subject: whyFile + ":" + strconv.FormatInt(f.ID, 10), Name: f.String()}
	mined, err := x.decisions(ctx, "mine", "file", f.URL)
	if err != nil {
		return n, err
	}
	extracted, err := x.decisions(ctx, "extract", "file", strconv.FormatInt(f.ID, 10))
	if err != nil {
		return n, err
	}
	n.Decisions = append(mined, extracted...)
	fns, err := x.s.FunctionRefsOfFile(ctx, f.ID)
	if err != nil {
		return n, err
	}
	var out []string
	for _, fn := range fns {
		fnode, err := x.functionNode(ctx, fn)
		if err != nil {
			return n, err
		}
		n.Samples = append(n.Samples, fnode.Samples...)
		if n.KeptOutBy == nil {
			n.KeptOutBy = fnode.KeptOutBy
		}
		out = append(out, fmt.Sprintf("%s: %s", fn.QualName, fnode.Outcome))
		if withParts {
			n.Parts = append(n.Parts, fnode)
		}
	}
	switch {
	case len(fns) == 0:
		n.keptOut("kept out: ", "no function extracted from it yet (run sccg extract)")
	case len(n.Samples) > 0:
		n.KeptOutBy = nil
		n.Outcome = fmt.Sprintf("%d of its %s became samples: %s", len(n.Samples), plural(len(fns), "function"), strings.Join(n.Samples, ", "))
	default:
		n.Outcome = fmt.Sprintf("none of its %s became a sample: %s", plural(len(fns), "function"), strings.Join(out, "; "))
	}
	return n, nil
}

// repoNode is a repository: mine's decisions on it.
func (x *Explainer) repoNode(ctx context.Context, r *store.Repository) (Node, error) {
	n := Node{Kind: whyRepository, Subject: whyRepository + ":" + r.FullName, Name: r.FullName}
	names := []string{r.FullName, "https://github.com/" + r.FullName}
	if r.URL != "" {
		names = append(names, r.URL)
	}
	var err error
	n.Decisions, err = x.decisions(ctx, "", "repository", names...)
	if err != nil {
		return n, err
	}
	n.Facts = append(n.Facts, fmt.Sprintf("%s repository, %d stars, license %s", r.Source, r.Stars, orDash(r.License)))
	return n, nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (x *Explainer) upstreamOfFile(ctx context.Context, rep *Report, f store.FileRef) error {
	r, err := x.s.Repository(ctx, f.RepoID)
	if err != nil {
		return err
	}
	rn, err := x.repoNode(ctx, r)
	if err != nil {
		return err
	}
	rep.Upstream = append(rep.Upstream, rn)
	return nil
}

func (x *Explainer) explainFunction(ctx context.Context, rep *Report, id int64) error {
	f, err := x.s.FunctionRefByID(ctx, id)
	if err != nil {
		return err
	}
	fr, err := x.s.FileRefByID(ctx, f.FileID)
	if err != nil {
		return err
	}
	if err := x.upstreamOfFile(ctx, rep, *fr); err != nil {
		return err
	}
	fn, err := x.fileNode(ctx, *fr, false)
	if err != nil {
		return err
	}
	fn.Outcome, fn.Samples, fn.KeptOutBy = "", nil, nil
	rep.Upstream = append(rep.Upstream, fn)
	if rep.Subject, err = x.functionNode(ctx, *f); err != nil {
		return err
	}
	rep.finish("function "+f.String(), rep.Subject)
	return nil
}

func (x *Explainer) explainSample(ctx context.Context, rep *Report, sampleID string) error {
	smp, err := x.s.SampleByID(ctx, sampleID)
	if err != nil {
		return err
	}
	if smp.FunctionID != 0 {
		if f, err := x.s.FunctionRefByID(ctx, smp.FunctionID); err == nil {
			if err := x.explainFunction(ctx, rep, f.ID); err != nil {
				return err
			}
			fn := rep.Subject
			fn.Parts, fn.Outcome, fn.Samples, fn.KeptOutBy = nil, "", nil, nil
			rep.Upstream = append(rep.Upstream, fn)
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	if rep.Subject, err = x.sampleNode(ctx, smp); err != nil {
		return err
	}
	if smp.Origin == store.OriginImported {
		rep.Subject.Facts = append(rep.Subject.Facts, "imported from a published release: its history before the import is the release's")
	}
	rep.finish("sample "+smp.SampleID, rep.Subject)
	return nil
}

func (x *Explainer) explainFile(ctx context.Context, rep *Report, id int64) error {
	f, err := x.s.FileRefByID(ctx, id)
	if err != nil {
		return err
	}
	if err := x.upstreamOfFile(ctx, rep, *f); err != nil {
		return err
	}
	if rep.Subject, err = x.fileNode(ctx, *f, true); err != nil {
		return err
	}
	rep.finish("file "+f.String(), rep.Subject)
	return nil
}

// explainRejectedFile explains a file mine decided on but did not store.
func (x *Explainer) explainRejectedFile(ctx context.Context, rep *Report, subject string) error {
	n, err := x.decidedNode(ctx, whyFile, "file", subject, githubFileName(subject))
	if err != nil {
		return err
	}
	rep.Subject = n
	rep.finish("file "+n.Name, n)
	return nil
}

func (x *Explainer) explainRepository(ctx context.Context, rep *Report, name string) error {
	r, err := x.repository(ctx, name)
	if err != nil {
		return err
	}
	if r == nil { // known only by a decision: mine rejected it whole
		n, err := x.decidedNode(ctx, whyRepository, "repository", name, name)
		if err != nil {
			return err
		}
		rep.Subject = n
		rep.finish("repository "+name, n)
		return nil
	}
	n, err := x.repoNode(ctx, r)
	if err != nil {
		return err
	}
	files, err := x.s.FileRefsOfRepo(ctx, r.ID)
	if err != nil {
		return err
	}
	stored := map[string]bool{}
	for i, f := range files {
		stored[f.URL] = true
		if i == whyLimit {
			n.Facts = append(n.Facts, fmt.Sprintf("%d more stored files not listed", len(files)-i))
			break
		}
		fn, err := x.fileNode(ctx, f, false)
		if err != nil {
			return err
		}
		n.Parts = append(n.Parts, fn)
		n.Samples = append(n.Samples, fn.Samples...)
		if n.KeptOutBy == nil {
			n.KeptOutBy = fn.KeptOutBy
		}
	}
	// files mine rejected in it, known by their decisions
	prefixes := []string{r.FullName + "/"}
	if r.URL != "" {
		prefixes = append(prefixes, strings.TrimSuffix(r.URL, "/")+"/blob/")
	}
	for _, p := range prefixes {
		ds, err := x.s.DecisionsUnder(ctx, "mine", "file", p, whyLimit)
		if err != nil {
			return err
		}
		for _, d := range ds {
			if stored[d.Subject] || d.Verdict == store.Kept {
				continue
			}
			stored[d.Subject] = true
			fn, err := x.decidedNode(ctx, whyFile, "file", d.Subject, githubFileName(d.Subject))
			if err != nil {
				return err
			}
			n.Parts = append(n.Parts, fn)
		}
	}
	if len(n.Samples) > 0 {
		n.KeptOutBy = nil
	} else if b := blocking(n.Decisions); b != nil {
		n.KeptOutBy = b
	}
	switch {
	case len(n.Samples) > 0:
		n.Outcome = fmt.Sprintf("%s of it: %s", plural(len(n.Samples), "sample"), strings.Join(n.Samples, ", "))
	case len(n.Parts) == 0 && n.KeptOutBy == nil:
		n.Outcome = "no file of it was stored"
	case n.KeptOutBy != nil:
		n.Outcome = "none of its files gave a sample; the first kept out: " + stepText(n.KeptOutBy)
	default:
		n.Outcome = "none of its files gave a sample yet"
	}
	rep.Subject = n
	rep.finish("repository "+r.FullName, n)
	return nil
}

// apiNode is an API: its description's warnings, its endpoints and the functions
// aligned to it.
func (x *Explainer) apiNode(ctx context.Context, a store.API) (Node, error) {
	n := Node{Kind: whyAPI, Subject: whyAPI + ":" + strconv.FormatInt(a.ID, 10), Name: strings.TrimPrefix(apiName(a), "api ")}
	ref := a.Slug
	if a.Owner != "" {
		ref = a.Owner + "/" + a.Slug
	}
	var err error
	if n.Decisions, err = x.decisions(ctx, "", "api", ref, a.Slug, a.Host); err != nil {
		return n, err
	}
	eps, err := x.s.Endpoints(ctx, a.ID)
	if err != nil {
		return n, err
	}
	n.Facts = append(n.Facts, plural(len(eps), "endpoint")+" documented")
	for i, ep := range eps {
		if i == 10 {
			n.Facts = append(n.Facts, fmt.Sprintf("  … and %d more", len(eps)-i))
			break
		}
		n.Facts = append(n.Facts, fmt.Sprintf("  %s %s %s", ep.Method, ep.Host, ep.Route))
	}
	fns, err := x.s.FunctionRefsAlignedTo(ctx, a.ID)
	if err != nil {
		return n, err
	}
	for i, f := range fns {
		if i == whyLimit {
			n.Facts = append(n.Facts, fmt.Sprintf("%d more aligned functions not listed", len(fns)-i))
			break
		}
		fn, err := x.functionNode(ctx, f)
		if err != nil {
			return n, err
		}
		n.Parts = append(n.Parts, fn)
		n.Samples = append(n.Samples, fn.Samples...)
		if n.KeptOutBy == nil {
			n.KeptOutBy = fn.KeptOutBy
		}
	}
	switch {
	case len(n.Samples) > 0:
		n.KeptOutBy = nil
		n.Outcome = fmt.Sprintf("%s: %s", plural(len(n.Samples), "sample"), strings.Join(n.Samples, ", "))
	case len(fns) > 0:
		n.Outcome = fmt.Sprintf("%s aligned to it, none a sample; the first kept out: %s", plural(len(fns), "function"), orText(n.KeptOutBy))
	default:
		files, err := x.s.FileRefsOfAPI(ctx, a.ID)
		if err != nil {
			return n, err
		}
		if len(files) == 0 {
			n.Outcome = "no mined file calls it: mine found no file that names its host"
		} else {
			n.Outcome = fmt.Sprintf("mine found %s for it, but no function of them aligned to it (see sccg why file:%d)", plural(len(files), "file"), files[0].ID)
		}
	}
	return n, nil
}

func orText(s *Step) string {
	if s == nil {
		return "no decision recorded"
	}
	return stepText(s)
}

func (x *Explainer) explainAPI(ctx context.Context, rep *Report, id int64) error {
	a, err := x.s.API(ctx, id)
	if err != nil {
		return err
	}
	if a.Source != "rapidapi" && a.URL != "" {
		dn, err := x.descriptionNode(ctx, a.URL)
		if err != nil {
			return err
		}
		rep.Upstream = append(rep.Upstream, dn)
	}
	if rep.Subject, err = x.apiNode(ctx, *a); err != nil {
		return err
	}
	rep.finish("api "+rep.Subject.Name, rep.Subject)
	return nil
}

// descriptionNode is a description file: crawl's decisions on it.
func (x *Explainer) descriptionNode(ctx context.Context, path string) (Node, error) {
	n := Node{Kind: whyDescription, Subject: whyDescription + ":" + path, Name: path}
	// crawl may name the file by another path to it (relative to --docs)
	names := []string{path}
	ps, err := x.s.DecidedSubjects(ctx, "file", path, whyLimit)
	if err != nil {
		return n, err
	}
	for _, p := range ps {
		if p[0] == "crawl" && !slices.Contains(names, p[1]) {
			names = append(names, p[1])
		}
	}
	n.Decisions, err = x.decisions(ctx, "crawl", "file", names...)
	return n, err
}

func (x *Explainer) explainDescription(ctx context.Context, rep *Report, path string) error {
	n, err := x.descriptionNode(ctx, path)
	if err != nil {
		return err
	}
	as, err := x.s.APIsFromFile(ctx, path)
	if err != nil {
		return err
	}
	// the file's own APIs, when it is named as they record it; else those whose
	// path and this one differ only by the folder given to --docs
	if exact := slices.DeleteFunc(slices.Clone(as), func(a store.API) bool { return a.URL != path }); len(exact) > 0 {
		as = exact
	}
	for _, a := range as {
		an, err := x.apiNode(ctx, a)
		if err != nil {
			return err
		}
		n.Parts = append(n.Parts, an)
		n.Samples = append(n.Samples, an.Samples...)
		if n.KeptOutBy == nil {
			n.KeptOutBy = an.KeptOutBy
		}
	}
	switch {
	case len(n.Parts) == 0:
		n.keptOut("no API imported from it: ", "no API imported from it, and no decision recorded (was it given to crawl --docs?)")
	case len(n.Samples) > 0:
		n.KeptOutBy = nil
		n.Outcome = fmt.Sprintf("imported as %s; %s: %s", plural(len(n.Parts), "API"), plural(len(n.Samples), "sample"), strings.Join(n.Samples, ", "))
	default:
		n.Outcome = fmt.Sprintf("imported as %s, none with a sample: %s", plural(len(n.Parts), "API"), n.Parts[0].Outcome)
	}
	rep.Subject = n
	rep.finish("description file "+path, n)
	return nil
}

// finish sets the report's verdict from its subject node.
func (rep *Report) finish(what string, n Node) {
	rep.Samples = n.Samples
	rep.InBenchmark = len(n.Samples) > 0
	rep.KeptOutBy = n.KeptOutBy
	if rep.InBenchmark {
		rep.KeptOutBy = nil
		rep.Verdict = fmt.Sprintf("%s is in the benchmark: %s", what, n.Outcome)
		return
	}
	rep.Verdict = fmt.Sprintf("%s is not in the benchmark: %s", what, n.Outcome)
}

// WriteText prints the report: upstream first, then the subject, then the verdict.
func (rep *Report) WriteText(w io.Writer) {
	for _, n := range rep.Upstream {
		n.write(w, "", false)
	}
	rep.Subject.write(w, "", true)
	fmt.Fprintln(w, rep.Verdict)
}

func (n *Node) write(w io.Writer, indent string, outcome bool) {
	fmt.Fprintf(w, "%s%s %s\n", indent, kindWord(n.Kind), n.Name)
	for _, f := range n.Facts {
		fmt.Fprintf(w, "%s    %s\n", indent, f)
	}
	if len(n.Decisions) == 0 && (n.Kind == whyFunction || n.Kind == whyFile) {
		fmt.Fprintf(w, "%s    (no decision recorded)\n", indent)
	}
	for _, d := range n.Decisions {
		line := fmt.Sprintf("%s    %-9s %-9s %s", indent, d.Stage, d.Verdict, d.Reason)
		if _, detail := splitReason(d.Reason); detail == "" && evidenceDetail(d.Evidence) != "" {
			line += ": " + evidenceDetail(d.Evidence)
		} else if ev := evidenceText(d.Evidence); ev != "" {
			line += "  " + ev
		}
		if !d.Current {
			line += "  (superseded by a later run)"
		}
		fmt.Fprintln(w, line)
		for _, l := range listedEvidence(d.Evidence) {
			fmt.Fprintf(w, "%s              %s\n", indent, l)
		}
	}
	for i := range n.Parts {
		n.Parts[i].write(w, indent+"  ", true)
	}
	if outcome && n.Outcome != "" && n.Kind != whySample {
		fmt.Fprintf(w, "%s    → %s\n", indent, n.Outcome)
	}
}

func kindWord(k string) string {
	switch k {
	case whyRepository:
		return "repository"
	case whyDescription:
		return "description file"
	}
	return k
}

// listedEvidence are the lines a decision's evidence lists in full beneath it:
// the label rules that decided an alignment ("rule: …") and the routes it chose
// among ("candidate: …").
func listedEvidence(ev map[string]any) []string {
	var out []string
	for _, k := range []struct{ key, word string }{{"rules", "rule"}, {"candidates", "candidate"}} {
		switch items := ev[k.key].(type) {
		case []any:
			for _, it := range items {
				if s, ok := it.(string); ok {
					out = append(out, k.word+": "+s)
				}
			}
		case []string:
			for _, s := range items {
				out = append(out, k.word+": "+s)
			}
		}
	}
	return out
}

// evidenceText is a decision's evidence on one line, cut short.
func evidenceText(ev map[string]any) string {
	if len(ev) == 0 {
		return ""
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return ""
	}
	const most = 120
	if s := string(b); len([]rune(s)) > most {
		return string([]rune(s)[:most]) + "…"
	}
	return string(b)
}
