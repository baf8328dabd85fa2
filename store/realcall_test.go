package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

func TestRealCalls(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.LatestRealCallReport(ctx); !errors.Is(err, ErrNotFound) {
		t.Fatalf("LatestRealCallReport on an empty store: got %v, want ErrNotFound", err)
	}
	run, err := s.BeginRun(ctx, StageRealCall, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := RealCall{Key: "k1", API: "weather", Host: "w.p.rapidapi.com", Method: "GET", URL: "https://w.p.rapidapi.com/x",
		Status: 503, Attempts: 1, LatencyMS: 2.5, RunID: run.ID}
	save := func(c RealCall) {
		t.Helper()
		if err := s.Update(ctx, func(tx *Tx) error { return tx.SaveRealCall(ctx, c) }); err != nil {
			t.Fatal(err)
		}
	}
	save(c)
	c.Status, c.Attempts, c.BodySHA256, c.BodyBytes = 200, 3, "ab", 7 // a retry's outcome replaces it
	save(c)
	save(RealCall{Key: "k2", API: "weather", Host: "w.p.rapidapi.com", Method: "HEAD", URL: "https://w.p.rapidapi.com/y", Error: "refused"})
	got, err := s.RealCalls(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["k1"].Status != 200 || got["k1"].Attempts != 3 || got["k1"].RunID != run.ID || got["k1"].SentAt == "" ||
		got["k2"].Error != "refused" || got["k2"].RunID != 0 {
		t.Fatalf("RealCalls = %+v", got)
	}
	run2, err := s.BeginRun(ctx, StageRealCall, nil)
	if err != nil {
		t.Fatal(err)
	}
	// the latest live report wins over a later dry run
	for _, r := range []struct {
		id     int64
		live   bool
		report string
	}{{run.ID, true, `{"live":true}`}, {run2.ID, false, `{}`}} {
		if err := s.Update(ctx, func(tx *Tx) error { return tx.SaveRealCallReport(ctx, r.id, r.live, []byte(r.report)) }); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := s.LatestRealCallReport(ctx)
	if err != nil || string(rep) != `{"live":true}` {
		t.Fatalf("LatestRealCallReport = %s, %v", rep, err)
	}
}
