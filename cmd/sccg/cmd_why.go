package main

import (
	"context"
	"fmt"

	"sccg/provenance"
)

const whyUsage = `SUBJECT

Answers "why is SUBJECT (not) in the benchmark?": every decision on its way from
input to sample, in pipeline order, with its reason, and a last line that says
whether it is in the benchmark and, if not, which decision kept it out.
SUBJECT is any of:
  SCG-000001                   a sample
  42, owner/repo:path:name     a function (its id, or where it is)
  owner/repo/path, path        a mined file (or its URL)
  owner/repo                   a repository
  slug, owner/slug, host       an API
  specs/weather.yaml           a description file given to crawl / build --docs
or KIND:NAME to say which kind (sample, function, file, repo, api, doc). A name
that means several things lists them, each as KIND:NAME.`

func runWhy(ctx context.Context, e *env, args []string) error {
	fs := e.flags("why", whyUsage)
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one SUBJECT (a sample id, function, file, repository, API or description file), got %d arguments", len(pos))
	}
	q := pos[0]
	s, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	x := provenance.NewExplainer(s)
	cs, err := x.Resolve(ctx, q)
	if err != nil {
		return fmt.Errorf("why %s: %w", q, err)
	}
	switch {
	case len(cs) == 0:
		return fmt.Errorf("nothing in %s is called %q: give a sample id, a function (id or owner/repo:path:name), a file, a repository, an API (slug or host) or a description file, or KIND:NAME", e.db, q)
	case len(cs) > 1:
		amb := &provenance.AmbiguousError{Query: q, Candidates: cs}
		if e.json {
			if err := e.printJSON(map[string]any{"query": q, "ambiguous": true, "candidates": cs}); err != nil {
				return err
			}
			return amb
		}
		fmt.Fprintf(e.stderr, "%q means %d things:\n", q, len(cs))
		for _, c := range cs {
			fmt.Fprintf(e.stderr, "  %-40s %s\n", c.Subject, c.Name)
		}
		return amb
	}
	rep, err := x.Explain(ctx, q, cs[0])
	if err != nil {
		return fmt.Errorf("why %s: %w", q, err)
	}
	if e.json {
		return e.printJSON(rep)
	}
	rep.WriteText(e.stdout)
	return nil
}
