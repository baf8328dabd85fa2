package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"sccg/evaluate"
	"sccg/evaluate/jsbox"
	"sccg/evaluate/prompts"
	"sccg/evaluate/report"
	"sccg/evaluate/sandbox"
	"sccg/release"
	"sccg/store"
)

func runEval(ctx context.Context, e *env, args []string) error {
	fs := e.flags("eval", "--bench FILE (--generations FILE | --gold) --out DIR [--db FILE: also store generations and scores, and resume]")
	bench := fs.String("bench", "", "benchmark in the published format (JSON array or JSONL)")
	gens := fs.String("generations", "", "generations JSONL: sample_id, setting, model, sample_index, completion")
	gold := fs.Bool("gold", false, "use each sample's own code as its generation (self-check)")
	promptsFile := fs.String("prompts", "", "the prompts `file` the generations answer: each completion whose prompt showed endpoint documents (RAG,\n"+
		"oracle) is attributed (hit, retrieval_miss, selection_miss, generation_miss) and each group counts them; endpoint-selection\n"+
		"prompts are scored Top-1 / Top-3")
	out := fs.String("out", "", "output `dir` for results.jsonl, summary.json, tables.md")
	workers := fs.Int("workers", 0, "parallel sandboxed runs (default GOMAXPROCS)")
	timeout := fs.Duration("timeout", 5*time.Second, "wall-clock limit per completion")
	memMB := fs.Int("memory-mb", 1024, "address-space limit per completion, MiB")
	ks := fs.String("k", "1", "pass@k values, comma-separated (e.g. 1,3,5)")
	python := fs.String("python", "", "python interpreter for Python samples (default python3 on PATH, resolved once; JavaScript and TypeScript run in goja)")
	cutoff := fs.String("time-cutoff", evaluate.DefaultTimeCutoff, "`date` splitting the time slices: a model's training cutoff (by function_authored_at, else the repository's created_at)")
	noNS := fs.Bool("no-namespaces", false, "do not use user/network namespaces even where the kernel allows them")
	execMode := fs.Bool("exec", false, "start a fresh interpreter (exec) for every completion instead of forking it from a warm fork server.\n"+
		"The default fork server never runs generated code, so no completion can change it or reach the next; it and its\n"+
		"children share user, network, IPC and UTS namespaces of their own, made once (where the kernel allows them; the\n"+
		"summary's isolation says what was granted), and each child gets the same limits and audit hook as an exec, at\n"+
		"about a quarter of the CPU")
	fs.Bool("warm", false, "no effect: the fork server is the default (kept for old scripts)")
	noBatch := fs.Bool("no-batch", false, "run every completion in a forked child of its own; by default tame completions run in\n"+
		"batches, one after another in one forked child that verifies after each that nothing the next could see changed")
	noReuse := fs.Bool("no-reuse", false, "run every completion, even one identical to another of its sample (by default they share one run)")
	partial := fs.Bool("partial", false, "score generations that cover only part of the benchmark's samples (the tables then say n of N);\n"+
		"without it such an evaluation fails")
	split := fs.String("split", "", "score against one split of --bench: an export dir's splits/NAME.json, or the records whose split field names it")
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected arguments %q", rest)
	}
	if *bench == "" || *out == "" {
		return usagef("--bench and --out are required")
	}
	warmSet := false
	fs.Visit(func(f *flag.Flag) { warmSet = warmSet || (f.Name == "warm" && f.Value.String() == "true") })
	if warmSet && *execMode {
		return usagef("--exec and --warm contradict each other")
	}
	if *noBatch && *execMode {
		return usagef("--no-batch has no effect with --exec (which never batches)")
	}
	if *gold == (*gens != "") {
		return usagef("give exactly one of --generations FILE and --gold")
	}
	kList, err := parseKs(*ks)
	if err != nil {
		return err
	}
	if _, err := time.Parse("2006-01-02", *cutoff); err != nil {
		return usagef("--time-cutoff %q: want a date like 2024-06-01", *cutoff)
	}
	// Results go into the store only when --db is given (before or after "eval"); the
	// global default store is not written by an evaluation nobody asked to keep.
	dbSet := e.dbSet

	var splitStore *store.Store
	if dbSet && *split != "" {
		if splitStore, err = e.openStore(ctx); err != nil {
			return err
		}
	}
	b, err := loadBench(ctx, splitStore, *bench, *split)
	if splitStore != nil {
		splitStore.Close()
	}
	if err != nil {
		return err
	}
	recs := b.Samples
	var shown map[string]evaluate.Shown
	if *promptsFile != "" {
		ps, err := prompts.ReadFile(*promptsFile)
		if err != nil {
			return err
		}
		if len(ps) > 0 && ps[0].Task == prompts.TaskSelect {
			if *gold {
				return usagef("--gold scores code; for endpoint selection run 'sccg baseline gold --prompts %s'", *promptsFile)
			}
			return evalSelection(e, recs, ps, *gens, *out)
		}
		shown = prompts.Shown(ps)
	}
	var generations []evaluate.Generation
	var problems []string
	if *gold {
		generations = evaluate.GoldGenerations(recs)
	} else {
		generations, problems, err = evaluate.ReadGenerations(*gens)
		if err != nil {
			return err
		}
	}
	for _, p := range problems {
		fmt.Fprintf(e.stderr, "sccg eval: %s\n", p)
	}

	cfg := evaluate.Config{
		Bench: recs, Generations: generations, Workers: *workers, K: kList, TimeCutoff: *cutoff,
		Sandbox: sandbox.Options{Python: *python, NoNamespaces: *noNS, Exec: *execMode, NoBatch: *noBatch,
			Limits: sandbox.Limits{Timeout: *timeout, MemoryMB: *memMB}},
		NoReuse: *noReuse,
		Runners: evaluate.JavaScriptRunners(jsbox.Options{Workers: *workers, Timeout: *timeout, MemoryMB: *memMB}),
		Shown:   shown,
	}
	cfg.Progress = e.progress().Start("eval", int64(len(generations)))
	finish := func(res *evaluate.Output) error {
		res.Summary.Problems = append(problems, res.Summary.Problems...)
		res.Summary.Malformed = evaluate.Malformed(problems)
		return report.WriteOutputs(*out, res)
	}
	var res *evaluate.Output
	if dbSet {
		st, err := e.openStore(ctx)
		if err != nil {
			return err
		}
		defer st.Close()
		args := map[string]any{"bench": *bench, "generations": *gens, "gold": *gold, "exec": *execMode, "prompts": *promptsFile,
			"workers": *workers, "timeout": timeout.String(), "memory_mb": *memMB, "k": kList, "time_cutoff": *cutoff,
			"no_namespaces": *noNS, "no_batch": *noBatch, "no_reuse": *noReuse}
		res, err = evaluate.RunStored(ctx, st, cfg, args, finish)
		if err != nil {
			return err
		}
	} else {
		if res, err = evaluate.Run(ctx, cfg); err != nil {
			return err
		}
		if err := finish(res); err != nil {
			return err
		}
	}
	for _, p := range res.Problems {
		fmt.Fprintf(e.stderr, "sccg eval: %s\n", p)
	}
	if e.json {
		if err := e.printJSON(res.Summary); err != nil {
			return err
		}
	} else {
		printEvalSummary(e, res.Summary, res.Runs)
		fmt.Fprintf(e.stdout, "wrote %s/results.jsonl, summary.json, tables.md\n", strings.TrimRight(*out, "/"))
	}
	return coverageError(res.Summary, *bench, b.Split, *partial)
}

// coverageError fails an evaluation whose generations cover only part of the
// benchmark's samples, unless that was asked for.
func coverageError(sum evaluate.Summary, bench, split string, partial bool) error {
	if partial {
		return nil
	}
	what := bench
	if split != "" {
		what += " (split " + split + ")"
	}
	for _, g := range sum.Groups {
		if g.Partial() {
			return fmt.Errorf("%s/%s: the generations cover %d of the %d samples of %s%s; scores over a part are not the benchmark's: give --partial to score them anyway",
				g.Setting, g.Model, g.Covered, g.Expected, what, malformedNote(sum.Malformed))
		}
	}
	return nil
}

func malformedNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d malformed line(s) of the generations file were not read)", n)
}

// evalSelection scores answers of the endpoint-selection task.
func evalSelection(e *env, recs []release.Record, ps []prompts.Prompt, gensPath, out string) error {
	gens, problems, err := evaluate.ReadGenerations(gensPath)
	if err != nil {
		return err
	}
	res, err := prompts.ScoreSelection(recs, ps, gens)
	if err != nil {
		return err
	}
	res.Problems = append(problems, res.Problems...)
	for _, p := range res.Problems {
		fmt.Fprintf(e.stderr, "sccg eval: %s\n", p)
	}
	if err := prompts.WriteSelectionOutputs(out, res); err != nil {
		return err
	}
	if e.json {
		return e.printJSON(res)
	}
	for _, g := range res.Groups {
		fmt.Fprintf(e.stdout, "%s/%s: n=%d top1=%.3f top3=%.3f unparsed=%d\n", g.Setting, g.Model, g.N, g.Top1, g.Top3, g.Unparsed)
	}
	fmt.Fprintf(e.stdout, "wrote %s/selection.jsonl, selection.json, tables.md\n", strings.TrimRight(out, "/"))
	return nil
}

func parseKs(s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		k, err := strconv.Atoi(p)
		if err != nil || k < 1 {
			return nil, usagef("--k: %q is not a positive integer", p)
		}
		out = append(out, k)
	}
	return out, nil
}

// printEvalSummary writes the isolation in force, what the sandbox ran (runs may
// be nil) and one line of rates per setting and model.
func printEvalSummary(e *env, sum evaluate.Summary, runs *evaluate.RunCounts) {
	fmt.Fprintf(e.stdout, "isolation: %s\n", sum.Isolation)
	if r := runs; r != nil {
		fmt.Fprintf(e.stdout, "runs: %d (%d completions reused the run of an identical one); in batches %d, in a child of their own %d (%d not tame); batches ended by verification %d, batched runs that failed and ran again %d\n",
			r.Runs, r.Reused, r.Batched, r.Own, r.NotTame, r.Ended, r.Failed)
		if len(r.OwnWhy) > 0 {
			fmt.Fprintf(e.stdout, "  in a child of its own: %s\n", countsLine(r.OwnWhy, 8))
		}
		if r.ServersDropped > 0 {
			fmt.Fprintf(e.stdout, "  fork servers of batches dropped, a batch child's end unreported: %d\n", r.ServersDropped)
		}
		if r.ServersRetired > 0 {
			fmt.Fprintf(e.stdout, "  fork servers retired, a child's scratch directory left so it could not be emptied: %d\n", r.ServersRetired)
		}
		if len(r.FullCompare) > 0 {
			fmt.Fprintf(e.stdout, "  batch children comparing every namespace after each job (slower): %s\n", countsLine(r.FullCompare, 4))
		}
		for _, c := range r.Culprits {
			fmt.Fprintf(e.stdout, "  batch ended: %s\n", c)
		}
		for _, c := range r.Failures {
			fmt.Fprintf(e.stdout, "  batched run failed: %s\n", c)
		}
	}
	if sum.Malformed > 0 {
		fmt.Fprintf(e.stdout, "malformed lines: %d (not scored; their samples are not covered)\n", sum.Malformed)
	}
	if t := sum.TimeSlices; t != nil {
		fmt.Fprintln(e.stdout, t.Text())
	}
	for _, g := range sum.Groups {
		o := g.Overall
		a := g.Answers
		fmt.Fprintf(e.stdout, "%s/%s: covers %d of %d samples; %d truncated, %d with reasoning, %d syntax errors\n",
			g.Setting, g.Model, g.Covered, g.Expected, a.Truncated, a.Reasoning, a.SyntaxErrors)
		fmt.Fprintf(e.stdout, "%s/%s: n=%d syntax=%.3f exec_req=%.3f host=%.3f endpoint=%.3f method=%.3f mock=%.3f robust=%.3f param_f1=%.3f codebleu=%.3f es=%.3f dep_recall=%.3f\n",
			g.Setting, g.Model, o.N, o.Syntax, o.ExecReq, o.HostAcc, o.EndpointAcc, o.MethodAcc, o.Mock, o.Robust, o.ParamF1, o.CodeBLEU, o.ES, o.DepRecall)
		if g.Handed > 0 {
			fmt.Fprintf(e.stdout, "%s/%s: %d completion(s) sent their requests from a function handed to a framework stub (a handler, effect or lifecycle hook), not from the function asked for\n",
				g.Setting, g.Model, g.Handed)
		}
		if g.NoEndpoint != nil {
			fmt.Fprintf(e.stdout, "%s/%s without endpoint: n=%d host=%.3f method=%.3f\n", g.Setting, g.Model, g.NoEndpoint.N, g.NoEndpoint.HostAcc, g.NoEndpoint.MethodAcc)
		}
		if a := g.Attribution; a != nil {
			fmt.Fprintf(e.stdout, "%s/%s attribution: hit %d, retrieval_miss %d, selection_miss %d, generation_miss %d (of %d completions)",
				g.Setting, g.Model, a.Hit, a.RetrievalMiss, a.SelectionMiss, a.GenerationMiss, a.N)
			if len(a.Unattributed) > 0 {
				fmt.Fprintf(e.stdout, "; not attributed: %s", countsLine(intCounts(a.Unattributed), 4))
			}
			fmt.Fprintln(e.stdout)
		}
	}
}

// intCounts widens counts for countsLine.
func intCounts(m map[string]int) map[string]int64 {
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[k] = int64(v)
	}
	return out
}

// countsLine is counts as "reason N, reason N, …", the largest first (ties by
// reason), at most most of them and how many more there are.
func countsLine(counts map[string]int64, most int) string {
	keys := slices.SortedFunc(maps.Keys(counts), func(a, b string) int {
		if c := cmp.Compare(counts[b], counts[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, 0, min(len(keys), most)+1)
	for i, k := range keys {
		if i == most {
			parts = append(parts, fmt.Sprintf("and %d more reasons", len(keys)-most))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", k, counts[k]))
	}
	return strings.Join(parts, ", ")
}
