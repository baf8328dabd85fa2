package evaluate

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"sccg/internal/conformance"
	"sccg/lang/python"
	"sccg/release"
)

// TestConformanceGold runs every conformance sample's own code as its generation
// and logs each url/route sample that does not hit its own gold endpoint, with the
// cause. It fails when a url/route sample whose code is self-contained misses.
func TestConformanceGold(t *testing.T) {
	bench := conformance.Records(t)
	start := time.Now()
	out, err := Run(context.Background(), Config{Bench: bench, Generations: GoldGenerations(bench)})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d completions in %v; isolation %s", len(out.Results), time.Since(start), out.Summary.Isolation)
	recs := map[string]release.Record{}
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
		rec := recs[r.SampleID]
		kind, cause := classifyMiss(r, rec)
		misses = append(misses, fmt.Sprintf("%s [%s] %s: %s", r.SampleID, r.DocMatchType, kind, cause))
		if (r.DocMatchType == "url" || r.DocMatchType == "route") && kind == missEvaluator {
			t.Errorf("self-contained %s sample %s misses its gold endpoint: %s", r.DocMatchType, r.SampleID, cause)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(per)) {
		t.Logf("%-22s %d/%d hit", k, per[k].hits, per[k].total)
	}
	for _, m := range misses {
		t.Logf("miss: %s", m)
	}
}

// Kinds of conformance miss.
const (
	missNotSelfContained = "not self-contained" // the code needs what it does not have
	missData             = "metadata disagrees" // the code calls another method or path than documented
	missEvaluator        = "evaluator"          // self-contained code whose request was not reached
)

// classifyMiss says why a gold completion missed: code that is not self-contained
// (does not compile here, makes its request in a helper it does not define, imports
// relative modules, reads files it does not have), code whose request disagrees with the
// documented metadata, or — what the evaluator must fix — neither.
func classifyMiss(r Result, rec release.Record) (string, string) {
	detail := missCause(r)
	switch {
	case r.FailureStage == StageMethod:
		return missData, "the code sends another method than documented; " + detail
	case r.FailureStage == StageEndpoint:
		for _, c := range r.Requests {
			if r.Truth != nil && r.Truth.Route != "" && strings.HasPrefix(c.Path, r.Truth.Route) {
				return missData, "the called path extends the documented route (a prefix match in the benchmark); " + detail
			}
		}
		return missData, "the code calls another path than documented; " + detail
	case r.FailureStage == StageSyntax:
		return missNotSelfContained, "does not compile on this interpreter; " + detail
	case len(r.FreeNames) > 0 && !holdsRequestCall(rec):
		// with its request call in the code, placeholders for the names reach it
		return missNotSelfContained, "needs names it does not define " + strings.Join(r.FreeNames, ",") + " and holds no request call itself; " + detail
	case strings.Contains(r.Reason, "AttributeError: module '"):
		return missNotSelfContained, "broken on its own (a real module lacks the attribute it uses); " + detail
	case strings.Contains(rec.Code.CompleteFunction, "from ."):
		return missNotSelfContained, "relative import; " + detail
	case strings.Contains(r.Reason, "FileNotFoundError"):
		return missNotSelfContained, "reads a file it does not ship; " + detail
	}
	return missEvaluator, detail
}

// holdsRequestCall reports whether the sample's function holds a request call of
// its own (the extractor's static facts), not only calls of helpers it left out.
func holdsRequestCall(rec release.Record) bool {
	res, err := python.Extract(context.Background(), []byte(rec.Code.CompleteFunction), python.Options{})
	if err != nil {
		return false
	}
	for _, f := range res.Functions {
		if (f.Name == rec.FunctionName || strings.HasSuffix(f.QualName, "."+rec.FunctionName)) && len(f.Facts.Calls) > 0 {
			return true
		}
	}
	return false
}

func missCause(r Result) string {
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
