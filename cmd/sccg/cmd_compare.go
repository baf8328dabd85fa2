package main

import (
	"context"
	"fmt"
	"strings"

	"sccg/evaluate"
)

func runCompare(ctx context.Context, e *env, args []string) error {
	fs := e.flags("compare", "A B | --by FIELD --groups X,Y A   (results.jsonl files or eval output directories)")
	metricList := fs.String("metric", "mock,es,codebleu,endpoint_acc,host_acc", "metrics to test, comma-separated")
	rounds := fs.Int("rounds", 10000, "permutations per test")
	seed := fs.Uint64("seed", 1, "random seed (same seed, same p-values)")
	by := fs.String("by", "", "compare two strata of ONE result set: doc_match_type, comments_source, time_slice, setting, model, language")
	groups := fs.String("groups", "", "the two strata values for --by, e.g. original,intent_redacted")
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	var a, b []evaluate.Result
	switch {
	case *by != "":
		g := strings.Split(*groups, ",")
		if len(rest) != 1 || len(g) != 2 {
			return usagef("--by wants one result set and --groups X,Y")
		}
		all, err := evaluate.ReadResults(rest[0])
		if err != nil {
			return err
		}
		if a, b, err = evaluate.SplitBy(all, *by, strings.TrimSpace(g[0]), strings.TrimSpace(g[1])); err != nil {
			return usagef("%v", err)
		}
	case len(rest) != 2:
		return usagef("want two result sets, got %d arguments", len(rest))
	default:
		if a, err = evaluate.ReadResults(rest[0]); err != nil {
			return err
		}
		if b, err = evaluate.ReadResults(rest[1]); err != nil {
			return err
		}
	}
	var ms []string
	for _, m := range strings.Split(*metricList, ",") {
		if m = strings.TrimSpace(m); m != "" {
			ms = append(ms, m)
		}
	}
	cs, err := evaluate.Compare(a, b, evaluate.CompareOptions{Metrics: ms, Rounds: *rounds, Seed: *seed})
	if err != nil {
		return usagef("%v", err)
	}
	if e.json {
		return e.printJSON(cs)
	}
	fmt.Fprintf(e.stdout, "| Metric | Paired n | A | B | Δ | p (paired) | Group n (A/B) | A | B | Δ | p (group-wise) |\n")
	fmt.Fprintf(e.stdout, "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |\n")
	for _, c := range cs {
		paired := "| 0 | – | – | – | –"
		if p := c.Paired; p != nil {
			paired = fmt.Sprintf("| %d | %.4f | %.4f | %+.4f | %.4f", p.N, p.MeanA, p.MeanB, p.Diff, p.P)
		}
		g := c.GroupWise
		fmt.Fprintf(e.stdout, "| %s %s | %d/%d | %.4f | %.4f | %+.4f | %.4f |\n", c.Metric, paired, g.NA, g.NB, g.MeanA, g.MeanB, g.Diff, g.P)
	}
	return nil
}
