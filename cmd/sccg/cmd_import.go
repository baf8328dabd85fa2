package main

import (
	"context"
	"fmt"

	"sccg/provenance"
	"sccg/release"
	"sccg/samples"
)

func runImport(ctx context.Context, e *env, args []string) error {
	fs := e.flags("import", "FILE [--split NAME]")
	splitName := fs.String("split", "", "split of records that carry no \"split\" field (train, validation or test)")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one benchmark file (JSON array or JSON Lines), got %d arguments", len(pos))
	}
	if *splitName != "" {
		if _, err := release.NormalizeName(*splitName); err != nil {
			return usagef("--split: %v", err)
		}
	}
	recs, err := release.ReadFile(pos[0])
	if err != nil {
		return err
	}
	s, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	w, err := provenance.WatchDecisions(ctx, s)
	if err != nil {
		return err
	}
	res, err := samples.Import(ctx, s, recs, samples.ImportOptions{Split: *splitName, Source: pos[0]})
	rej, err := e.reported(ctx, w, err)
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSONWith(res, rej)
	}
	fmt.Fprintf(e.stdout, "imported %d records from %s into %s", res.Records, pos[0], e.db)
	if res.Assigned > 0 {
		fmt.Fprintf(e.stdout, " (%d given new sample ids)", res.Assigned)
	}
	fmt.Fprintln(e.stdout)
	for _, name := range release.Names {
		if n := res.Splits[name]; n > 0 {
			fmt.Fprintf(e.stdout, "  %-10s %d\n", name, n)
		}
	}
	if len(res.Splits) == 0 {
		fmt.Fprintln(e.stdout, "  no split known: run 'sccg split' to assign one")
	}
	return nil
}
