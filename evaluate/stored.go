package evaluate

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"sccg/store"
)

// evalUnit names a completion in work_units: its key and the completion's text,
// so a changed completion is scored again.
func evalUnit(g Generation) string {
	return g.Setting + "/" + g.Model + "/" + g.SampleID + "/" + strconv.Itoa(g.SampleIndex) + "@" + store.HashBlob([]byte(g.Completion))[:16]
}

// saveEvery is how many new results RunStored saves in one transaction: a killed
// run scores at most that many completions again when it resumes.
const saveEvery = 64

// RunStored is Run over a store, as one recorded run of the evaluate stage with
// args: results stored for the same completions by an earlier run are reused (an
// interrupted evaluation resumes), new results are saved as they are scored, in
// transactions of saveEvery (and what is left when the run ends, also on an
// error), and after the run finish (when not nil) writes the outputs inside the
// run, so a failure to write them is the run's failure.
func RunStored(ctx context.Context, st *store.Store, cfg Config, args map[string]any, finish func(*Output) error) (*Output, error) {
	prev, err := StoredResults(ctx, st, cfg.Generations)
	if err != nil {
		return nil, err
	}
	cfg.Previous = append(cfg.Previous, prev...)
	return store.RecordRun(ctx, st, store.StageEvaluate, args, func(runID int64) (*Output, error) {
		onResult := cfg.OnResult
		var pending []savedResult
		flush := func() error {
			if len(pending) == 0 {
				return nil
			}
			batch := pending
			pending = nil
			return saveResults(context.WithoutCancel(ctx), st, runID, batch)
		}
		cfg.OnResult = func(g Generation, r Result) error {
			if onResult != nil {
				if err := onResult(g, r); err != nil {
					return err
				}
			}
			pending = append(pending, savedResult{g, r})
			if len(pending) >= saveEvery {
				return flush()
			}
			return nil
		}
		out, err := Run(ctx, cfg)
		if ferr := flush(); err == nil {
			err = ferr
		}
		if err == nil && finish != nil {
			err = finish(out)
		}
		return out, err
	})
}

// savedResult is a generation and its result, waiting to be saved.
type savedResult struct {
	g Generation
	r Result
}

// saveResults stores results in one transaction (see SaveResult).
func saveResults(ctx context.Context, st *store.Store, runID int64, rs []savedResult) error {
	return st.Update(ctx, func(tx *store.Tx) error {
		for _, x := range rs {
			gr, ev, err := resultRows(runID, x.g, x.r)
			if err != nil {
				return err
			}
			if err := tx.SaveEvaluation(ctx, gr, ev, evalUnit(x.g)); err != nil {
				return err
			}
		}
		return nil
	})
}

// StoredResults loads the stored results of completions already scored with the
// same text, so an interrupted run resumes instead of starting over.
func StoredResults(ctx context.Context, st *store.Store, gens []Generation) ([]Result, error) {
	done, err := st.DoneUnits(ctx, store.StageEvaluate)
	if err != nil || len(done) == 0 {
		return nil, err
	}
	want := map[string]bool{}
	for _, g := range gens {
		if done[evalUnit(g)] {
			want[g.Key()] = true
		}
	}
	stored, err := st.LatestEvaluations(ctx)
	if err != nil {
		return nil, err
	}
	var out []Result
	for _, s := range stored {
		g := Generation{SampleID: s.Generation.SampleID, Setting: s.Generation.Setting, Model: s.Generation.Model,
			SampleIndex: s.Generation.SampleIndex, Completion: s.Generation.Completion}
		if !want[g.Key()] {
			continue
		}
		var r Result
		if err := json.Unmarshal([]byte(s.Evaluation.Metrics), &r); err != nil {
			continue // unreadable: score it again
		}
		out = append(out, r)
	}
	return out, nil
}

// SaveResult stores a generation and its result, marking the completion done in
// the same transaction.
func SaveResult(ctx context.Context, st *store.Store, runID int64, g Generation, r Result) error {
	return saveResults(ctx, st, runID, []savedResult{{g, r}})
}

// resultRows are the rows that store a generation and its result.
func resultRows(runID int64, g Generation, r Result) (*store.GenerationRow, *store.Evaluation, error) {
	m, err := json.Marshal(r)
	if err != nil {
		return nil, nil, fmt.Errorf("encode result %s: %w", g.SampleID, err)
	}
	q, _ := json.Marshal(r.Requests)
	gr := &store.GenerationRow{SampleID: g.SampleID, Setting: g.Setting, Model: g.Model, SampleIndex: g.SampleIndex, Completion: g.Completion}
	ev := &store.Evaluation{RunID: runID, Status: r.Status, FailureStage: r.FailureStage, Metrics: string(m), Requests: string(q)}
	return gr, ev, nil
}
