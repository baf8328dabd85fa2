package report

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"sccg/evaluate"
	"sccg/evaluate/retrieve"
	"sccg/release"
)

// sampleIndex is the table of every sample, linking to its page.
type sampleIndex struct {
	Groups []string // the column of each group
	Rows   []sampleRow
	Pages  []*samplePage
	Notes  []string
}

// sampleRow is one sample in the index.
type sampleRow struct {
	ID, File, API, DocMatch, Comments string
	Cells                             []sampleCell
	// Stages lists "gI:stage" for every completion of group I, for the filter.
	Stages string
}

// sampleCell is how a sample fared in one group.
type sampleCell struct {
	Text, Class string
}

// samplePage is everything the report knows about one sample.
type samplePage struct {
	ID, File  string
	Title     string
	Rec       *release.Record
	Intent    string
	Truth     [][2]string
	Retrieval []sampleRetrieval
	Gens      []sampleGen
	Lineage   string
	// LineageNote says why there is no lineage.
	LineageNote string
}

// sampleRetrieval is one retriever's ranks for a sample.
type sampleRetrieval struct {
	Retriever, Query string
	HostRank         string
	EndpointRank     string
	Hits             []string
}

// sampleGen is one scored completion of a sample.
type sampleGen struct {
	Group       string
	Index       int
	Status      string
	Reason      string
	Stage       string
	StageName   string
	Metrics     [][2]string
	Requests    []evaluate.Captured
	Stubbed     string
	Undefined   string
	Completion  string
	Known       bool // the completion's text is known
	HasEndpoint bool
}

var unsafeFile = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// buildSamples makes the sample index and pages: every sample with results, or
// every sample of the benchmark when there are no results.
func buildSamples(ctx context.Context, d *Data, groups []*group, o Options) (*sampleIndex, error) {
	recs := recordsByID(d.Bench)
	bySample := map[string]map[int][]evaluate.Result{} // sample → group → results
	var ids []string
	for i, g := range groups {
		for _, r := range g.Results {
			per := bySample[r.SampleID]
			if per == nil {
				per = map[int][]evaluate.Result{}
				bySample[r.SampleID] = per
				ids = append(ids, r.SampleID)
			}
			per[i] = append(per[i], r)
		}
	}
	if len(ids) == 0 {
		for _, r := range d.Bench {
			ids = append(ids, r.SampleID)
		}
	}
	slices.SortFunc(ids, func(a, b string) int {
		return cmp.Or(cmp.Compare(release.IDNumber(a), release.IDNumber(b)), strings.Compare(a, b))
	})
	ids = slices.Compact(ids)
	idx := &sampleIndex{}
	for _, g := range groups {
		idx.Groups = append(idx.Groups, g.label())
	}
	retrieval := map[string][]sampleRetrieval{}
	for _, rep := range d.Retrieval {
		for _, s := range rep.Samples {
			retrieval[s.SampleID] = append(retrieval[s.SampleID], retrievalOf(rep, s))
		}
	}
	files := map[string]bool{}
	unknown, lineageErrs := 0, 0
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rec := recs[id]
		file := unsafeFile.ReplaceAllString(id, "_")
		for base, n := file, 2; files[strings.ToLower(file)]; n++ {
			file = fmt.Sprintf("%s-%d", base, n)
		}
		files[strings.ToLower(file)] = true
		file = "samples/" + file + ".html"
		pg := &samplePage{ID: id, File: file, Title: id, Rec: rec, Retrieval: retrieval[id]}
		row := sampleRow{ID: id, File: file, Cells: make([]sampleCell, len(groups))}
		if rec != nil {
			pg.Title = fmt.Sprintf("%s · %s · %s", id, rec.APIName, rec.FunctionName)
			pg.Intent = intentOf(rec)
			pg.Truth = truthOf(rec)
			row.API, row.DocMatch, row.Comments = rec.APIHost, rec.APIMetadata.DocMatchType, rec.CommentsSource
		}
		var stages []string
		per := bySample[id]
		for i, g := range groups {
			rs := per[i]
			if len(rs) == 0 {
				row.Cells[i] = sampleCell{Text: "–", Class: "none"}
				continue
			}
			slices.SortFunc(rs, func(a, b evaluate.Result) int { return cmp.Compare(a.SampleIndex, b.SampleIndex) })
			hits := 0
			for _, r := range rs {
				if r.FailureStage == evaluate.StageHit {
					hits++
				}
				stages = append(stages, fmt.Sprintf("g%d:%s", i, r.FailureStage))
				row.DocMatch = cmp.Or(row.DocMatch, r.DocMatchType)
				row.Comments = cmp.Or(row.Comments, r.CommentsSource)
				sg := genOf(d, g, r, rec)
				if !sg.Known {
					unknown++
				}
				pg.Gens = append(pg.Gens, sg)
			}
			row.Cells[i] = cellOf(rs, hits)
		}
		row.Stages = strings.Join(slices.Compact(stages), " ")
		if o.Lineage != nil {
			text, err := o.Lineage(ctx, id)
			switch {
			case err != nil:
				pg.LineageNote = fmt.Sprintf("The lineage could not be read: %v", err)
				lineageErrs++
			case text == "":
				pg.LineageNote = "The store holds no sample with this id."
			default:
				pg.Lineage = text
			}
		} else {
			pg.LineageNote = "No store was given (--db): the lineage `sccg audit` shows is not part of this report."
		}
		idx.Rows = append(idx.Rows, row)
		idx.Pages = append(idx.Pages, pg)
	}
	if unknown > 0 {
		idx.Notes = append(idx.Notes, fmt.Sprintf("The text of %d completions is not known: give their generations file (--generations FILE) or the store that scored them (--db).", unknown))
	}
	if lineageErrs > 0 {
		d.problemf("the lineage of %d samples could not be read from the store", lineageErrs)
	}
	return idx, nil
}

func cellOf(rs []evaluate.Result, hits int) sampleCell {
	if len(rs) == 1 {
		st := rs[0].FailureStage
		return sampleCell{Text: shortStage(st), Class: "st-" + cmp.Or(st, "none")}
	}
	class := "st-part"
	switch hits {
	case 0:
		class = "st-" + cmp.Or(rs[0].FailureStage, "none")
	case len(rs):
		class = "st-hit"
	}
	return sampleCell{Text: fmt.Sprintf("%d/%d hit", hits, len(rs)), Class: class}
}

func shortStage(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// intentOf is the natural-language task of a sample: its comments.
func intentOf(r *release.Record) string {
	var ts []string
	for _, c := range r.Comments {
		if t := strings.TrimSpace(c.Text); t != "" {
			ts = append(ts, t)
		}
	}
	return strings.Join(ts, "\n")
}

// truthOf lists a sample's ground truth: the documented endpoint it calls.
func truthOf(r *release.Record) [][2]string {
	m := &r.APIMetadata
	out := [][2]string{{"API", fmt.Sprintf("%s (%s)", r.APIName, r.APIHost)}, {"Function", r.FunctionName}}
	add := func(k, v string) {
		if strings.TrimSpace(v) != "" {
			out = append(out, [2]string{k, v})
		}
	}
	add("Method", strings.ToUpper(m.Method))
	add("URL", m.URL)
	add("Route", m.Route)
	add("Endpoint", strings.TrimSpace(m.EndpointName+" "+paren(m.EndpointID)))
	add("doc_match_type", m.DocMatchType)
	add("Parameters", paramNames(m.Params))
	add("Path parameters", paramNames(m.PathParams))
	add("Comments source", r.CommentsSource)
	gi := &r.GitHubInfo
	add("Repository", strings.TrimSpace(gi.Repo+" "+paren(gi.License)))
	add("File", gi.FilePath)
	add("Created / updated", strings.Trim(gi.CreatedAt+" / "+gi.UpdatedAt, " /"))
	return out
}

func paren(s string) string {
	if s == "" {
		return ""
	}
	return "(" + s + ")"
}

// paramNames lists the names of a documented parameter list (objects with a name,
// or plain strings).
func paramNames(raw json.RawMessage) string {
	var items []json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &items) != nil {
		return ""
	}
	var names []string
	for _, it := range items {
		var obj struct {
			Name     string `json:"name"`
			Required bool   `json:"required"`
		}
		var s string
		switch {
		case json.Unmarshal(it, &obj) == nil && obj.Name != "":
			if obj.Required {
				obj.Name += "*"
			}
			names = append(names, obj.Name)
		case json.Unmarshal(it, &s) == nil && s != "":
			names = append(names, s)
		}
	}
	return strings.Join(names, ", ")
}

// genOf is a result as its sample page shows it.
func genOf(d *Data, g *group, r evaluate.Result, rec *release.Record) sampleGen {
	sg := sampleGen{Group: g.label(), Index: r.SampleIndex, Status: r.Status, Reason: r.Reason, Stage: cmp.Or(r.FailureStage, "none"),
		StageName: stageName(r.FailureStage), Requests: r.Requests, Stubbed: strings.Join(r.Stubbed, ", "),
		Undefined: strings.Join(r.Undefined, ", "), HasEndpoint: r.HasEndpoint}
	sg.Completion, sg.Known = d.completion(r, rec)
	yes := func(v float64) string {
		if v == 1 {
			return "yes"
		}
		return "no"
	}
	sg.Metrics = [][2]string{{"Syntax", yes(r.Syntax)}, {"Dep.", yes(r.Dep)}, {"Secret", yes(r.Secret)}, {"ExecReq", yes(r.ExecReq)},
		{"Host", yes(r.HostAcc)}, {"Endpoint", yes(r.EndpointAcc)}, {"Method", yes(r.MethodAcc)}, {"Mock", yes(r.Mock)},
		{"Robust", yes(r.Robust)}, {"ParamF1", fmt.Sprintf("%.2f", r.ParamF1)}, {"CodeBLEU", fmt.Sprintf("%.2f", r.CodeBLEU)},
		{"ES", fmt.Sprintf("%.2f", r.ES)}}
	return sg
}

// retrievalOf is a retriever's outcome for one sample.
func retrievalOf(rep *RetrievalReport, s retrieve.SampleResult) sampleRetrieval {
	rank := func(n int) string {
		if n == 0 {
			return "not retrieved"
		}
		return itoa(n)
	}
	sr := sampleRetrieval{Retriever: rep.Name, Query: s.Query, HostRank: rank(s.HostRank), EndpointRank: rank(s.EndpointRank)}
	if !s.HasEndpoint {
		sr.EndpointRank = "no endpoint labeled"
	}
	for _, h := range s.Hits {
		mark := ""
		switch {
		case h.Endpoint:
			mark = " (the labeled endpoint)"
		case h.Host:
			mark = " (gold host)"
		}
		sr.Hits = append(sr.Hits, fmt.Sprintf("%d. %s%s", h.Rank, h.ID, mark))
	}
	return sr
}
