package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"sccg/evaluate"
	"sccg/evaluate/realcall"
	"sccg/evaluate/retrieve"
	"sccg/release"
	"sccg/store"
)

// Inputs name what a report is made from.
type Inputs struct {
	// Paths are eval output directories, experiment grid directories, export
	// directories, summary.json / results.jsonl / grid.json / stats.json files,
	// retrieval reports (`sccg retrieve --out`), or directories holding any of these
	// one level down (a demo's output directory).
	Paths []string
	// Bench is the benchmark in the release format (a file, or an export directory);
	// default: the sccgbench.json of an export among Paths, else a grid's bench.
	Bench string
	// Stats is an export's stats.json; default: the one beside Bench, else one
	// among Paths.
	Stats string
	// Generations are generations JSONL files whose completions the sample pages
	// show, besides the generations.jsonl found in result directories.
	Generations []string
}

// Data is everything a report is made from, as read.
type Data struct {
	Sets      []*ResultSet
	Grids     []*Grid
	Retrieval []*RetrievalReport
	RealCalls []*RealCallReport // live `sccg realcall` reports
	Stats     *release.Stats
	StatsPath string
	Bench     []release.Record
	BenchPath string
	// Diff is what changed between the first and the last release among the
	// inputs, when they name two or more (export directories, release files).
	Diff *release.Diff
	// Problems are what could not be read, each naming the input and what is wrong;
	// the report is made from the rest.
	Problems []string

	completions map[genKey]string
	seen        map[string]bool // absolute paths already read
}

// ResultSet is one evaluation's output: a summary and, when results.jsonl was
// there, every scored completion.
type ResultSet struct {
	Name    string // the path as given, or the grid cell's id
	Dir     string
	Summary evaluate.Summary
	Results []evaluate.Result // nil without results.jsonl
	Grid    *Grid             // the grid this set is a cell of
	// FromResults says the summary was computed from results.jsonl (there was no
	// summary.json).
	FromResults bool
}

// Grid is an experiment grid as its grid.json describes it.
type Grid struct {
	Dir   string
	Index GridIndex
}

// GridIndex is what the report reads of a grid.json (`sccg experiment`): the
// settings in the order the grid lists them, its cells (each with its results
// directory, relative to the grid's directory), the statistics tests of its summary
// and its notes. Other fields are ignored; missing ones are empty.
type GridIndex struct {
	Grid struct {
		Settings []string `json:"settings"`
	} `json:"grid"`
	Bench   string     `json:"bench"`
	Split   string     `json:"split"`
	Samples int        `json:"samples"`
	Cells   []GridCell `json:"cells"`
	Tests   []GridTest `json:"tests"`
	Notes   []string   `json:"notes"`
}

// GridCell is one (setting, model) of a grid.
type GridCell struct {
	ID      string `json:"id"`
	Setting string `json:"setting"`
	Model   string `json:"model"`
	Kind    string `json:"kind"` // model | baseline
	Dir     string `json:"dir"`
	// Selection is the cell's outcome on the endpoint-selection task, whose cells
	// have no results.jsonl.
	Selection *GridSelection `json:"selection"`
}

// GridSelection is a cell's Top-1 and Top-3 on the endpoint-selection task.
type GridSelection struct {
	N         int     `json:"n"`
	Top1      float64 `json:"top1"`
	Top3      float64 `json:"top3"`
	Unparsed  int     `json:"unparsed"`
	MeanCands float64 `json:"mean_candidates"`
}

// GridTest is one of a grid's statistics tests: temporal, comment_source (group-wise)
// or contamination (paired), between A and B of one cell.
type GridTest struct {
	Kind        string                `json:"kind"`
	Model       string                `json:"model"`
	Cell        string                `json:"cell"`
	A           string                `json:"a"`
	B           string                `json:"b"`
	Comparisons []evaluate.Comparison `json:"comparisons"`
	Note        string                `json:"note"`
}

// retrievalFile is `sccg retrieve --out`: one report per retriever.
type retrievalFile struct {
	Reports []*retrieve.Report `json:"reports"`
}

// RetrievalReport is one retriever's report, as read from its file.
type RetrievalReport struct {
	*retrieve.Report
	Name string // the retriever, told apart from a namesake by its file
	Path string
}

type genKey struct {
	setting, model, sample string
	index                  int
}

// Load reads every input. A path that does not exist, or holds nothing a report
// reads, is an error; a file that cannot be decoded is a problem the report
// lists, and the rest is read.
func Load(ctx context.Context, in Inputs) (*Data, error) {
	d := &Data{completions: map[genKey]string{}, seen: map[string]bool{}}
	var benchCands, statsCands []string
	for _, p := range in.Paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		found, err := d.readPath(p, 0, &benchCands, &statsCands)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("report: %s holds nothing a report reads (summary.json, results.jsonl, grid.json, stats.json, a retrieval report), nor do its subdirectories", p)
		}
	}
	if err := d.readReleases(benchCands); err != nil {
		return nil, err
	}
	for _, g := range d.Grids {
		if b := g.Index.Bench; b != "" {
			if !filepath.IsAbs(b) {
				benchCands = append(benchCands, filepath.Join(g.Dir, b))
			}
			benchCands = append(benchCands, b)
		}
	}
	if err := d.readBench(in.Bench, benchCands); err != nil {
		return nil, err
	}
	if err := d.readStatsFor(in.Stats, statsCands); err != nil {
		return nil, err
	}
	for _, p := range in.Generations {
		if err := d.readGenerations(p, true); err != nil {
			return nil, err
		}
	}
	d.nameRetrievers()
	return d, nil
}

// readPath reads one input path; depth is how far below a given path it is.
func (d *Data) readPath(p string, depth int, benchCands, statsCands *[]string) (bool, error) {
	st, err := os.Stat(p)
	if err != nil {
		return false, fmt.Errorf("report: %w", err)
	}
	if !st.IsDir() {
		return true, d.readFile(p, benchCands, statsCands)
	}
	if isFile(filepath.Join(p, "grid.json")) {
		d.readGrid(p)
		return true, nil
	}
	// An eval output or export directory is read as one; any other directory
	// (a demo's output) is looked into, one level down.
	own := false
	if isFile(filepath.Join(p, "summary.json")) || isFile(filepath.Join(p, "results.jsonl")) {
		d.readEvalDir(p, p, nil)
		own = true
	}
	if s := filepath.Join(p, "stats.json"); isFile(s) {
		*statsCands = append(*statsCands, s)
		if b := filepath.Join(p, "sccgbench.json"); isFile(b) {
			*benchCands = append(*benchCands, b)
		}
		own = true
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return false, fmt.Errorf("report: %w", err)
	}
	found := own || d.realCallIn(p)
	for _, e := range entries {
		if name := e.Name(); !e.IsDir() && strings.HasSuffix(name, ".json") && strings.Contains(name, "retriev") {
			d.readRetrieval(filepath.Join(p, name))
			found = true
		}
	}
	if own || depth > 0 {
		return found, nil
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		f, err := d.readPath(filepath.Join(p, e.Name()), depth+1, benchCands, statsCands)
		if err != nil {
			return false, err
		}
		found = found || f
	}
	return found, nil
}

// readFile reads an input named as a file: by its name, else by its content.
func (d *Data) readFile(p string, benchCands, statsCands *[]string) error {
	dir := filepath.Dir(p)
	switch filepath.Base(p) {
	case "grid.json":
		d.readGrid(dir)
		return nil
	case "summary.json", "results.jsonl":
		d.readEvalDir(dir, dir, nil)
		return nil
	case "stats.json":
		*statsCands = append(*statsCands, p)
		return nil
	case "generations.jsonl":
		return d.readGenerations(p, true)
	case realcall.File:
		d.readRealCall(p)
		return nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		*benchCands = append(*benchCands, p)
		return nil
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(b, &keys) != nil {
		return fmt.Errorf("report: %s is neither JSON nor a file a report reads (summary.json, results.jsonl, grid.json, stats.json, generations.jsonl, a retrieval report, a benchmark)", p)
	}
	switch {
	case keys["reports"] != nil || keys["retriever"] != nil:
		d.readRetrieval(p)
	case keys["groups"] != nil:
		d.readSummaryFile(p)
	case keys["total"] != nil && keys["splits"] != nil:
		*statsCands = append(*statsCands, p)
	case keys["cells"] != nil:
		d.readGridFile(p, dir)
	default:
		return fmt.Errorf("report: %s is JSON a report does not read (want an eval summary, a grid index, stats.json or a retrieval report)", p)
	}
	return nil
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

func (d *Data) problemf(format string, a ...any) {
	d.Problems = append(d.Problems, fmt.Sprintf(format, a...))
}

// once reports whether p is read for the first time.
func (d *Data) once(p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = p
	}
	if d.seen[abs] {
		return false
	}
	d.seen[abs] = true
	return true
}

// readEvalDir reads an eval output directory: summary.json, results.jsonl and
// generations.jsonl, each when present.
func (d *Data) readEvalDir(dir, name string, g *Grid) *ResultSet {
	if !d.once(dir) {
		return nil
	}
	rs := &ResultSet{Name: name, Dir: dir, Grid: g}
	haveSummary := false
	if p := filepath.Join(dir, "summary.json"); isFile(p) {
		s, err := evaluate.ReadSummary(p)
		if err != nil {
			d.problemf("%v", err)
		} else {
			rs.Summary, haveSummary = s, true
		}
	}
	if p := filepath.Join(dir, "results.jsonl"); isFile(p) {
		res, err := evaluate.ReadResults(p)
		if err != nil {
			d.problemf("%v; the per-sample detail and the strata tests leave %s out", err, name)
		} else {
			rs.Results = res
			if res == nil {
				rs.Results = []evaluate.Result{}
			}
		}
	}
	switch {
	case !haveSummary && rs.Results == nil:
		d.problemf("%s: neither a readable summary.json nor results.jsonl; left out", dir)
		return nil
	case !haveSummary:
		rs.Summary, rs.FromResults = evaluate.Summarize(rs.Results, nil), true
	}
	if p := filepath.Join(dir, "generations.jsonl"); isFile(p) {
		if err := d.readGenerations(p, false); err != nil {
			d.problemf("%v", err)
		}
	}
	d.Sets = append(d.Sets, rs)
	return rs
}

// readSummaryFile reads a summary JSON not named summary.json: the summary alone.
func (d *Data) readSummaryFile(p string) {
	if !d.once(p) {
		return
	}
	s, err := evaluate.ReadSummary(p)
	if err != nil {
		d.problemf("%v", err)
		return
	}
	d.Sets = append(d.Sets, &ResultSet{Name: p, Dir: filepath.Dir(p), Summary: s})
}

// readGrid reads an experiment grid directory.
func (d *Data) readGrid(dir string) { d.readGridFile(filepath.Join(dir, "grid.json"), dir) }

func (d *Data) readGridFile(p, dir string) {
	if !d.once(p) {
		return
	}
	g := &Grid{Dir: dir}
	b, err := os.ReadFile(p)
	if err == nil {
		err = json.Unmarshal(b, &g.Index)
	}
	if err != nil {
		d.problemf("read grid %s: %v; its cells are found by their summary.json instead", p, err)
	}
	d.Grids = append(d.Grids, g)
	d.seen[mustAbs(dir)] = true // the grid's own summary.json combines its cells
	for _, c := range g.Index.Cells {
		if c.Selection != nil {
			continue // the endpoint-selection task: its scores are in grid.json
		}
		if c.Dir == "" {
			d.problemf("grid %s: cell %s names no results directory", dir, cellName(c))
			continue
		}
		cd := filepath.Join(dir, c.Dir)
		if !isFile(filepath.Join(cd, "summary.json")) && !isFile(filepath.Join(cd, "results.jsonl")) {
			d.problemf("grid %s: cell %s has no results yet (%s)", dir, cellName(c), cd)
			continue
		}
		d.readEvalDir(cd, cellName(c), g)
	}
	// Cells a grid.json does not list (or an unreadable grid.json): every results
	// directory below the grid.
	var found []string
	_ = filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || !e.IsDir() || path == dir {
			return nil
		}
		if isFile(filepath.Join(path, "summary.json")) || isFile(filepath.Join(path, "results.jsonl")) {
			found = append(found, path)
		}
		return nil
	})
	sort.Strings(found)
	for _, path := range found {
		rel, _ := filepath.Rel(dir, path)
		d.readEvalDir(path, filepath.ToSlash(rel), g)
	}
}

func cellName(c GridCell) string {
	if c.ID != "" {
		return c.ID
	}
	return c.Setting + "/" + c.Model
}

func mustAbs(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// readRetrieval reads a retrieval report file: {"reports": [...]}, or one report.
func (d *Data) readRetrieval(p string) {
	if !d.once(p) {
		return
	}
	b, err := os.ReadFile(p)
	if err != nil {
		d.problemf("read retrieval report: %v", err)
		return
	}
	var f retrievalFile
	if err := json.Unmarshal(b, &f); err != nil || f.Reports == nil {
		var one retrieve.Report
		if err2 := json.Unmarshal(b, &one); err2 != nil || one.Retriever == "" {
			d.problemf("read retrieval report %s: not a `sccg retrieve --out` file (want {\"reports\": [...]})", p)
			return
		}
		f.Reports = []*retrieve.Report{&one}
	}
	for _, r := range f.Reports {
		if r == nil || r.Retriever == "" {
			d.problemf("read retrieval report %s: a report without a retriever name; left out", p)
			continue
		}
		d.Retrieval = append(d.Retrieval, &RetrievalReport{Report: r, Path: p})
	}
}

// nameRetrievers tells apart reports of one retriever from different files.
func (d *Data) nameRetrievers() {
	count := map[string]int{}
	for _, r := range d.Retrieval {
		count[r.Retriever]++
	}
	for _, r := range d.Retrieval {
		r.Name = r.Retriever
		if count[r.Retriever] > 1 {
			r.Name = fmt.Sprintf("%s (%s)", r.Retriever, strings.TrimSuffix(filepath.Base(r.Path), ".json"))
		}
	}
}

// readReleases compares the first and the last of the releases the inputs name
// (export directories' sccgbench.json, release files), when there are two.
func (d *Data) readReleases(cands []string) error {
	var paths []string
	for _, c := range cands {
		abs, err := filepath.Abs(c)
		if err != nil {
			abs = c
		}
		if isFile(c) && !slices.Contains(paths, abs) {
			paths = append(paths, abs)
		}
	}
	if len(paths) < 2 {
		return nil
	}
	first, last := paths[0], paths[len(paths)-1]
	oldRecs, err := release.ReadFile(first)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	newRecs, err := release.ReadFile(last)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	d.Diff = release.Compare(oldRecs, newRecs)
	d.Diff.Old, d.Diff.New = first, last
	return nil
}

// readBench reads the benchmark: the one given, else the first candidate that
// exists.
func (d *Data) readBench(given string, cands []string) error {
	path := given
	if path != "" {
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			path = filepath.Join(path, "sccgbench.json")
		}
	} else {
		for _, c := range cands {
			if isFile(c) {
				path = c
				break
			}
		}
	}
	if path == "" {
		return nil
	}
	recs, err := release.ReadFile(path)
	if err != nil {
		if given != "" {
			return fmt.Errorf("report: %w", err)
		}
		d.problemf("%v", err)
		return nil
	}
	d.Bench, d.BenchPath = recs, path
	return nil
}

// readStatsFor reads stats.json: the one given, else the one beside the benchmark
// (or above it, for a split file), else the first candidate.
func (d *Data) readStatsFor(given string, cands []string) error {
	path := given
	if path == "" && d.BenchPath != "" {
		dir := filepath.Dir(d.BenchPath)
		for _, c := range []string{filepath.Join(dir, "stats.json"), filepath.Join(filepath.Dir(dir), "stats.json")} {
			if isFile(c) {
				path = c
				break
			}
		}
	}
	if path == "" && len(cands) > 0 {
		path = cands[0]
	}
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	var st release.Stats
	if err == nil {
		err = json.Unmarshal(b, &st)
	}
	if err == nil && st.Total.Samples == 0 && len(st.Splits) == 0 {
		err = errors.New("no \"total\" figures in it")
	}
	if err != nil {
		err = fmt.Errorf("report: read stats %s: %w", path, err)
		if given != "" {
			return err
		}
		d.problemf("%v", err)
		return nil
	}
	d.Stats, d.StatsPath = &st, path
	return nil
}

// readGenerations reads the completions of a generations file; override says they
// replace completions already read.
func (d *Data) readGenerations(p string, override bool) error {
	gens, problems, err := evaluate.ReadGenerations(p)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	d.Problems = append(d.Problems, problems...)
	for _, g := range gens {
		k := genKey{g.Setting, g.Model, g.SampleID, g.SampleIndex}
		if _, ok := d.completions[k]; ok && !override {
			continue
		}
		d.completions[k] = g.Completion
	}
	return nil
}

// AddStored adds the completions of every generation the store has scored, for
// the results whose completion no generations file gave.
func (d *Data) AddStored(ctx context.Context, st *store.Store) error {
	evs, err := st.LatestEvaluations(ctx)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	for _, e := range evs {
		g := e.Generation
		k := genKey{g.Setting, g.Model, g.SampleID, g.SampleIndex}
		if _, ok := d.completions[k]; !ok {
			d.completions[k] = g.Completion
		}
	}
	return nil
}

// completion returns the completion a result scored, when known: from the
// generations read, else for the gold setting the sample's own code.
func (d *Data) completion(r evaluate.Result, rec *release.Record) (string, bool) {
	if c, ok := d.completions[genKey{r.Setting, r.Model, r.SampleID, r.SampleIndex}]; ok {
		return c, true
	}
	if r.Setting == "gold" && r.Model == "gold" && rec != nil {
		return rec.Code.CompleteFunction, true
	}
	return "", false
}

// settingsOrder is the order of the settings for the staircase: the grids' own
// order first, then the paper's.
func (d *Data) settingsOrder() []string {
	var order []string
	for _, g := range d.Grids {
		for _, s := range g.Index.Grid.Settings {
			if !slices.Contains(order, s) {
				order = append(order, s)
			}
		}
	}
	return order
}
