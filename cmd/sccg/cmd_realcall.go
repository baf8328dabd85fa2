package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"sccg/evaluate/realcall"
)

const realcallUsage = `--bench FILE --results PATH [--results PATH]... [--allow-host HOST]... [--resolve HOST=URL]...
       [--key-env NAME] [--max-calls N] [--live] --out DIR

The bounded real-call validation (the paper's §VI): does a request Mock scores as
a hit reach a real, answering endpoint? Requests are rebuilt from what sccg eval
recorded (never by running generated code). Each service is screened with its gold
request (pass the output of sccg eval --gold among --results); only services that
answer 2xx go on, with a sample of Mock-positive and Mock-negative requests. Given
the gold results only, it is a screen: every eligible service is called with its
gold request, and the services that answered are listed ("which services of my
benchmark still answer?").

Safety: GET (or HEAD where the code asked) without a body only; no route or
parameter naming a write; only services the crawled metadata marks FREE, or hosts
given with --allow-host; no private, loopback or link-local address (checked on the
address dialled) but where --resolve sends a host; no redirect to another host; the
key only from the variable --key-env names, only in the headers the service
documents (X-RapidAPI-Key and X-RapidAPI-Host on RapidAPI), written nowhere; a rate
limit per host and a total budget of calls. Without --live nothing is sent: the
plan is printed. Calls sent are kept in the store (--db); a rerun skips them.`

func runRealcall(ctx context.Context, e *env, args []string) error {
	fs := e.flags("realcall", realcallUsage)
	bench := fs.String("bench", "", "benchmark `file` in the published format (or an export directory)")
	var results, allow, resolve multiFlag
	fs.Var(&results, "results", "an sccg eval output `path` (results.jsonl, its directory, or a directory holding them: a grid); repeatable")
	fs.Var(&allow, "allow-host", "a `host` whose service may be called though not marked FREE (other ecosystems); repeatable")
	fs.Var(&resolve, "resolve", "`HOST=URL`: send HOST's requests to the base URL (plain http and loopback allowed there: stand-ins); repeatable")
	keyEnv := fs.String("key-env", "", "the environment variable `NAME` holding the key (e.g. RAPIDAPI_KEY); never written anywhere")
	maxCalls := fs.Int("max-calls", realcall.DefaultMaxCalls, "total budget of requests sent, retries and redirects included (over reruns)")
	positives := fs.Int("positives", realcall.DefaultPositives, "Mock-positive requests sampled per API")
	negatives := fs.Int("negatives", realcall.DefaultNegatives, "Mock-negative requests sampled per API")
	rate := fs.Float64("rate", realcall.DefaultRate, "requests per second per host")
	retries := fs.Int("retries", realcall.DefaultRetries, "retries of a 429 or 5xx answer (within the budget, honouring Retry-After)")
	timeout := fs.Duration("timeout", realcall.DefaultTimeout, "time limit per request")
	seed := fs.Uint64("seed", 1, "seed of the per-API sample")
	live := fs.Bool("live", false, "send the requests (without it: a dry run that prints the plan and sends nothing)")
	out := fs.String("out", "", "output `dir`ectory for realcall.json")
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected arguments %q", rest)
	}
	if *bench == "" || len(results) == 0 || *out == "" {
		return usagef("--bench, --results and --out are required")
	}
	if *maxCalls < 0 || *positives < 0 || *negatives < 0 || *retries < 0 || *rate <= 0 {
		return usagef("--max-calls, --positives, --negatives and --retries take a number ≥ 0, --rate one > 0")
	}
	o := realcall.Options{BenchPath: *bench, AllowHosts: allow, Resolve: map[string]string{}, MaxCalls: *maxCalls,
		Positives: *positives, Negatives: *negatives, Rate: *rate, Retries: *retries, Timeout: *timeout, Seed: *seed,
		Live: *live, Now: e.now, Sleep: e.sleep}
	if *retries == 0 {
		o.Retries = -1
	}
	for _, r := range resolve {
		h, u, err := realcall.ParseResolve(r)
		if err != nil {
			return usagef("%v", err)
		}
		o.Resolve[h] = u
	}
	if *keyEnv != "" {
		o.KeyEnv, o.Key = *keyEnv, e.getenv(*keyEnv)
		if o.Key == "" {
			return usagef("--key-env %s: the variable is unset or empty", *keyEnv)
		}
	}
	b, err := loadBench(ctx, nil, *bench, "")
	if err != nil {
		return err
	}
	o.Bench = b.Samples
	for _, p := range results {
		rs, files, err := realcall.ReadResults(p)
		if err != nil {
			return err
		}
		o.Results = append(o.Results, rs...)
		o.ResultPaths = append(o.ResultPaths, files...)
	}
	st, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	rep, err := realcall.Run(ctx, st, o)
	if err != nil {
		return err
	}
	if err := realcall.Write(*out, rep); err != nil {
		return err
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(e.stderr, "sccg realcall: %s\n", p)
	}
	if e.json {
		return e.printJSON(rep)
	}
	printRealcall(e, rep, filepath.Join(*out, realcall.File))
	return nil
}

// printRealcall prints the plan (dry run) or the rates (live), the services
// screened out and every exclusion by reason.
func printRealcall(e *env, rep *realcall.Report, path string) {
	w := e.stdout
	byStatus := map[string]int{}
	for _, s := range rep.Services {
		byStatus[s.Status]++
	}
	if !rep.Live {
		golds, pos, neg, resumed := 0, 0, 0, 0
		for _, c := range rep.Calls {
			if c.Resumed {
				resumed++
				continue
			}
			switch c.Group {
			case realcall.GroupGold:
				golds++
			case realcall.GroupPositive:
				pos++
			default:
				neg++
			}
		}
		screen := ""
		if rep.ScreenOnly {
			screen = " (gold results only: a screen of every eligible service)"
		}
		fmt.Fprintf(w, "realcall plan (dry run: nothing sent; --live sends)%s: %d services, %d to screen with their gold request, %d screened out, %d with nothing to validate\n",
			screen, len(rep.Services), byStatus[realcall.ServicePlanned], byStatus[realcall.ServiceScreened], byStatus[realcall.ServiceNotChecked])
		fmt.Fprintf(w, "  would send %d calls (before retries): %d gold, %d Mock-positive, %d Mock-negative; budget %d (%d already used); %d calls already in the store\n",
			rep.Budget.Planned, golds, pos, neg, rep.Budget.Max, rep.Budget.Used, resumed)
		if rep.Budget.Planned > rep.Budget.Max-rep.Budget.Used {
			fmt.Fprintf(w, "  the budget covers only %d of them: gold requests first, then the samples round-robin\n", max(rep.Budget.Max-rep.Budget.Used, 0))
		}
	} else if rep.ScreenOnly {
		fmt.Fprintf(w, "realcall screen (gold results only): gold %s\n", rep.Gold)
		fmt.Fprintf(w, "  %d of %d services called with their gold request answered 2xx: %s\n", len(rep.Answered),
			rep.Gold.N+rep.Gold.Failed, answeredText(rep))
		fmt.Fprintf(w, "  budget: %d of %d calls used\n", rep.Budget.Used, rep.Budget.Max)
	} else {
		fmt.Fprintf(w, "realcall: %s\n", rep.Summary())
		fmt.Fprintf(w, "  %d of %d APIs with a Mock-positive call answered had at least one 2xx; %d services reachable, %d screened out\n",
			rep.APIsWithSuccess, rep.APIsWithPositive, byStatus[realcall.ServiceReachable], byStatus[realcall.ServiceScreened])
		for _, a := range rep.PerAPI {
			fmt.Fprintf(w, "  %s: Mock-positive %s; Mock-negative %s\n", a.API, a.Positive, a.Negative)
		}
		fmt.Fprintf(w, "  budget: %d of %d calls used\n", rep.Budget.Used, rep.Budget.Max)
	}
	if !rep.Options.KeyGiven {
		fmt.Fprintln(w, "  no key: --key-env was not given, so services that need one will answer 401/403")
	}
	for _, s := range rep.ScreenedOut() {
		fmt.Fprintf(w, "  screened out: %s (%s): %s", s.API, s.Host, s.Reason)
		if s.Detail != "" {
			fmt.Fprintf(w, ": %s", s.Detail)
		}
		fmt.Fprintln(w)
	}
	if n := excludedCount(rep); n > 0 {
		fmt.Fprintf(w, "  excluded %d of %d requests considered: %s\n", n, len(rep.Items), rep.ExcludedText())
	}
	fmt.Fprintf(w, "wrote %s\n", path)
}

// answeredText names the services whose gold request answered 2xx, with their hosts.
func answeredText(rep *realcall.Report) string {
	if len(rep.Answered) == 0 {
		return "none"
	}
	hosts := map[string]string{}
	for _, s := range rep.Services {
		hosts[s.API] = s.Host
	}
	parts := make([]string, len(rep.Answered))
	for i, a := range rep.Answered {
		parts[i] = fmt.Sprintf("%s (%s)", a, hosts[a])
	}
	return strings.Join(parts, ", ")
}

func excludedCount(rep *realcall.Report) int {
	n := 0
	for _, v := range rep.Excluded {
		n += v
	}
	return n
}
