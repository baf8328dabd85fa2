package main

import (
	"context"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"

	"sccg/provenance"
	"sccg/store"
)

func runStats(ctx context.Context, e *env, args []string) error {
	fs := e.flags("stats", "[--runs N]")
	nRuns := fs.Int("runs", 10, "how many of the last runs to show")
	if _, err := e.parse(fs, args); err != nil {
		return err
	}
	s, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	counts, err := s.Counts(ctx)
	if err != nil {
		return fmt.Errorf("count rows in %s: %w", e.db, err)
	}
	runs, err := s.LastRuns(ctx, *nRuns)
	if err != nil {
		return fmt.Errorf("read runs in %s: %w", e.db, err)
	}
	if runs == nil {
		runs = []store.Run{}
	}
	paths, err := s.IntentPaths(ctx)
	if err != nil {
		return fmt.Errorf("read intents in %s: %w", e.db, err)
	}
	decisions, err := provenance.DecisionBreakdown(ctx, s)
	if err != nil {
		return fmt.Errorf("count decisions in %s: %w", e.db, err)
	}
	langs, err := s.LanguageCounts(ctx)
	if err != nil {
		return fmt.Errorf("count languages in %s: %w", e.db, err)
	}
	v, _ := s.Version(ctx)
	if e.json {
		return e.printJSON(map[string]any{"db": e.db, "schema_version": v, "tables": counts, "intent_paths": paths,
			"decisions": decisions, "languages": langs, "runs": runs})
	}
	fmt.Fprintf(e.stdout, "store %s (schema version %d)\n\n", e.db, v)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	for _, t := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(tw, "%s\t%d\t\n", t, counts[t])
	}
	tw.Flush()
	fmt.Fprintln(e.stdout)
	if len(langs) > 0 {
		fmt.Fprintln(e.stdout, "by language:")
		tw = tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "LANGUAGE\tFUNCTIONS\tCANDIDATES\tKEPT\tSAMPLES\t")
		for _, l := range langs {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", l.Language, l.Functions, l.Candidates, l.Kept, l.Samples)
		}
		tw.Flush()
		fmt.Fprintln(e.stdout)
	}
	if len(paths) > 0 {
		// role/path → counts per role
		byRole := map[string]map[string]int{}
		for k, n := range paths {
			role, path, _ := strings.Cut(k, "/")
			if byRole[role] == nil {
				byRole[role] = map[string]int{}
			}
			byRole[role][path] += int(n)
		}
		fmt.Fprintf(e.stdout, "intents of kept functions by path: %s\n", formatPaths(byRole[store.RoleComment]))
		if p := byRole[store.RolePaired]; len(p) > 0 {
			fmt.Fprintf(e.stdout, "redacted intents beside a human comment: %s\n", formatPaths(p))
		}
		fmt.Fprintln(e.stdout)
	}
	if len(decisions) > 0 {
		fmt.Fprintln(e.stdout, "decisions by stage, verdict and reason ('sccg why SUBJECT' explains one subject):")
		tw = tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "STAGE\tVERDICT\tCOUNT\tREASON")
		for _, d := range decisions {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", d.Stage, d.Verdict, d.Count, d.Reason)
		}
		tw.Flush()
		fmt.Fprintln(e.stdout)
	}
	if len(runs) == 0 {
		fmt.Fprintln(e.stdout, "no runs yet")
		return nil
	}
	tw = tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tSTAGE\tSTATUS\tSTARTED\tENDED\tCOUNTS")
	for _, r := range runs {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%v\n", r.ID, r.Stage, r.Status, r.StartedAt, r.EndedAt, r.Counts)
	}
	return tw.Flush()
}

// version is the module version when built from a tagged module, else "devel".
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

func runVersion(ctx context.Context, e *env, args []string) error {
	fs := e.flags("version", "")
	if _, err := e.parse(fs, args); err != nil {
		return err
	}
	if e.json {
		return e.printJSON(map[string]any{"version": version(), "schema_version": store.SchemaVersion()})
	}
	fmt.Fprintf(e.stdout, "sccg %s (store schema %d)\n", version(), store.SchemaVersion())
	return nil
}
