package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// StageTrainRanker is the stage name of training a learned ranker in runs.
const StageTrainRanker = "train-ranker"

// Ranker is a stored learned endpoint ranker: its model as JSON (the retrieve
// package reads it), kept by the key of what it was trained on.
type Ranker struct {
	ID        int64  `json:"id"`
	TrainKey  string `json:"train_key"`
	Name      string `json:"name"`
	Model     string `json:"model"`
	RunID     int64  `json:"run_id"`
	CreatedAt string `json:"created_at"`
}

// SaveRanker stores a ranker; one with the same training key is kept as it is
// (training is deterministic: the same inputs give the same model). It returns
// the stored ranker's id.
func (t *Tx) SaveRanker(ctx context.Context, r Ranker) (int64, error) {
	var run any
	if r.RunID != 0 {
		run = r.RunID
	}
	if _, err := t.exec(ctx, `INSERT INTO rankers(train_key, name, model, run_id, created_at) VALUES(?,?,?,?,?)
		ON CONFLICT(train_key) DO NOTHING`, r.TrainKey, r.Name, r.Model, run, t.Now()); err != nil {
		return 0, fmt.Errorf("save ranker %s: %w", r.Name, err)
	}
	var id int64
	if err := t.tx.QueryRowContext(ctx, `SELECT id FROM rankers WHERE train_key = ?`, r.TrainKey).Scan(&id); err != nil {
		return 0, fmt.Errorf("save ranker %s: %w", r.Name, err)
	}
	return id, nil
}

const rankerColumns = `id, train_key, name, model, COALESCE(run_id, 0), created_at`

func scanRanker(row interface{ Scan(...any) error }) (Ranker, error) {
	var r Ranker
	err := row.Scan(&r.ID, &r.TrainKey, &r.Name, &r.Model, &r.RunID, &r.CreatedAt)
	return r, err
}

func (s *Store) rankerWhere(ctx context.Context, what, where string, args ...any) (Ranker, error) {
	r, err := scanRanker(s.read.QueryRowContext(ctx, `SELECT `+rankerColumns+` FROM rankers `+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return Ranker{}, fmt.Errorf("%s: no learned ranker in the store: %w", what, ErrNotFound)
	}
	if err != nil {
		return Ranker{}, fmt.Errorf("%s: %w", what, err)
	}
	return r, nil
}

// RankerByKey returns the ranker trained on the inputs of key; it wraps
// ErrNotFound when there is none.
func (s *Store) RankerByKey(ctx context.Context, key string) (Ranker, error) {
	return s.rankerWhere(ctx, "ranker "+key, `WHERE train_key = ?`, key)
}

// RankerByID returns ranker id; it wraps ErrNotFound when there is none.
func (s *Store) RankerByID(ctx context.Context, id int64) (Ranker, error) {
	return s.rankerWhere(ctx, fmt.Sprintf("ranker %d", id), `WHERE id = ?`, id)
}

// LatestRanker returns the ranker stored last; it wraps ErrNotFound when the
// store has none.
func (s *Store) LatestRanker(ctx context.Context) (Ranker, error) {
	return s.rankerWhere(ctx, "latest ranker", `ORDER BY id DESC LIMIT 1`)
}
