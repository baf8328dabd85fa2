package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sccg/evaluate/realcall"
	"sccg/evaluate/stats"
	"sccg/internal/golden"
)

// realCallFixture writes a live real-call report of two services (one screened
// out) to a directory, as sccg realcall does.
func realCallFixture(t *testing.T, live bool) string {
	t.Helper()
	rate := func(ok, n int) realcall.Rate {
		r := realcall.Rate{OK: ok, N: n}
		if n > 0 {
			r.P = float64(ok) / float64(n)
		}
		return r
	}
	rep := &realcall.Report{Kind: realcall.Kind, Live: live, Options: realcall.Settings{MaxCalls: 60},
		Gold: rate(2, 3), Positive: rate(5, 6), Negative: rate(1, 2), APIsWithSuccess: 2, APIsWithPositive: 2,
		PerAPI: []realcall.APIRates{
			{API: "football-live-scores", Host: "football-live-scores.p.rapidapi.com", Positive: rate(4, 4), Negative: rate(1, 1)},
			{API: "news-headlines-api", Host: "news-headlines-api.p.rapidapi.com", Positive: rate(1, 2), Negative: rate(0, 1)},
		},
		Services: []realcall.Service{
			{API: "email-verifier", Host: "email-verifier.p.rapidapi.com", Status: realcall.ServiceScreened, Reason: realcall.ReasonUnreachable, Detail: "gold request answered 503"},
			{API: "football-live-scores", Host: "football-live-scores.p.rapidapi.com", Status: realcall.ServiceReachable},
			{API: "sms-sender", Host: "sms-sender.p.rapidapi.com", Status: realcall.ServiceScreened, Reason: realcall.ReasonNotFree, Detail: "pricing FREEMIUM"},
		},
		Excluded: map[string]int{realcall.ReasonNotFree: 4, realcall.ReasonMethod: 2, realcall.ReasonNoRequest: 7},
		Items:    make([]realcall.Item, 24), Budget: realcall.Budget{Max: 60, Used: 13}}
	for _, r := range []*realcall.Rate{&rep.Gold, &rep.Positive, &rep.Negative} {
		*r = withWilson(*r)
	}
	for i := range rep.PerAPI {
		rep.PerAPI[i].Positive, rep.PerAPI[i].Negative = withWilson(rep.PerAPI[i].Positive), withWilson(rep.PerAPI[i].Negative)
	}
	dir := filepath.Join(t.TempDir(), "realcall")
	if err := realcall.Write(dir, rep); err != nil {
		t.Fatal(err)
	}
	return dir
}

func withWilson(r realcall.Rate) realcall.Rate {
	r.Lo, r.Hi = stats.Wilson(r.OK, r.N)
	return r
}

func TestRealCallSection(t *testing.T) {
	dir := realCallFixture(t, true)
	out, m := writeFixture(t, Inputs{Paths: []string{"testdata/gold", dir}}, Options{Rounds: 100})
	for _, id := range []string{"table-realcall", "table-realcall-apis", "table-realcall-screened", "table-realcall-excluded"} {
		if !slices.ContainsFunc(m.Tables, func(e Entry) bool { return e.ID == id }) {
			t.Errorf("no %s in the report: %v", id, m.Tables)
		}
	}
	if !slices.ContainsFunc(m.Figures, func(e Entry) bool { return e.ID == "fig-realcall" }) {
		t.Errorf("no real-call figure: %v", m.Figures)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	sec := string(md)
	i := strings.Index(sec, "## Bounded real-call validation")
	if i < 0 {
		t.Fatalf("no real-call section in report.md")
	}
	sec = sec[i:]
	if j := strings.Index(sec[3:], "\n## "); j >= 0 {
		sec = sec[:j+4]
	}
	sec = strings.ReplaceAll(sec, dir, "DIR")
	golden.Check(t, filepath.Join("testdata", "realcall.golden.md"), []byte(sec), *update)
}

func TestRealCallDryRunIsNamed(t *testing.T) {
	dir := realCallFixture(t, false)
	_, m := writeFixture(t, Inputs{Paths: []string{"testdata/gold", dir}}, Options{Rounds: 100})
	if slices.ContainsFunc(m.Tables, func(e Entry) bool { return strings.HasPrefix(e.ID, "table-realcall") }) {
		t.Errorf("a dry run got real-call tables")
	}
	if !slices.ContainsFunc(m.Problems, func(p string) bool { return strings.Contains(p, "dry run") }) {
		t.Errorf("the dry run is not named among the problems: %v", m.Problems)
	}
}
