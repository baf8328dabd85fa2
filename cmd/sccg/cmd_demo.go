package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"sccg/evaluate"
	"sccg/evaluate/sandbox"
	"sccg/internal/pipeline"
	"sccg/release"
	"sccg/split"
)

// runDemo is the main job end to end, offline: it starts the embedded RapidAPI and
// GitHub replay servers, builds the benchmark from them through the real crawl and
// mine code paths, exports it, and evaluates every sample's own code as a
// generation (the gold self-check).
func runDemo(ctx context.Context, e *env, args []string) error {
	fs := e.flags("demo", "[--out DIR]\n\n"+
		"Builds the benchmark from the embedded snapshot (RapidAPI pages and a synthetic GitHub\n"+
		"corpus served by local replay servers), exports it and scores each sample's own code\n"+
		"in the sandbox. The store is DIR/sccg.db unless --db is given. Running it again resumes.")
	out := fs.String("out", "demo-out", "output `dir`ectory: store, export/, eval/")
	workers := fs.Int("workers", 0, "parallel sandboxed runs (default GOMAXPROCS)")
	timeout := fs.Duration("timeout", 5*time.Second, "wall-clock limit per completion")
	seed := fs.Int64("seed", 1, "split seed")
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected arguments %q", rest)
	}
	if !e.dbSet {
		e.db = filepath.Join(*out, "sccg.db")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("demo: %w", err)
	}

	rp, err := pipeline.StartReplay()
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer rp.Close()
	s, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()

	exportDir := filepath.Join(*out, "export")
	o := pipeline.Options{Out: exportDir, Format: release.JSON, Progress: e.progress(), Now: e.now}
	o.Split.Seed = *seed
	o.Split.Ratios = split.DefaultRatios
	rp.Apply(&o)
	if !e.json {
		o.Logf = func(format string, a ...any) { fmt.Fprintf(e.stderr, format+"\n", a...) }
	}
	sum, err := pipeline.Build(ctx, s, o)
	if err != nil {
		if sum != nil && !e.json {
			printBuildSummary(e, sum)
		}
		return fmt.Errorf("demo build: %w", err)
	}

	benchPath := filepath.Join(exportDir, "sccgbench.json")
	recs, err := release.ReadFile(benchPath)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	gens := evaluate.GoldGenerations(recs)
	counter := e.progress().Start("eval", int64(len(gens)))
	res, err := evaluate.Run(ctx, evaluate.Config{
		Bench: recs, Generations: gens, Workers: *workers, Progress: counter,
		Sandbox: sandbox.Options{Limits: sandbox.Limits{Timeout: *timeout}},
	})
	counter.Done()
	if err != nil {
		return fmt.Errorf("demo eval: %w", err)
	}
	evalDir := filepath.Join(*out, "eval")
	if err := evaluate.WriteOutputs(evalDir, res); err != nil {
		return fmt.Errorf("demo eval: %w", err)
	}
	if e.json {
		return e.printJSON(map[string]any{"build": sum, "eval": res.Summary, "store": e.db, "export": exportDir, "eval_dir": evalDir})
	}
	printBuildSummary(e, sum)
	fmt.Fprintln(e.stdout)
	printEvalSummary(e, res.Summary)
	fmt.Fprintf(e.stdout, "\nstore %s · benchmark %s · results %s (tables.md)\n", e.db, benchPath, evalDir)
	fmt.Fprintf(e.stdout, "next: sccg audit --db %s SCG-000001\n", e.db)
	return nil
}
