package evaluate

import (
	"context"
	"reflect"
	"testing"

	"sccg/evaluate/sandbox"
	"sccg/internal/conformance"
)

// TestGoldBatchedMatchesUnbatched: `eval --gold` on the conformance samples gives
// the same results with batching on as with every completion in a child of its
// own, and batching did take most of them.
func TestGoldBatchedMatchesUnbatched(t *testing.T) {
	bench := conformance.Records(t)
	gens := GoldGenerations(bench)
	run := func(noBatch bool) *Output {
		out, err := Run(context.Background(), Config{Bench: bench, Generations: gens,
			Sandbox: sandbox.Options{ScratchDir: t.TempDir(), NoBatch: noBatch}})
		if err != nil {
			t.Skipf("no sandbox: %v", err)
		}
		return out
	}
	batched, own := run(false), run(true)
	if len(batched.Results) != len(own.Results) {
		t.Fatalf("%d results batched, %d unbatched", len(batched.Results), len(own.Results))
	}
	comparable := func(r Result) Result {
		r.DurationMS, r.Truth = 0, nil
		return r
	}
	for i := range own.Results {
		b, o := comparable(batched.Results[i]), comparable(own.Results[i])
		if !reflect.DeepEqual(b, o) {
			t.Errorf("%s: batched %s %s %s %+v %+v\nunbatched %s %s %s %+v %+v", o.SampleID, b.Status, b.Reason,
				b.FailureStage, b.Metrics, b.Requests, o.Status, o.Reason, o.FailureStage, o.Metrics, o.Requests)
		}
	}
	runs := batched.Runs
	t.Logf("batched: %+v", *runs)
	if int(runs.Batched)*2 < runs.Runs {
		t.Errorf("only %d of %d runs in batches", runs.Batched, runs.Runs)
	}
	if own.Runs.Batched != 0 {
		t.Errorf("unbatched run batched %d", own.Runs.Batched)
	}
}
