// Package pipeline runs every stage of the benchmark build in order into one store:
// crawl (or documentation import), mine (GitHub or local repositories), extract,
// align, decontam, redact, sample building, split and export. Each stage is
// resumable on its own, so running Build again after an interruption resumes.
package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"sccg/align"
	"sccg/crawl"
	"sccg/decontam"
	"sccg/extract"
	"sccg/internal/progress"
	"sccg/mine"
	"sccg/redact"
	"sccg/release"
	"sccg/samples"
	"sccg/split"
	"sccg/store"
)

// Options configure Build. Stage options pass through to the stage packages; their
// RunID and Progress fields are set by Build.
type Options struct {
	// Docs are OpenAPI or ToolBench files or folders imported instead of crawling
	// the RapidAPI Hub; empty means crawl with Crawl.
	Docs []string
	// Local is a directory of repositories mined instead of searching GitHub;
	// empty means search with Mine.
	Local string

	Crawl    crawl.Options
	Mine     mine.Options
	Extract  extract.Options
	Align    align.Options
	Decontam decontam.Options
	Redact   redact.Options
	Split    split.Options

	// Out, when set, is where the benchmark is exported at the end, in Format.
	Out    string
	Format release.Format

	// Progress makes one counter per stage; nil shows nothing.
	Progress *progress.Reporter
	// Logf receives one line as each stage starts and ends; nil discards them.
	Logf func(format string, args ...any)
	// Now times the stages; nil means time.Now.
	Now func() time.Time
	// StageDone, when set, is called as each stage ends (after its Logf line),
	// failed or not, so a caller can show what the stage's runs decided.
	StageDone func(StageResult)
}

// Stage statuses in a Summary.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
)

// StageResult is what one stage did.
type StageResult struct {
	Stage   string           `json:"stage"`
	Status  string           `json:"status"`
	Counts  map[string]int64 `json:"counts,omitempty"`
	Note    string           `json:"note,omitempty"`
	Elapsed time.Duration    `json:"elapsed_ns"`
}

// Summary is the outcome of a build.
type Summary struct {
	Stages  []StageResult  `json:"stages"`
	Samples int            `json:"samples"`
	Splits  map[string]int `json:"splits"`
	// IntentPaths counts the samples' comments by the path that made them
	// (original, llm, llm_retry, offline, fallback, dropped).
	IntentPaths map[string]int        `json:"intent_paths,omitempty"`
	Export      *samples.ExportResult `json:"export,omitempty"`
	// LeftOut counts the samples a time cutoff left out of every split, by reason.
	LeftOut map[string]int `json:"left_out,omitempty"`
}

// Stages lists the stages Build runs, in order.
var Stages = []string{crawl.Stage, mine.Stage, extract.Stage, align.Stage, decontam.Stage, redact.Stage, samples.Stage, split.Stage, samples.ExportStage}

// Build runs every stage in order into s and returns what each did. It stops at
// the first stage that fails; running it again resumes from the stages' done
// units.
func Build(ctx context.Context, s *store.Store, o Options) (*Summary, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	counter := func(name string) progress.Counter {
		if o.Progress == nil {
			return progress.Nop
		}
		return o.Progress.Start(name, 0)
	}
	sum := &Summary{Splits: map[string]int{}}
	steps := []struct {
		name string
		run  func(context.Context, *StageResult) error
	}{
		{crawl.Stage, func(ctx context.Context, r *StageResult) error { return runCrawl(ctx, s, &o, r, counter) }},
		{mine.Stage, func(ctx context.Context, r *StageResult) error {
			opt := o.Mine
			if o.Local != "" {
				res, err := mine.MineLocal(ctx, s, o.Local, opt)
				return counted(r, res, err)
			}
			res, err := mine.Mine(ctx, s, opt)
			return counted(r, res, err)
		}},
		{extract.Stage, func(ctx context.Context, r *StageResult) error {
			opt := o.Extract
			opt.Progress = counter(extract.Stage)
			res, err := extract.Run(ctx, s, opt)
			return counted(r, res, err)
		}},
		{align.Stage, func(ctx context.Context, r *StageResult) error {
			opt := o.Align
			opt.Progress = counter(align.Stage)
			res, err := align.Run(ctx, s, opt)
			return counted(r, res, err)
		}},
		{decontam.Stage, func(ctx context.Context, r *StageResult) error {
			opt := o.Decontam
			opt.Progress = counter(decontam.Stage)
			res, err := decontam.Run(ctx, s, opt)
			return counted(r, res, err)
		}},
		{redact.Stage, func(ctx context.Context, r *StageResult) error {
			opt := o.Redact
			opt.Progress = counter(redact.Stage)
			res, err := redact.Run(ctx, s, opt)
			if res != nil {
				sum.IntentPaths = res.Paths
			}
			return counted(r, res, err)
		}},
		{samples.Stage, func(ctx context.Context, r *StageResult) error {
			res, err := samples.Build(ctx, s)
			return counted(r, res, err)
		}},
		{split.Stage, func(ctx context.Context, r *StageResult) error {
			p, err := split.Run(ctx, s, o.Split)
			if err != nil {
				return err
			}
			for _, sr := range p.Report.Splits {
				sum.Splits[sr.Name] = sr.Samples
			}
			sum.Samples = p.Report.Samples
			r.Counts = p.Counts()
			if w := p.Report.Within; w != nil {
				r.Note = fmt.Sprintf("%d families for %d splits: placed %d groups, splitting providers' APIs", w.Families, w.Splits, w.Units)
			}
			if c := p.Report.TimeCutoff; c != "" {
				n := 0
				for _, v := range p.Report.LeftOut {
					n += v
				}
				r.Note = strings.TrimPrefix(r.Note+fmt.Sprintf("; time cutoff %s: test holds only samples authored on or after it, %d of its APIs' older or undated samples left out", c, n), "; ")
				sum.LeftOut = p.Report.LeftOut
			}
			for _, w := range p.Report.Warnings { // each is also a decision, in --json's rejections
				logf("warning: %s", w)
			}
			return nil
		}},
		{samples.ExportStage, func(ctx context.Context, r *StageResult) error {
			if o.Out == "" {
				r.Note = "no output directory given (sccg export --out DIR writes it)"
				return nil
			}
			res, err := samples.Export(ctx, s, o.Out, o.Format)
			if err != nil {
				return err
			}
			sum.Export = res
			r.Counts = map[string]int64{}
			for f, n := range res.Count {
				r.Counts[f] = int64(n)
			}
			r.Note = "wrote " + o.Out
			return nil
		}},
	}
	for i, st := range steps {
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		logf("[%d/%d] %s", i+1, len(steps), st.name)
		r := StageResult{Stage: st.name, Status: StatusOK}
		start := o.Now()
		err := st.run(ctx, &r)
		r.Elapsed = o.Now().Sub(start)
		if err != nil {
			r.Status, r.Note = StatusFailed, err.Error()
			sum.Stages = append(sum.Stages, r)
			if o.StageDone != nil {
				o.StageDone(r)
			}
			return sum, fmt.Errorf("build: %s: %w", st.name, err)
		}
		sum.Stages = append(sum.Stages, r)
		logf("[%d/%d] %s %s %s", i+1, len(steps), st.name, r.Status, formatCounts(r.Counts))
		if r.Note != "" && st.name != "export" {
			logf("[%d/%d] %s: %s", i+1, len(steps), st.name, r.Note)
		}
		if o.StageDone != nil {
			o.StageDone(r)
		}
	}
	return sum, nil
}

// redoer is a stage result that can say what its run did again and why.
type redoer interface{ Redid() string }

// counted keeps what a stage (which records its own run) counted in its result,
// and what it redid as the stage's note.
func counted[T any, P store.CountedPtr[T]](r *StageResult, res P, err error) error {
	if res != nil {
		r.Counts = res.Counts()
		if rd, ok := any(res).(redoer); ok {
			r.Note = rd.Redid()
		}
	}
	return err
}

func formatCounts(c map[string]int64) string {
	parts := make([]string, 0, len(c))
	for _, k := range slices.Sorted(maps.Keys(c)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, c[k]))
	}
	return strings.Join(parts, " ")
}

// runCrawl imports the documentation files (sorted into OpenAPI and ToolBench) or
// crawls the RapidAPI Hub.
func runCrawl(ctx context.Context, s *store.Store, o *Options, r *StageResult, counter func(string) progress.Counter) error {
	var runs []crawl.Options
	if len(o.Docs) == 0 {
		opt := o.Crawl
		opt.Source = crawl.SourceRapidAPI
		runs = append(runs, opt)
	} else {
		openapi, toolbench, err := ClassifyDocs(o.Docs)
		if err != nil {
			return err
		}
		if len(openapi)+len(toolbench) == 0 {
			return fmt.Errorf("no OpenAPI or ToolBench files under %s", strings.Join(o.Docs, ", "))
		}
		for _, set := range []struct {
			source string
			paths  []string
		}{{crawl.SourceOpenAPI, openapi}, {crawl.SourceToolBench, toolbench}} {
			if len(set.paths) > 0 {
				opt := o.Crawl
				opt.Source, opt.Paths, opt.Roots = set.source, set.paths, o.Docs
				runs = append(runs, opt)
			}
		}
	}
	r.Counts = map[string]int64{}
	for _, opt := range runs {
		opt.Progress = counter(crawl.Stage + " " + opt.Source)
		sum, err := crawl.Run(ctx, s, opt)
		if sum != nil {
			for k, v := range map[string]int{"targets": sum.Targets, "saved": sum.Saved, "skipped": sum.Skipped,
				"endpoints": sum.Endpoints, "bad": sum.Bad, "warnings": sum.Warnings,
				"reimported": sum.Reimported, "removed": sum.Removed} {
				r.Counts[k] += int64(v)
			}
		}
		if err != nil && !(errors.Is(err, crawl.ErrNothingCrawled) && sum != nil && sum.Skipped > 0) {
			return err
		}
	}
	var redid []string
	if n := r.Counts["reimported"]; n > 0 {
		redid = append(redid, fmt.Sprintf("imported %d changed description(s) again", n))
	}
	if n := r.Counts["removed"]; n > 0 {
		redid = append(redid, fmt.Sprintf("removed %d API(s) whose description is gone or changed", n))
	}
	r.Note = strings.Join(redid, "; ")
	return nil
}

// ClassifyDocs walks paths (files or folders) and sorts the documentation files
// in them into OpenAPI documents and ToolBench tool files, each list sorted.
func ClassifyDocs(paths []string) (openapi, toolbench []string, err error) {
	add := func(p string) error {
		ext := strings.ToLower(filepath.Ext(p))
		if ext != ".json" && ext != ".yaml" && ext != ".yml" {
			return nil
		}
		if ext == ".json" {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			var probe map[string]json.RawMessage
			if json.Unmarshal(b, &probe) == nil {
				_, list := probe["api_list"]
				_, name := probe["tool_name"]
				if list || name {
					toolbench = append(toolbench, p)
					return nil
				}
			}
		}
		openapi = append(openapi, p)
		return nil
	}
	for _, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			return nil, nil, fmt.Errorf("docs: %w", err)
		}
		if !info.IsDir() {
			if err := add(root); err != nil {
				return nil, nil, fmt.Errorf("docs: %w", err)
			}
			continue
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			return add(p)
		})
		if err != nil {
			return nil, nil, fmt.Errorf("docs %s: %w", root, err)
		}
	}
	sort.Strings(openapi)
	sort.Strings(toolbench)
	return openapi, toolbench, nil
}
