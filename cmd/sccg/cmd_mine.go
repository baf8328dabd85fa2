package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"sccg/internal/blame"
	"sccg/lang"
	"sccg/mine"
	"sccg/mine/corpus"
	"sccg/provenance"
)

// mineClock reads the env's clock and sleeps on the wall clock.
type mineClock struct{ now func() time.Time }

func (c mineClock) Now() time.Time { return c.now() }

func (c mineClock) Sleep(ctx context.Context, d time.Duration) error {
	return mine.RealClock{}.Sleep(ctx, d)
}

func runMine(ctx context.Context, e *env, args []string) error {
	fs := e.flags("mine", "[--local DIR | --api-base URL | --corpus GLOB [--runner R] [--out DIR] [-- BEAM FLAGS] | --load DIR] [flags]")
	local := fs.String("local", "", "mine a `directory` of repositories (git clones or plain folders) instead of searching GitHub")
	corpusGlob := fs.String("corpus", "", "mine a bulk corpus: a Parquet or JSONL `shard or glob` (local or gs://), on Apache Beam (runs sccg-beam)")
	format := fs.String("format", "", "the corpus shards' format, parquet or jsonl (default: from each name)")
	runner := fs.String("runner", "prism", "the Beam `runner` of --corpus: prism (in this machine), dataflow, flink, spark, universal")
	out := fs.String("out", "corpus-out", "where --corpus writes its output shards (a `directory`, local or gs://)")
	shards := fs.Int("shards", 16, "output shards of --corpus (each is held in one worker's memory while written)")
	load := fs.String("load", "", "load the outputs of a --corpus run from a local `directory` into the store")
	apiBase := fs.String("api-base", "", "GitHub REST API root `URL` (default https://api.github.com/)")
	tokenEnv := fs.String("token-env", "GITHUB_TOKEN", "environment `variable` holding GitHub tokens, comma-separated")
	maxPerAPI := fs.Int("max-per-api", mine.DefaultMaxPerAPI, "skip the looser query layers of an API once it has this many files")
	endpointsPerAPI := fs.Int("endpoints-per-api", mine.DefaultEndpointsPerAPI, "endpoints per API that get URL and route queries")
	maxFileBytes := fs.Int64("max-file-bytes", mine.DefaultMaxFileBytes, "reject files larger than this many bytes")
	searchRate := fs.Int("search-per-minute", mine.DefaultSearchPerMinute, "code searches per token and minute (negative: no pacing)")
	maxTries := fs.Int("max-tries", mine.DefaultMaxTries, "rate-limited tries of one request before giving up on it")
	maxHistory := fs.Int("max-history", mine.DefaultMaxHistory, "GitHub: versions of a file read at most to date its lines (older lines stay undated)")
	var apis multiFlag
	fs.Var(&apis, "api", "mine only the API with this `slug` (repeatable)")
	langFlag := fs.String("lang", "", "mine files of these `languages` only, comma-separated: python,javascript,typescript (default all)")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	langs, err := parseLangs(*langFlag)
	if err != nil {
		return err
	}
	sources := 0
	for _, s := range []string{*local, *apiBase, *corpusGlob, *load} {
		if s != "" {
			sources++
		}
	}
	switch {
	case len(pos) > 0 && *corpusGlob == "":
		return usagef("no arguments expected, got %q", pos)
	case sources > 1:
		return usagef("--local, --api-base, --corpus and --load exclude each other")
	case *corpusGlob != "" && *shards <= 0:
		return usagef("--shards must be positive")
	case *maxPerAPI <= 0 || *endpointsPerAPI <= 0 || *maxFileBytes <= 0 || *maxTries <= 0 || *maxHistory <= 0:
		return usagef("--max-per-api, --endpoints-per-api, --max-file-bytes, --max-tries and --max-history must be positive")
	case *searchRate == 0:
		return usagef("--search-per-minute must not be 0 (negative disables pacing)")
	}
	if *corpusGlob != "" {
		args := []string{"--db", e.db, "--corpus", *corpusGlob, "--runner", *runner, "--out", *out,
			"--shards", strconv.Itoa(*shards), "--max-file-bytes", strconv.FormatInt(*maxFileBytes, 10),
			"--endpoints-per-api", strconv.Itoa(*endpointsPerAPI)}
		if *format != "" {
			args = append(args, "--format", *format)
		}
		if *langFlag != "" {
			args = append(args, "--lang", *langFlag)
		}
		for _, a := range apis {
			args = append(args, "--api", a)
		}
		if e.json {
			args = append(args, "--json")
		}
		if e.verbose {
			args = append(args, "--verbose")
		}
		return e.runBeam(ctx, append(args, pos...))
	}
	if *load != "" {
		return mineLoad(ctx, e, *load)
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
	w, err := provenance.WatchDecisions(ctx, st)
	if err != nil {
		return err
	}
	opts := mine.Options{APIBase: *apiBase, Tokens: tokens, Clock: mineClock{e.now}, MaxPerAPI: *maxPerAPI,
		EndpointsPerAPI: *endpointsPerAPI, MaxFileBytes: *maxFileBytes, SearchPerMinute: *searchRate, MaxTries: *maxTries,
		APIs: apis, Languages: langs, Logf: e.logf, MaxHistory: *maxHistory}
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
	rej, err := e.reported(ctx, w, err)
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSONWith(stats, rej)
	}
	skipped := ""
	if stats.Skipped > 0 {
		skipped = fmt.Sprintf(" (%d not the repositories' own source: dependencies, build output, minified or generated)", stats.Skipped)
	}
	fmt.Fprintf(e.stdout, "mined: %d files stored, %d already held, %d rejected%s, %d failed; %d requests (%d search, %d wasted), waited %s\n",
		stats.Stored, stats.Deduped, stats.Rejected, skipped, stats.Failed, stats.Requests, stats.SearchRequests, stats.Wasted, stats.Waited.Round(time.Second))
	if *local != "" {
		fmt.Fprintf(e.stdout, "repositories: %d searched for %d (repository, API) pair(s), %d already searched for every API\n",
			stats.ReposSearched, stats.TargetsSearched, stats.ReposUnchanged)
	}
	if r := stats.Redid(); r != "" {
		fmt.Fprintf(e.stdout, "redid: %s\n", r)
	}
	if stats.LineDates.Dated+stats.LineDates.UndatedTotal() > 0 {
		fmt.Fprintf(e.stdout, "line dates: %d files dated%s\n", stats.LineDates.Dated, undatedText(stats.LineDates))
	}
	return nil
}

// undatedText is ", N undated (why N, …)" for the files whose lines could not be
// dated, by why, or "" when there are none.
func undatedText(c blame.Count) string {
	if len(c.Undated) == 0 {
		return ""
	}
	counts := map[string]int64{}
	for why, k := range c.Undated {
		counts[why] = int64(k)
	}
	return fmt.Sprintf(", %d undated (%s)", c.UndatedTotal(), countsLine(counts, 6))
}

// parseLangs reads a --lang flag: comma-separated language names, "" for all.
func parseLangs(s string) ([]lang.Name, error) {
	var names []string
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	langs, err := mine.Languages(names)
	if err != nil {
		return nil, usagef("--lang: %v", err)
	}
	return langs, nil
}

// beamBinaryName is the binary that runs the corpus pipeline: Beam more than
// doubles sccg's size and cold build time, so it is built on its own
// (cmd/sccg-beam, `make build-beam`).
const beamBinaryName = "sccg-beam"

// beamBinary finds sccg-beam: $SCCG_BEAM, next to this executable, or on PATH.
func (e *env) beamBinary() (string, error) {
	if p := e.getenv("SCCG_BEAM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("SCCG_BEAM names %s: %w", p, err)
		}
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), beamBinaryName)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath(beamBinaryName); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("mining a corpus runs the Beam pipeline in %s, found neither next to sccg nor on PATH: "+
		"build it with `make build-beam` (bin/%s), or name it with SCCG_BEAM", beamBinaryName, beamBinaryName)
}

// runBeam runs sccg-beam with args, its output going to the env's streams; its exit
// code 2 (a usage error) is one here too.
func (e *env) runBeam(ctx context.Context, args []string) error {
	bin, err := e.beamBinary()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, e.stdout, e.stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &ee) && ee.ExitCode() == 2:
		return usagef("%s refused its arguments (see above)", beamBinaryName)
	}
	return fmt.Errorf("%s: %w", beamBinaryName, err)
}

// mineLoad loads the outputs of a corpus run into the store.
func mineLoad(ctx context.Context, e *env, dir string) error {
	st, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	w, err := provenance.WatchDecisions(ctx, st)
	if err != nil {
		return err
	}
	stats, err := corpus.Load(ctx, st, dir, corpus.LoadOptions{Progress: e.progress().Start("mine load", 0), Logf: e.logf})
	rej, err := e.reported(ctx, w, err)
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSONWith(stats, rej)
	}
	fmt.Fprintf(e.stdout, "loaded: %d output shards (%d already loaded), %d files, %d rejected, %d corrupt, %d decisions\n",
		stats.Loaded, stats.Skipped, stats.Files, stats.Rejected, stats.Corrupt, stats.Decisions)
	if stats.Files > 0 {
		fmt.Fprintf(e.stdout, "line dates: %d files dated%s\n", stats.LineDates.Dated, undatedText(stats.LineDates))
	}
	return nil
}
