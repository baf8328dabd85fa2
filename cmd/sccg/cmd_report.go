package main

import (
	"context"
	"os"
	"path/filepath"

	"sccg/evaluate"
)

func runReport(ctx context.Context, e *env, args []string) error {
	fs := e.flags("report", "SUMMARY.json|EVAL_DIR ...   (Markdown tables IV, V, VI on stdout)")
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("want at least one summary.json or eval output directory")
	}
	var sums []evaluate.Summary
	for _, p := range rest {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			p = filepath.Join(p, "summary.json")
		}
		s, err := evaluate.ReadSummary(p)
		if err != nil {
			return err
		}
		sums = append(sums, s)
	}
	if e.json {
		return e.printJSON(sums)
	}
	return evaluate.WriteTables(e.stdout, sums)
}
