package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// toyStage is a minimal stage: each unit writes a blob and a decision, and marks
// itself done in the same transaction, the way every real stage must.
func toyStage(ctx context.Context, s *Store, units []string, afterUnit func(i int)) error {
	run, err := s.BeginRun(ctx, "toy", nil)
	if err != nil {
		return err
	}
	done, err := s.DoneUnits(ctx, "toy")
	if err != nil {
		return err
	}
	var stageErr error
	for i, u := range units {
		if err := ctx.Err(); err != nil {
			stageErr = err
			break
		}
		if done[u] {
			continue
		}
		err := s.Update(ctx, func(tx *Tx) error {
			sha, err := tx.PutBlob(ctx, []byte("content of "+u))
			if err != nil {
				return err
			}
			if err := tx.RecordDecision(ctx, Decision{Stage: "toy", SubjectKind: "unit", Subject: u, Verdict: Kept, Reason: "ok", Evidence: map[string]any{"blob": sha}}); err != nil {
				return err
			}
			return tx.MarkDone(ctx, "toy", u, run.ID)
		})
		if err != nil {
			stageErr = err
			break
		}
		run.Counts["units"]++
		if afterUnit != nil {
			afterUnit(i)
		}
	}
	if ferr := s.FinishRun(ctx, run, stageErr); ferr != nil {
		return ferr
	}
	return stageErr
}

func TestCancelledStageResumesToTheSameStore(t *testing.T) {
	units := make([]string, 20)
	for i := range units {
		units[i] = fmt.Sprintf("unit-%02d", i)
	}
	ctx := context.Background()

	whole := openTest(t)
	if err := toyStage(ctx, whole, units, nil); err != nil {
		t.Fatal(err)
	}
	want := mustDump(t, whole)

	for _, stopAfter := range []int{0, 7, 19} {
		t.Run(fmt.Sprintf("cancel after %d", stopAfter+1), func(t *testing.T) {
			s := openTest(t)
			cctx, cancel := context.WithCancel(ctx)
			processed := 0
			err := toyStage(cctx, s, units, func(i int) {
				processed++
				if i == stopAfter {
					cancel()
				}
			})
			if stopAfter < len(units)-1 && !errors.Is(err, context.Canceled) {
				t.Fatalf("first run: err = %v, want context.Canceled", err)
			}
			processed = 0
			if err := toyStage(ctx, s, units, func(int) { processed++ }); err != nil {
				t.Fatal(err)
			}
			if processed != len(units)-(stopAfter+1) {
				t.Fatalf("rerun processed %d units, want %d (done units skipped)", processed, len(units)-(stopAfter+1))
			}
			if got := mustDump(t, s); got != want {
				t.Fatalf("resumed store differs from an uninterrupted run:\n got: %s\nwant: %s", got, want)
			}
		})
	}
}
