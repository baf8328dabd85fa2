package report

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"sccg/release"
)

// maxDiffRows is how many samples each list of the release diff shows.
const maxDiffRows = 200

// diffSection is what changed between two releases: the counts by API, and the
// samples added, retired and relabelled (`sccg diff`).
func diffSection(d *release.Diff) *section {
	s := &section{ID: "diff", Title: "What changed between the releases"}
	counts := newTable("table-diff", "Samples by what changed",
		fmt.Sprintf("From %s (%d samples) to %s (%d samples): samples matched by code identity (repository, commit, file, function); "+
			"relabelled means its host, route or method changed.", d.Old, d.OldSamples, d.New, d.NewSamples),
		"API", "Added", "Retired", "Relabelled", "Unchanged").numeric(1)
	per := []map[string]int{release.ByAPI(d.Added), release.ByAPI(d.Retired), release.ByAPI(d.Relabelled), release.ByAPI(d.Unchanged)}
	apis := map[string]bool{}
	for _, m := range per {
		for a := range m {
			apis[a] = true
		}
	}
	for _, a := range slices.Sorted(maps.Keys(apis)) {
		counts.add(a, strconv.Itoa(per[0][a]), strconv.Itoa(per[1][a]), strconv.Itoa(per[2][a]), strconv.Itoa(per[3][a]))
	}
	counts.add("all", strconv.Itoa(len(d.Added)), strconv.Itoa(len(d.Retired)), strconv.Itoa(len(d.Relabelled)), strconv.Itoa(len(d.Unchanged)))
	s.table(counts)
	for _, l := range []struct {
		id, title string
		es        []release.DiffEntry
	}{{"table-diff-added", "Added samples", d.Added}, {"table-diff-retired", "Retired samples", d.Retired},
		{"table-diff-relabelled", "Relabelled samples", d.Relabelled}} {
		if len(l.es) == 0 {
			continue
		}
		caption := fmt.Sprintf("%d samples.", len(l.es))
		if len(l.es) > maxDiffRows {
			caption = fmt.Sprintf("The first %d of %d samples (`sccg diff --json` lists them all).", maxDiffRows, len(l.es))
		}
		t := newTable(l.id, l.title, caption, "Old id", "New id", "Code", "Old label", "New label", "Changed")
		t.Text = true
		for i, e := range l.es {
			if i == maxDiffRows {
				break
			}
			t.add(e.OldID, e.NewID, e.Code.String(), diffLabel(e.Old), diffLabel(e.New), strings.Join(e.Changed, ", "))
		}
		s.table(t)
	}
	return s
}

func diffLabel(l *release.Label) string {
	if l == nil {
		return ""
	}
	return fmt.Sprintf("%s: %s %s%s", l.API, l.Method, l.Host, l.Route)
}
