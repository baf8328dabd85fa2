package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"sccg/decontam"
	"sccg/provenance"
)

func runDecontam(ctx context.Context, e *env, args []string) error {
	fs := e.flags("decontam", "[--per-repo N] [--per-api N] [--blocklist FILE]")
	perRepo := fs.Int("per-repo", decontam.DefaultPerRepo, "most samples one repository may contribute (-1: no cap)")
	perAPI := fs.Int("per-api", decontam.DefaultPerAPI, "most samples one API may contribute (-1: no cap)")
	blockFile := fs.String("blocklist", "", "`file` of repositories (owner/name or owner/*) whose functions are always rejected")
	workers := fs.Int("workers", 0, "redaction workers (0: one per CPU)")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("decontam takes no arguments, got %q", pos)
	}
	if *perRepo == 0 || *perAPI == 0 || *perRepo < -1 || *perAPI < -1 {
		return usagef("--per-repo and --per-api must be positive or -1, got %d and %d", *perRepo, *perAPI)
	}
	var block decontam.Blocklist
	if *blockFile != "" {
		if block, err = decontam.ReadBlocklist(*blockFile); err != nil {
			return usagef("--blocklist: %v", err)
		}
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
	res, err := decontam.Run(ctx, s, decontam.Options{
		DecideOptions: decontam.DecideOptions{Blocklist: block, Caps: decontam.CapOptions{PerRepo: *perRepo, PerAPI: *perAPI}},
		Workers:       *workers, Progress: e.progress().Start("decontam", 0),
	})
	rej, err := e.reported(ctx, w, err)
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSONWith(res, rej)
	}
	fmt.Fprintf(e.stdout, "kept %d of %d aligned functions in %s; %d rejected (%d templates)\n",
		res.Kept, res.Candidates, e.now().Sub(start).Round(time.Millisecond), res.Rejected, res.Templates)
	for _, k := range slices.Sorted(maps.Keys(res.Reasons)) {
		fmt.Fprintf(e.stdout, "  %-32s %d\n", k, res.Reasons[k])
	}
	fmt.Fprintf(e.stdout, "kept %d callers no callee can stand for, %d promoted over a capped representative (sccg audit shows why)\n",
		res.CallersKept, res.Promoted)
	fmt.Fprintf(e.stdout, "redacted credentials in %d kept functions", res.Redacted)
	for _, k := range slices.Sorted(maps.Keys(res.Redactions)) {
		fmt.Fprintf(e.stdout, "; %s %d", k, res.Redactions[k])
	}
	fmt.Fprintln(e.stdout)
	return nil
}
