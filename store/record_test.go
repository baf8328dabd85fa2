package store

import (
	"context"
	"errors"
	"testing"
)

type testResult struct{ n int64 }

func (r *testResult) Counts() map[string]int64 { return map[string]int64{"n": r.n} }

func TestRecordRun(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("boom")
	tests := []struct {
		name       string
		fn         func(int64) (*testResult, error)
		wantStatus string
		wantCounts map[string]int64
		wantErr    error
	}{
		{"ok", func(int64) (*testResult, error) { return &testResult{n: 3}, nil }, RunOK, map[string]int64{"n": 3}, nil},
		{"failed with partial result", func(int64) (*testResult, error) { return &testResult{n: 1}, boom }, RunFailed, map[string]int64{"n": 1}, boom},
		{"failed without result", func(int64) (*testResult, error) { return nil, boom }, RunFailed, map[string]int64{}, boom},
		{"cancelled", func(int64) (*testResult, error) { return nil, context.Canceled }, RunCancelled, map[string]int64{}, context.Canceled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openTest(t)
			var gotID int64
			_, err := RecordRun(ctx, s, "toy", map[string]any{"threshold": 0.5, "api_token": "secret"}, func(id int64) (*testResult, error) {
				gotID = id
				return tc.fn(id)
			})
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			runs, err := s.LastRuns(ctx, 1)
			if err != nil || len(runs) != 1 {
				t.Fatalf("runs: %v, %v", runs, err)
			}
			r := runs[0]
			if r.ID != gotID || r.Stage != "toy" || r.Status != tc.wantStatus {
				t.Errorf("run = %+v, want id %d stage toy status %s", r, gotID, tc.wantStatus)
			}
			if len(r.Counts) != len(tc.wantCounts) || r.Counts["n"] != tc.wantCounts["n"] {
				t.Errorf("counts = %v, want %v", r.Counts, tc.wantCounts)
			}
			if r.Args["threshold"] != 0.5 || r.Args["api_token"] != "<redacted>" {
				t.Errorf("args = %v, want the options with the token redacted", r.Args)
			}
		})
	}
}
