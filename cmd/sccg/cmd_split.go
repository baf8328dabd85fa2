package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"

	"sccg/provenance"
	"sccg/samples"
	"sccg/split"
	"sccg/store"
)

func runSplit(ctx context.Context, e *env, args []string) error {
	fs := e.flags("split", "[--seed N] [--ratios TRAIN,VAL,TEST] [--name-similarity J] [--time-cutoff DATE]\n\n"+
		"Builds a sample from every function decontam kept (ids SCG-000001… in repository,\n"+
		"path, qualname, line order), then assigns whole API families to splits. With\n"+
		"--time-cutoff the test split holds only samples whose function was authored on or\n"+
		"after DATE (github_info.function_authored_at, git blame's oldest line); a test API's\n"+
		"older samples, and those of unknown date, are left out of every split with their reason.")
	seed := fs.Int64("seed", 1, "seed of the assignment; the same seed and samples give the same splits")
	ratios := fs.String("ratios", split.FormatRatios(split.DefaultRatios), "train,validation,test shares of the samples")
	sim := fs.Float64("name-similarity", split.DefaultNameSimilarity, "token-set Jaccard at which two API names are one family (above 1: off)")
	cutoff := fs.String("time-cutoff", "", "a live test split: only samples whose function was authored on or after this `date` (2024-06-01)")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected arguments %q", pos)
	}
	r, err := split.ParseRatios(*ratios)
	if err != nil {
		return usagef("--ratios: %v", err)
	}
	if *sim <= 0 {
		return usagef("--name-similarity must be above 0")
	}
	tc, err := timeCutoff(*cutoff)
	if err != nil {
		return err
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
	var p *split.Plan
	if _, err = buildSamplesIfAny(ctx, e, s); err == nil {
		p, err = split.Run(ctx, s, split.Options{Seed: *seed, Ratios: r, NameSimilarity: *sim, TimeCutoff: tc})
	}
	rej, err := e.reported(ctx, w, err)
	if err != nil {
		return err
	}
	for _, w := range p.Report.Warnings {
		fmt.Fprintln(e.stderr, "warning: "+w)
	}
	if e.json {
		return e.printJSONWith(p.Report, rej)
	}
	printSplitReport(e.stdout, p.Report)
	return nil
}

// timeCutoff reads a --time-cutoff flag ("" when not given).
func timeCutoff(v string) (string, error) {
	if v == "" {
		return "", nil
	}
	c, err := split.ParseCutoff(v)
	if err != nil {
		return "", usagef("--time-cutoff: %v", err)
	}
	return c, nil
}

// printSplitReport writes the split sizes and the spread of each stratum.
func printSplitReport(w io.Writer, r split.Report) {
	fmt.Fprintf(w, "split %d samples of %d APIs in %d families (seed %d)\n", r.Samples, r.APIs, r.Families, r.Seed)
	if r.TimeCutoff != "" {
		fmt.Fprintf(w, "time cutoff %s: %d samples authored on or after it; test holds only those; left out of every split: %s\n",
			r.TimeCutoff, r.Newer, leftOutText(r.LeftOut))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SPLIT\tSAMPLES\tSHARE\tTARGET\tAPIS\tFAMILIES")
	for _, sr := range r.Splits {
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%d\t%d\n", sr.Name, sr.Samples, sr.Share, sr.Target, sr.APIs, sr.Families)
	}
	tw.Flush()
	strata := []struct {
		name string
		get  func(split.SplitReport) map[string]int
	}{
		{"doc_match_type", func(s split.SplitReport) map[string]int { return s.DocMatchType }},
		{"comments_source", func(s split.SplitReport) map[string]int { return s.CommentsSource }},
		{"http method", func(s split.SplitReport) map[string]int { return s.Methods }},
	}
	for _, st := range strata {
		values := map[string]bool{}
		for _, sr := range r.Splits {
			for v := range st.get(sr) {
				values[v] = true
			}
		}
		keys := slices.Sorted(maps.Keys(values))
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "%s", st.name)
		for _, sr := range r.Splits {
			fmt.Fprintf(tw, "\t%s", sr.Name)
		}
		fmt.Fprintln(tw)
		for _, k := range keys {
			fmt.Fprintf(tw, "%s", k)
			for _, sr := range r.Splits {
				n := st.get(sr)[k]
				pct := 0.0
				if sr.Samples > 0 {
					pct = 100 * float64(n) / float64(sr.Samples)
				}
				fmt.Fprintf(tw, "\t%d (%.1f%%)", n, pct)
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
	if wf := r.Within; wf != nil {
		fmt.Fprintf(w, "\n%d families for %d splits: placed %d groups instead (%s)\n", wf.Families, wf.Splits, wf.Units, wf.Reason)
	}
	if l := r.Largest; l.Samples > 0 {
		fmt.Fprintf(w, "\nlargest family: %s (%d samples, %d APIs", l.Name, l.Samples, len(l.APIs))
		if len(l.Why) > 0 {
			fmt.Fprintf(w, "; joined by %v", l.Why)
		}
		fmt.Fprintln(w, ")")
	}
}

// leftOutText is "before_cutoff N, date_unknown N" (or "none").
func leftOutText(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	counts := map[string]int64{}
	for k, v := range m {
		counts[k] = int64(v)
	}
	return countsLine(counts, len(m))
}

// buildSamplesIfAny turns the store's kept functions into samples (renumbering them
// stably) before a split, so a split always covers what decontam last kept; a store
// of imported samples has no kept functions and keeps the samples it has.
func buildSamplesIfAny(ctx context.Context, e *env, s *store.Store) (*samples.BuildResult, error) {
	res, err := samples.Build(ctx, s)
	if err != nil {
		return nil, err
	}
	if !e.json && res.Samples+res.Removed > 0 {
		fmt.Fprintf(e.stderr, "samples: %d built from kept functions (%d new, %d updated, %d renumbered, %d removed)\n",
			res.Samples, res.Added, res.Updated, res.Renumbered, res.Removed)
	}
	return res, nil
}
