package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sccg/provenance"
	"sccg/release"
	"strings"

	"sccg/evaluate"
	"sccg/evaluate/report"
	"sccg/samples"
)

const reportUsage = `--results PATH... [--bench FILE] [--stats FILE] [--generations FILE]... [--db FILE] --out DIR
       sccg report SUMMARY.json|EVAL_DIR ...   (Markdown Tables IV–VI on stdout)

Writes DIR/index.html, one self-contained page (styles, script and SVG figures
inline; it fetches nothing), DIR/report.md with the same tables, DIR/figures/*.svg
and a page per sample under DIR/samples/: Table II (stats.json), Tables IV–VI,
the Table VII staircase, Table VIII (retrieval), pass@k, the doc_match_type,
comments_source and time-slice strata with permutation-test p-values, and the
figures. --results takes sccg eval output directories, sccg experiment grids,
export directories, sccg retrieve --out files, or a directory holding them (a
demo's output). With --db the sample pages show each sample's lineage (sccg audit)
and the completions the store scored. A table whose data is absent is left out,
and the page says why.`

func runReport(ctx context.Context, e *env, args []string) error {
	fs := e.flags("report", reportUsage)
	var results, gens multiFlag
	fs.Var(&results, "results", "an eval output `path`, experiment grid, export directory, retrieval report, or a directory of them; repeatable")
	bench := fs.String("bench", "", "benchmark `file` in the published format (default: an export's sccgbench.json among --results)")
	stats := fs.String("stats", "", "dataset statistics `file` (default: the stats.json beside --bench or among --results)")
	fs.Var(&gens, "generations", "generations JSONL `file` whose completions the sample pages show; repeatable")
	out := fs.String("out", "", "output `dir`ectory for index.html, report.md, figures/, samples/")
	title := fs.String("title", "", "title of the report (default \"SCCGBench report\")")
	rounds := fs.Int("rounds", report.DefaultRounds, "permutations per stratum test")
	seed := fs.Uint64("seed", 1, "seed of the permutation tests (same seed, same p-values)")
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if *out == "" {
		if len(results) > 0 || *bench != "" || *stats != "" || len(gens) > 0 {
			return usagef("--out DIR is required to write a report")
		}
		return printSummaryTables(e, rest)
	}
	paths := append(append([]string{}, results...), rest...)
	if len(paths) == 0 && *bench == "" && *stats == "" {
		return usagef("want --results PATH (eval output, experiment grid, export, retrieval report), --bench or --stats")
	}
	d, err := report.Load(ctx, report.Inputs{Paths: paths, Bench: *bench, Stats: *stats, Generations: gens})
	if err != nil {
		return err
	}
	if err := statsOfBench(ctx, d); err != nil {
		return err
	}
	opts := report.Options{Title: *title, Rounds: *rounds, Seed: *seed}
	if e.dbSet {
		if _, err := os.Stat(e.db); err != nil {
			return fmt.Errorf("report: --db: %w", err)
		}
		st, err := e.openStore(ctx)
		if err != nil {
			return err
		}
		defer st.Close()
		if err := d.AddStored(ctx, st); err != nil {
			return err
		}
		opts.Lineage = func(ctx context.Context, id string) (string, error) { return provenance.AuditText(ctx, st, id) }
	}
	m, err := report.Write(ctx, d, *out, opts)
	if err != nil {
		return err
	}
	for _, p := range m.Problems {
		fmt.Fprintf(e.stderr, "sccg report: %s\n", p)
	}
	if e.json {
		return e.printJSON(m)
	}
	dir := strings.TrimRight(*out, "/")
	fmt.Fprintf(e.stdout, "wrote %s: %d tables, %d figures, %d sample pages\n", filepath.Join(dir, "index.html"), len(m.Tables), len(m.Figures), m.Samples)
	for _, o := range m.Omitted {
		fmt.Fprintf(e.stdout, "  left out: %s\n", o)
	}
	fmt.Fprintf(e.stdout, "also %s, %s/figures/*.svg\n", filepath.Join(dir, "report.md"), dir)
	return nil
}

// printSummaryTables prints the tables of summaries (or eval output directories)
// as Markdown.
func printSummaryTables(e *env, paths []string) error {
	if len(paths) == 0 {
		return usagef("want at least one summary.json or eval output directory (or --results PATH... --out DIR)")
	}
	var sums []evaluate.Summary
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			p = filepath.Join(p, "summary.json")
		}
		s, err := evaluate.ReadSummary(p)
		if err != nil {
			return err
		}
		sums = append(sums, s)
	}
	if e.json {
		return e.printJSON(sums)
	}
	return report.WriteTables(e.stdout, sums, nil)
}

// statsOfBench computes Table II's figures from the benchmark's records when no
// stats.json came with them (an imported or downloaded release file, not an
// export directory), as sccg export would have written them.
func statsOfBench(ctx context.Context, d *report.Data) error {
	if d.Stats != nil || len(d.Bench) == 0 {
		return nil
	}
	fromName := release.SplitFromPath(d.BenchPath)
	st, err := samples.ComputeStats(ctx, d.Bench, func(i int) string {
		if s, ok, _ := evaluate.RecordSplit(d.Bench[i]); ok {
			return s
		}
		return fromName
	})
	if err != nil {
		return fmt.Errorf("report: dataset statistics of %s: %w", d.BenchPath, err)
	}
	d.Stats, d.StatsPath = &st, d.BenchPath+" (computed)"
	return nil
}
