package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"sccg/leakcheck"
	"sccg/release"
	"sccg/samples"
)

func runLeakcheck(ctx context.Context, e *env, args []string) error {
	fs := e.flags("leakcheck", "[--bench FILE] [--examples N]\n\n"+
		"Runs LeakCheck over the comments of every sample of a benchmark in the published\n"+
		"format (--bench), or of the store's samples, against each sample's own ground\n"+
		"truth, and prints the leak rate by comments_source with examples. --json gives\n"+
		"one {sample_id, comments_source, leaked, tokens} per sample.")
	bench := fs.String("bench", "", "benchmark `file` in the published format (JSON array or JSON Lines)")
	examples := fs.Int("examples", 3, "leaking samples to show per comments_source")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected arguments %q (give the benchmark with --bench)", pos)
	}
	if *examples < 0 {
		return usagef("--examples must be 0 or more")
	}
	var recs []release.Record
	what := *bench
	if *bench != "" {
		if recs, err = release.ReadFile(*bench); err != nil {
			return usagef("--bench: %v", err)
		}
	} else {
		s, err := e.openStore(ctx)
		if err != nil {
			return err
		}
		defer s.Close()
		if recs, _, err = samples.Records(ctx, s); err != nil {
			return err
		}
		what = "the samples of " + e.db
	}
	rep, err := leakcheck.CheckBench(ctx, recs)
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSON(rep)
	}
	printLeakReport(e.stdout, what, rep, *examples)
	return nil
}

// printLeakReport writes the leak rate per comments_source, the kinds of leaks and
// a few leaking samples of each source.
func printLeakReport(w io.Writer, what string, rep *leakcheck.BenchReport, examples int) {
	fmt.Fprintf(w, "LeakCheck over the comments of %d samples of %s\n\n", rep.Total.Samples, what)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "COMMENTS_SOURCE\tSAMPLES\tLEAKED\tRATE\tLEAKS BY KIND (samples)")
	sources := slices.Sorted(maps.Keys(rep.BySource))
	row := func(name string, f *leakcheck.SourceFigures) {
		var kinds []string
		for _, k := range slices.Sorted(maps.Keys(f.ByKind)) {
			kinds = append(kinds, fmt.Sprintf("%s %d", k, f.ByKind[k]))
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t%s\n", name, f.Samples, f.Leaked, 100*f.Rate, strings.Join(kinds, ", "))
	}
	for _, src := range sources {
		row(src, rep.BySource[src])
	}
	row("all", &rep.Total)
	tw.Flush()
	if examples == 0 || rep.Total.Leaked == 0 {
		return
	}
	fmt.Fprintln(w, "\nexamples:")
	for _, src := range sources {
		var shown []leakcheck.BenchSample
		for _, bs := range rep.Samples {
			if bs.CommentsSource == src && bs.Leaked && len(shown) < examples {
				shown = append(shown, bs)
			}
		}
		sort.SliceStable(shown, func(i, j int) bool { return shown[i].SampleID < shown[j].SampleID })
		for _, bs := range shown {
			var ls []string
			for _, l := range bs.Leaks {
				ls = append(ls, fmt.Sprintf("%s %q", l.Kind, l.Found))
			}
			fmt.Fprintf(w, "  %s  %s  %s\n    %q\n", src, bs.SampleID, strings.Join(ls, ", "), clip(bs.Text, 160))
		}
	}
}

// clip shortens s to n runes on one line.
func clip(s string, n int) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return string(r)
}
