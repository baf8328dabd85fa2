package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"sccg/mine"
)

// mineClock reads the env's clock and sleeps on the wall clock.
type mineClock struct{ now func() time.Time }

func (c mineClock) Now() time.Time { return c.now() }

func (c mineClock) Sleep(ctx context.Context, d time.Duration) error {
	return mine.RealClock{}.Sleep(ctx, d)
}

func runMine(ctx context.Context, e *env, args []string) error {
	fs := e.flags("mine", "[--local DIR | --api-base URL] [flags]")
	local := fs.String("local", "", "mine a `directory` of repositories (git clones or plain folders) instead of searching GitHub")
	apiBase := fs.String("api-base", "", "GitHub REST API root `URL` (default https://api.github.com/)")
	tokenEnv := fs.String("token-env", "GITHUB_TOKEN", "environment `variable` holding GitHub tokens, comma-separated")
	maxPerAPI := fs.Int("max-per-api", mine.DefaultMaxPerAPI, "skip the looser query layers of an API once it has this many files")
	endpointsPerAPI := fs.Int("endpoints-per-api", mine.DefaultEndpointsPerAPI, "endpoints per API that get URL and route queries")
	maxFileBytes := fs.Int64("max-file-bytes", mine.DefaultMaxFileBytes, "reject files larger than this many bytes")
	searchRate := fs.Int("search-per-minute", mine.DefaultSearchPerMinute, "code searches per token and minute (negative: no pacing)")
	maxTries := fs.Int("max-tries", mine.DefaultMaxTries, "rate-limited tries of one request before giving up on it")
	var apis multiFlag
	fs.Var(&apis, "api", "mine only the API with this `slug` (repeatable)")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return usagef("no arguments expected, got %q", pos)
	case *local != "" && *apiBase != "":
		return usagef("--local and --api-base exclude each other")
	case *maxPerAPI <= 0 || *endpointsPerAPI <= 0 || *maxFileBytes <= 0 || *maxTries <= 0:
		return usagef("--max-per-api, --endpoints-per-api, --max-file-bytes and --max-tries must be positive")
	case *searchRate == 0:
		return usagef("--search-per-minute must not be 0 (negative disables pacing)")
	}
	var tokens []string
	for _, t := range strings.Split(e.getenv(*tokenEnv), ",") {
		if t = strings.TrimSpace(t); t != "" {
			tokens = append(tokens, t)
		}
	}
	if *local == "" && *apiBase == "" && len(tokens) == 0 {
		return usagef("GitHub code search needs a token: set %s (or name another variable with --token-env), or use --local DIR", *tokenEnv)
	}
	st, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	opts := mine.Options{APIBase: *apiBase, Tokens: tokens, Clock: mineClock{e.now}, MaxPerAPI: *maxPerAPI,
		EndpointsPerAPI: *endpointsPerAPI, MaxFileBytes: *maxFileBytes, SearchPerMinute: *searchRate, MaxTries: *maxTries,
		APIs: apis, Logf: e.logf}
	name := "mine github"
	if *local != "" {
		name = "mine local"
	}
	opts.Progress = e.progress().Start(name, 0)
	var stats *mine.Stats
	if *local != "" {
		stats, err = mine.MineLocal(ctx, st, *local, opts)
	} else {
		stats, err = mine.Mine(ctx, st, opts)
	}
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSON(stats)
	}
	fmt.Fprintf(e.stdout, "mined: %d files stored, %d already held, %d rejected, %d failed; %d requests (%d search, %d wasted), waited %s\n",
		stats.Stored, stats.Deduped, stats.Rejected, stats.Failed, stats.Requests, stats.SearchRequests, stats.Wasted, stats.Waited.Round(time.Second))
	return nil
}
