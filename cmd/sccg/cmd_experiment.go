package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"sccg/evaluate"
	"sccg/evaluate/experiment"
	"sccg/evaluate/jsbox"
	"sccg/evaluate/prompts"
	"sccg/evaluate/retrieve"
	"sccg/evaluate/sandbox"
	"sccg/release"
	"sccg/store"
)

func runExperiment(ctx context.Context, e *env, args []string) error {
	fs := e.flags("experiment", "--grid GRID.yaml --out DIR [--bench FILE|DIR]\n\n"+
		"Runs the grid's settings × models and baselines × samples: prompts, then generations (a model, or a\n"+
		"baseline), then the sandboxed evaluation, one directory per cell under DIR/cells/, a DIR/grid.json\n"+
		"index and the tables across cells in DIR/tables.md. The store is DIR/sccg.db unless --db is given.\n"+
		"Running it again resumes where it stopped.")
	gridPath := fs.String("grid", "", "grid `file` (YAML or JSON): settings, models, baselines, eval and stats options")
	out := fs.String("out", "", "results `dir`")
	benchPath := fs.String("bench", "", "benchmark (a release file or export dir); overrides the grid's bench")
	python := fs.String("python", "", "python interpreter for Python samples (default python3 on PATH, resolved once; JavaScript and TypeScript run in goja)")
	noNS := fs.Bool("no-namespaces", false, "do not use user/network namespaces even where the kernel allows them")
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected arguments %q", rest)
	}
	if *gridPath == "" || *out == "" {
		return usagef("--grid and --out are required")
	}
	g, err := experiment.ReadGrid(*gridPath)
	if errors.Is(err, experiment.ErrEmptyGrid) {
		return usagef("%v", err)
	}
	if err != nil {
		return err
	}
	bf := benchFlags{bench: g.Resolve(g.Bench), split: g.Split}
	for _, d := range g.Docs {
		bf.docs = append(bf.docs, g.Resolve(d))
	}
	if *benchPath != "" {
		bf.bench = *benchPath
	}
	if bf.bench == "" {
		return usagef("no benchmark: give --bench or the grid's bench")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("experiment: %w", err)
	}
	if !e.dbSet {
		e.db = filepath.Join(*out, "sccg.db")
	}
	st, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	bench, err := loadBench(ctx, st, bf.bench, bf.split)
	if err != nil {
		return err
	}
	src := &docSource{bench: bench, st: st, docs: bf.docs}
	if src.catalog, err = docsCatalog(ctx, st, bf.docs, bench); err != nil {
		return err
	}
	o := experiment.Options{Dir: *out, Bench: bench, Catalog: src.catalog, Store: st, Progress: e.progress(), Getenv: e.getenv,
		Sandbox: sandbox.Options{Python: *python, NoNamespaces: *noNS},
		Runners: evaluate.JavaScriptRunners(jsbox.Options{})}
	if slices.ContainsFunc(g.Settings, prompts.IsRAG) {
		if o.Corpus, err = src.corpus(ctx); err != nil {
			return err
		}
	}
	if slices.Contains(g.Settings, prompts.RAGLearned) {
		tr, err := gridRanker(ctx, e, st, g, bench)
		if err != nil {
			return err
		}
		o.Ranker, o.RankerID = tr.Model, tr.ID
	}
	if !e.json {
		o.Logf = func(format string, a ...any) { fmt.Fprintf(e.stderr, "sccg experiment: "+format+"\n", a...) }
	}
	idx, err := experiment.Run(ctx, g, o)
	if err != nil {
		return err
	}
	if e.json {
		if err := e.printJSON(idx); err != nil {
			return err
		}
		return failedCells(e, idx)
	}
	for _, c := range idx.Cells {
		switch {
		case c.Overall != nil:
			fmt.Fprintf(e.stdout, "%-40s n=%d host=%.3f endpoint=%.3f mock=%.3f robust=%.3f param_f1=%.3f\n", c.ID, c.Overall.N,
				c.Overall.HostAcc, c.Overall.EndpointAcc, c.Overall.Mock, c.Overall.Robust, c.Overall.ParamF1)
		case c.Selection != nil:
			fmt.Fprintf(e.stdout, "%-40s n=%d top1=%.3f top3=%.3f\n", c.ID, c.Selection.N, c.Selection.Top1, c.Selection.Top3)
		}
	}
	for _, n := range idx.Notes {
		fmt.Fprintf(e.stderr, "sccg experiment: note: %s\n", n)
	}
	fmt.Fprintf(e.stdout, "wrote %s/grid.json, tables.md, summary.json (store %s)\n", filepath.Clean(*out), e.db)
	return failedCells(e, idx)
}

// gridRanker trains the learned ranker of a grid's rag-learned setting into its
// store (or finds it there): on the grid's train source, else the benchmark's
// train split, against retrieval.train_docs, else the samples' api_metadata.
func gridRanker(ctx context.Context, e *env, st *store.Store, g *experiment.Grid, bench *evaluate.Bench) (*retrieve.Trained, error) {
	var recs []release.Record
	var source string
	var err error
	if g.Train != "" {
		source = g.Resolve(g.Train)
		recs, err = readTrainFile(source)
	} else {
		source = bench.Path + " (train split)"
		if recs, err = bench.TrainSplit(); err != nil {
			err = fmt.Errorf("%s: %w; or name a train source in the grid (train: FILE)", prompts.RAGLearned, err)
		}
	}
	if err != nil {
		return nil, err
	}
	var docs []string
	for _, d := range g.Retrieval.TrainDocs {
		docs = append(docs, g.Resolve(d))
	}
	tr, err := trainRanker(ctx, e, st, "experiment", recs, source, docs, false)
	if err != nil {
		return nil, err
	}
	if n := trainOverlap(tr.Model, retrieve.Queries(bench.Samples, retrieve.QueryOptions{})); n > 0 {
		fmt.Fprintf(e.stderr, "sccg experiment: %s: %d of the %d samples are of APIs the ranker was trained on: their retrieval is not of held-out APIs\n",
			prompts.RAGLearned, n, len(bench.Samples))
	}
	return tr, nil
}

// failedCells names the cells of a grid that could not run, and fails.
func failedCells(e *env, idx *experiment.Index) error {
	if len(idx.Failed) == 0 {
		return nil
	}
	for _, f := range idx.Failed {
		fmt.Fprintf(e.stderr, "sccg experiment: cell %s failed: %s\n", f.ID, f.Error)
	}
	return fmt.Errorf("%d of %d cells failed (listed above); the %d others ran", len(idx.Failed), len(idx.Failed)+len(idx.Cells), len(idx.Cells))
}
