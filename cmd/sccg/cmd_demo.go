package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"sccg/internal/pipeline"
	"sccg/release"
	"sccg/split"
)

// demoGrid is the experiment the demo runs on the test split: every baseline that
// needs no model, in the intent-only, BM25-retrieval, learned-retrieval (trained
// on the train split) and oracle settings.
const demoGrid = `# The demo's experiment: no model, every baseline, four settings.
split: test
settings: [intent, rag-bm25, rag-learned, oracle-c3]
baselines: [gold, null, doc-template, bm25-nearest-train]
drop_leaks: true
stats:
  rounds: 2000
`

// demoTables are the sections of the report the demo prints at the end.
var demoTables = []string{"Table II", "Table V", "Table VII", "Where grounding fails"}

// runDemo is a tour of the toolkit, offline: it starts the embedded RapidAPI and
// GitHub replay servers, builds the benchmark from them through the real crawl and
// mine code paths (with offline intents), exports it, scores every sample's own code
// (the gold self-check), runs every no-model baseline in four settings, scores BM25
// and the learned retriever, and writes the report. Each step is the command of the same name, run
// in-process on the demo's store.
func runDemo(ctx context.Context, e *env, args []string) error {
	fs := e.flags("demo", "[--out DIR]\n\n"+
		"Builds the benchmark from the embedded snapshot (RapidAPI pages and a synthetic GitHub corpus served\n"+
		"by local replay servers), exports it, scores each sample's own code in the sandbox, runs the baselines\n"+
		"(gold, null, doc-template, bm25-nearest-train) in the intent, rag-bm25, rag-learned and oracle-c3 settings,\n"+
		"scores BM25 and the learned retriever (trained on the train split) and writes the report. The store is DIR/sccg.db unless --db is given. Running it again\n"+
		"resumes.")
	out := fs.String("out", "demo-out", "output `dir`ectory: store, export/, eval/, experiment/, retrieval.json, report/")
	workers := fs.Int("workers", 0, "parallel sandboxed runs (default GOMAXPROCS)")
	timeout := fs.Duration("timeout", 5*time.Second, "wall-clock limit per completion")
	seed := fs.Int64("seed", 1, "split seed")
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected arguments %q", rest)
	}
	if !e.dbSet {
		e.db = filepath.Join(*out, "sccg.db")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	d := &demo{e: e, out: *out, start: e.now()}
	exportDir := d.path("export")
	evalDir, gridDir := d.path("eval"), d.path("experiment")
	retrieval, reportDir := d.path("retrieval.json"), d.path("report")
	gridFile := d.path("grid.yaml")
	realcallDir := d.path("realcall")
	standIns, realcallArgs, err := d.standIns(filepath.Join(exportDir, "sccgbench.json"), evalDir, gridDir, realcallDir)
	if err != nil {
		return err
	}
	defer standIns.Close()
	common := []string{"--db", e.db}
	if *workers > 0 {
		common = append(common, "--workers", fmt.Sprint(*workers))
	}
	limit := []string{"--timeout", timeout.String()}

	if err := d.step("build the benchmark from the replay servers (crawl → mine → extract → align → decontam → redact → split → export)",
		func() error { return d.build(ctx, exportDir, *seed) }); err != nil {
		return err
	}
	steps := []struct {
		what string
		args []string
	}{
		{"gold self-check: every sample's own code in the sandbox",
			append(append([]string{"eval", "--gold", "--bench", filepath.Join(exportDir, "sccgbench.json"), "--out", evalDir}, common...), limit...)},
		{"baselines gold, null, doc-template, bm25-nearest-train × settings intent, rag-bm25, rag-learned, oracle-c3 (test split)",
			[]string{"experiment", "--grid", gridFile, "--bench", exportDir, "--out", gridDir, "--db", e.db}},
		{"endpoint retrieval on the test split, BM25 and the learned ranker trained on the train split (Host@K, Endpoint@K, MRR)",
			append([]string{"retrieve", "--bench", filepath.Join(exportDir, "splits", release.Test+".json"), "--retriever", "bm25,learned",
				"--train", filepath.Join(exportDir, "splits", release.Train+".json"), "--out", retrieval}, common...)},
		{"bounded real-call validation against local stand-ins for the free services (gold screening, Mock-positive and -negative samples)",
			realcallArgs},
		{"the report: tables, figures and a page per sample",
			[]string{"report", "--results", exportDir, "--results", evalDir, "--results", gridDir, "--results", retrieval, "--results", realcallDir,
				"--db", e.db, "--out", reportDir, "--title", "sccg demo: the embedded snapshot"}},
	}
	if err := os.WriteFile(gridFile, []byte(demoGrid), 0o644); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	for _, s := range steps {
		if err := d.step(s.what, func() error { return d.run(ctx, s.args) }); err != nil {
			return err
		}
	}
	md, err := os.ReadFile(filepath.Join(reportDir, "report.md"))
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if e.json {
		return e.printJSON(map[string]any{"store": e.db, "export": exportDir, "eval": evalDir, "experiment": gridDir,
			"retrieval": retrieval, "realcall": realcallDir, "report": filepath.Join(reportDir, "index.html")})
	}
	fmt.Fprintln(e.stdout)
	for _, t := range demoTables {
		if sec := withoutFigures(markdownSection(string(md), t)); sec != "" {
			fmt.Fprintln(e.stdout, sec)
		}
	}
	fmt.Fprintf(e.stdout, "open %s\n\n", filepath.Join(reportDir, "index.html"))
	fmt.Fprintf(e.stdout, "try next:\n  bin/sccg audit --db %s SCG-000001\n  bin/sccg report --results %s --results %s --out %s\n",
		e.db, evalDir, gridDir, d.path("report-again"))
	return nil
}

// demo runs the tour's steps, one progress line each.
type demo struct {
	e     *env
	out   string
	start time.Time
	n     int
}

func (d *demo) path(name string) string { return filepath.Join(d.out, name) }

// step runs one step and says what it did and how long it took.
func (d *demo) step(what string, fn func() error) error {
	d.n++
	begin := d.e.now()
	if !d.e.json {
		fmt.Fprintf(d.e.stderr, "[%d/%d] %s …\n", d.n, demoSteps, what)
	}
	if err := fn(); err != nil {
		return fmt.Errorf("demo step %d (%s): %w", d.n, what, err)
	}
	if !d.e.json {
		fmt.Fprintf(d.e.stderr, "[%d/%d] done in %s\n", d.n, demoSteps, d.e.now().Sub(begin).Round(100*time.Millisecond))
	}
	return nil
}

// demoCommands are the commands the demo runs after the build.
var demoCommands = map[string]func(context.Context, *env, []string) error{
	"eval": runEval, "experiment": runExperiment, "retrieve": runRetrieve, "report": runReport, "realcall": runRealcall,
}

// run runs one sccg command in-process on the demo's store, its own output kept
// back (the demo prints the tables at the end); what it says on stderr is shown
// when it fails.
func (d *demo) run(ctx context.Context, args []string) error {
	var errb bytes.Buffer
	sub := *d.e
	sub.stdout, sub.stderr, sub.json = io.Discard, &errb, true
	if err := demoCommands[args[0]](ctx, &sub, args[1:]); err != nil {
		if msg := strings.TrimSpace(errb.String()); msg != "" {
			return fmt.Errorf("sccg %s: %w (%s)", args[0], err, msg)
		}
		return fmt.Errorf("sccg %s: %w", args[0], err)
	}
	return nil
}

// build runs sccg build against the in-process replay servers.
func (d *demo) build(ctx context.Context, exportDir string, seed int64) error {
	rp, err := pipeline.StartReplay()
	if err != nil {
		return err
	}
	defer rp.Close()
	s, err := d.e.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	o := pipeline.Options{Out: exportDir, Format: release.JSON, Now: d.e.now}
	o.Split.Seed = seed
	o.Split.Ratios = split.DefaultRatios
	rp.Apply(&o)
	if d.e.verbose {
		o.Logf = func(format string, a ...any) { fmt.Fprintf(d.e.stderr, "  "+format+"\n", a...) }
	}
	sum, err := pipeline.Build(ctx, s, o)
	if err != nil {
		return err
	}
	if !d.e.json {
		fmt.Fprintf(d.e.stderr, "      %d samples (train %d, validation %d, test %d) in %s\n", sum.Samples,
			sum.Splits[release.Train], sum.Splits[release.Validation], sum.Splits[release.Test], exportDir)
	}
	return nil
}

// markdownSection returns the section of md whose heading contains title: the
// heading line and everything up to the next heading of the same or a higher level.
func markdownSection(md, title string) string {
	lines := strings.Split(md, "\n")
	start, level := -1, 0
	for i, l := range lines {
		h := strings.TrimLeft(l, "#")
		depth := len(l) - len(h)
		if depth == 0 || !strings.HasPrefix(h, " ") {
			continue
		}
		if start < 0 {
			if strings.Contains(h, title) {
				start, level = i, depth
			}
			continue
		}
		if depth <= level {
			return strings.TrimSpace(strings.Join(lines[start:i], "\n")) + "\n"
		}
	}
	if start < 0 {
		return ""
	}
	return strings.TrimSpace(strings.Join(lines[start:], "\n")) + "\n"
}

// withoutFigures drops a Markdown section's images and their captions (the italic
// line after each), which a terminal cannot show; the page has them.
func withoutFigures(sec string) string {
	var out []string
	skipCaption := false
	for _, l := range strings.Split(sec, "\n") {
		switch {
		case strings.HasPrefix(l, "!["):
			skipCaption = true
			continue
		case skipCaption && strings.HasPrefix(l, "*"):
			skipCaption = false
			continue
		case skipCaption && strings.TrimSpace(l) == "":
			continue
		}
		skipCaption = false
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n")) + "\n"
}
