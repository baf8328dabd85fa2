package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"sccg/align"
	"sccg/crawl"
	"sccg/decontam"
	"sccg/extract"
	"sccg/internal/pipeline"
	"sccg/mine"
	"sccg/minhash"
	"sccg/provenance"
	"sccg/release"
	"sccg/split"
)

func runBuild(ctx context.Context, e *env, args []string) error {
	fs := e.flags("build", "[--docs PATH...] [--local DIR] [--out DIR] [stage flags]\n\n"+
		"Runs crawl (or imports --docs), mine (or walks --local), extract, align, decontam,\n"+
		"redact, sample building, split and (with --out) export into one store. Run it\n"+
		"again after an interruption: every stage resumes where it stopped.")
	var docs, apis multiFlag
	fs.Var(&docs, "docs", "OpenAPI or ToolBench `path` (file or folder) to import instead of crawling RapidAPI; repeatable")
	local := fs.String("local", "", "`dir`ectory of repositories to mine instead of searching GitHub")
	out := fs.String("out", "", "export the benchmark into this `dir`ectory at the end")
	format := fs.String("format", "json", "export format: json or jsonl")
	// crawl
	baseURL := fs.String("base-url", "", "crawl: send RapidAPI requests to this server instead; with --docs, the `URL` relative server URLs of descriptions resolve against")
	rps := fs.Float64("rps", 1, "crawl: requests per second")
	fs.Var(&apis, "api", "crawl: OWNER/SLUG of an API to crawl; repeatable")
	// mine
	apiBase := fs.String("api-base", "", "mine: GitHub REST API root (a replay server)")
	tokenEnv := fs.String("token-env", "GITHUB_TOKEN", "mine: environment variable holding GitHub tokens (comma-separated)")
	maxPerAPI := fs.Int("max-per-api", 0, "mine: stop the looser layers of an API at this many files (0: default)")
	epPerAPI := fs.Int("endpoints-per-api", 0, "mine: endpoints per API given route queries (0: default)")
	maxFile := fs.Int64("max-file-bytes", 0, "mine: reject larger files (0: 1 MB)")
	maxHistory := fs.Int("max-history", mine.DefaultMaxHistory, "mine: GitHub: versions of a file read at most to date its lines")
	langFlag := fs.String("lang", "", "mine: files of these `languages` only, comma-separated: python,javascript,typescript (default all)")
	// extract, align, decontam
	workers := fs.Int("workers", 0, "extract/decontam: workers (0: one per CPU)")
	timeout := fs.Duration("timeout", extract.DefaultTimeout, "extract: time allowed for one file")
	python := fs.String("python", "", "extract: the evaluator's python interpreter, which judges Python functions' syntax (default python3 on PATH; JavaScript and TypeScript: esbuild)")
	threshold := fs.Float64("threshold", minhash.DefaultThreshold, "align: near-duplicate Jaccard threshold")
	perms := fs.Int("perms", minhash.DefaultPerms, "align: MinHash permutations")
	cf := bindCapFlags(fs, "decontam: ")
	blockFile := fs.String("blocklist", "", "decontam: `file` of blocked repositories")
	// redact
	rf := bindRedactFlags(fs, "redact: ")
	// split
	seed := fs.Int64("seed", 1, "split: seed of the assignment")
	ratios := fs.String("ratios", split.FormatRatios(split.DefaultRatios), "split: train,validation,test shares of the samples")
	sim := fs.Float64("name-similarity", split.DefaultNameSimilarity, "split: token-set Jaccard at which API names are one family")
	cutoff := fs.String("time-cutoff", "", "split: a live test split of the samples whose function was authored on or after this `date`")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		if len(docs) == 0 {
			return usagef("unexpected arguments %q (give documentation with --docs)", pos)
		}
		docs = append(docs, pos...) // --docs a.json b.json …
	}
	if _, err := rf.options(e, nil); err != nil {
		return err
	}
	langs, err := parseLangs(*langFlag)
	if err != nil {
		return err
	}
	r, err := split.ParseRatios(*ratios)
	if err != nil {
		return usagef("--ratios: %v", err)
	}
	tc, err := timeCutoff(*cutoff)
	if err != nil {
		return err
	}
	if *format != string(release.JSON) && *format != string(release.JSONL) {
		return usagef("--format must be json or jsonl, not %q", *format)
	}
	if *threshold <= 0 || *threshold > 1 || *perms < 16 || *timeout <= 0 || *workers < 0 {
		return usagef("bad stage flag: --threshold in (0,1], --perms ≥ 16, --timeout > 0, --workers ≥ 0")
	}
	caps, err := cf.options()
	if err != nil {
		return err
	}
	if *local != "" {
		if info, err := os.Stat(*local); err != nil || !info.IsDir() {
			return usagef("--local %s: not a directory", *local)
		}
	}
	var block decontam.Blocklist
	if *blockFile != "" {
		if block, err = decontam.ReadBlocklist(*blockFile); err != nil {
			return usagef("--blocklist: %v", err)
		}
	}
	var tokens []string
	for _, t := range strings.Split(e.getenv(*tokenEnv), ",") {
		if t = strings.TrimSpace(t); t != "" {
			tokens = append(tokens, t)
		}
	}
	if *local == "" && len(tokens) == 0 && *apiBase == "" {
		return usagef("mining GitHub needs tokens in $%s (or use --local DIR)", *tokenEnv)
	}
	s, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	ropt, err := rf.options(e, s)
	if err != nil {
		return err
	}
	o := pipeline.Options{
		Docs: docs, Local: *local, Out: *out, Format: release.Format(*format),
		Crawl: crawl.Options{BaseURL: *baseURL, RPS: *rps, APIs: apis},
		Mine: mine.Options{APIBase: *apiBase, Tokens: tokens, MaxPerAPI: *maxPerAPI, EndpointsPerAPI: *epPerAPI,
			MaxFileBytes: *maxFile, Languages: langs, Logf: e.logf, MaxHistory: *maxHistory},
		Extract:  extract.Options{Workers: *workers, Timeout: *timeout, Logf: e.logf, Python: *python},
		Align:    align.Options{Dedup: align.DedupOptions{Threshold: *threshold, Perms: *perms}},
		Decontam: decontam.Options{DecideOptions: decontam.DecideOptions{Blocklist: block, Caps: caps}, Workers: *workers},
		Redact:   ropt,
		Split:    split.Options{Seed: *seed, Ratios: r, NameSimilarity: *sim, TimeCutoff: tc},
		Progress: e.progress(),
		Now:      e.now,
	}
	if !e.json {
		o.Logf = func(format string, a ...any) { fmt.Fprintf(e.stderr, format+"\n", a...) }
	}
	w, err := provenance.WatchDecisions(ctx, s)
	if err != nil {
		return err
	}
	all := &provenance.Rejections{Groups: []provenance.RejectionGroup{}}
	var rerr error
	o.StageDone = func(pipeline.StageResult) {
		r, err := w.Collect(context.WithoutCancel(ctx))
		if err != nil {
			rerr = fmt.Errorf("read the run's decisions: %w", err)
			return
		}
		all.Add(r)
		if !e.json {
			r.Write(e.stderr, "  ")
		}
	}
	sum, err := pipeline.Build(ctx, s, o)
	if err == nil {
		err = rerr
	}
	if err != nil {
		if sum != nil && !e.json {
			printBuildSummary(e, sum)
		}
		return err
	}
	if e.json {
		return e.printJSONWith(sum, all)
	}
	printBuildSummary(e, sum)
	return nil
}

// printBuildSummary writes one line per stage and the benchmark's size.
func printBuildSummary(e *env, sum *pipeline.Summary) {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STAGE\tSTATUS\tTIME\tCOUNTS")
	for _, st := range sum.Stages {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(st.Counts)) {
			if v := st.Counts[k]; v != 0 {
				parts = append(parts, fmt.Sprintf("%s=%d", k, v))
			}
		}
		line := strings.Join(parts, " ")
		if st.Note != "" {
			line = strings.TrimSpace(line + "  (" + st.Note + ")")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", st.Stage, st.Status, st.Elapsed.Round(time.Millisecond), line)
	}
	tw.Flush()
	if sum.Samples > 0 {
		fmt.Fprintf(e.stdout, "\n%d samples: train %d, validation %d, test %d\n", sum.Samples,
			sum.Splits[release.Train], sum.Splits[release.Validation], sum.Splits[release.Test])
		if len(sum.LeftOut) > 0 {
			fmt.Fprintf(e.stdout, "left out of every split by the time cutoff: %s\n", leftOutText(sum.LeftOut))
		}
	}
	if len(sum.IntentPaths) > 0 {
		fmt.Fprintf(e.stdout, "intents by path: %s\n", formatPaths(sum.IntentPaths))
	}
}
