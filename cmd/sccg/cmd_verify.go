package main

import (
	"context"
	"fmt"
	"time"

	"sccg/evaluate"
	"sccg/evaluate/jsbox"
	"sccg/evaluate/sandbox"
	"sccg/evaluate/verify"
	"sccg/release"
)

func runVerify(ctx context.Context, e *env, args []string) error {
	fs := e.flags("verify", "--bench FILE [--bench FILE…] [--out DIR] [--fix] [--db FILE: documented endpoints for --fix]\n\n"+
		"Runs each sample's own code in the sandbox and judges its label: consistent, or route_truncated,\n"+
		"route_mismatch, host_mismatch, method_mismatch, no_request, code_broken, not_self_contained, unreached;\n"+
		"marks exact and near duplicates (also across splits). Several --bench files are one benchmark;\n"+
		"a file named for a split (train.json, test.json, …) gives its records that split.")
	var benches multiFlag
	fs.Var(&benches, "bench", "benchmark `file` in the published format; repeatable")
	out := fs.String("out", "", "write verified.json, clean.json and summary.json into this `dir`")
	fix := fs.Bool("fix", false, "propose a corrected label where one request matches exactly one documented endpoint")
	workers := fs.Int("workers", 0, "parallel sandboxed runs (default GOMAXPROCS)")
	timeout := fs.Duration("timeout", 5*time.Second, "wall-clock limit per sample")
	python := fs.String("python", "", "python interpreter for Python samples (default python3 on PATH, resolved once; JavaScript and TypeScript run in goja)")
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected arguments %q", rest)
	}
	if len(benches) == 0 {
		return usagef("--bench FILE is required")
	}
	var smps []verify.Sample
	for _, b := range benches {
		recs, err := release.ReadFile(b)
		if err != nil {
			return err
		}
		split := release.SplitFromPath(b)
		for _, r := range recs {
			smps = append(smps, verify.Sample{Record: r, Split: split})
		}
	}
	opt := verify.Options{Fix: *fix, Workers: *workers, Progress: e.progress().Start("verify", int64(len(smps))),
		Sandbox: sandbox.Options{Python: *python, Limits: sandbox.Limits{Timeout: *timeout}},
		Runners: evaluate.JavaScriptRunners(jsbox.Options{Timeout: *timeout})}
	if *fix && e.dbSet {
		if opt.Documented, err = documentedEndpoints(ctx, e); err != nil {
			return err
		}
	}
	rep, err := verify.Verify(ctx, smps, opt)
	if err != nil {
		return err
	}
	if *out != "" {
		if err := rep.WriteFiles(*out, smps); err != nil {
			return err
		}
	}
	if e.json {
		return e.printJSON(rep)
	}
	rep.WriteText(e.stdout)
	if *out != "" {
		fmt.Fprintf(e.stdout, "\nwrote %s/verified.json, clean.json (%d samples), summary.json\n", *out, rep.Summary.Clean)
	}
	return nil
}

// documentedEndpoints are the crawled endpoints of the store named by --db.
func documentedEndpoints(ctx context.Context, e *env) ([]verify.Endpoint, error) {
	s, err := e.openStore(ctx)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	apis, err := s.APIs(ctx)
	if err != nil {
		return nil, err
	}
	var out []verify.Endpoint
	for _, a := range apis {
		eps, err := s.Endpoints(ctx, a.ID)
		if err != nil {
			return nil, err
		}
		for _, ep := range eps {
			if ep.IsCurrent {
				out = append(out, verify.Endpoint{Host: ep.Host, Route: ep.Route, Method: ep.Method, Name: ep.Name})
			}
		}
	}
	return out, nil
}
