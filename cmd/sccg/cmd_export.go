package main

import (
	"context"
	"fmt"

	"sccg/provenance"
	"sccg/release"
	"sccg/samples"
	"sccg/store"
)

func runExport(ctx context.Context, e *env, args []string) error {
	fs := e.flags("export", "--out DIR [--format json|jsonl]")
	out := fs.String("out", "", "directory to write sccgbench.json, splits/ and stats.json into")
	format := fs.String("format", "json", "file format: json (arrays) or jsonl (one record per line)")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected arguments %q", pos)
	}
	if *out == "" {
		return usagef("--out DIR is required")
	}
	if *format != string(release.JSON) && *format != string(release.JSONL) {
		return usagef("--format must be json or jsonl, not %q", *format)
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
	res, err := samples.Export(ctx, s, *out, release.Format(*format))
	rej, err := e.reported(ctx, w, err)
	if err != nil {
		return err
	}
	if res.Stats.Total.Samples == 0 {
		return fmt.Errorf("%w; wrote empty files to %s", store.ErrNoSamples, *out)
	}
	if e.json {
		return e.printJSONWith(res, rej)
	}
	st := res.Stats
	fmt.Fprintf(e.stdout, "exported %d samples to %s\n", st.Total.Samples, *out)
	for _, f := range res.Files {
		if n, ok := res.Count[f]; ok {
			fmt.Fprintf(e.stdout, "  %-24s %d\n", f, n)
		} else {
			fmt.Fprintf(e.stdout, "  %s\n", f)
		}
	}
	fmt.Fprintf(e.stdout, "train / validation / test: %d / %d / %d", st.Splits[release.Train], st.Splits[release.Validation], st.Splits[release.Test])
	if n := st.Splits["unassigned"]; n > 0 {
		fmt.Fprintf(e.stdout, " (%d unassigned)", n)
	}
	fmt.Fprintf(e.stdout, "\ndistinct APIs %d, repositories %d; effective LOC %.1f / %g\n",
		st.Total.DistinctAPIs, st.Total.DistinctRepositories, st.Total.EffectiveLOCAverage, st.Total.EffectiveLOCMedian)
	return nil
}
