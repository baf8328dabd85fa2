package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"sccg/lang/frontends"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"sccg/evaluate"
	"sccg/evaluate/retrieve"
	"sccg/evaluate/stats"
	"sccg/release"
)

// figure is one SVG figure of the report.
type figure struct {
	ID      string
	Title   string
	Caption string
	SVG     []byte // a standalone SVG document
	Wide    bool   // takes a whole row of the page
}

// File is where the figure is written, relative to the report's directory.
func (f *figure) File() string { return "figures/" + strings.TrimPrefix(f.ID, "fig-") + ".svg" }

// palette is a colour-blind-safe palette (Okabe and Ito).
var palette = []color.Color{
	color.RGBA{0x00, 0x72, 0xb2, 0xff}, // blue
	color.RGBA{0xe6, 0x9f, 0x00, 0xff}, // orange
	color.RGBA{0x00, 0x9e, 0x73, 0xff}, // green
	color.RGBA{0xcc, 0x79, 0xa7, 0xff}, // purple
	color.RGBA{0x56, 0xb4, 0xe9, 0xff}, // sky
	color.RGBA{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	color.RGBA{0xf0, 0xe4, 0x42, 0xff}, // yellow
	color.RGBA{0x44, 0x44, 0x44, 0xff}, // grey
}

func colorOf(i int) color.Color { return palette[i%len(palette)] }

// stageColors colour the earliest failed stages, from grey (syntax) to green (hit).
var stageColors = map[string]color.Color{
	evaluate.StageSyntax:   color.RGBA{0x99, 0x99, 0x99, 0xff},
	evaluate.StageRequest:  color.RGBA{0xe6, 0x9f, 0x00, 0xff},
	evaluate.StageHost:     color.RGBA{0xd5, 0x5e, 0x00, 0xff},
	evaluate.StageEndpoint: color.RGBA{0xcc, 0x79, 0xa7, 0xff},
	evaluate.StageMethod:   color.RGBA{0x56, 0xb4, 0xe9, 0xff},
	evaluate.StageHit:      color.RGBA{0x00, 0x9e, 0x73, 0xff},
}

const (
	figWidth  = 6.4 * vg.Inch
	figHeight = 3.6 * vg.Inch
)

// newPlot is a plot with the report's fonts and a light grid.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = x, y
	sans(&p.Title.TextStyle.Font.Variant)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		sans(&a.Label.TextStyle.Font.Variant)
		sans(&a.Tick.Label.Font.Variant)
		a.Label.TextStyle.Font.Size = vg.Points(11)
		a.Tick.Label.Font.Size = vg.Points(9)
	}
	sans(&p.Legend.TextStyle.Font.Variant)
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{0xe4}
	g.Horizontal.Color = color.Gray{0xe4}
	p.Add(g)
	return p
}

func sans(v *font.Variant) { *v = "Sans" }

// render draws a plot, with its legend to the right of it when legend has
// entries, as a standalone SVG document.
func render(p *plot.Plot, legend []legendEntry, w, h vg.Length) ([]byte, error) {
	c := vgsvg.New(w, h)
	dc := draw.New(c)
	if len(legend) > 0 {
		l := plot.NewLegend()
		l.TextStyle = p.Legend.TextStyle
		l.Top, l.Left = true, true
		l.Padding = vg.Points(2)
		width := vg.Length(0)
		for _, e := range legend {
			l.Add(e.name, e.thumb)
			width = max(width, l.ThumbnailWidth+l.TextStyle.Width("  "+e.name))
		}
		width += vg.Points(8)
		p.Draw(draw.Crop(dc, 0, -width, 0, 0))
		l.Draw(draw.Crop(dc, w-width+vg.Points(4), 0, 0, -vg.Points(24)))
	} else {
		p.Draw(dc)
	}
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("report: render %q: %w", p.Title.Text, err)
	}
	return b.Bytes(), nil
}

type legendEntry struct {
	name  string
	thumb plot.Thumbnailer
}

// figLOC is the cumulative distribution of the benchmark's effective LOC.
func figLOC(recs []release.Record) (*figure, error) {
	locs := make([]float64, len(recs))
	for i, r := range recs {
		locs[i] = float64(frontends.EffectiveLOC(&r))
	}
	slices.Sort(locs)
	n := float64(len(locs))
	pts := plotter.XYs{{X: 0, Y: 0}}
	for i, x := range locs {
		if i+1 < len(locs) && locs[i+1] == x {
			continue
		}
		pts = append(pts, plotter.XY{X: x, Y: 100 * float64(i+1) / n})
	}
	p := newPlot("Effective lines of code", "effective LOC of the gold function", "samples with at most x LOC (%)")
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, fmt.Errorf("report: LOC figure: %w", err)
	}
	l.StepStyle = plotter.PostStep
	l.Color, l.Width = colorOf(0), vg.Points(1.5)
	p.Add(l)
	med := median(locs)
	m, _ := plotter.NewLine(plotter.XYs{{X: med, Y: 0}, {X: med, Y: 50}})
	m.Color, m.Dashes = colorOf(5), []vg.Length{vg.Points(3), vg.Points(2)}
	p.Add(m)
	p.Y.Min, p.Y.Max = 0, 100
	p.X.Min = 0
	p.X.Tick.Marker = integerTicks{}
	svg, err := render(p, []legendEntry{{fmt.Sprintf("%d samples", len(recs)), l}, {fmt.Sprintf("median %g", med), m}}, figWidth, figHeight)
	if err != nil {
		return nil, err
	}
	return &figure{ID: "fig-loc-cdf", Title: "Effective-LOC cumulative distribution",
		Caption: fmt.Sprintf("Share of the %d samples whose gold function has at most x effective lines (neither blank, comment nor docstring); mean %.1f, median %g.", len(recs), mean(locs), med),
		SVG:     svg}, nil
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// figLorenz is the Lorenz curve of samples per API, with its Gini coefficient.
func figLorenz(recs []release.Record) (*figure, error) {
	per := map[string]int{}
	for i := range recs {
		per[release.APIKey(&recs[i])]++
	}
	counts := make([]int, 0, len(per))
	for _, c := range per {
		counts = append(counts, c)
	}
	slices.Sort(counts)
	total := float64(len(recs))
	pts := plotter.XYs{{X: 0, Y: 0}}
	cum, area := 0.0, 0.0
	for i, c := range counts {
		prev := cum
		cum += float64(c) / total
		area += (prev + cum) / 2 / float64(len(counts))
		pts = append(pts, plotter.XY{X: 100 * float64(i+1) / float64(len(counts)), Y: 100 * cum})
	}
	gini := 1 - 2*area
	p := newPlot("Samples per API", "APIs, fewest samples first (%)", "samples (%)")
	eq, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 100, Y: 100}})
	eq.Color, eq.Dashes = color.Gray{0x88}, []vg.Length{vg.Points(3), vg.Points(2)}
	p.Add(eq)
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, fmt.Errorf("report: Lorenz figure: %w", err)
	}
	l.Color, l.Width = colorOf(0), vg.Points(1.5)
	p.Add(l)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 100, 0, 100
	svg, err := render(p, []legendEntry{{fmt.Sprintf("%d APIs, Gini %.2f", len(counts), gini), l}, {"equal shares", eq}}, figWidth, figHeight)
	if err != nil {
		return nil, err
	}
	return &figure{ID: "fig-lorenz", Title: "Lorenz curve of samples per API",
		Caption: fmt.Sprintf("Cumulative share of samples held by the APIs with the fewest samples; %d APIs over %d samples, Gini coefficient %.2f (0: every API has as many samples).", len(counts), len(recs), gini),
		SVG:     svg}, nil
}

// updateYears counts samples per repository update year: from the benchmark when
// given, else from stats.json.
func updateYears(recs []release.Record, st *release.Stats) (map[string]int, string) {
	if len(recs) > 0 {
		years := map[string]int{}
		for _, r := range recs {
			y := r.GitHubInfo.UpdatedAt
			if len(y) >= 4 && y[0] >= '1' && y[0] <= '9' {
				years[y[:4]]++
			} else {
				years["unknown"]++
			}
		}
		return years, "the benchmark"
	}
	if st != nil && len(st.Total.UpdateYears) > 0 {
		return st.Total.UpdateYears, "stats.json"
	}
	return nil, ""
}

// figYears is the histogram of repository update years.
func figYears(years map[string]int, from string) (*figure, error) {
	keys := sortedKeys(years)
	if i := slices.Index(keys, "unknown"); i >= 0 {
		keys = append(slices.Delete(keys, i, i+1), "unknown")
	}
	vals := make(plotter.Values, len(keys))
	total := 0
	for i, k := range keys {
		vals[i] = float64(years[k])
		total += years[k]
	}
	p := newPlot("Repository update year", "year of the repository's last update", "samples")
	bars, err := plotter.NewBarChart(vals, barWidth(len(keys), figWidth))
	if err != nil {
		return nil, fmt.Errorf("report: update-year figure: %w", err)
	}
	bars.Color, bars.LineStyle.Width = colorOf(0), 0
	p.Add(bars)
	p.NominalX(keys...)
	p.Y.Min = 0
	p.Y.Tick.Marker = integerTicks{}
	svg, err := render(p, nil, figWidth, figHeight)
	if err != nil {
		return nil, err
	}
	return &figure{ID: "fig-update-years", Title: "Repository update-year histogram",
		Caption: fmt.Sprintf("Samples per year their repository was last updated (%d samples, from %s).", total, from), SVG: svg}, nil
}

// integerTicks marks whole numbers only (counts).
type integerTicks struct{}

// Ticks returns about five ticks at round whole numbers between lo and hi.
func (integerTicks) Ticks(lo, hi float64) []plot.Tick {
	raw := math.Max(1, (hi-lo)/5)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ts []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		ts = append(ts, plot.Tick{Value: v, Label: fmt.Sprint(v)})
	}
	return ts
}

func barWidth(n int, w vg.Length) vg.Length {
	return vg.Length(math.Min(float64(vg.Points(40)), float64(w)*0.6/float64(max(n, 1))))
}

// wilsonErrors are points with asymmetric error bars.
type wilsonErrors struct {
	plotter.XYs
	plotter.YErrors
}

// figStaircase is Mock across settings, one line per model.
func figStaircase(groups []*group, rank settingRank) (*figure, error) {
	models, by := staircaseModels(groups)
	if len(models) == 0 {
		return nil, nil
	}
	var settings []string
	for _, m := range models {
		for _, g := range by[m] {
			if !slices.Contains(settings, g.Setting) {
				settings = append(settings, g.Setting)
			}
		}
	}
	slices.SortFunc(settings, rank.compare)
	p := newPlot("Mock across settings", "setting", "Mock (%)")
	var legend []legendEntry
	for i, m := range models {
		var pts plotter.XYs
		var errs plotter.YErrors
		for _, g := range by[m] {
			o := g.Overall
			k := int(math.Round(o.Mock * float64(o.N)))
			lo, hi := stats.Wilson(k, o.N)
			// Models side by side at each setting, so their intervals do not overlap.
			x := float64(slices.Index(settings, g.Setting)) + 0.08*(float64(i)-float64(len(models)-1)/2)
			pts = append(pts, plotter.XY{X: x, Y: 100 * o.Mock})
			errs = append(errs, struct{ Low, High float64 }{100 * (o.Mock - lo), 100 * (hi - o.Mock)})
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("report: staircase figure: %w", err)
		}
		l.Color, l.Width, s.Color = colorOf(i), vg.Points(1.5), colorOf(i)
		s.Shape = draw.CircleGlyph{}
		eb, err := plotter.NewYErrorBars(wilsonErrors{pts, errs})
		if err != nil {
			return nil, fmt.Errorf("report: staircase figure: %w", err)
		}
		eb.Color = colorOf(i)
		p.Add(l, s, eb)
		legend = append(legend, legendEntry{m, l})
	}
	p.NominalX(settings...)
	p.Y.Min, p.Y.Max = 0, 100
	svg, err := render(p, legend, figWidth, figHeight)
	if err != nil {
		return nil, err
	}
	return &figure{ID: "fig-staircase", Title: "Mock across settings (the staircase)",
		Caption: "Mock per model in each setting it was run in, with Wilson 95% intervals.", SVG: svg}, nil
}

// figFailures is each group's earliest-failure shares as stacked bars.
func figFailures(groups []*group) (*figure, error) {
	stages := failureStages(groups)
	var shown []*group
	for _, g := range groups {
		if failures(g) > 0 {
			shown = append(shown, g)
		}
	}
	if len(shown) == 0 {
		return nil, nil
	}
	var parts []stackPart
	for i, st := range stages {
		c := stageColors[st]
		if c == nil {
			c = colorOf(len(stageColors) + i)
		}
		parts = append(parts, stackPart{name: stageName(st), color: c,
			share: func(g *group) float64 { return float64(g.FailureStages[st]) / float64(failures(g)) }})
	}
	svg, err := stackedBars("Earliest failed stage", shown, parts)
	if err != nil {
		return nil, fmt.Errorf("report: failure figure: %w", err)
	}
	return &figure{ID: "fig-failures", Title: "Failure attribution per model",
		Caption: "For each setting and model, the share of completions by the first stage they fail (Table VI).", SVG: svg, Wide: true}, nil
}

// failures is how many completions of a group Table VI counts.
func failures(g *group) int {
	n := 0
	for _, c := range g.FailureStages {
		n += c
	}
	return n
}

// stackPart is one part of stackedBars' bars: its name in the legend, its
// colour and its share (0–1) of a group.
type stackPart struct {
	name  string
	color color.Color
	share func(*group) float64
}

// stackedBars draws a horizontal bar per group (the first on top), each cut
// into its parts' shares (%), as an SVG.
func stackedBars(title string, groups []*group, parts []stackPart) ([]byte, error) {
	shown := slices.Clone(groups)
	// Horizontal bars are drawn bottom-up: reverse so the first group is on top.
	slices.Reverse(shown)
	labels := make([]string, len(shown))
	for i, g := range shown {
		labels[i] = g.label()
	}
	h := vg.Length(math.Max(float64(figHeight), float64(vg.Points(60)+vg.Points(22)*vg.Length(len(shown)))))
	p := newPlot(title, "share of completions (%)", "")
	var prev *plotter.BarChart
	var legend []legendEntry
	for _, part := range parts {
		vals := make(plotter.Values, len(shown))
		for j, g := range shown {
			vals[j] = 100 * part.share(g)
		}
		b, err := plotter.NewBarChart(vals, vg.Points(14))
		if err != nil {
			return nil, err
		}
		b.Horizontal = true
		b.LineStyle.Width = 0
		b.Color = part.color
		if prev != nil {
			b.StackOn(prev)
		}
		prev = b
		p.Add(b)
		legend = append(legend, legendEntry{part.name, b})
	}
	p.NominalY(labels...)
	p.X.Min, p.X.Max = 0, 100
	return render(p, legend, figWidth+vg.Inch, h)
}

// figRetrieval is Host@K and Endpoint@K against K, one colour per retriever.
func figRetrieval(reps []*RetrievalReport) (*figure, error) {
	p := newPlot("Retrieval hit rates", "K (documents retrieved)", "samples (%)")
	var legend []legendEntry
	var ks []float64
	for i, r := range reps {
		for j, m := range []struct {
			name  string
			rates []retrieve.Rate
		}{{"Host@K", r.Overall.HostAtK}, {"Endpoint@K", r.Overall.EndpointAtK}} {
			var pts plotter.XYs
			for _, v := range m.rates {
				if v.N > 0 {
					pts = append(pts, plotter.XY{X: float64(v.K), Y: 100 * v.Rate})
					if !slices.Contains(ks, float64(v.K)) {
						ks = append(ks, float64(v.K))
					}
				}
			}
			if len(pts) == 0 {
				continue
			}
			l, s, err := plotter.NewLinePoints(pts)
			if err != nil {
				return nil, fmt.Errorf("report: retrieval figure: %w", err)
			}
			l.Color, l.Width, s.Color = colorOf(i), vg.Points(1.5), colorOf(i)
			s.Shape = draw.CircleGlyph{}
			if j == 1 {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
				s.Shape = draw.BoxGlyph{}
			}
			p.Add(l, s)
			legend = append(legend, legendEntry{r.Name + " " + m.name, l})
		}
	}
	if len(legend) == 0 {
		return nil, nil
	}
	slices.Sort(ks)
	var ticks []plot.Tick
	for _, k := range ks {
		ticks = append(ticks, plot.Tick{Value: k, Label: fmt.Sprint(k)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = 0, 100
	svg, err := render(p, legend, figWidth, figHeight)
	if err != nil {
		return nil, err
	}
	return &figure{ID: "fig-retrieval", Title: "Host@K and Endpoint@K per retriever",
		Caption: "Share of samples with a gold-host document (solid) or the labeled endpoint (dashed) among the first K retrieved (Table VIII).", SVG: svg}, nil
}

// attributionColors colour the attributions: green the hits, then the misses
// from the earliest step (retrieval) to the last (generation), grey the rest.
var attributionColors = map[string]color.Color{
	evaluate.AttrHit:            color.RGBA{0x00, 0x9e, 0x73, 0xff},
	evaluate.AttrRetrievalMiss:  color.RGBA{0xd5, 0x5e, 0x00, 0xff},
	evaluate.AttrSelectionMiss:  color.RGBA{0xe6, 0x9f, 0x00, 0xff},
	evaluate.AttrGenerationMiss: color.RGBA{0x56, 0xb4, 0xe9, 0xff},
	"":                          color.RGBA{0x99, 0x99, 0x99, 0xff},
}

// figAttribution is each attributed group's completions by attribution, as
// stacked bars (Table VII's settings and models, beside it); nil when no group
// was attributed.
func figAttribution(groups []*group) (*figure, error) {
	shown := attributedGroups(groups)
	if len(shown) == 0 {
		return nil, nil
	}
	var parts []stackPart
	for _, k := range append(slices.Clone(evaluate.Attributions), "") {
		parts = append(parts, stackPart{name: attributionNames[k], color: attributionColors[k], share: func(g *group) float64 {
			a := g.Attribution
			c := a.Count(k)
			if k == "" {
				c = a.N - a.Attributed()
			}
			return float64(c) / float64(max(a.N, 1))
		}})
	}
	svg, err := stackedBars("Where grounding fails", shown, parts)
	if err != nil {
		return nil, fmt.Errorf("report: attribution figure: %w", err)
	}
	return &figure{ID: "fig-attribution", Title: "Where grounding fails: retrieval, selection or generation",
		Caption: "For each setting and model whose prompts showed endpoint documents, the share of completions that hit, whose gold endpoint was not shown (retrieval), was shown but not called (selection), or was called and still missed (generation).",
		SVG:     svg, Wide: true}, nil
}
