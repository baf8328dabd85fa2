package main

import (
	"context"
	"fmt"

	"sccg/evaluate"
)

func runKappa(ctx context.Context, e *env, args []string) error {
	fs := e.flags("kappa", "FILE1 FILE2   (labels: JSONL {id,label}, 'id<TAB>label', 'id,label', or one label per line)")
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 2 {
		return usagef("want two label files, got %d arguments", len(rest))
	}
	k, missing, err := evaluate.KappaOfFiles(rest[0], rest[1])
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSON(map[string]any{"kappa": k, "unpaired": missing})
	}
	fmt.Fprintf(e.stdout, "n=%d observed=%.4f expected=%.4f kappa=%.4f\n", k.N, k.Observed, k.Expected, k.Kappa)
	if len(missing) > 0 {
		fmt.Fprintf(e.stderr, "sccg kappa: %d ids labelled in only one file (left out)\n", len(missing))
	}
	return nil
}
