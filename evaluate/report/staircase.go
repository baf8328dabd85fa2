package report

import (
	"strconv"
	"strings"

	"sccg/evaluate"
)

// StaircaseMarkdown renders Table VII of summaries (each model across the settings
// it ran in, the settings in order, then the paper's) as the report's Markdown
// does, or "" when no model ran in two settings. `sccg experiment` puts it in its
// tables.md.
func StaircaseMarkdown(sums []evaluate.Summary, order []string) string {
	sets := make([]*ResultSet, len(sums))
	for i := range sums {
		sets[i] = &ResultSet{Name: strconv.Itoa(i + 1), Summary: sums[i]}
	}
	t := tableVII(collectGroups(sets, newSettingRank(order)))
	if t == nil {
		return ""
	}
	var b strings.Builder
	markdownTable(&b, t, true)
	return b.String()
}
