package main

import (
	"context"
	"fmt"
	"sccg/lang"
	"time"

	"sccg/extract"
	"sccg/provenance"
)

func runExtract(ctx context.Context, e *env, args []string) error {
	fs := e.flags("extract", "[--workers N] [--timeout D] [--max-bytes N] [--refresh]")
	workers := fs.Int("workers", 0, "files parsed at once (0: one per CPU)")
	timeout := fs.Duration("timeout", extract.DefaultTimeout, "time allowed for one file")
	maxBytes := fs.Int64("max-bytes", extract.DefaultMaxBytes, "skip (and record) files larger than this many bytes")
	refresh := fs.Bool("refresh", false, "extract every file again, not only those not yet done")
	python := fs.String("python", "", "the evaluator's python interpreter, which judges Python functions' syntax (default python3 on PATH; JavaScript and TypeScript: esbuild)")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("extract takes no arguments, got %q", pos)
	}
	if *workers < 0 {
		return usagef("--workers must be 0 or more, got %d", *workers)
	}
	if *timeout <= 0 {
		return usagef("--timeout must be positive, got %s", *timeout)
	}
	if *maxBytes <= 0 {
		return usagef("--max-bytes must be positive, got %d", *maxBytes)
	}
	s, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	w, err := provenance.WatchDecisions(ctx, s)
	if err != nil {
		return err
	}
	bar := e.progress().Start("extract", 0)
	start := e.now()
	stats, err := extract.Run(ctx, s, extract.Options{
		Workers: *workers, Timeout: *timeout, MaxBytes: *maxBytes, Refresh: *refresh, Progress: bar,
		Logf: e.logf, Python: *python,
	})
	rej, err := e.reported(ctx, w, err)
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSONWith(stats, rej)
	}
	elapsed := e.now().Sub(start).Round(time.Millisecond)
	fmt.Fprintf(e.stdout, "extracted %d files (%d already done) in %s: %d candidate functions, %d rejected\n",
		stats.Files, stats.Skipped, elapsed, stats.Candidates, stats.Rejected)
	for _, n := range lang.Names() {
		ss := stats.Syntax[n]
		switch {
		case ss == nil:
		case ss.Version != "":
			fmt.Fprintf(e.stdout, "  syntax judged by %s %s: %d rejected, %d unchecked\n", ss.Tool, ss.Version, ss.Rejected, ss.Unchecked)
		case ss.Unchecked > 0 && n == lang.Python:
			fmt.Fprintf(e.stdout, "  %d candidates unchecked: no Python to judge their syntax (--python)\n", ss.Unchecked)
		case ss.Unchecked > 0:
			fmt.Fprintf(e.stdout, "  %d %s candidates unchecked: no syntax checker\n", ss.Unchecked, n)
		}
	}
	if stats.NoFrontend > 0 {
		fmt.Fprintf(e.stdout, "  %d files of no language sccg reads\n", stats.NoFrontend)
	}
	if n := stats.NoRequest + stats.Binary + stats.TooLarge + stats.Failed; n > 0 {
		fmt.Fprintf(e.stdout, "  %d files without a request function, %d binary, %d too large, %d failed (see decisions)\n",
			stats.NoRequest, stats.Binary, stats.TooLarge, stats.Failed)
	}
	return nil
}
