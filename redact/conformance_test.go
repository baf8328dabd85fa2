package redact

import (
	"context"
	"testing"

	"sccg/internal/conformance"
	"sccg/leakcheck"
)

// TestConformanceLeakCheck runs LeakCheck over the comments of the public
// validation samples ($SCCG_CONFORMANCE, set by make conformance) and reports the
// leak rate by comments_source. The published strictly redacted intents must come
// out clean (no false alarm on an intent written to leak nothing), and human
// comments that name their API must be caught.
func TestConformanceLeakCheck(t *testing.T) {
	recs := conformance.Records(t)
	rep, err := leakcheck.CheckBench(context.Background(), recs)
	if err != nil {
		t.Fatal(err)
	}
	for src, f := range rep.BySource {
		t.Logf("%-16s %3d samples, %3d leak (%.1f%%) %v", src, f.Samples, f.Leaked, 100*f.Rate, f.ByKind)
	}
	if f := rep.BySource[SourceRedacted]; f != nil && f.Leaked > 0 {
		for _, s := range rep.Samples {
			if s.CommentsSource == SourceRedacted && s.Leaked {
				t.Errorf("%s: a published strictly redacted intent flagged: %v in %q", s.SampleID, s.Tokens, s.Text)
			}
		}
	}
	if f := rep.BySource[SourceOriginal]; f == nil || f.ByKind[leakcheck.KindHostLabel] == 0 {
		t.Error("no human comment found naming its API, though the split has several (Meteostat, DuckDuckGo, …)")
	}

	// Masking and the offline generator on real code: ỹ must parse (Mask checks) and
	// the intent must pass LeakCheck.
	failed := 0
	for i := range recs {
		r := &recs[i]
		g, err := leakcheck.RecordTruth(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Mask(context.Background(), r.Code.CompleteFunction, g, MaskOptions{Function: r.FunctionName})
		if err != nil {
			failed++
			t.Logf("%s: %v", r.SampleID, err)
			continue
		}
		text := OfflineIntent(OfflineInput{Masked: m, Method: r.APIMetadata.Method}, g)
		if rep := leakcheck.LeakCheck(text, g); rep.Leaked {
			t.Errorf("%s: offline intent %q leaks %v", r.SampleID, text, rep)
		}
		if left := leftOver(m.Code, g); len(left) > 0 {
			t.Logf("%s: ỹ still spells %v", r.SampleID, leakcheck.Report{Leaked: true, Leaks: left})
		}
	}
	t.Logf("masked %d of %d samples' code", len(recs)-failed, len(recs))
}
