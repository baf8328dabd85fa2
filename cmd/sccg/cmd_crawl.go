package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"sccg/crawl"
	"sccg/provenance"
)

const crawlUsage = `[--source rapidapi|openapi|toolbench] [flags] [PATH...]
       sccg crawl export-openapi [--out FILE] OWNER/SLUG

Fetches API documentation into the store. With --source rapidapi (the default) it
crawls the RapidAPI Hub: the APIs named with --api/--apis, or those found by
--category/--query, or every API the hub lists. With --source openapi or toolbench
it imports the files or folders given as PATH. Rerunning resumes: what is stored is
not fetched again unless --refresh.`

func runCrawl(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 && args[0] == "export-openapi" {
		return runCrawlExport(ctx, e, args[1:])
	}
	fs := e.flags("crawl", crawlUsage)
	var o crawl.Options
	var cats, queries, apis multiFlag
	var apisFile string
	fs.StringVar(&o.Source, "source", crawl.SourceRapidAPI, "documentation `source`: rapidapi, openapi or toolbench")
	fs.StringVar(&o.BaseURL, "base-url", "", "rapidapi: send hub requests to this `URL` instead of "+crawl.HubURL+" (a replay server); openapi: resolve relative server URLs of descriptions against it")
	fs.Var(&cats, "category", "discover the APIs of this hub `category` (repeatable)")
	fs.Var(&queries, "query", "discover the APIs matching this `keyword` (repeatable)")
	fs.Var(&apis, "api", "crawl this `OWNER/SLUG` or playground URL (repeatable)")
	fs.StringVar(&apisFile, "apis", "", "crawl the APIs listed in `FILE` (OWNER/SLUG or playground URLs, one per line)")
	fs.StringVar(&o.Discovery, "discovery", "graphql", "how --category/--query search: graphql (the gateway) or pages (HTML listings)")
	fs.Float64Var(&o.RPS, "rps", 1, "at most this many `requests` per second")
	fs.IntVar(&o.MaxAttempts, "max-attempts", 4, "attempts per request on 429 and 5xx")
	fs.StringVar(&o.UserAgent, "user-agent", crawl.DefaultUserAgent, "User-Agent header")
	fs.BoolVar(&o.Refresh, "refresh", false, "fetch and import again what the store already has (conditional requests)")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	switch o.Source {
	case crawl.SourceRapidAPI:
		if len(pos) > 0 {
			return usagef("unexpected arguments %q: PATHs are for --source openapi or toolbench", pos)
		}
	case crawl.SourceOpenAPI, crawl.SourceToolBench:
		if len(pos) == 0 {
			return usagef("--source %s needs at least one PATH", o.Source)
		}
		if len(apis) > 0 || apisFile != "" || len(cats) > 0 || len(queries) > 0 {
			return usagef("--api, --apis, --category and --query are for --source rapidapi")
		}
	default:
		return usagef("unknown --source %q (want rapidapi, openapi or toolbench)", o.Source)
	}
	if o.Discovery != "graphql" && o.Discovery != "pages" {
		return usagef("unknown --discovery %q (want graphql or pages)", o.Discovery)
	}
	if o.RPS <= 0 {
		return usagef("--rps must be positive")
	}
	o.Categories, o.Queries, o.APIs, o.Paths = cats, queries, apis, pos
	if apisFile != "" {
		list, err := crawl.ReadAPIList(apisFile)
		if err != nil {
			return usagef("%v", err)
		}
		o.APIs = append(o.APIs, list...)
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
	o.Now = e.now
	bar := e.progress().Start("crawl", 0)
	o.Progress = bar
	sum, err := crawl.Run(ctx, s, o)
	bar.Done()
	rej, err := e.reported(ctx, w, err)
	if sum != nil {
		if e.json {
			if jerr := e.printJSONWith(sum, rej); jerr != nil && err == nil {
				err = jerr
			}
		} else {
			printCrawlSummary(e, sum)
		}
	}
	return err
}

// printCrawlSummary writes the run's figures on stdout (its rejections and
// warnings are the command's, named by the decision watch every stage shares).
func printCrawlSummary(e *env, s *crawl.Summary) {
	fmt.Fprintf(e.stdout, "crawl %s (run %d): %d target(s), %d API(s) saved with %d endpoint(s), %d already done, %d bad, %d partly read, %d warning(s)\n",
		s.Source, s.RunID, s.Targets, s.Saved, s.Endpoints, s.Skipped, s.Bad, s.Changed, s.Warnings)
	if s.Reimported+s.Removed > 0 {
		fmt.Fprintf(e.stdout, "%d changed description(s) imported again, %d API(s) removed (their description is gone or changed)\n",
			s.Reimported, s.Removed)
	}
	if s.Source == crawl.SourceRapidAPI {
		fmt.Fprintf(e.stdout, "requests: %d answered, %d served from the store, %d retried\n", s.Fetched, s.Reused, s.Retries)
	}
}

func runCrawlExport(ctx context.Context, e *env, args []string) error {
	fs := e.flags("crawl export-openapi", "[--out FILE] OWNER/SLUG")
	out := fs.String("out", "", "write to `FILE` instead of stdout")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("export-openapi takes one OWNER/SLUG (or SLUG for an API without owner)")
	}
	owner, slug, ok := strings.Cut(pos[0], "/")
	if !ok {
		owner, slug = "", pos[0]
	}
	if slug == "" || strings.Contains(slug, "/") {
		return usagef("export-openapi %q: want OWNER/SLUG", pos[0])
	}
	s, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	doc, err := crawl.ExportOpenAPI(ctx, s, owner, slug)
	if err != nil {
		return err
	}
	if err := crawl.ValidateOpenAPI(ctx, doc); err != nil {
		return fmt.Errorf("export-openapi %s: stored document does not validate: %w", pos[0], err)
	}
	doc = append(doc, '\n')
	if *out == "" {
		_, err = e.stdout.Write(doc)
		return err
	}
	if err := os.WriteFile(*out, doc, 0o644); err != nil {
		return fmt.Errorf("export-openapi: %w", err)
	}
	e.logf("wrote %s", *out)
	return nil
}
