package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func openTest(t *testing.T) *Store {
	t.Helper()
	clock := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "t.db"), WithClock(func() time.Time { return clock }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestBlobsAreContentAddressedAndRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	big := bytes.Repeat([]byte("self.__next_f.push([1,\"x\"])\n"), 200)
	tests := []struct {
		name string
		data []byte
	}{
		{"small", []byte("hello")},
		{"compressible", big},
		{"empty", []byte{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var sha1, sha2 string
			err := s.Update(ctx, func(tx *Tx) (err error) {
				if sha1, err = tx.PutBlob(ctx, tc.data); err != nil {
					return err
				}
				sha2, err = tx.PutBlob(ctx, tc.data)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if sha1 != sha2 || sha1 != HashBlob(tc.data) {
				t.Fatalf("sha %s / %s, want %s", sha1, sha2, HashBlob(tc.data))
			}
			got, err := s.Blob(ctx, sha1)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tc.data) {
				t.Fatalf("blob round trip changed %d bytes into %d", len(tc.data), len(got))
			}
		})
	}
	var rows, stored int
	s.read.QueryRow(`SELECT COUNT(*), SUM(LENGTH(data)) FROM blobs`).Scan(&rows, &stored)
	if rows != 3 {
		t.Fatalf("%d blob rows, want 3 (duplicates kept once)", rows)
	}
	if stored >= len(big) {
		t.Fatalf("compressible blob stored in %d bytes, not compressed", stored)
	}
	if _, err := s.Blob(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing blob: err = %v, want ErrNotFound", err)
	}
}

func TestLatestFetchKeepsHeadersForConditionalRequests(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	url := "https://rapidapi.com/o/api/a/playground"
	for i, etag := range []string{`"v1"`, `"v2"`} {
		err := s.Update(ctx, func(tx *Tx) error {
			return tx.RecordFetch(ctx, &Fetch{URL: url, Status: 200, Headers: map[string]string{"ETag": etag}}, []byte(fmt.Sprint("page ", i)))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	f, err := s.LatestFetch(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if f.Headers["ETag"] != `"v2"` || f.Status != 200 {
		t.Fatalf("latest fetch = %+v, want the second one", f)
	}
	body, _ := s.Blob(ctx, f.SHA256)
	if string(body) != "page 1" {
		t.Fatalf("body %q", body)
	}
	if _, err := s.LatestFetch(ctx, "https://other"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
}

func TestDecisionsAreIdempotent(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	d := Decision{Stage: "mine", SubjectKind: "file", Subject: "o/r:a.py", Verdict: Rejected, Reason: "binary file", Evidence: map[string]any{"bytes": 12}}
	for i := 0; i < 2; i++ {
		if err := s.Update(ctx, func(tx *Tx) error { return tx.RecordDecision(ctx, d) }); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Decisions(ctx, "file", "o/r:a.py")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Reason != "binary file" || got[0].Evidence["bytes"] != float64(12) {
		t.Fatalf("decisions = %+v, want one with its evidence", got)
	}
	counts, _ := s.DecisionCounts(ctx, "mine")
	if counts["rejected: binary file"] != 1 {
		t.Fatalf("counts = %v", counts)
	}
}

func TestRunArgsNeverKeepSecrets(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	r, err := s.BeginRun(ctx, "mine", map[string]any{"token-env": "GH", "github_token": "ghp_secret", "api-key": "k", "max-per-api": 20})
	if err != nil {
		t.Fatal(err)
	}
	r.Counts["files"] = 3
	if err := s.FinishRun(ctx, r, nil); err != nil {
		t.Fatal(err)
	}
	runs, _ := s.LastRuns(ctx, 5)
	if len(runs) != 1 || runs[0].Status != RunOK || runs[0].Counts["files"] != 3 {
		t.Fatalf("runs = %+v", runs)
	}
	dump := mustDump(t, s, "runs")
	if strings.Contains(dump, "ghp_secret") || strings.Contains(dump, `"k"`) {
		t.Fatalf("a secret reached the runs table: %s", dump)
	}
	if runs[0].Args["max-per-api"] != float64(20) {
		t.Fatalf("ordinary argument lost: %v", runs[0].Args)
	}
}

func TestFinishRunRecordsCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := openTest(t)
	r, err := s.BeginRun(ctx, "crawl", nil)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := s.FinishRun(ctx, r, fmt.Errorf("crawl: %w", context.Canceled)); err != nil {
		t.Fatalf("FinishRun after cancel: %v", err)
	}
	runs, _ := s.LastRuns(context.Background(), 1)
	if runs[0].Status != RunCancelled {
		t.Fatalf("status = %s, want cancelled", runs[0].Status)
	}
}

func TestResetUnitsForgetsOnlyThePrefix(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	err := s.Update(ctx, func(tx *Tx) error {
		for _, u := range []string{"rapidapi:a/b", "rapidapi:c/d", "openapi:/x.yaml", "rapid:e"} {
			if err := tx.MarkDone(ctx, "crawl", u, 0); err != nil {
				return err
			}
		}
		return tx.ResetUnits(ctx, "crawl", "rapidapi:")
	})
	if err != nil {
		t.Fatal(err)
	}
	done, _ := s.DoneUnits(ctx, "crawl")
	if len(done) != 2 || !done["openapi:/x.yaml"] || !done["rapid:e"] {
		t.Fatalf("done after reset = %v, want openapi:/x.yaml and rapid:e", done)
	}
}

// mustDump is storetest.MustDump for the store's own tests (which cannot import
// storetest): a failing dump fails the test instead of reading as "".
func mustDump(t *testing.T, s *Store, tables ...string) string {
	t.Helper()
	d, err := s.Dump(t.Context(), tables...)
	if err != nil {
		t.Fatalf("dump %v: %v", tables, err)
	}
	return d
}
