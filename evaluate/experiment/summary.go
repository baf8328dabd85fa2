package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"sccg/evaluate"
	"sccg/evaluate/prompts"
	"sccg/evaluate/report"
	"sccg/internal/atomicfile"
	"sccg/release"
	"sccg/store"
)

// Test is one statistics hook's outcome in the grid's summary.
type Test struct {
	// Kind is temporal (time slices of one cell, group-wise), comment_source
	// (human comments vs generated intents of one intent-only cell, group-wise) or
	// contamination (human comment vs redacted intent prompts of the same samples,
	// paired).
	Kind        string                `json:"kind"`
	Model       string                `json:"model"`
	Cell        string                `json:"cell"` // the cell (or, paired, the cell of A)
	A           string                `json:"a"`
	B           string                `json:"b"`
	Comparisons []evaluate.Comparison `json:"comparisons,omitempty"`
	Note        string                `json:"note,omitempty"`
}

// Test kinds.
const (
	TestTemporal      = "temporal"
	TestCommentSource = "comment_source"
	TestContamination = "contamination"
)

// summarize runs the statistics hooks and writes DIR/summary.json (every cell's
// summary groups), DIR/tables.md and DIR/grid.json.
func (r *runner) summarize(ctx context.Context) error {
	g, o := r.g, r.o
	var sums []evaluate.Summary
	var combined evaluate.Summary
	for _, c := range r.idx.Cells {
		if c.summary == nil {
			continue
		}
		sums = append(sums, *c.summary)
		if combined.Isolation == "" {
			combined.Isolation, combined.NetworkNamespace, combined.Python = c.summary.Isolation, c.summary.NetworkNamespace, c.summary.Python
		}
		combined.Groups = append(combined.Groups, c.summary.Groups...)
	}
	if g.Task == prompts.TaskGenerate {
		tests, err := r.tests()
		if err != nil {
			return err
		}
		r.idx.Tests = tests
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Experiment: %s", r.idx.Bench)
	if r.idx.Split != "" {
		fmt.Fprintf(&b, " (%s split)", r.idx.Split)
	}
	fmt.Fprintf(&b, ", %d samples, documentation from %s\n\n", r.idx.Samples, r.idx.Docs)
	b.WriteString("### Settings\n\n| Setting | Prompts | Skipped | Problems |\n| --- | ---: | ---: | --- |\n")
	for _, s := range r.idx.Settings {
		var ps []string
		for _, k := range slices.Sorted(maps.Keys(s.Problems)) {
			ps = append(ps, fmt.Sprintf("%s %d", k, s.Problems[k]))
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s |\n", s.Setting, s.Prompts, s.Skipped, strings.Join(ps, ", "))
	}
	b.WriteString("\n")
	if g.Task == prompts.TaskSelect {
		var groups []prompts.SelectionGroup
		for _, c := range r.idx.Cells {
			if c.Selection != nil {
				groups = append(groups, *c.Selection)
			}
		}
		if err := prompts.WriteSelectionTable(&b, groups); err != nil {
			return err
		}
	} else {
		order := append([]string(nil), g.Settings...)
		order = append(order, SettingHuman, SettingRedacted)
		if err := report.WriteTables(&b, sums, order); err != nil {
			return err
		}
		writeTests(&b, r.idx.Tests)
	}
	if len(r.idx.Notes) > 0 {
		b.WriteString("\n### Notes\n\n")
		for _, n := range r.idx.Notes {
			b.WriteString("- " + n + "\n")
		}
	}
	if err := atomicfile.Write(filepath.Join(o.Dir, "tables.md"), b.Bytes()); err != nil {
		return err
	}
	if len(combined.Groups) > 0 {
		if err := writeJSON(filepath.Join(o.Dir, "summary.json"), combined); err != nil {
			return err
		}
	}
	if err := writeJSON(filepath.Join(o.Dir, "grid.json"), r.idx); err != nil {
		return err
	}
	return r.writeReport(ctx)
}

// writeReport makes the grid's report page (DIR/report: index.html, report.md, the
// figures, a page per sample) from what the grid wrote.
func (r *runner) writeReport(ctx context.Context) error {
	d, err := report.Load(ctx, report.Inputs{Paths: []string{r.o.Dir}, Bench: r.o.Bench.Path})
	if err != nil {
		return fmt.Errorf("experiment: report: %w", err)
	}
	title := "SCCGBench experiment: " + r.idx.Bench
	if r.idx.Split != "" {
		title += " (" + r.idx.Split + ")"
	}
	if _, err := report.Write(ctx, d, filepath.Join(r.o.Dir, "report"), report.Options{Title: title, Rounds: r.g.Stats.Rounds,
		Seed: r.g.Stats.Seed}); err != nil {
		return fmt.Errorf("experiment: report: %w", err)
	}
	return nil
}

// tests are the statistics hooks: per cell the temporal split and (intent-only
// cells) the comment sources, group-wise; per model the paired contamination test.
func (r *runner) tests() ([]Test, error) {
	g := r.g
	co := evaluate.CompareOptions{Metrics: g.Stats.Metrics, Rounds: g.Stats.Rounds, Seed: g.Stats.Seed}
	if len(co.Metrics) == 0 {
		co.Metrics = DefaultMetrics
	}
	if co.Rounds <= 0 {
		co.Rounds = DefaultRounds
	}
	var out []Test
	groupWise := func(kind string, c Cell, field, a, b string) error {
		ga, gb, err := evaluate.SplitBy(c.results, field, a, b)
		if err != nil {
			return err
		}
		t := Test{Kind: kind, Model: c.Model, Cell: c.ID, A: a, B: b}
		na, nb := withEndpoint(ga), withEndpoint(gb)
		if na == 0 || nb == 0 {
			t.Note = fmt.Sprintf("not run: %d completions in %s, %d in %s", na, a, nb, b)
		} else if t.Comparisons, err = evaluate.Compare(ga, gb, co); err != nil {
			return err
		}
		out = append(out, t)
		return nil
	}
	for _, c := range r.idx.Cells {
		if c.results == nil || c.Kind == KindBaseline && (c.Model == "gold" || c.Model == "null") {
			continue // a baseline that ignores its input has nothing to test
		}
		cutoff := g.cutoff(c.Model)
		if err := groupWise(TestTemporal, c, "time_slice", "before_"+cutoff, "from_"+cutoff); err != nil {
			return nil, err
		}
		if c.Setting == prompts.Intent {
			for _, src := range generatedSources(c.results) {
				if err := groupWise(TestCommentSource, c, "comments_source", "original", src); err != nil {
					return nil, err
				}
			}
		}
	}
	byCell := map[string]Cell{}
	for _, c := range r.idx.Cells {
		byCell[c.ID] = c
	}
	for _, c := range r.idx.Cells {
		if c.Setting != SettingHuman {
			continue
		}
		red, ok := byCell[SettingRedacted+"/"+c.Model]
		if !ok {
			continue
		}
		t := Test{Kind: TestContamination, Model: c.Model, Cell: c.ID, A: SettingHuman, B: SettingRedacted}
		cs, err := evaluate.Compare(c.results, red.results, co)
		if err != nil {
			return nil, err
		}
		if len(cs) > 0 && cs[0].Paired == nil {
			t.Note = "no sample prompted both ways"
		}
		t.Comparisons = cs
		out = append(out, t)
	}
	return out, nil
}

// generatedSources are the comment sources other than original among results, in
// order.
func generatedSources(rs []evaluate.Result) []string {
	var out []string
	for _, r := range rs {
		if s := r.CommentsSource; s != "" && s != "original" && s != "none" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

func withEndpoint(rs []evaluate.Result) int {
	n := 0
	for _, r := range rs {
		if r.HasEndpoint {
			n++
		}
	}
	return n
}

// writeTests renders the statistics hooks' outcomes, row by row as the report's
// table of them (report.GridTestRows).
func writeTests(b *bytes.Buffer, tests []Test) {
	if len(tests) == 0 {
		return
	}
	gts := make([]report.GridTest, len(tests))
	for i, t := range tests {
		gts[i] = report.GridTest(t)
	}
	for _, kt := range report.GridTestKinds {
		rows := report.GridTestRows(gts, kt.Kind)
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(b, "\n### %s\n\n| Cell | A | B | Metric | n (A/B) | A | B | Δ | p |\n| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: |\n", kt.Heading)
		for _, r := range rows {
			t := r.Test
			if !r.Ran {
				if t.Note != "" {
					fmt.Fprintf(b, "| %s | %s | %s | – | %s | | | | |\n", t.Cell, t.A, t.B, t.Note)
				}
				continue
			}
			p, n := r.Result, fmt.Sprintf("%d/%d", r.Result.NA, r.Result.NB)
			if r.Paired {
				n = fmt.Sprintf("%d pairs", p.N)
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %.4f | %.4f | %+.4f | %.4f |\n", t.Cell, t.A, t.B, r.Metric, n,
				p.MeanA, p.MeanB, p.Diff, p.P)
		}
	}
}

// intentPairs are the samples with both a human comment and a redacted intent:
// the human comment is a record's comments when they are original (or its
// comments_original field), else a stored original intent; the redacted intent is
// the record's redacted_intent field (what the redact stage exports for a sample
// that keeps its human comment), else a stored intent_redacted that passed
// LeakCheck, else the record's comments when they are one.
func intentPairs(ctx context.Context, st *store.Store, recs []release.Record) (map[string][2]string, error) {
	out := map[string][2]string{}
	for _, r := range recs {
		var human, red string
		switch r.CommentsSource {
		case "original":
			human = prompts.IntentText(r)
		case "intent_redacted":
			red = prompts.IntentText(r)
		}
		if human == "" {
			human = commentsField(r, "comments_original")
		}
		if raw, ok := r.Extra["redacted_intent"]; ok {
			var ri struct {
				Text string `json:"text"`
			}
			if json.Unmarshal(raw, &ri) == nil && strings.TrimSpace(ri.Text) != "" {
				red = strings.TrimSpace(ri.Text)
			}
		}
		smp, err := st.SampleByID(ctx, r.SampleID)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return nil, fmt.Errorf("contamination pairs: %w", err)
		default:
			ins, err := st.Intents(ctx, smp.ID)
			if err != nil {
				return nil, fmt.Errorf("contamination pairs: %w", err)
			}
			for _, in := range ins {
				switch {
				case in.Kind == "original" && human == "":
					human = strings.TrimSpace(in.Text)
				case in.Kind == "intent_redacted" && in.Passed && red == "":
					red = strings.TrimSpace(in.Text)
				}
			}
		}
		if human != "" && red != "" && human != red {
			out[r.SampleID] = [2]string{human, red}
		}
	}
	return out, nil
}

// commentsField joins the texts of a list of comments in a record's extra field.
func commentsField(r release.Record, field string) string {
	raw, ok := r.Extra[field]
	if !ok {
		return ""
	}
	var cs []release.Comment
	if json.Unmarshal(raw, &cs) != nil {
		return ""
	}
	return prompts.IntentText(release.Record{Comments: cs})
}
