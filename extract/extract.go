// Package extract is the extract stage: it runs the frontend of each mined file's
// language (package frontends) over it and writes the request functions found, with
// a decision for each file and each function, resumable file by file.
package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"time"

	"sccg/internal/progress"
	"sccg/lang"
	"sccg/lang/frontends"
	"sccg/store"
)

// Stage is the name extract's runs, decisions and work units are recorded under.
const Stage = "extract"

// File-level decision reasons.
const (
	ReasonBinary     = "binary file"
	ReasonTimeout    = "parse timeout"
	ReasonPanic      = "extractor panic"
	ReasonUnreadable = "content unavailable"
	ReasonNoRequest  = "no request function"
	ReasonFunctions  = "request functions found"
	ReasonLatin1     = "decoded as latin-1 (not valid UTF-8)"
	ReasonTooLarge   = "too large to extract"
	ReasonFunctionOK = "request function"
	// ReasonNoFrontend rejects a file of no language sccg reads.
	ReasonNoFrontend = "no frontend reads this language"
	// ReasonPythonSyntax rejects a function that tree-sitter parses but the
	// evaluator's interpreter cannot compile (a PEP 701 f-string under 3.11): it
	// could never run in the sandbox. Other languages' checkers reject with
	// ReasonSyntaxCheck.
	ReasonPythonSyntax = "the evaluator's Python cannot compile it"
	ReasonSyntaxCheck  = "the evaluator's syntax check rejects it"
	DefaultTimeout     = 20 * time.Second
	DefaultMaxBytes    = 8 << 20
	defaultQueueDepth  = 8
)

// Options configures an extract run. The zero value of every field means its default.
type Options struct {
	// Workers is how many files are parsed at once; 0 means GOMAXPROCS.
	Workers int
	// Timeout bounds the work on one file (0: DefaultTimeout).
	Timeout time.Duration
	// MaxBytes skips larger files with a recorded decision (0: DefaultMaxBytes): a
	// parse tree costs about 100 times the source in memory.
	MaxBytes int64
	// Refresh forgets which files were done and extracts every file again.
	Refresh bool
	// Progress receives one unit per file; nil means none.
	Progress progress.Counter
	// Logf, when set, receives one line per failed file.
	Logf func(format string, args ...any)
	// Python is the interpreter that judges each Python candidate's syntax, the one
	// the evaluator runs ("" means python3 on PATH).
	Python string

	runID int64 // the run Run records, for decisions and done units
	// checkers are the running syntax checkers by language; a language without
	// one could not start it (its candidates are counted unchecked)
	checkers map[lang.Name]lang.Checker
	// extract replaces the frontends' Extract in tests (to inject panics and hangs).
	extract func(ctx context.Context, path string, content []byte, opts lang.ExtractOptions) (*lang.Result, error)
}

// Stats counts what a run did.
type Stats struct {
	Files      int   `json:"files"`      // files extracted in this run
	Skipped    int   `json:"skipped"`    // files already done by an earlier run
	Bytes      int64 `json:"bytes"`      // bytes of the files extracted
	Candidates int   `json:"candidates"` // functions kept as candidates
	Rejected   int   `json:"rejected"`   // functions rejected (with their reason)
	NoRequest  int   `json:"no_request"` // files without any request function
	Failed     int   `json:"failed"`     // files that timed out, panicked or had no content
	Binary     int   `json:"binary"`
	TooLarge   int   `json:"too_large"`
	Latin1     int   `json:"latin1"`
	// NoFrontend counts files of no language sccg reads.
	NoFrontend int `json:"no_frontend,omitempty"`
	// Syntax is, per language, what its syntax checker judged.
	Syntax map[lang.Name]*SyntaxStats `json:"syntax,omitempty"`
}

// SyntaxStats are one language's syntax judgements in a run.
type SyntaxStats struct {
	// Tool and Version name the checker ("Python", "3.11.7"); empty when none
	// could start.
	Tool    string `json:"tool,omitempty"`
	Version string `json:"version,omitempty"`
	// Rejected counts candidates the checker rejects, and Unchecked those it did
	// not judge (it could not start, or it failed).
	Rejected  int `json:"rejected"`
	Unchecked int `json:"unchecked"`
}

// syntax returns the judgements of language n, made on first use.
func (s *Stats) syntax(n lang.Name) *SyntaxStats {
	if s.Syntax == nil {
		s.Syntax = map[lang.Name]*SyntaxStats{}
	}
	if s.Syntax[n] == nil {
		s.Syntax[n] = &SyntaxStats{}
	}
	return s.Syntax[n]
}

// Counts is s as the named counters a store run keeps.
func (s *Stats) Counts() map[string]int64 {
	c := map[string]int64{"files": int64(s.Files), "skipped": int64(s.Skipped), "bytes": s.Bytes,
		"candidates": int64(s.Candidates), "rejected": int64(s.Rejected), "no_request": int64(s.NoRequest),
		"failed": int64(s.Failed), "binary": int64(s.Binary), "latin1": int64(s.Latin1),
		"too_large": int64(s.TooLarge), "no_frontend": int64(s.NoFrontend)}
	for n, ss := range s.Syntax {
		c[string(n)+"_rejected"], c[string(n)+"_unchecked"] = int64(ss.Rejected), int64(ss.Unchecked)
	}
	return c
}

// Unit is the work unit name of a file.
func Unit(fileID int64) string { return store.FileUnit(fileID) }

// errTooLarge marks a file skipped for its size, errNoFrontend one of no language
// sccg reads.
var (
	errTooLarge   = errors.New(ReasonTooLarge)
	errNoFrontend = errors.New(ReasonNoFrontend)
)

// outcome is one file's extraction, handed from a worker to the writer.
type outcome struct {
	idx  int
	file store.File
	size int64
	res  *lang.Result
	err  error
}

// Run extracts the request functions of every mined file not yet done. Each file's
// functions, decisions and done-mark commit in one transaction, so a killed run
// resumes where it stopped. A file that panics, times out or is binary is recorded
// and skipped; it never stops the run.
//
// Run records itself as one run of the extract stage, with its resolved options.
func Run(ctx context.Context, st *store.Store, opts Options) (*Stats, error) {
	opts = opts.withDefaults()
	return store.RecordRun(ctx, st, Stage, opts.RunArgs(), func(runID int64) (*Stats, error) {
		opts.runID = runID
		return run(ctx, st, opts)
	})
}

// withDefaults resolves every default, so a run records what it really used.
func (opts Options) withDefaults() Options {
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Progress == nil {
		opts.Progress = progress.Nop
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	if opts.extract == nil {
		opts.extract = extractWithFrontend
	}
	return opts
}

// RunArgs are the resolved options as a run records them.
func (opts Options) RunArgs() map[string]any {
	opts = opts.withDefaults()
	python := opts.Python
	if python == "" {
		python = "python3"
	}
	return map[string]any{"workers": opts.Workers, "timeout": opts.Timeout.String(), "max_bytes": opts.MaxBytes,
		"refresh": opts.Refresh, "python": python}
}

func run(ctx context.Context, st *store.Store, opts Options) (*Stats, error) {
	if opts.Refresh {
		if err := st.Update(ctx, func(tx *store.Tx) error { return tx.ResetStage(ctx, Stage) }); err != nil {
			return nil, fmt.Errorf("extract: reset: %w", err)
		}
	}
	files, err := st.Files(ctx)
	if err != nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	done, err := st.DoneUnits(ctx, Stage)
	if err != nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	stats := &Stats{}
	var queue []store.File
	for _, f := range files {
		if done[Unit(f.ID)] {
			stats.Skipped++
			continue
		}
		queue = append(queue, f)
	}
	opts.checkers = map[lang.Name]lang.Checker{}
	for _, f := range queue {
		fe, n, _, ok := frontends.ForPath(f.Path)
		if !ok || stats.Syntax[n.Family()] != nil {
			continue
		}
		ss := stats.syntax(n.Family())
		tool := ""
		if n.Family() == lang.Python {
			tool = opts.Python
		}
		c, err := fe.NewChecker(ctx, tool)
		if err != nil {
			opts.Logf("extract: no syntax checker for %s, its candidates are not checked: %v", n.Family(), err)
			continue
		}
		defer c.Close()
		opts.checkers[n.Family()], ss.Tool, ss.Version = c, c.Tool(), c.Version()
	}
	opts.Progress.SetTotal(int64(len(queue)))
	defer opts.Progress.Done()

	repos := &repoCache{st: st, m: map[int64]*store.Repository{}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	results := make(chan outcome, defaultQueueDepth)
	var wg sync.WaitGroup
	for i := 0; i < opts.Workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				o := extractFile(ctx, st, repos, queue[i], opts)
				o.idx = i
				results <- o
			}
		}()
	}
	// window bounds how far extraction may run ahead of the in-order writer, so
	// one slow file does not make the finished ones pile up in memory
	window := make(chan struct{}, 4*opts.Workers)
	go func() {
		defer close(jobs)
		for i := range queue {
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	// Outcomes are saved in file order whatever order the workers finish in, so
	// row ids do not depend on scheduling and a resumed run matches an
	// uninterrupted one.
	var werr error
	pending := map[int]outcome{}
	next := 0
	for o := range results {
		if werr != nil {
			continue // drain
		}
		pending[o.idx] = o
		for {
			o, ok := pending[next]
			if !ok || werr != nil {
				break
			}
			delete(pending, next)
			next++
			<-window
			if err := ctx.Err(); err != nil {
				werr = err
			} else if o.err != nil && errors.Is(o.err, context.Canceled) {
				werr = o.err
			} else if err := save(ctx, st, o, opts, stats); err != nil {
				werr = err
			} else {
				opts.Progress.Add(1)
			}
			if werr != nil {
				cancel()
			}
		}
	}
	if werr == nil && next < len(queue) {
		// The workers stopped before every file was saved: only cancellation does
		// that, and a cancelled run must not report success.
		werr = ctx.Err()
		if werr == nil {
			werr = fmt.Errorf("stopped after %d of %d files", next, len(queue))
		}
	}
	if werr != nil {
		return stats, fmt.Errorf("extract: %w", werr)
	}
	return stats, nil
}

// repoCache reads each repository once, for its stars and forks and the paths of
// its files.
type repoCache struct {
	st    *store.Store
	mu    sync.Mutex
	m     map[int64]*store.Repository
	paths map[int64][]string
}

// pathsOf returns the files known of a repository.
func (c *repoCache) pathsOf(ctx context.Context, id int64) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ps, ok := c.paths[id]; ok {
		return ps, nil
	}
	ps, err := c.st.RepoPaths(ctx, id)
	if err != nil {
		return nil, err
	}
	if c.paths == nil {
		c.paths = map[int64][]string{}
	}
	c.paths[id] = ps
	return ps, nil
}

func (c *repoCache) get(ctx context.Context, id int64) *store.Repository {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.m[id]; ok {
		return r
	}
	r, err := c.st.Repository(ctx, id)
	if err != nil {
		r = nil
	}
	c.m[id] = r
	return r
}

// extractFile reads and extracts one file; a panic is turned into an error.
func extractFile(ctx context.Context, st *store.Store, repos *repoCache, f store.File, opts Options) (o outcome) {
	o.file = f
	defer func() {
		if r := recover(); r != nil {
			o.res, o.err = nil, fmt.Errorf("%s: %v", ReasonPanic, r)
		}
	}()
	if f.Size > opts.MaxBytes {
		o.size = f.Size
		o.err = errTooLarge
		return o
	}
	content, err := st.FileContent(ctx, &f)
	if err != nil {
		if ctx.Err() != nil {
			o.err = ctx.Err()
			return o
		}
		o.err = fmt.Errorf("%s: %w", ReasonUnreadable, err)
		return o
	}
	o.size = int64(len(content))
	if o.size > opts.MaxBytes {
		o.err = errTooLarge
		return o
	}
	xopts := lang.ExtractOptions{Timeout: opts.Timeout}
	if r := repos.get(ctx, f.RepoID); r != nil {
		xopts.Stars, xopts.Forks = r.Stars, r.Forks
	}
	paths, err := repos.pathsOf(ctx, f.RepoID)
	if err != nil {
		o.err = fmt.Errorf("%s: %w", ReasonUnreadable, err)
		return o
	}
	xopts.RepoPaths = sameLanguage(f.Path, paths)
	o.res, o.err = opts.extract(ctx, f.Path, content, xopts)
	if o.err != nil && ctx.Err() != nil {
		o.err = ctx.Err()
	}
	return o
}

// save writes one file's outcome, its decisions and its done-mark in one transaction.
func save(ctx context.Context, st *store.Store, o outcome, opts Options, stats *Stats) error {
	subject := strconv.FormatInt(o.file.ID, 10)
	fileDecision := store.Decision{RunID: opts.runID, Stage: Stage, SubjectKind: "file", Subject: subject,
		Evidence: map[string]any{"path": o.file.Path, "bytes": o.size}}
	var fns []store.Function
	switch {
	case o.err == nil:
		for _, f := range o.res.Functions {
			if err := judgeSyntax(ctx, &f, opts, stats); err != nil {
				return err
			}
			sf, err := toStore(f)
			if err != nil {
				return fmt.Errorf("file %d %s: %w", o.file.ID, o.file.Path, err)
			}
			fns = append(fns, sf)
		}
		fileDecision.Evidence["syntax_ok"] = o.res.SyntaxOK
		if len(o.res.SyntaxErrors) > 0 {
			fileDecision.Evidence["syntax_error_lines"] = o.res.SyntaxErrors
		}
		if len(fns) == 0 {
			fileDecision.Verdict, fileDecision.Reason = store.Rejected, ReasonNoRequest
		} else {
			fileDecision.Verdict, fileDecision.Reason = store.Kept, ReasonFunctions
			fileDecision.Evidence["functions"] = len(fns)
		}
	case errors.Is(o.err, lang.ErrBinary):
		fileDecision.Verdict, fileDecision.Reason = store.Rejected, ReasonBinary
	case errors.Is(o.err, errTooLarge):
		fileDecision.Verdict, fileDecision.Reason = store.Rejected, ReasonTooLarge
		fileDecision.Evidence["max_bytes"] = opts.MaxBytes
	case errors.Is(o.err, errNoFrontend):
		fileDecision.Verdict, fileDecision.Reason = store.Rejected, ReasonNoFrontend
	case errors.Is(o.err, lang.ErrTimeout) || errors.Is(o.err, context.DeadlineExceeded):
		fileDecision.Verdict, fileDecision.Reason = store.Failed, ReasonTimeout
		fileDecision.Evidence["error"] = o.err.Error()
	default:
		reason := ReasonPanic
		if errors.Is(o.err, store.ErrNotFound) {
			reason = ReasonUnreadable
		}
		fileDecision.Verdict, fileDecision.Reason = store.Failed, reason
		fileDecision.Evidence["error"] = o.err.Error()
	}
	err := st.Update(ctx, func(tx *store.Tx) error {
		// a file that could not be extracted this time keeps what an earlier run
		// found; one that was extracted gets exactly what was found
		if o.err == nil || errors.Is(o.err, lang.ErrBinary) {
			if err := tx.SaveFunctions(ctx, o.file.ID, fns); err != nil {
				return err
			}
		}
		if o.res != nil && o.res.Encoding == "latin-1" {
			if err := tx.RecordDecision(ctx, store.Decision{RunID: opts.runID, Stage: Stage, SubjectKind: "file",
				Subject: subject, Verdict: store.Changed, Reason: ReasonLatin1, Evidence: map[string]any{"path": o.file.Path}}); err != nil {
				return err
			}
		}
		if err := tx.RecordDecision(ctx, fileDecision); err != nil {
			return err
		}
		for _, f := range fns {
			d := store.Decision{RunID: opts.runID, Stage: Stage, SubjectKind: "function", Subject: strconv.FormatInt(f.ID, 10),
				Evidence: map[string]any{"file_id": o.file.ID, "qualname": f.QualName, "start_line": f.StartLine, "quality": f.Quality}}
			if f.Status == store.FunctionCandidate {
				d.Verdict, d.Reason = store.Kept, ReasonFunctionOK
			} else {
				d.Verdict, d.Reason = store.Rejected, f.RejectReason
			}
			if err := tx.RecordDecision(ctx, d); err != nil {
				return err
			}
		}
		return tx.MarkDone(ctx, Stage, Unit(o.file.ID), opts.runID)
	})
	if err != nil {
		return fmt.Errorf("save file %d %s: %w", o.file.ID, o.file.Path, err)
	}
	stats.Files++
	stats.Bytes += o.size
	switch {
	case o.err != nil && errors.Is(o.err, lang.ErrBinary):
		stats.Binary++
	case o.err != nil && errors.Is(o.err, errTooLarge):
		stats.TooLarge++
	case o.err != nil && errors.Is(o.err, errNoFrontend):
		stats.NoFrontend++
	case o.err != nil:
		stats.Failed++
		opts.Logf("extract: file %d %s: %v", o.file.ID, o.file.Path, o.err)
	case len(fns) == 0:
		stats.NoRequest++
	}
	if o.res != nil && o.res.Encoding == "latin-1" {
		stats.Latin1++
	}
	for _, f := range fns {
		if f.Status == store.FunctionCandidate {
			stats.Candidates++
		} else {
			stats.Rejected++
		}
	}
	return nil
}

// judgeSyntax has the evaluator's syntax checker of the function's language judge
// a candidate's extracted code and rejects it when that fails; the verdict, with
// the checker's version, goes into its facts. A candidate no checker could judge
// stays a candidate, counted unchecked.
func judgeSyntax(ctx context.Context, f *lang.Function, opts Options, stats *Stats) error {
	if f.Status != lang.StatusCandidate {
		return nil
	}
	n := lang.Of(string(f.Facts.Language))
	ss := stats.syntax(n.Family())
	c := opts.checkers[n.Family()]
	if c == nil {
		ss.Unchecked++
		return nil
	}
	r, err := c.Check(ctx, f.Facts.Dialect, f.Code)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		ss.Unchecked++
		opts.Logf("extract: %s: %v", f.QualName, err)
		return nil
	}
	f.Facts.Check = &r
	if !r.OK {
		ss.Rejected++
		f.Facts.Quality.Checks.IsSyntacticallyValid = false
		f.Status = lang.StatusRejected
		reason := ReasonSyntaxCheck
		if n.Family() == lang.Python {
			reason = ReasonPythonSyntax
		}
		f.RejectReason = fmt.Sprintf("%s (%s %s: %s, line %d)", reason, c.Tool(), c.Version(), r.Error, r.Line)
	}
	return nil
}

// extractWithFrontend runs the frontend of the file's language.
func extractWithFrontend(ctx context.Context, path string, content []byte, opts lang.ExtractOptions) (*lang.Result, error) {
	fe, _, _, ok := frontends.ForPath(path)
	if !ok {
		return nil, errNoFrontend
	}
	return fe.Extract(ctx, path, content, opts)
}

// toStore converts a frontend's function into the store's record.
func toStore(f lang.Function) (store.Function, error) {
	facts, err := json.Marshal(f.Facts)
	if err != nil {
		return store.Function{}, fmt.Errorf("encode facts of %s: %w", f.QualName, err)
	}
	return store.Function{
		Name: f.Name, QualName: f.QualName, ClassName: f.ClassName,
		StartLine: f.StartLine, EndLine: f.EndLine, IsAsync: f.IsAsync,
		Source: f.Source, Code: f.Code, CodeHash: f.CodeHash, SyntaxOK: f.Facts.SyntaxOK,
		Status: f.Status, RejectReason: f.RejectReason,
		Quality: f.Facts.Quality.Score, QualityComponents: f.Facts.Quality.Components,
		Facts: facts,
	}, nil
}

// sameLanguage keeps the paths of files the frontend of the file at p reads (a
// repository's tree holds every language's files; a frontend is told of its own).
func sameLanguage(p string, paths []string) []string {
	n, _, ok := lang.ForPath(p)
	if !ok {
		return nil
	}
	var out []string
	for _, q := range paths {
		if m, _, ok := lang.ForPath(q); ok && m.Family() == n.Family() {
			out = append(out, q)
		}
	}
	return out
}
