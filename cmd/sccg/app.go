package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"sccg/internal/progress"
	"sccg/store"
)

// env is everything a command may touch outside its arguments: streams, the
// environment, the clock. Tests build one with buffers and a fixed clock.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	now            func() time.Time
	stderrIsTTY    bool
	// sleep waits before an LLM retry; nil means a real wait. Tests make it instant.
	sleep func(ctx context.Context, d time.Duration) error

	// global options, settable before or after the subcommand
	db      string
	dbSet   bool // --db was given, before or after the subcommand
	json    bool
	verbose bool
}

// defaultDB is the store --db names when it is not given.
const defaultDB = "sccg.db"

func newEnv() *env {
	return &env{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		getenv: os.Getenv, now: time.Now,
		stderrIsTTY: term.IsTerminal(int(os.Stderr.Fd())),
		db:          defaultDB,
	}
}

// command is one subcommand: its name, a one-line summary and what runs it.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e *env, args []string) error
}

// commands is the CLI, in the order `sccg help` lists it.
var commands = []command{
	{"crawl", "fetch API documentation (RapidAPI Hub, OpenAPI, ToolBench) into endpoint metadata", runCrawl},
	{"mine", "find source files (Python, JavaScript, TypeScript) that call the crawled APIs (GitHub code search, --local DIR, or --corpus on Apache Beam)", runMine},
	{"corpus", "pack a folder of repositories as a Parquet corpus shard (corpus pack)", runCorpus},
	{"extract", "extract request functions and their static facts from mined files", runExtract},
	{"align", "bind each candidate function to the documented endpoint it calls", runAlign},
	{"decontam", "drop templates and wrappers, de-duplicate, cap, redact credentials", runDecontam},
	{"redact", "write leak-free intents for the kept samples", runRedact},
	{"split", "assign samples to API-level train/validation/test splits", runSplit},
	{"export", "write the benchmark in the published SCCGBench JSON format", runExport},
	{"import", "load a benchmark in the published format into the store", runImport},
	{"build", "run every stage in order into one store", runBuild},
	{"demo", "build and evaluate the embedded snapshot end to end, offline", runDemo},
	{"prompts", "write generation prompts for a benchmark", runPrompts},
	{"generate", "ask a model (OpenAI-compatible endpoint) for completions", runGenerate},
	{"baseline", "produce baseline generations (gold, null, doc-template, bm25-nearest-train)", runBaseline},
	{"experiment", "run a grid of settings × models × samples: prompts, generations, evaluation, tables", runExperiment},
	{"retrieve", "score endpoint retrieval (Host@K, Endpoint@K)", runRetrieve},
	{"eval", "run generations in the sandbox and score them", runEval},
	{"realcall", "the bounded real-call validation: does a Mock hit reach a real, answering endpoint (dry run by default)", runRealcall},
	{"verify", "check a benchmark's labels against each sample's own code; duplicates across splits", runVerify},
	{"diff", "what changed between two releases: samples added, retired, relabelled and unchanged, matched by code identity", runDiff},
	{"compare", "paired and group-wise permutation tests between two result sets", runCompare},
	{"kappa", "Cohen's kappa between two label files", runKappa},
	{"leakcheck", "check intents for leaks of the ground truth", runLeakcheck},
	{"why", "why is a description file, API, repository, file, function or sample (not) in the benchmark: every decision on its way", runWhy},
	{"audit", "show the whole lineage of one sample (sccg why takes any subject)", runAudit},
	{"audit-release", "scan an export for credentials, emails and user paths (fails closed)", runAuditRelease},
	{"report", "the paper's tables and figures as a self-contained web page and Markdown, with a page per sample", runReport},
	{"stats", "row counts per table, decisions by stage, verdict and reason, and the last runs", runStats},
	{"version", "print the sccg version and store schema version", runVersion},
}

// usageError is a mistake in how sccg was called; it exits 2.
type usageError struct{ msg string }

func (u *usageError) Error() string { return u.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// errNotBuilt says a command's issue has not landed yet.
type errNotBuilt struct{ issue int }

func (e errNotBuilt) Error() string {
	if e.issue == 0 {
		return "not built yet"
	}
	return fmt.Sprintf("not built yet (issue #%d)", e.issue)
}

// run executes one sccg invocation and returns its exit code: 0 success, 1 failure,
// 2 usage error. It is the one place where errors become exit codes.
func run(ctx context.Context, args []string, e *env) int {
	global := flag.NewFlagSet("sccg", flag.ContinueOnError)
	global.SetOutput(io.Discard)
	e.bindGlobal(global)
	if err := global.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printHelp(e.stdout)
			return 0
		}
		fmt.Fprintf(e.stderr, "sccg: %v\n", err)
		printHelp(e.stderr)
		return 2
	}
	rest := global.Args()
	if len(rest) == 0 {
		printHelp(e.stderr)
		return 2
	}
	name := rest[0]
	if name == "help" || name == "-h" || name == "--help" {
		printHelp(e.stdout)
		return 0
	}
	cmd, ok := lookup(name)
	if !ok {
		fmt.Fprintf(e.stderr, "sccg: unknown command %q (see 'sccg help')\n", name)
		return 2
	}
	err := cmd.run(ctx, e, rest[1:])
	var ue *usageError
	var nb errNotBuilt
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(e.stderr, "sccg %s: %v\n", name, err)
		return 2
	case errors.As(err, &nb):
		fmt.Fprintf(e.stderr, "sccg %s: %v\n", name, err)
		return 1
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(e.stderr, "sccg %s: interrupted; run it again to resume\n", name)
		return 1
	default:
		fmt.Fprintf(e.stderr, "sccg %s: %v\n", name, err)
		return 1
	}
}

func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "usage: sccg [--db FILE] [--json] [--verbose] <command> [flags]")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-14s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'sccg <command> --help' for a command's flags.")
}

func (e *env) bindGlobal(fs *flag.FlagSet) {
	fs.Var(dbFlag{e}, "db", "SQLite store `file` (default "+defaultDB+")")
	fs.BoolVar(&e.json, "json", e.json, "machine-readable JSON output on stdout")
	fs.BoolVar(&e.verbose, "verbose", e.verbose, "more detail on stderr")
}

// dbFlag is the --db flag: it records that the store was named, so commands that
// write the store only when asked (eval) or pick their own default (demo) can tell.
type dbFlag struct{ e *env }

func (f dbFlag) String() string {
	if f.e == nil {
		return ""
	}
	return f.e.db
}

func (f dbFlag) Set(v string) error {
	if v == "" {
		return errors.New("empty store file name")
	}
	f.e.db, f.e.dbSet = v, true
	return nil
}

// flags returns a FlagSet for a subcommand with the global flags already bound, so
// `sccg stats --db x.db` and `sccg --db x.db stats` mean the same.
func (e *env) flags(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: sccg %s %s\n\nflags:\n", name, usage)
		fs.PrintDefaults()
	}
	e.bindGlobal(fs)
	return fs
}

// parse parses args with flags and positional arguments in any order and returns the
// positional ones. A bad flag is a usage error.
func (e *env) parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &usageError{err.Error()}
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil // the terminator: the rest is positional
		}
		args = rest
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// openStore opens the store named by --db.
func (e *env) openStore(ctx context.Context) (*store.Store, error) {
	return store.Open(ctx, e.db, store.WithClock(e.now))
}

// progress returns the reporter long stages use: a bar on a terminal, plain lines
// otherwise, nothing with --json.
func (e *env) progress() *progress.Reporter {
	mode := progress.Lines
	switch {
	case e.json:
		mode = progress.Off
	case e.stderrIsTTY:
		mode = progress.Bar
	}
	return &progress.Reporter{W: e.stderr, Mode: mode, Now: e.now}
}

// printJSON writes v as indented JSON on stdout.
func (e *env) printJSON(v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// logf writes a line to stderr when --verbose is on.
func (e *env) logf(format string, a ...any) {
	if e.verbose {
		fmt.Fprintf(e.stderr, format+"\n", a...)
	}
}
