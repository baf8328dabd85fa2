package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// MaskedCode is ỹ for one kept function: its code with the ground truth replaced by
// typed placeholders, which the intent generators read instead of the code.
type MaskedCode struct {
	FunctionID   int64           `json:"function_id"`
	Code         string          `json:"code"`
	Placeholders json.RawMessage `json:"placeholders"`
	InputHash    string          `json:"input_hash"`
	MaskedAt     string          `json:"masked_at"`
}

// SaveMasked stores (or replaces) the masked code of a kept function.
func (t *Tx) SaveMasked(ctx context.Context, m *MaskedCode) error {
	if m.MaskedAt == "" {
		m.MaskedAt = t.Now()
	}
	_, err := t.exec(ctx, `INSERT INTO masked(function_id, code, placeholders, input_hash, masked_at) VALUES(?,?,?,?,?)
		ON CONFLICT(function_id) DO UPDATE SET code=excluded.code, placeholders=excluded.placeholders,
		input_hash=excluded.input_hash, masked_at=excluded.masked_at`,
		m.FunctionID, m.Code, rawOr(m.Placeholders, "[]"), m.InputHash, m.MaskedAt)
	if err != nil {
		return fmt.Errorf("save masked code of function %d: %w", m.FunctionID, err)
	}
	return nil
}

// MaskedCode returns the masked code of function fid, or ErrNotFound.
func (s *Store) MaskedCode(ctx context.Context, fid int64) (*MaskedCode, error) {
	m := MaskedCode{FunctionID: fid}
	var ph string
	err := s.read.QueryRowContext(ctx, `SELECT code, placeholders, input_hash, masked_at FROM masked WHERE function_id=?`, fid).
		Scan(&m.Code, &ph, &m.InputHash, &m.MaskedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("masked code of function %d: %w", fid, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("masked code of function %d: %w", fid, err)
	}
	m.Placeholders = json.RawMessage(ph)
	return &m, nil
}

// ReplaceFunctionIntents makes ins the intent attempts of function fid, dropping
// the ones it had.
func (t *Tx) ReplaceFunctionIntents(ctx context.Context, fid int64, ins []Intent) error {
	if _, err := t.exec(ctx, `DELETE FROM intents WHERE function_id=?`, fid); err != nil {
		return fmt.Errorf("replace intents of function %d: %w", fid, err)
	}
	for _, in := range ins {
		in.FunctionID = fid
		if err := t.PutIntent(ctx, in); err != nil {
			return err
		}
	}
	return nil
}

// FunctionIntents returns the intent attempts of function fid, in attempt order.
func (s *Store) FunctionIntents(ctx context.Context, fid int64) ([]Intent, error) {
	return queryList(ctx, s, fmt.Sprintf("intents of function %d", fid), scanIntent,
		`SELECT `+intentCols+` FROM intents WHERE function_id=? ORDER BY attempt`, fid)
}

// IntentsByFunction returns every function's intent attempts, by function id, each
// in attempt order.
func (s *Store) IntentsByFunction(ctx context.Context) (map[int64][]Intent, error) {
	ins, err := queryList(ctx, s, "intents of every function", scanIntent,
		`SELECT `+intentCols+` FROM intents WHERE function_id IS NOT NULL ORDER BY function_id, attempt`)
	if err != nil {
		return nil, err
	}
	out := map[int64][]Intent{}
	for _, in := range ins {
		out[in.FunctionID] = append(out[in.FunctionID], in)
	}
	return out, nil
}

// IntentPaths counts the accepted intents of the functions decontam keeps by role
// and path ("comment/offline", "paired/llm", …): how many intents came from each
// path.
func (s *Store) IntentPaths(ctx context.Context) (map[string]int64, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT i.role, i.path, i.decision, COUNT(*) FROM intents i JOIN kept k ON k.function_id = i.function_id
		WHERE i.decision IN (?, ?) GROUP BY i.role, i.path, i.decision`, IntentAccepted, IntentDropped)
	if err != nil {
		return nil, fmt.Errorf("intent paths: %w", err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var role, path, decision string
		var n int64
		if err := rows.Scan(&role, &path, &decision, &n); err != nil {
			return nil, fmt.Errorf("intent paths: %w", err)
		}
		if decision == IntentDropped {
			path = IntentDropped
		}
		out[role+"/"+path] += n
	}
	return out, rows.Err()
}
