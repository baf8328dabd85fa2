package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"sccg/evaluate"
	"sccg/release"
)

const diffUsage = `OLD NEW   (two releases: export directories or release files)

What changed between two builds of the benchmark: their samples matched by code
identity (repository, commit, file, function), listed as added, retired, relabelled
(host, route or method changed) and unchanged, with both sides' sample ids.`

func runDiff(ctx context.Context, e *env, args []string) error {
	fs := e.flags("diff", diffUsage)
	unchanged := fs.Bool("unchanged", false, "list the unchanged samples too (they are counted either way)")
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 2 {
		return usagef("want two releases OLD NEW, got %d arguments", len(rest))
	}
	var sides [2][]release.Record
	for i, p := range rest {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := evaluate.LoadBench(p, "")
		if err != nil {
			return err
		}
		sides[i] = b.All
	}
	d := release.Compare(sides[0], sides[1])
	d.Old, d.New = rest[0], rest[1]
	if e.json {
		return e.printJSON(d)
	}
	writeDiff(e.stdout, d, *unchanged)
	return nil
}

// writeDiff prints a diff: the counts, then every added, retired and relabelled
// sample (and, with all, the unchanged ones).
func writeDiff(w io.Writer, d *release.Diff, all bool) {
	fmt.Fprintf(w, "diff %s (%d samples) → %s (%d samples): added %d, retired %d, relabelled %d, unchanged %d\n",
		d.Old, d.OldSamples, d.New, d.NewSamples, len(d.Added), len(d.Retired), len(d.Relabelled), len(d.Unchanged))
	lists := []struct {
		name string
		es   []release.DiffEntry
	}{{"added", d.Added}, {"retired", d.Retired}, {"relabelled", d.Relabelled}}
	if all {
		lists = append(lists, struct {
			name string
			es   []release.DiffEntry
		}{"unchanged", d.Unchanged})
	}
	for _, l := range lists {
		if len(l.es) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s (%d), by API: %s\n", l.name, len(l.es), apiCounts(release.ByAPI(l.es)))
		for _, x := range l.es {
			fmt.Fprintf(w, "  %s  %s\n", diffIDs(x), x.Code)
			switch {
			case len(x.Changed) > 0:
				fmt.Fprintf(w, "      %s → %s  (%s changed)\n", labelText(x.Old), labelText(x.New), strings.Join(x.Changed, ", "))
			case x.New != nil:
				fmt.Fprintf(w, "      %s\n", labelText(x.New))
			default:
				fmt.Fprintf(w, "      %s\n", labelText(x.Old))
			}
		}
	}
}

func diffIDs(x release.DiffEntry) string {
	old, nu := x.OldID, x.NewID
	if old == "" {
		old = "-"
	}
	if nu == "" {
		nu = "-"
	}
	return fmt.Sprintf("%-10s → %-10s", old, nu)
}

func labelText(l *release.Label) string {
	if l == nil {
		return "-"
	}
	route := l.Route
	if route == "" {
		route = "(no route)"
	}
	return fmt.Sprintf("%s %s %s%s", l.API, l.Method, l.Host, route)
}

// apiCounts is "api N, api N" with the largest first.
func apiCounts(m map[string]int) string {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b string) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
