package report

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"sccg/release"
)

// DefaultRounds is how many permutations each stratum test runs by default.
const DefaultRounds = 2000

// Options configure a report.
type Options struct {
	Title  string // default "SCCGBench report"
	Rounds int    // permutations per stratum test; default DefaultRounds
	Seed   uint64 // seed of the permutation tests; default 1
	// Lineage, when set, returns what `sccg audit` shows of a sample, or "" when its
	// store has no such sample. The caller supplies it: the report imports no
	// builder stage.
	Lineage func(ctx context.Context, sampleID string) (string, error)
}

func (o Options) withDefaults() Options {
	if o.Title == "" {
		o.Title = "SCCGBench report"
	}
	if o.Rounds <= 0 {
		o.Rounds = DefaultRounds
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// page is a whole report: its sections of tables and figures, what it was made
// from, and the samples.
type page struct {
	Title    string
	Inputs   *table
	Sections []*section
	Problems []string
	Samples  *sampleIndex
}

// section is a part of the report: tables, figures and the notes of what is left
// out, in order.
type section struct {
	ID    string
	Title string
	Items []item
}

// item is one table, a row of figures, or the note saying why one is left out.
type item struct {
	Table   *table
	Figures []*figure
	Omitted string
}

func (s *section) table(t *table) {
	if t != nil {
		s.Items = append(s.Items, item{Table: t})
	}
}

// figure adds a figure, beside the figures just before it.
func (s *section) figure(f *figure) {
	if f == nil {
		return
	}
	if n := len(s.Items); n > 0 && s.Items[n-1].Figures != nil {
		s.Items[n-1].Figures = append(s.Items[n-1].Figures, f)
		return
	}
	s.Items = append(s.Items, item{Figures: []*figure{f}})
}

func (s *section) omit(format string, a ...any) {
	s.Items = append(s.Items, item{Omitted: fmt.Sprintf(format, a...)})
}

// build lays out the report.
func build(ctx context.Context, d *Data, o Options) (*page, error) {
	rank := newSettingRank(d.settingsOrder())
	groups := collectGroups(d.Sets, rank)
	p := &page{Title: o.Title, Problems: d.Problems, Inputs: inputsTable(d)}

	ds := &section{ID: "dataset", Title: "Dataset"}
	if d.Stats != nil {
		ds.table(tableII(d.Stats, d.StatsPath))
	} else {
		ds.omit("Table II (dataset statistics) is left out: no stats.json was given (pass an export directory, or --stats FILE).")
	}
	if len(d.Bench) > 0 {
		f, err := figLOC(d.Bench)
		if err != nil {
			return nil, err
		}
		ds.figure(f)
		if f, err = figLorenz(d.Bench); err != nil {
			return nil, err
		}
		ds.figure(f)
	} else {
		ds.omit("The effective-LOC distribution and the Lorenz curve of samples per API are left out: no benchmark was given (--bench FILE, or an export directory).")
	}
	if years, from := updateYears(d.Bench, d.Stats); len(years) > 0 {
		f, err := figYears(years, from)
		if err != nil {
			return nil, err
		}
		ds.figure(f)
	} else {
		ds.omit("The repository update-year histogram is left out: neither a benchmark nor a stats.json was given.")
	}
	p.Sections = append(p.Sections, ds)

	rq1 := &section{ID: "executability", Title: "Static similarity and executability (RQ1)"}
	rq2 := &section{ID: "grounding", Title: "Information augmentation and retrieval (RQ2)"}
	dec := &section{ID: "decoding", Title: "Decoding diversity"}
	st := &section{ID: "strata", Title: "Strata and statistics tests (RQ3)"}
	if len(groups) == 0 {
		rq1.omit("Tables IV–VI and the failure-attribution figure are left out: no evaluation results were given (an `sccg eval` output directory or an `sccg experiment` grid).")
		rq2.omit("Table VII and the staircase figure are left out: no evaluation results were given.")
		dec.omit("pass@k is left out: no evaluation results were given.")
		st.omit("The strata are left out: no evaluation results were given.")
	} else {
		rq1.table(tableIV(groups))
		rq1.table(tableV(groups))
		if t := tableVLanguages(groups); t != nil {
			rq1.table(t)
		}
		rq1.table(tableAnswers(groups))
		if t := tableDepRecall(groups); t != nil {
			rq1.table(t)
		} else {
			rq1.omit("Dependency recall is left out: no summary measures it (summaries written before sccg eval measured dep_recall, or no gold code imports a third-party module).")
		}
		rq1.table(tableVI(groups))
		f, err := figFailures(groups)
		if err != nil {
			return nil, err
		}
		rq1.figure(f)
		if t := tableVII(groups); t != nil {
			rq2.table(t)
			if t := tableVIILanguages(groups); t != nil {
				rq2.table(t)
			}
			f, err := figStaircase(groups, rank)
			if err != nil {
				return nil, err
			}
			rq2.figure(f)
		} else {
			rq2.omit("Table VII (the staircase) and its figure are left out: no model was evaluated in more than one setting.")
		}
		if t := tableAttribution(groups); t != nil {
			rq2.table(t)
			f, err := figAttribution(groups)
			if err != nil {
				return nil, err
			}
			rq2.figure(f)
		} else {
			rq2.omit("Where grounding fails (retrieval, selection, generation) is left out: no evaluation was given the prompts of a setting that shows documents (`sccg eval --prompts FILE`, or a grid with a RAG or oracle setting).")
		}
		if t := tablePassAtK(groups); t != nil {
			dec.table(t)
		} else {
			dec.omit("pass@k is left out: no summary has it.")
		}
		to := testOptions{Rounds: o.Rounds, Seed: o.Seed}
		for _, s := range strata {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			t, err := tableStratum(groups, s, to)
			if err != nil {
				return nil, err
			}
			switch {
			case t != nil:
				st.table(t)
			case s.field == "language":
				// summaries break results down by language only when one is not Python
			default:
				st.omit("%s is left out: no summary breaks its results down by %s.", s.title, s.field)
			}
		}
		st.table(tableNoEndpoint(groups))
	}
	st.table(tableCutoffs(d))
	st.table(tableGridTests(d.Grids))
	rq2.table(tableSelection(d.Grids))
	if len(d.Retrieval) > 0 {
		rq2.table(tableVIII(d.Retrieval))
		rq2.table(tableRanking(d.Retrieval))
		f, err := figRetrieval(d.Retrieval)
		if err != nil {
			return nil, err
		}
		rq2.figure(f)
	} else {
		rq2.omit("Table VIII (retrieval hit rates) and the Host@K / Endpoint@K curves are left out: no retrieval report was given (`sccg retrieve --out FILE.json`).")
	}
	p.Sections = append(p.Sections, rq1, rq2, dec, st)
	if d.Diff != nil {
		p.Sections = append(p.Sections, diffSection(d.Diff))
	}
	if len(d.RealCalls) > 0 {
		rc, err := realCallSection(d)
		if err != nil {
			return nil, err
		}
		p.Sections = append(p.Sections, rc)
	}

	idx, err := buildSamples(ctx, d, groups, o)
	if err != nil {
		return nil, err
	}
	p.Samples = idx
	return p, nil
}

// inputsTable lists what the report was made from.
func inputsTable(d *Data) *table {
	t := newTable("table-inputs", "Inputs", "What this report was made from.", "Input", "Kind", "Contents")
	t.Text = true
	if d.BenchPath != "" {
		t.add(d.BenchPath, "benchmark", fmt.Sprintf("%d samples", len(d.Bench)))
	}
	if d.StatsPath != "" {
		t.add(d.StatsPath, "dataset statistics", fmt.Sprintf("%d samples", d.Stats.Total.Samples))
	}
	for _, g := range d.Grids {
		t.add(g.Dir, "experiment grid", fmt.Sprintf("%d cells, settings %v", len(g.Index.Cells), g.Index.Grid.Settings))
	}
	var isolations []string
	isoSets := map[string]int{}
	for _, s := range d.Sets {
		kind := "evaluation"
		if s.Grid != nil {
			kind = "grid cell"
		}
		what := plural(len(s.Summary.Groups), "group")
		switch {
		case s.FromResults:
			what += fmt.Sprintf(", %d completions (summary computed from results.jsonl)", len(s.Results))
		case s.Results != nil:
			what += fmt.Sprintf(", %d completions", len(s.Results))
		default:
			what += ", summary only"
		}
		t.add(s.Name, kind, what)
		if iso := s.Summary.Isolation; iso != "" {
			if !slices.Contains(isolations, iso) {
				isolations = append(isolations, iso)
			}
			isoSets[iso]++
		}
	}
	for _, iso := range isolations {
		t.add(iso, "sandbox isolation", "of "+plural(isoSets[iso], "result set"))
	}
	realCallInputs(t, d)
	for _, r := range d.Retrieval {
		t.add(r.Path, "retrieval report", fmt.Sprintf("%s over %s (%d documents), %d queries", r.Name, r.Corpus.Source, r.Corpus.Documents, r.Queries))
	}
	return t
}

// recordsByID indexes the benchmark.
func recordsByID(recs []release.Record) map[string]*release.Record {
	m := make(map[string]*release.Record, len(recs))
	for i := range recs {
		if _, dup := m[recs[i].SampleID]; !dup {
			m[recs[i].SampleID] = &recs[i]
		}
	}
	return m
}

func itoa(n int) string { return strconv.Itoa(n) }

// plural is "1 group", "2 groups".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
