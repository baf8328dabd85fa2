package store

import (
	"context"
	"strconv"
	"testing"
)

// TestDecisionsSinceReadsARunsOwnDecisions: a command reads the decisions of the
// runs it made, including those a run made again (which take its id), and leaves
// out the verdicts it is told to.
func TestDecisionsSinceReadsARunsOwnDecisions(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	record := func(stage string, ds ...Decision) int64 {
		t.Helper()
		r, err := s.BeginRun(ctx, stage, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			d.RunID, d.Stage = r.ID, stage
			if err := s.Update(ctx, func(tx *Tx) error { return tx.RecordDecision(ctx, d) }); err != nil {
				t.Fatal(err)
			}
		}
		return r.ID
	}
	dup := Decision{SubjectKind: "function", Subject: "7", Verdict: Rejected, Reason: "exact_duplicate"}
	kept := Decision{SubjectKind: "function", Subject: "8", Verdict: Kept, Reason: "kept"}
	warn := Decision{SubjectKind: "file", Subject: "a.yaml", Verdict: "warning", Reason: "example does not match: /x"}
	first := record("decontam", dup, kept)
	second := record("decontam", dup, kept, warn)
	tests := []struct {
		name  string
		since int64
		skip  []string
		want  []string // subject/verdict/run
	}{
		{"everything since the store began", 0, nil, []string{"7/rejected/2", "8/kept/2", "a.yaml/warning/2"}},
		{"the second run's, kept left out", first, []string{Kept}, []string{"7/rejected/2", "a.yaml/warning/2"}},
		{"after the last run", second, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := s.DecisionsSince(ctx, tc.since, tc.skip...)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range ds {
				got = append(got, d.Subject+"/"+d.Verdict+"/"+strconv.FormatInt(d.RunID, 10))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
	if last, err := s.LastRunID(ctx); err != nil || last != second {
		t.Errorf("LastRunID = %d, %v; want %d", last, err, second)
	}
	// an older run recording the same decision again leaves it with the newer run
	record("decontam") // run 3, decides nothing
	if err := s.Update(ctx, func(tx *Tx) error { d := dup; d.Stage, d.RunID = "decontam", first; return tx.RecordDecision(ctx, d) }); err != nil {
		t.Fatal(err)
	}
	ds, _ := s.Decisions(ctx, "function", "7")
	if len(ds) != 1 || ds[0].RunID != second {
		t.Errorf("decisions on 7 = %+v, want one of run %d", ds, second)
	}
}
