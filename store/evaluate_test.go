package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

func TestSaveEvaluation(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "e.db"), WithClock(func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	run, err := s.BeginRun(ctx, StageEvaluate, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := &GenerationRow{SampleID: "S1", Setting: "intent", Model: "m", SampleIndex: 0, Completion: "x = 1"}
	e := &Evaluation{RunID: run.ID, Status: "ok", FailureStage: "request", Metrics: `{"mock":0}`, Requests: `[]`}
	for i := 0; i < 2; i++ { // saving twice changes nothing
		if err := s.Update(ctx, func(tx *Tx) error { return tx.SaveEvaluation(ctx, g, e, "unit-1") }); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.LatestEvaluations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Generation.Completion != "x = 1" || got[0].Evaluation.Metrics != `{"mock":0}` || got[0].Evaluation.RunID != run.ID {
		t.Fatalf("LatestEvaluations = %+v", got)
	}
	done, err := s.DoneUnits(ctx, StageEvaluate)
	if err != nil || !done["unit-1"] {
		t.Errorf("unit not marked done: %v %v", done, err)
	}
	// a later run's evaluation is the latest
	run2, _ := s.BeginRun(ctx, StageEvaluate, nil)
	e2 := &Evaluation{RunID: run2.ID, Status: "ok", FailureStage: "hit", Metrics: `{"mock":1}`, Requests: `[]`}
	if err := s.Update(ctx, func(tx *Tx) error { return tx.SaveEvaluation(ctx, g, e2, "") }); err != nil {
		t.Fatal(err)
	}
	got, _ = s.LatestEvaluations(ctx)
	if len(got) != 1 || got[0].Evaluation.FailureStage != "hit" {
		t.Errorf("latest evaluation = %+v, want the second run's", got)
	}
}
