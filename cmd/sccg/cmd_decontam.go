package main

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"slices"
	"time"

	"sccg/decontam"
	"sccg/provenance"
)

func runDecontam(ctx context.Context, e *env, args []string) error {
	fs := e.flags("decontam", "[--per-repo N] [--per-api N] [--per-endpoint N] [--flat-api-cap] [--blocklist FILE]")
	cf := bindCapFlags(fs, "")
	blockFile := fs.String("blocklist", "", "`file` of repositories (owner/name or owner/*) whose functions are always rejected")
	workers := fs.Int("workers", 0, "redaction workers (0: one per CPU)")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("decontam takes no arguments, got %q", pos)
	}
	caps, err := cf.options()
	if err != nil {
		return err
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
		DecideOptions: decontam.DecideOptions{Blocklist: block, Caps: caps},
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

// capFlags are decontam's caps as flags, shared by decontam and build.
type capFlags struct {
	perRepo, perAPI, perEndpoint *int
	flat                         *bool
}

func bindCapFlags(fs *flag.FlagSet, prefix string) *capFlags {
	return &capFlags{
		perRepo: fs.Int("per-repo", decontam.DefaultPerRepo, prefix+"most samples one repository may contribute (-1: no cap)"),
		perAPI: fs.Int("per-api", decontam.DefaultPerAPI, prefix+"an API's base budget of samples; an API documenting more endpoints "+
			"than this gets ⌈√(per-api × endpoints)⌉ (-1: no cap)"),
		perEndpoint: fs.Int("per-endpoint", decontam.DefaultPerEndpoint, prefix+"most samples one endpoint may contribute once its API holds --per-api (-1: no cap)"),
		flat:        fs.Bool("flat-api-cap", false, prefix+"every API's budget is --per-api, whatever its size"),
	}
}

// options checks the flags and turns them into the caps.
func (f *capFlags) options() (decontam.CapOptions, error) {
	for _, v := range []struct {
		name string
		n    int
	}{{"--per-repo", *f.perRepo}, {"--per-api", *f.perAPI}, {"--per-endpoint", *f.perEndpoint}} {
		if v.n == 0 || v.n < -1 {
			return decontam.CapOptions{}, usagef("%s must be positive or -1, got %d", v.name, v.n)
		}
	}
	return decontam.CapOptions{PerRepo: *f.perRepo, PerAPI: *f.perAPI, PerEndpoint: *f.perEndpoint, FlatAPI: *f.flat}, nil
}
