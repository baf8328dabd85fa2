package python_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"sccg/internal/conformance"
	"sccg/lang"
	"sccg/lang/python"
	"sccg/release"
)

// TestConformanceExtract runs the extractor over the published samples' code and
// reports how often its host, route and method agree with api_metadata, per
// doc_match_type, with the reason of every miss. It reads $SCCG_CONFORMANCE (the
// public validation samples) and is skipped without it.
func TestConformanceExtract(t *testing.T) {
	recs := conformance.Records(t)
	type tally struct{ n, found, host, route, method, nRoute int }
	by := map[string]*tally{}
	var misses []string
	for _, r := range recs {
		dm := r.APIMetadata.DocMatchType
		tl := by[dm]
		if tl == nil {
			tl = &tally{}
			by[dm] = tl
		}
		tl.n++
		if dm != "host_only" {
			tl.nRoute++
		}
		res, err := python.Extract(context.Background(), []byte(r.Code.CompleteFunction), python.Options{})
		if err != nil {
			misses = append(misses, fmt.Sprintf("%s [%s] extract failed: %v", r.SampleID, dm, err))
			continue
		}
		f := conformanceFunction(res, r.FunctionName)
		if f == nil {
			misses = append(misses, fmt.Sprintf("%s [%s] no request function found (function %s)", r.SampleID, dm, r.FunctionName))
			continue
		}
		tl.found++
		wantHost := strings.ToLower(r.APIHost)
		if wantHost == "" {
			wantHost = strings.ToLower(hostOf(r.APIMetadata.URL))
		}
		wantMethod := strings.ToUpper(r.APIMetadata.Method)
		hostOK := slices.ContainsFunc(f.Facts.Calls, func(c lang.Call) bool { return c.Host == wantHost || strings.EqualFold(c.RapidAPIHost, wantHost) })
		methodOK := slices.ContainsFunc(f.Facts.Calls, func(c lang.Call) bool { return c.Method == wantMethod })
		routeOK := slices.ContainsFunc(f.Facts.Calls, func(c lang.Call) bool {
			return (c.Host == "" || c.Host == wantHost) && confRouteMatches(c.Path, r.APIMetadata.Route)
		})
		if hostOK {
			tl.host++
		} else {
			misses = append(misses, fmt.Sprintf("%s [%s] host: got %s, want %s", r.SampleID, dm, describeCalls(*f), wantHost))
		}
		if methodOK {
			tl.method++
		} else {
			misses = append(misses, fmt.Sprintf("%s [%s] method: got %s, want %s", r.SampleID, dm, describeCalls(*f), wantMethod))
		}
		if dm != "host_only" {
			if routeOK {
				tl.route++
			} else {
				misses = append(misses, fmt.Sprintf("%s [%s] route: got %s, want %s", r.SampleID, dm, describeCalls(*f), r.APIMetadata.Route))
			}
		}
	}
	checkAgreement(t, recs)
	for _, k := range slices.Sorted(maps.Keys(by)) {
		tl := by[k]
		t.Logf("%-9s samples %3d  function found %3d  host %3d/%d  route %3d/%d  method %3d/%d",
			k, tl.n, tl.found, tl.host, tl.n, tl.route, tl.nRoute, tl.method, tl.n)
	}
	for _, m := range misses {
		t.Log("miss: " + m)
	}
}

// conformanceFunction picks the sample's function among those extracted: the one
// named like the sample, else the first candidate.
func conformanceFunction(res *lang.Result, name string) *lang.Function {
	var first *lang.Function
	for i := range res.Functions {
		f := &res.Functions[i]
		if f.Name == name || f.QualName == name || strings.HasSuffix(f.QualName, "."+name) {
			return f
		}
		if first == nil {
			first = f
		}
	}
	return first
}

func describeCalls(f lang.Function) string {
	var parts []string
	for _, c := range f.Facts.Calls {
		parts = append(parts, fmt.Sprintf("%s %s (host %q path %q expr %q)", c.Method, c.URL, c.Host, c.Path, c.URLExpr))
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

func hostOf(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		u = u[:i]
	}
	return strings.ToLower(u)
}

// confRouteMatches compares an observed path with a route template: a {param}
// segment on either side matches any one segment.
func confRouteMatches(observed, route string) bool {
	o := strings.Split(strings.Trim(observed, "/"), "/")
	r := strings.Split(strings.Trim(route, "/"), "/")
	if len(o) != len(r) {
		return false
	}
	for i := range o {
		if strings.HasPrefix(o[i], "{") || strings.HasPrefix(r[i], "{") {
			continue
		}
		if o[i] != r[i] {
			return false
		}
	}
	return true
}

// checkAgreement logs how often the extractor's completeness checks agree with the
// published quality_metrics.completeness_checks, check by check.
func checkAgreement(t *testing.T, recs []release.Record) {
	type pair struct{ agree, n int }
	agree := map[string]*pair{}
	var disagreements []string
	for _, r := range recs {
		var qm struct {
			Checks map[string]any `json:"completeness_checks"`
		}
		if len(r.QualityMetrics) == 0 || json.Unmarshal(r.QualityMetrics, &qm) != nil || qm.Checks == nil {
			continue
		}
		res, err := python.Extract(context.Background(), []byte(r.Code.CompleteFunction), python.Options{})
		if err != nil {
			continue
		}
		f := conformanceFunction(res, r.FunctionName)
		if f == nil {
			continue
		}
		var ours map[string]any
		b, _ := json.Marshal(f.Facts.Quality.Checks)
		_ = json.Unmarshal(b, &ours)
		for k, want := range qm.Checks {
			wb, ok := want.(bool)
			if !ok {
				continue
			}
			p := agree[k]
			if p == nil {
				p = &pair{}
				agree[k] = p
			}
			p.n++
			if got, _ := ours[k].(bool); got == wb {
				p.agree++
			} else {
				disagreements = append(disagreements, fmt.Sprintf("%s %s: published %v", r.SampleID, k, wb))
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(agree)) {
		t.Logf("check %-24s agrees %3d/%d", k, agree[k].agree, agree[k].n)
	}
	for _, d := range disagreements {
		t.Log("check differs: " + d)
	}
}
