package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"sccg/align"
	"sccg/minhash"
	"sccg/provenance"
)

func runAlign(ctx context.Context, e *env, args []string) error {
	fs := e.flags("align", "[--threshold J] [--refresh]")
	threshold := fs.Float64("threshold", minhash.DefaultThreshold, "near-duplicate Jaccard threshold over token 5-gram shingles")
	perms := fs.Int("perms", minhash.DefaultPerms, "MinHash permutations")
	refresh := fs.Bool("refresh", false, "align every candidate again, not only those not yet aligned")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("align takes no arguments, got %q", pos)
	}
	if *threshold <= 0 || *threshold > 1 {
		return usagef("--threshold must be in (0, 1], got %g", *threshold)
	}
	if *perms < 16 {
		return usagef("--perms must be at least 16, got %d", *perms)
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
	start := e.now()
	res, err := align.Run(ctx, s, align.Options{
		Dedup:   align.DedupOptions{Threshold: *threshold, Perms: *perms},
		Refresh: *refresh, Progress: e.progress().Start("align", 0),
	})
	rej, err := e.reported(ctx, w, err)
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSONWith(res, rej)
	}
	fmt.Fprintf(e.stdout, "aligned %d of %d candidate functions (%d already done) in %s; %d without an aligned call\n",
		res.Aligned, res.Functions, res.Skipped, e.now().Sub(start).Round(time.Millisecond), res.Unaligned)
	if r := res.Redid(); r != "" {
		fmt.Fprintf(e.stdout, "  %s\n", r)
	}
	for _, k := range []string{align.MatchURL, align.MatchRoute, align.MatchHostOnly} {
		fmt.Fprintf(e.stdout, "  %-10s %d\n", k, res.ByType[k])
	}
	if len(res.Skips) > 0 {
		fmt.Fprintf(e.stdout, "  calls not aligned:")
		for _, k := range slices.Sorted(maps.Keys(res.Skips)) {
			fmt.Fprintf(e.stdout, " %s %d", k, res.Skips[k])
		}
		fmt.Fprintln(e.stdout)
	}
	d := res.Dedup
	fmt.Fprintf(e.stdout, "dedup: %d clusters; %d exact copies in %d groups, %d near-duplicates in %d clusters (largest %d)\n",
		d.Clusters, d.ExactDropped, d.ExactGroups, d.NearDropped, d.NearClusters, d.Largest)
	return nil
}
