package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"sccg/evaluate/realcall"
)

// RealCallReport is an `sccg realcall` report (realcall.json) as read.
type RealCallReport struct {
	*realcall.Report
	Path string
}

// readRealCall reads a realcall.json; a dry run's is noted and left out (it sent
// nothing, so it has no rates).
func (d *Data) readRealCall(p string) {
	if !d.once(p) {
		return
	}
	rep, err := realcall.Read(p)
	if err != nil {
		d.problemf("%v", err)
		return
	}
	if !rep.Live {
		d.problemf("%s is a dry run of sccg realcall (nothing was sent); run it with --live for the real-call table", p)
		return
	}
	d.RealCalls = append(d.RealCalls, &RealCallReport{Report: rep, Path: p})
}

// realCallIn reads the realcall.json of directory dir, if it has one.
func (d *Data) realCallIn(dir string) bool {
	p := filepath.Join(dir, realcall.File)
	if st, err := os.Stat(p); err != nil || st.IsDir() {
		return false
	}
	d.readRealCall(p)
	return true
}

// realCallSection is the bounded real-call validation of each live report: its
// tables and figure. (A report made without one has no such section: a dry run
// given is named among the problems.)
func realCallSection(d *Data) (*section, error) {
	s := &section{ID: "realcall", Title: "Bounded real-call validation"}
	for i, r := range d.RealCalls {
		suffix := ""
		if len(d.RealCalls) > 1 {
			suffix = fmt.Sprintf("-%d", i+1)
		}
		s.table(tableRealCall(r, suffix))
		s.table(tableRealCallAnswered(r, suffix))
		s.table(tableRealCallAPIs(r, suffix))
		s.table(tableRealCallScreened(r, suffix))
		s.table(tableRealCallExcluded(r, suffix))
		f, err := figRealCall(r, suffix)
		if err != nil {
			return nil, err
		}
		s.figure(f)
	}
	return s, nil
}

func wilson(r realcall.Rate) string {
	if r.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f–%.1f%%", 100*r.Lo, 100*r.Hi)
}

func rateCell(r realcall.Rate) string {
	if r.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*r.P)
}

func tableRealCall(r *RealCallReport, suffix string) *table {
	t := newTable("table-realcall"+suffix, "Real-call validation: 2xx rates",
		fmt.Sprintf("From %s. Requests rebuilt from what the sandbox recorded, sent (GET/HEAD, no body, free or allowed services) to the services whose gold request answered 2xx; a rate is over the calls that were answered, with its Wilson 95%% interval. %d of %d APIs with a Mock-positive call answered had at least one 2xx. Budget: %d of %d calls used.",
			r.Path, r.APIsWithSuccess, r.APIsWithPositive, r.Budget.Used, r.Budget.Max),
		"Group", "2xx / answered", "2xx rate", "Wilson 95%", "No answer").numeric(1)
	for _, g := range []struct {
		name string
		r    realcall.Rate
	}{{"gold (screening)", r.Gold}, {"Mock-positive", r.Positive}, {"Mock-negative", r.Negative}} {
		t.add(g.name, fmt.Sprintf("%d/%d", g.r.OK, g.r.N), rateCell(g.r), wilson(g.r), itoa(g.r.Failed))
	}
	return t
}

// tableRealCallAnswered lists the services whose gold request answered 2xx, for
// a screen (a run given gold results only: which services still answer?).
func tableRealCallAnswered(r *RealCallReport, suffix string) *table {
	if !r.ScreenOnly {
		return nil
	}
	t := newTable("table-realcall-answered"+suffix, "Services that answered their gold request",
		fmt.Sprintf("A screen (gold results only): every eligible service was called with its gold request; %d answered 2xx (gold %s).",
			len(r.Answered), r.Gold), "API", "Host", "Status", "Gold call")
	t.Text = true
	answered := map[string]bool{}
	for _, a := range r.Answered {
		answered[a] = true
	}
	calls := map[string]realcall.Call{}
	for _, c := range r.Calls {
		calls[c.Key] = c
	}
	for _, sv := range r.Services {
		if !answered[sv.API] {
			continue
		}
		c := calls[sv.Gold]
		t.add(sv.API, sv.Host, strconv.Itoa(c.Status), c.Method+" "+c.URL)
	}
	return t
}

func tableRealCallAPIs(r *RealCallReport, suffix string) *table {
	if len(r.PerAPI) == 0 {
		return nil
	}
	t := newTable("table-realcall-apis"+suffix, "Real-call validation per API",
		"Each API that passed its screening: 2xx of the answered calls per group.",
		"API", "Host", "Mock-positive", "Wilson 95%", "Mock-negative", "Wilson 95%").numeric(2)
	for _, a := range r.PerAPI {
		t.add(a.API, a.Host, fmt.Sprintf("%d/%d", a.Positive.OK, a.Positive.N), wilson(a.Positive),
			fmt.Sprintf("%d/%d", a.Negative.OK, a.Negative.N), wilson(a.Negative))
	}
	return t
}

func tableRealCallScreened(r *RealCallReport, suffix string) *table {
	out := r.ScreenedOut()
	if len(out) == 0 {
		return nil
	}
	t := newTable("table-realcall-screened"+suffix, "Real-call validation: services screened out",
		"Services none of whose requests were sent past the screening, and why.", "API", "Host", "Reason", "Detail")
	t.Text = true
	for _, s := range out {
		t.add(s.API, s.Host, s.Reason, s.Detail)
	}
	return t
}

func tableRealCallExcluded(r *RealCallReport, suffix string) *table {
	if len(r.Excluded) == 0 {
		return nil
	}
	t := newTable("table-realcall-excluded"+suffix, "Real-call validation: requests not sent",
		fmt.Sprintf("Of the %d requests considered (one per scored completion, and the gold ones), those not sent, by reason.", len(r.Items)),
		"Reason", "Requests", "Meaning").numeric(1)
	t.Num[2] = false
	t.Text = true
	for _, part := range strings.Split(r.ExcludedText(), ", ") {
		reason, _, _ := strings.Cut(part, " ")
		t.add(reason, itoa(r.Excluded[reason]), realcall.ReasonText[reason])
	}
	return t
}

// figRealCall is the 2xx rate of each group, and of each API's Mock-positive
// calls, with Wilson 95% intervals.
func figRealCall(r *RealCallReport, suffix string) (*figure, error) {
	type point struct {
		label string
		rate  realcall.Rate
		api   bool
	}
	pts := []point{{"gold", r.Gold, false}, {"Mock-positive", r.Positive, false}, {"Mock-negative", r.Negative, false}}
	for _, a := range r.PerAPI {
		if a.Positive.N > 0 {
			pts = append(pts, point{a.API, a.Positive, true})
		}
	}
	p := newPlot("Real-call 2xx rates", "", "2xx of answered calls (%)")
	var labels []string
	series := [2]struct {
		xy   plotter.XYs
		errs plotter.YErrors
	}{}
	for i, q := range pts {
		labels = append(labels, fmt.Sprintf("%s (%d/%d)", q.label, q.rate.OK, q.rate.N))
		if q.rate.N == 0 {
			continue
		}
		k := 0
		if q.api {
			k = 1
		}
		series[k].xy = append(series[k].xy, plotter.XY{X: float64(i), Y: 100 * q.rate.P})
		series[k].errs = append(series[k].errs, struct{ Low, High float64 }{100 * (q.rate.P - q.rate.Lo), 100 * (q.rate.Hi - q.rate.P)})
	}
	var legend []legendEntry
	for k, name := range []string{"overall, by group", "per API, Mock-positive"} {
		if len(series[k].xy) == 0 {
			continue
		}
		s, err := plotter.NewScatter(series[k].xy)
		if err != nil {
			return nil, fmt.Errorf("report: real-call figure: %w", err)
		}
		s.Color, s.Shape = colorOf(k), draw.CircleGlyph{}
		s.Radius = vg.Points(3)
		eb, err := plotter.NewYErrorBars(wilsonErrors{series[k].xy, series[k].errs})
		if err != nil {
			return nil, fmt.Errorf("report: real-call figure: %w", err)
		}
		eb.Color = colorOf(k)
		p.Add(s, eb)
		legend = append(legend, legendEntry{name, s})
	}
	p.NominalX(labels...)
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	p.Y.Min, p.Y.Max = 0, 100
	svg, err := render(p, legend, figWidth, figHeight+vg.Inch)
	if err != nil {
		return nil, err
	}
	return &figure{ID: "fig-realcall" + suffix, Title: "Real-call 2xx rates",
		Caption: "2xx share of the answered calls of each group, and of each screened-in API's Mock-positive calls, with Wilson 95% intervals (n in brackets).",
		SVG:     svg}, nil
}

// realCallInputs are the rows of the inputs table for the real-call reports.
func realCallInputs(t *table, d *Data) {
	for _, r := range d.RealCalls {
		t.add(r.Path, "real-call validation", fmt.Sprintf("%d services, %d calls (budget %d of %d)", len(r.Services), len(r.Calls), r.Budget.Used, r.Budget.Max))
	}
}
