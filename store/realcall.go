package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// StageRealCall is the stage name of `sccg realcall` in runs.
const StageRealCall = "realcall"

// RealCall is one request a bounded real-call validation sent, and what came back.
// It never holds a credential or a response body.
type RealCall struct {
	Key        string  `json:"call_key"`
	API        string  `json:"api"`
	Host       string  `json:"host"`
	Method     string  `json:"method"`
	URL        string  `json:"url"`
	Status     int     `json:"status"`
	Attempts   int     `json:"attempts"`
	LatencyMS  float64 `json:"latency_ms"`
	BodySHA256 string  `json:"body_sha256,omitempty"`
	BodyBytes  int64   `json:"body_bytes"`
	Error      string  `json:"error,omitempty"`
	RunID      int64   `json:"run_id"`
	SentAt     string  `json:"sent_at"`
}

// SaveRealCall stores a call that was sent (replacing one with the same key).
func (t *Tx) SaveRealCall(ctx context.Context, c RealCall) error {
	if c.SentAt == "" {
		c.SentAt = t.Now()
	}
	var run any
	if c.RunID != 0 {
		run = c.RunID
	}
	_, err := t.exec(ctx, `INSERT INTO realcall_calls(call_key, api, host, method, url, status, attempts, latency_ms,
		body_sha256, body_bytes, error, run_id, sent_at) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT(call_key) DO UPDATE SET api=excluded.api, host=excluded.host, method=excluded.method, url=excluded.url,
		status=excluded.status, attempts=excluded.attempts, latency_ms=excluded.latency_ms, body_sha256=excluded.body_sha256,
		body_bytes=excluded.body_bytes, error=excluded.error, run_id=excluded.run_id, sent_at=excluded.sent_at`,
		c.Key, c.API, c.Host, c.Method, c.URL, c.Status, c.Attempts, c.LatencyMS, c.BodySHA256, c.BodyBytes, c.Error, run, c.SentAt)
	if err != nil {
		return fmt.Errorf("save real call %s %s: %w", c.Method, c.URL, err)
	}
	return nil
}

// RealCalls returns every call sent so far, by key.
func (s *Store) RealCalls(ctx context.Context) (map[string]RealCall, error) {
	list, err := queryList(ctx, s, "list real calls", func(sc rowScanner) (RealCall, error) {
		var c RealCall
		var run sql.NullInt64
		err := sc.Scan(&c.Key, &c.API, &c.Host, &c.Method, &c.URL, &c.Status, &c.Attempts, &c.LatencyMS,
			&c.BodySHA256, &c.BodyBytes, &c.Error, &run, &c.SentAt)
		c.RunID = run.Int64
		return c, err
	}, `SELECT call_key, api, host, method, url, status, attempts, latency_ms, body_sha256, body_bytes, error, run_id, sent_at
		FROM realcall_calls ORDER BY sent_at, call_key`)
	if err != nil {
		return nil, err
	}
	out := make(map[string]RealCall, len(list))
	for _, c := range list {
		out[c.Key] = c
	}
	return out, nil
}

// SaveRealCallReport stores the report (JSON) of run runID.
func (t *Tx) SaveRealCallReport(ctx context.Context, runID int64, live bool, report []byte) error {
	_, err := t.exec(ctx, `INSERT INTO realcall_reports(run_id, live, report) VALUES(?,?,?)
		ON CONFLICT(run_id) DO UPDATE SET live=excluded.live, report=excluded.report`, runID, live, string(report))
	if err != nil {
		return fmt.Errorf("save real-call report of run %d: %w", runID, err)
	}
	return nil
}

// LatestRealCallReport returns the report (JSON) of the latest live real-call run,
// or an error wrapping ErrNotFound when there is none.
func (s *Store) LatestRealCallReport(ctx context.Context) ([]byte, error) {
	var r string
	err := s.read.QueryRowContext(ctx, `SELECT report FROM realcall_reports WHERE live=1 ORDER BY run_id DESC LIMIT 1`).Scan(&r)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("real-call report: %w", ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("real-call report: %w", err)
	}
	return []byte(r), nil
}
