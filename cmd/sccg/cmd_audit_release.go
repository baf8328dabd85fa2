package main

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"sccg/decontam"
)

func runAuditRelease(ctx context.Context, e *env, args []string) error {
	fs := e.flags("audit-release", "DIR_OR_FILE")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one export file or directory, got %d arguments", len(pos))
	}
	rep, err := decontam.AuditRelease(ctx, pos[0])
	if err != nil {
		return err
	}
	if e.json {
		if err := e.printJSON(rep); err != nil {
			return err
		}
	} else if rep.OK() {
		fmt.Fprintf(e.stdout, "clean: %d files, %d records, %d strings scanned; no credential, e-mail address or user path left\n",
			len(rep.Files), rep.Records, rep.Strings)
		for _, k := range slices.Sorted(maps.Keys(rep.Placeholders)) {
			fmt.Fprintf(e.stdout, "  <REDACTED_%s> %d\n", k, rep.Placeholders[k])
		}
	} else {
		fmt.Fprintf(e.stdout, "%-12s %-32s %5s %-16s %s\n", "SAMPLE", "FIELD", "LINE", "KIND", "EXCERPT")
		for _, f := range rep.Findings {
			fmt.Fprintf(e.stdout, "%-12s %-32s %5d %-16s %s\n", f.Sample, f.Field, f.Line, f.Kind, f.Excerpt)
		}
	}
	if !rep.OK() {
		return fmt.Errorf("%d findings in %d records: the release is not clean", len(rep.Findings), rep.Records)
	}
	return nil
}
