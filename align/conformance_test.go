package align_test

import (
	"context"
	"os"
	"sccg/lang"
	"strings"
	"testing"

	"sccg/align"
	"sccg/internal/conformance"
	"sccg/lang/python"
	"sccg/store"
)

// TestConformanceAlign aligns the code of the public validation samples against a
// catalog made of their own documented endpoints and compares the primary alignment
// with the published api_metadata (make conformance).
func TestConformanceAlign(t *testing.T) {
	recs := conformance.Records(t)
	var eps []store.Endpoint
	seen := map[string]bool{}
	for i, r := range recs {
		m := r.APIMetadata
		k := r.APIHost + " " + m.Method + " " + m.Route
		if m.Route == "" || seen[k] {
			continue
		}
		seen[k] = true
		eps = append(eps, store.Endpoint{ID: int64(i + 1), APIID: int64(len(seen)), Host: strings.ToLower(r.APIHost), Method: m.Method, Route: m.Route, IsCurrent: true})
	}
	cat := align.NewCatalog(eps)
	ctx := context.Background()
	var n, aligned, typeOK, routeOK int
	confusion := map[string]int{}
	for _, r := range recs {
		res, err := python.Extract(ctx, []byte(r.Code.CompleteFunction), python.Options{})
		if err != nil {
			continue
		}
		var fn *lang.Function
		for i := range res.Functions {
			if res.Functions[i].Name == r.FunctionName {
				fn = &res.Functions[i]
			}
		}
		n++
		if fn == nil {
			confusion[r.APIMetadata.DocMatchType+"→not extracted"]++
			continue
		}
		as, _ := align.AlignFunction(fn.Code, &fn.Facts, cat)
		var prim *store.Alignment
		for i := range as {
			if as[i].IsPrimary {
				prim = &as[i]
			}
		}
		if prim == nil {
			confusion[r.APIMetadata.DocMatchType+"→none"]++
			continue
		}
		aligned++
		confusion[r.APIMetadata.DocMatchType+"→"+prim.DocMatchType]++
		if os.Getenv("SCCG_CONFORMANCE_VERBOSE") != "" && prim.DocMatchType != r.APIMetadata.DocMatchType {
			t.Logf("%s published %s %s %s, ours %s %s %s evidence %s", r.SampleID, r.APIMetadata.DocMatchType, r.APIMetadata.Method,
				r.APIMetadata.Route, prim.DocMatchType, prim.Method, prim.Route, prim.Evidence)
		}
		if prim.DocMatchType == r.APIMetadata.DocMatchType {
			typeOK++
		}
		if prim.Route == r.APIMetadata.Route && strings.EqualFold(prim.Host, r.APIHost) {
			routeOK++
		}
	}
	t.Logf("%d samples: %d extracted and aligned; doc_match_type agrees on %d, host+route on %d; published→ours %v",
		n, aligned, typeOK, routeOK, confusion)
	if aligned < n*8/10 {
		t.Errorf("aligned %d of %d samples, want at least 80%%", aligned, n)
	}
}
