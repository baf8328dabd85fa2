package verify

import (
	"context"
	"maps"
	"slices"
	"testing"

	"sccg/internal/conformance"
)

// TestConformanceVerify verifies the public validation samples and fails when a
// label error rests on no evidence: a no_request verdict on code that holds a
// request call, or a mismatch with no request to a host the code names. A request
// call no run reaches is unreached, with the call in its evidence.
func TestConformanceVerify(t *testing.T) {
	recs := conformance.Records(t)
	smps := make([]Sample, len(recs))
	for i, r := range recs {
		smps[i] = Sample{Record: r}
	}
	rep, err := Verify(context.Background(), smps, Options{})
	if err != nil {
		t.Fatal(err)
	}
	code := map[string]string{}
	for _, r := range recs {
		code[r.SampleID] = r.Code.CompleteFunction
	}
	for _, c := range rep.Samples {
		v := c.Verification
		ev := v.Evidence
		switch {
		case v.Verdict == NoRequest && len(ev.StaticCalls) > 0:
			t.Errorf("%s: no_request on code with a request call (line %d): %s", c.SampleID, ev.StaticCalls[0].Line, ev.Note)
		case slices.Contains(LabelErrors, v.Verdict) && v.Verdict != NoRequest &&
			!slices.ContainsFunc(ev.Requests, func(q Request) bool { return namesHost(code[c.SampleID], q.Host) }):
			t.Errorf("%s: %s with no request to a host the code names: %s", c.SampleID, v.Verdict, ev.Note)
		case v.Verdict == Unreached && len(ev.StaticCalls) > 0 && ev.UnreachedCall == nil:
			t.Errorf("%s: unreached without the call in its evidence", c.SampleID)
		}
		if v.Verdict == Unreached {
			t.Logf("unreached: %s [%s] %s", c.SampleID, c.DocMatchType, ev.Note)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(rep.Summary.ByVerdict)) {
		t.Logf("%-20s %d", k, rep.Summary.ByVerdict[k])
	}
}
