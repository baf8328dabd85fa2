package experiment

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"sccg/evaluate"
	"sccg/evaluate/baseline"
	"sccg/evaluate/generate"
	"sccg/evaluate/prompts"
	"sccg/evaluate/report"
	"sccg/evaluate/retrieve"
	"sccg/evaluate/sandbox"
	"sccg/internal/atomicfile"
	"sccg/internal/progress"
	"sccg/lang"
	"sccg/llm"
	"sccg/release"
	"sccg/store"
)

// Options are what a grid runs with besides the grid file.
type Options struct {
	// Dir receives prompts/, cells/, grid.json, summary.json and tables.md.
	Dir   string
	Bench *evaluate.Bench
	// Catalog is the documentation prompts draw on (nil: the records').
	Catalog *prompts.Catalog
	// Leaks is LeakCheck, required by the intent setting.
	Leaks prompts.LeakChecker
	// Corpus is the endpoint documents the RAG settings retrieve from (nil: the
	// benchmark's own api_metadata).
	Corpus *retrieve.Corpus
	// Ranker is the learned retriever's trained model (rag-learned), and RankerID
	// its id in the store.
	Ranker   *retrieve.RankerModel
	RankerID int64
	// Getenv reads the variables the models' key_env name (default os.Getenv).
	Getenv func(string) string
	// LLMOptions are added to every model's client (tests replace its sleep).
	LLMOptions []llm.Option
	// Store keeps the scores (so an evaluation resumes) and, for the generator, the
	// LLM cache. Required.
	Store *store.Store
	// Sandbox are the sandbox options the grid's eval section does not set
	// (interpreter, namespaces).
	Sandbox sandbox.Options
	// Runners start the runners of languages other than Python
	// (evaluate.Config.Runners).
	Runners  map[lang.Name]evaluate.StartRunner
	Progress *progress.Reporter
	Logf     func(format string, a ...any)
	// OnScored, when set, is called after each completion the evaluator scores anew.
	OnScored func(cell string)
}

// Cell is one (setting, model or baseline) of the grid, one entry of grid.json.
type Cell struct {
	ID      string `json:"id"` // setting/model
	Setting string `json:"setting"`
	Model   string `json:"model"`
	Kind    string `json:"kind"` // model | baseline
	// Dir holds the cell's generations.jsonl and the evaluator's outputs, relative
	// to the grid's directory.
	Dir         string `json:"dir"`
	Prompts     int    `json:"prompts"`
	Generations int    `json:"generations"`
	// Cutoff is the date the cell's time slices split at (its model's training
	// cutoff, else the grid's), and TimeSlices what they were read from.
	Cutoff     string               `json:"cutoff,omitempty"`
	TimeSlices *evaluate.TimeSlices `json:"time_slices,omitempty"`
	// Overall are the cell's rates over the samples with an endpoint (generate
	// task); Selection its Top-1/Top-3 (select-endpoint task).
	Overall   *evaluate.Agg            `json:"overall,omitempty"`
	PassAtK   map[string]float64       `json:"pass_at_k,omitempty"`
	Selection *prompts.SelectionGroup  `json:"selection,omitempty"`
	Failures  map[string]int           `json:"failure_stages,omitempty"`
	summary   *evaluate.Summary        // the cell's summary.json
	results   []evaluate.Result        // the cell's results
	selection *prompts.SelectionOutput // the cell's selection results
}

// SettingInfo is what a setting's prompts came to.
type SettingInfo struct {
	Setting  string         `json:"setting"`
	File     string         `json:"file"` // relative to the grid's directory
	Prompts  int            `json:"prompts"`
	Problems map[string]int `json:"problems,omitempty"` // by kind
	Skipped  int            `json:"skipped"`
}

// Index is grid.json: the grid as run, its settings and cells, and the tests.
type Index struct {
	Grid     Grid          `json:"grid"`
	Bench    string        `json:"bench"`
	Split    string        `json:"split,omitempty"`
	Samples  int           `json:"samples"`
	Docs     string        `json:"docs"`
	Settings []SettingInfo `json:"settings"`
	Cells    []Cell        `json:"cells"`
	Tests    []Test        `json:"tests,omitempty"`
	// Ranker is the learned ranker rag-learned retrieved with.
	Ranker *RankerInfo `json:"ranker,omitempty"`
	// Notes are what the summary could not do, and why.
	Notes []string `json:"notes,omitempty"`
	// Failed are the cells that could not run (a model whose server is down, a
	// setting whose retrieval failed), each with why; the others ran.
	Failed []FailedCell `json:"failed,omitempty"`
}

// RankerInfo names the learned ranker of a grid: its id in the store and what it
// was trained on.
type RankerInfo struct {
	ID      int64  `json:"id"`
	Trained string `json:"trained"`
}

// FailedCell is a cell of the grid that could not run.
type FailedCell struct {
	ID    string `json:"id"`
	Error string `json:"error"`
}

// Counts are the index's figures as a run records them.
func (x *Index) Counts() map[string]int64 {
	c := map[string]int64{"cells": int64(len(x.Cells)), "samples": int64(x.Samples), "tests": int64(len(x.Tests)),
		"failed": int64(len(x.Failed))}
	for _, s := range x.Settings {
		c["prompts"] += int64(s.Prompts)
	}
	for _, cl := range x.Cells {
		c["generations"] += int64(cl.Generations)
	}
	return c
}

// The cell kinds.
const (
	KindModel    = "model"
	KindBaseline = "baseline"
)

// Settings of the paired contamination test: the same samples prompted with the
// human comment and with the redacted intent.
const (
	SettingHuman    = "intent-human"
	SettingRedacted = "intent-redacted"
)

// Run runs the grid (see the package comment) and returns grid.json's index.
func Run(ctx context.Context, g *Grid, o Options) (*Index, error) {
	if o.Store == nil {
		return nil, errors.New("experiment: no store")
	}
	if o.Bench == nil || len(o.Bench.Samples) == 0 {
		return nil, errors.New("experiment: empty benchmark")
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	args := map[string]any{"grid": g, "dir": o.Dir, "bench": o.Bench.Path, "split": o.Bench.Split}
	return store.RecordRun(ctx, o.Store, Stage, args, func(int64) (*Index, error) {
		r := &runner{g: g, o: o}
		return r.run(ctx)
	})
}

type runner struct {
	g       *Grid
	o       Options
	idx     *Index
	nearest baseline.Nearest
}

func (r *runner) run(ctx context.Context) (*Index, error) {
	g, o := r.g, r.o
	cat := o.Catalog
	if cat == nil {
		cat = prompts.CatalogFromRecords(o.Bench.All)
	}
	r.idx = &Index{Grid: *g, Bench: o.Bench.Path, Split: o.Bench.Split, Samples: len(o.Bench.Samples), Docs: cat.Source}
	if o.Ranker != nil && slices.Contains(g.Settings, prompts.RAGLearned) {
		r.idx.Ranker = &RankerInfo{ID: o.RankerID, Trained: o.Ranker.Describe()}
	}
	if slices.Contains(g.Baselines, baseline.BM25NearestTrain) {
		var train []release.Record
		var err error
		if g.Train != "" {
			train, err = release.ReadFile(g.Resolve(g.Train))
		} else if train, err = o.Bench.TrainSplit(); err != nil {
			err = fmt.Errorf("%w; or name a train source in the grid (train: FILE)", err)
		}
		if err != nil {
			return nil, fmt.Errorf("experiment: %s: %w", baseline.BM25NearestTrain, err)
		}
		nt, err := baseline.NewNearestTrain(train)
		if err != nil {
			return nil, fmt.Errorf("experiment: %w", err)
		}
		r.nearest = nt
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("experiment: %w", err)
	}
	type settingRun struct {
		setting, label string
		intentOf       func(r release.Record) string
	}
	runs := []settingRun{}
	for _, s := range g.Settings {
		runs = append(runs, settingRun{setting: s, label: s})
	}
	if g.Stats.Contamination && g.Task == prompts.TaskGenerate {
		pairs, err := intentPairs(ctx, o.Store, o.Bench.Samples)
		if err != nil {
			return nil, err
		}
		if len(pairs) == 0 {
			r.idx.Notes = append(r.idx.Notes, "paired contamination test: no sample has both a human comment and a redacted intent")
		} else {
			runs = append(runs,
				settingRun{prompts.Intent, SettingHuman, func(x release.Record) string { return pairs[x.SampleID][0] }},
				settingRun{prompts.Intent, SettingRedacted, func(x release.Record) string { return pairs[x.SampleID][1] }})
		}
	}
	// Every cell that can run runs: a cell that fails (its model's server is
	// down, its setting's retrieval failed) is recorded and the grid goes on.
	for _, sr := range runs {
		var cells []func() error
		var ids []string
		for _, m := range g.Models {
			ids = append(ids, sr.label+"/"+m.Name)
		}
		for _, b := range g.Baselines {
			if baselineApplies(b, sr.setting) && (sr.label == sr.setting || b == baseline.BM25NearestTrain) {
				ids = append(ids, sr.label+"/"+b)
			}
		}
		ps, err := r.buildPrompts(ctx, cat, sr.setting, sr.label, sr.intentOf)
		if err != nil {
			if ctx.Err() != nil || !cellError(err) {
				return nil, err
			}
			for _, id := range ids {
				r.fail(id, err)
			}
			continue
		}
		for _, m := range g.Models {
			cells = append(cells, func() error { return r.cell(ctx, sr.label, m.Name, KindModel, ps, &m) })
		}
		for _, b := range g.Baselines {
			if !baselineApplies(b, sr.setting) || (sr.label != sr.setting && b != baseline.BM25NearestTrain) {
				continue
			}
			cells = append(cells, func() error { return r.cell(ctx, sr.label, b, KindBaseline, ps, nil) })
		}
		for i, run := range cells {
			if err := run(); err != nil {
				if ctx.Err() != nil {
					return nil, err
				}
				r.fail(ids[i], err)
			}
		}
	}
	if slices.Contains(g.Baselines, baseline.BM25NearestTrain) && !slices.Contains(g.Settings, prompts.Intent) {
		r.idx.Notes = append(r.idx.Notes, "bm25-nearest-train answers intent-only prompts: the grid has no intent setting, so it did not run")
	}
	if err := r.summarize(ctx); err != nil {
		return nil, err
	}
	return r.idx, nil
}

// fail records a cell that could not run.
func (r *runner) fail(id string, err error) {
	r.idx.Failed = append(r.idx.Failed, FailedCell{ID: id, Error: err.Error()})
	r.o.Logf("cell %s failed: %v", id, err)
}

// cellError reports whether a setting's failure is its own (an LLM server: the
// embeddings of rag-dense), so the grid's other settings still run; any other
// failure (a leak in the intent prompts, a file that cannot be written) stops
// the grid.
func cellError(err error) bool {
	var ae *llm.APIError
	var te *llm.TransportError
	var be *llm.BreakerError
	return errors.As(err, &ae) || errors.As(err, &te) || errors.As(err, &be)
}

// baselineApplies says whether a baseline runs under a setting: bm25-nearest-train
// copies code by intent alone, so it runs under the intent setting only.
func baselineApplies(b, setting string) bool {
	return b != baseline.BM25NearestTrain || setting == prompts.Intent
}

// buildPrompts writes DIR/prompts/LABEL.jsonl (rebuilt each run: prompts are a pure
// function of the benchmark and its documentation, so a rerun writes the same file)
// and records what the setting came to.
func (r *runner) buildPrompts(ctx context.Context, cat *prompts.Catalog, setting, label string, intentOf func(release.Record) string) ([]prompts.Prompt, error) {
	g, o := r.g, r.o
	po := prompts.Options{Setting: setting, Task: g.Task, Catalog: cat, K: g.K, Leaks: o.Leaks, DropLeaks: g.DropLeaks,
		IntentOf: intentOf, Label: label}
	if prompts.IsRAG(setting) {
		if err := r.retriever(ctx, setting, &po); err != nil {
			return nil, err
		}
	}
	res, err := prompts.Build(ctx, o.Bench.Samples, po)
	if err != nil {
		return nil, fmt.Errorf("experiment: prompts %s: %w", label, err)
	}
	rel := filepath.Join("prompts", label+".jsonl")
	if err := prompts.WriteFile(filepath.Join(o.Dir, rel), res.Prompts); err != nil {
		return nil, err
	}
	if err := writeJSON(filepath.Join(o.Dir, "prompts", label+".problems.json"), res.Problems); err != nil {
		return nil, err
	}
	info := SettingInfo{Setting: label, File: rel, Prompts: len(res.Prompts)}
	for _, p := range res.Problems {
		if info.Problems == nil {
			info.Problems = map[string]int{}
		}
		info.Problems[p.Kind]++
		if p.Skipped {
			info.Skipped++
		}
	}
	r.idx.Settings = append(r.idx.Settings, info)
	o.Logf("prompts %s: %d (%d skipped)", label, len(res.Prompts), info.Skipped)
	return res.Prompts, nil
}

// retriever sets the retriever and corpus of a RAG setting: the corpus of the
// options (else the benchmark's api_metadata), BM25, the learned ranker of the
// options or, through the grid's embeddings model and the store's cache, dense
// or hybrid.
func (r *runner) retriever(ctx context.Context, setting string, po *prompts.Options) error {
	corpus := r.o.Corpus
	if corpus == nil {
		c, err := retrieve.FromRecords(r.o.Bench.All)
		if err != nil {
			return fmt.Errorf("experiment: setting %s: %w", setting, err)
		}
		corpus, r.o.Corpus = c, c
	}
	ro := retrieve.Options{QueryPrefix: r.g.Retrieval.QueryPrefix, DocPrefix: r.g.Retrieval.DocPrefix, Ranker: r.o.Ranker}
	name := prompts.RetrieverOf(setting)
	if name == retrieve.NameDense || name == retrieve.NameHybrid {
		rc := r.g.Retrieval
		opts := append([]llm.Option{llm.WithCache(r.o.Store), llm.WithGetenv(r.o.Getenv)}, r.o.LLMOptions...)
		client, err := llm.New(llm.Config{BaseURL: rc.BaseURL, EmbedModel: rc.EmbedModel, APIKeyEnv: rc.KeyEnv}, opts...)
		if err != nil {
			return fmt.Errorf("experiment: setting %s: %w", setting, err)
		}
		ro.Embedder, ro.EmbedModel = client, rc.EmbedModel
	}
	rt, err := retrieve.New(ctx, name, corpus, ro)
	if err != nil {
		return fmt.Errorf("experiment: setting %s: %w", setting, err)
	}
	po.Retriever, po.Corpus = rt, corpus
	return nil
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// cellDir is a cell's directory, relative to the grid's.
func cellDir(setting, model string) string {
	return filepath.Join("cells", setting, unsafeName.ReplaceAllString(model, "_"))
}

// cell generates (or resumes generating) and evaluates one cell.
func (r *runner) cell(ctx context.Context, setting, name, kind string, ps []prompts.Prompt, m *Model) error {
	o := r.o
	c := Cell{ID: setting + "/" + name, Setting: setting, Model: name, Kind: kind, Dir: cellDir(setting, name), Prompts: len(ps)}
	dir := filepath.Join(o.Dir, c.Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("experiment: %w", err)
	}
	gensPath := filepath.Join(dir, "generations.jsonl")
	if kind == KindModel {
		if err := r.generate(ctx, c.ID, *m, ps, gensPath, filepath.Join(dir, "generate.json")); err != nil {
			return err
		}
	} else {
		gens, err := baseline.Generate(ctx, name, o.Bench.All, ps, baseline.Options{Nearest: r.nearest})
		if err != nil {
			return fmt.Errorf("experiment: cell %s: %w", c.ID, err)
		}
		if err := evaluate.WriteGenerations(gensPath, gens); err != nil {
			return err
		}
	}
	gens, problems, err := evaluate.ReadGenerations(gensPath)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("experiment: cell %s: %s", c.ID, problems[0])
	}
	// Only the generations of this cell's prompts count (a file edited by hand, or
	// prompts that changed since, may hold others).
	rank := map[string]int{}
	for i, p := range ps {
		rank[p.SampleID] = i
	}
	gens = slices.DeleteFunc(gens, func(x evaluate.Generation) bool {
		_, ok := rank[x.SampleID]
		return !ok || x.Setting != setting || x.Model != name
	})
	// in prompt order: the summary's sums, and so its bits, follow the order
	slices.SortStableFunc(gens, func(a, b evaluate.Generation) int {
		return cmp.Or(cmp.Compare(rank[a.SampleID], rank[b.SampleID]), cmp.Compare(a.SampleIndex, b.SampleIndex))
	})
	c.Generations = len(gens)
	if r.g.Task == prompts.TaskSelect {
		sel, err := prompts.ScoreSelection(o.Bench.All, ps, gens)
		if err != nil {
			return fmt.Errorf("experiment: cell %s: %w", c.ID, err)
		}
		if err := prompts.WriteSelectionOutputs(dir, sel); err != nil {
			return err
		}
		c.selection = sel
		if len(sel.Groups) > 0 {
			c.Selection = &sel.Groups[0]
		}
	} else if err := r.evaluate(ctx, &c, dir, gens, ps); err != nil {
		return err
	}
	r.idx.Cells = append(r.idx.Cells, c)
	return nil
}

// generate asks model m for the cell's completions through the shared client
// (with the store as its cache), resuming the cell's generations file, and writes
// what it did to report (tokens and requests differ between a fresh and a resumed
// run, so they stay out of grid.json).
func (r *runner) generate(ctx context.Context, id string, m Model, ps []prompts.Prompt, out, report string) error {
	cfg := llm.Config{BaseURL: m.BaseURL, Model: m.Name, APIKeyEnv: m.KeyEnv, Concurrency: m.Concurrency}
	if m.Timeout != "" {
		cfg.Timeout, _ = time.ParseDuration(m.Timeout)
	}
	opts := append([]llm.Option{llm.WithCache(r.o.Store), llm.WithGetenv(r.o.Getenv)}, r.o.LLMOptions...)
	client, err := llm.New(cfg, opts...)
	if err != nil {
		return fmt.Errorf("experiment: model %s: %w", m.Name, err)
	}
	gopt := generate.Options{Model: m.Name, N: m.N, Temperature: m.Temperature, TopP: m.TopP, MaxTokens: m.MaxTokens,
		Workers: client.Config().Concurrency}
	if r.o.Progress != nil {
		gopt.Progress = r.o.Progress.Start("generate "+id, 0)
	}
	res, err := generate.RunStored(ctx, r.o.Store, client, ps, out, gopt)
	if res != nil {
		if werr := writeJSON(report, map[string]any{"result": res, "usage": client.Usage()}); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		return fmt.Errorf("experiment: cell %s: %w", id, err)
	}
	r.o.Logf("cell %s: %d completions (%d resumed, %d new, %d from the cache)", id, res.Resumed+res.Written, res.Resumed, res.Written, res.Cached)
	if res.Failed > 0 {
		return fmt.Errorf("experiment: cell %s: %d completion(s) failed after retries (first: %s); run the grid again to retry them",
			id, res.Failed, res.Failures[0].Reason)
	}
	return nil
}

// evalDone is a cell's done.json: the evaluation it finished, so a rerun that
// finds the same generations and options reads the outputs instead of scoring.
type evalDone struct {
	Generations string `json:"generations_sha256"`
	Options     string `json:"options_sha256"`
}

func (r *runner) evaluate(ctx context.Context, c *Cell, dir string, gens []evaluate.Generation, ps []prompts.Prompt) error {
	o, g := r.o, r.g
	var gb bytes.Buffer
	if err := evaluate.EncodeGenerations(&gb, gens); err != nil {
		return err
	}
	cutoff := g.cutoff(c.Model)
	c.Cutoff = cutoff
	sb := o.Sandbox
	sb.Exec = sb.Exec || g.Eval.Exec
	if g.Eval.MemoryMB > 0 {
		sb.Limits.MemoryMB = g.Eval.MemoryMB
	}
	sb.Limits.Timeout = 5 * time.Second
	if g.Eval.Timeout != "" {
		sb.Limits.Timeout, _ = time.ParseDuration(g.Eval.Timeout)
	}
	ks := g.ks()
	// "attribution" marks outputs that attribute each completion: a cell
	// evaluated before they did is summarized again (its scores are reused).
	optKey, _ := json.Marshal(map[string]any{"cutoff": cutoff, "k": ks, "timeout": sb.Limits.Timeout.String(),
		"memory_mb": sb.Limits.MemoryMB, "bench": o.Bench.Path, "split": o.Bench.Split, "attribution": 1})
	done := evalDone{Generations: sha(gb.Bytes()), Options: sha(optKey)}
	donePath := filepath.Join(dir, "done.json")
	if prev, err := os.ReadFile(donePath); err == nil {
		var d evalDone
		if json.Unmarshal(prev, &d) == nil && d == done {
			sum, err1 := evaluate.ReadSummary(filepath.Join(dir, "summary.json"))
			rs, err2 := evaluate.ReadResults(dir)
			if err1 == nil && err2 == nil {
				c.setSummary(&sum, rs)
				r.o.Logf("cell %s: evaluated before (%d completions)", c.ID, len(rs))
				return nil
			}
		}
	}
	os.Remove(donePath)
	expected := make([]string, len(ps))
	for i, p := range ps {
		expected[i] = p.SampleID
	}
	cfg := evaluate.Config{Bench: o.Bench.All, Generations: gens, Workers: g.Eval.Workers, Sandbox: sb,
		TimeCutoff: cutoff, K: ks, Expected: expected, Runners: o.Runners, Shown: prompts.Shown(ps)}
	if o.Progress != nil {
		cfg.Progress = o.Progress.Start("eval "+c.ID, int64(len(gens)))
	}
	if o.OnScored != nil {
		id := c.ID
		cfg.OnResult = func(evaluate.Generation, evaluate.Result) error { o.OnScored(id); return nil }
	}
	args := map[string]any{"experiment": o.Dir, "cell": c.ID, "generations": len(gens), "time_cutoff": cutoff, "k": ks,
		"timeout": sb.Limits.Timeout.String(), "exec": sb.Exec}
	out, err := evaluate.RunStored(ctx, o.Store, cfg, args, func(out *evaluate.Output) error {
		return report.WriteOutputs(dir, out)
	})
	if err != nil {
		return fmt.Errorf("experiment: evaluate %s: %w", c.ID, err)
	}
	if err := writeJSON(donePath, done); err != nil {
		return err
	}
	// Read back what was written, so a fresh and a resumed cell summarize the same
	// bytes.
	sum, err := evaluate.ReadSummary(filepath.Join(dir, "summary.json"))
	if err != nil {
		return err
	}
	c.setSummary(&sum, out.Results)
	r.o.Logf("cell %s: %d completions scored (%d resumed)", c.ID, len(out.Results), out.Resumed)
	return nil
}

func (c *Cell) setSummary(s *evaluate.Summary, rs []evaluate.Result) {
	c.summary, c.results, c.TimeSlices = s, rs, s.TimeSlices
	for _, gr := range s.Groups {
		if gr.Setting == c.Setting && gr.Model == c.Model {
			o := gr.Overall
			c.Overall, c.PassAtK, c.Failures = &o, gr.PassAtK, gr.FailureStages
		}
	}
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// writeJSON writes v as indented JSON, atomically.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return atomicfile.Write(path, append(b, '\n'))
}
