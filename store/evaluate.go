package store

import (
	"context"
	"database/sql"
	"fmt"
)

// StageEvaluate is the stage name of `sccg eval` in runs and work_units.
const StageEvaluate = "evaluate"

// GenerationRow is one stored completion.
type GenerationRow struct {
	ID          int64  `json:"id"`
	SampleID    string `json:"sample_id"`
	Setting     string `json:"setting"`
	Model       string `json:"model"`
	SampleIndex int    `json:"sample_index"`
	Completion  string `json:"completion"`
}

// Evaluation is the score of one generation in one run. Metrics holds the whole
// scored result as JSON; Requests the captured requests.
type Evaluation struct {
	GenerationID int64  `json:"generation_id"`
	RunID        int64  `json:"run_id"`
	Status       string `json:"status"`
	FailureStage string `json:"failure_stage"`
	Metrics      string `json:"metrics"`
	Requests     string `json:"requests"`
}

// SaveEvaluation stores a generation (or finds the stored one with the same key,
// updating its completion) and its evaluation in run e.RunID, and marks unit done
// in the same transaction.
func (t *Tx) SaveEvaluation(ctx context.Context, g *GenerationRow, e *Evaluation, unit string) error {
	err := t.tx.QueryRowContext(ctx, `INSERT INTO generations(sample_id, setting, model, sample_index, completion) VALUES(?,?,?,?,?)
		ON CONFLICT(sample_id, setting, model, sample_index) DO UPDATE SET completion=excluded.completion RETURNING id`,
		g.SampleID, g.Setting, g.Model, g.SampleIndex, g.Completion).Scan(&g.ID)
	if err != nil {
		return fmt.Errorf("save generation %s: %w", g.SampleID, err)
	}
	e.GenerationID = g.ID
	var run any
	if e.RunID != 0 {
		run = e.RunID
	}
	_, err = t.exec(ctx, `INSERT INTO evaluations(generation_id, run_id, status, failure_stage, metrics, requests) VALUES(?,?,?,?,?,?)
		ON CONFLICT(generation_id, run_id) DO UPDATE SET status=excluded.status, failure_stage=excluded.failure_stage,
		metrics=excluded.metrics, requests=excluded.requests`,
		e.GenerationID, run, e.Status, e.FailureStage, e.Metrics, e.Requests)
	if err != nil {
		return fmt.Errorf("save evaluation of %s: %w", g.SampleID, err)
	}
	if unit != "" {
		return t.MarkDone(ctx, StageEvaluate, unit, e.RunID)
	}
	return nil
}

// StoredEvaluation is a generation with its latest evaluation.
type StoredEvaluation struct {
	Generation GenerationRow `json:"generation"`
	Evaluation Evaluation    `json:"evaluation"`
}

// LatestEvaluations returns every generation that has an evaluation, with the
// evaluation of the latest run.
func (s *Store) LatestEvaluations(ctx context.Context) ([]StoredEvaluation, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT g.id, g.sample_id, g.setting, g.model, g.sample_index, g.completion,
		COALESCE(e.run_id, 0), e.status, e.failure_stage, e.metrics, e.requests
		FROM generations g JOIN evaluations e ON e.generation_id = g.id
		WHERE e.id = (SELECT MAX(e2.id) FROM evaluations e2 WHERE e2.generation_id = g.id)
		ORDER BY g.setting, g.model, g.sample_id, g.sample_index`)
	if err != nil {
		return nil, fmt.Errorf("read evaluations: %w", err)
	}
	defer rows.Close()
	var out []StoredEvaluation
	for rows.Next() {
		var se StoredEvaluation
		g, e := &se.Generation, &se.Evaluation
		if err := rows.Scan(&g.ID, &g.SampleID, &g.Setting, &g.Model, &g.SampleIndex, &g.Completion,
			&e.RunID, &e.Status, &e.FailureStage, &e.Metrics, &e.Requests); err != nil {
			return nil, fmt.Errorf("read evaluations: %w", err)
		}
		e.GenerationID = g.ID
		out = append(out, se)
	}
	if err := rows.Err(); err != nil && err != sql.ErrNoRows {
		return nil, fmt.Errorf("read evaluations: %w", err)
	}
	return out, nil
}
