package evaluate

import (
	"context"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"sccg/split"
)

// TestConformanceGold runs every conformance sample's own code as its generation
// and logs each url/route sample that does not hit its own gold endpoint, with the
// cause. It fails when a url/route sample whose code is self-contained misses.
func TestConformanceGold(t *testing.T) {
	path := os.Getenv("SCCG_CONFORMANCE")
	if path == "" {
		t.Skip("SCCG_CONFORMANCE not set (make conformance sets it)")
	}
	bench, err := split.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, err := Run(context.Background(), Config{Bench: bench, Generations: GoldGenerations(bench)})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d completions in %v; isolation %s", len(out.Results), time.Since(start), out.Summary.Isolation)
	recs := map[string]split.Record{}
	for _, r := range bench {
		recs[r.SampleID] = r
	}
	type tally struct{ hits, total int }
	per := map[string]*tally{}
	var misses []string
	for _, r := range out.Results {
		k := r.DocMatchType
		if !r.HasEndpoint {
			k += " (no endpoint)"
		}
		if per[k] == nil {
			per[k] = &tally{}
		}
		per[k].total++
		if r.Mock == 1 {
			per[k].hits++
			continue
		}
		cause := missCause(r, recs[r.SampleID])
		misses = append(misses, r.SampleID+" ["+r.DocMatchType+"] "+cause)
		if (r.DocMatchType == "url" || r.DocMatchType == "route") && selfContained(recs[r.SampleID]) {
			t.Errorf("self-contained %s sample %s misses its gold endpoint: %s", r.DocMatchType, r.SampleID, cause)
		}
	}
	var keys []string
	for k := range per {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%-22s %d/%d hit", k, per[k].hits, per[k].total)
	}
	for _, m := range misses {
		t.Logf("miss: %s", m)
	}
}

// selfContained reports code that does not reach outside its own text for the
// request: no relative imports and no imports of the repository's own modules that
// the URL is built from. Approximated: no relative import.
func selfContained(r split.Record) bool {
	for _, l := range strings.Split(r.Code.CompleteFunction, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "from .") {
			return false
		}
	}
	return true
}

func missCause(r Result, rec split.Record) string {
	var b strings.Builder
	b.WriteString("stage=" + r.FailureStage + " status=" + r.Status)
	if r.Reason != "" {
		b.WriteString(" reason=" + truncate(r.Reason, 160))
	}
	if r.Truth != nil {
		b.WriteString(" gold=" + r.Truth.Method + " " + strings.Join(r.Truth.Hosts, "|") + r.Truth.Route)
	}
	for i, c := range r.Requests {
		if i >= 3 {
			break
		}
		b.WriteString(" got=" + c.Method + " " + truncate(c.URL, 120))
	}
	return b.String()
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
