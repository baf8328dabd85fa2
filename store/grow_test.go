package store

import (
	"context"
	"testing"
)

// growTestEnv is alignStoreTestEnv with function f aligned to the endpoint, kept,
// built into a sample and marked done by extract and align; it returns the store,
// f's id and the file's id.
func growTestEnv(t *testing.T) (*Store, int64, int64) {
	t.Helper()
	ctx := context.Background()
	s, fids, eid := alignStoreTestEnv(t)
	f, err := s.Function(ctx, fids[0])
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(ctx, func(tx *Tx) error {
		api, err := s.APIBySlug(ctx, "o", "wx")
		if err != nil {
			return err
		}
		as := []Alignment{{CallIndex: 0, APIID: api.ID, EndpointID: eid, Host: "wx.p.rapidapi.com", Route: "/current", Method: "GET",
			DocMatchType: "url", EndpointSource: "documented", IsPrimary: true}}
		if err := tx.SaveAlignments(ctx, f.ID, as); err != nil {
			return err
		}
		if err := tx.SaveKept(ctx, &KeptFunction{FunctionID: f.ID, Alignment: as[0], Code: f.Code, Source: f.Source, InputHash: "h"}); err != nil {
			return err
		}
		if err := tx.PutSample(ctx, &Sample{SampleID: "SCG-000001", FunctionID: f.ID, AlignmentID: as[0].ID, Origin: "built"}); err != nil {
			return err
		}
		for _, u := range []struct{ stage, unit string }{{"extract", FileUnit(f.FileID)}, {"align", FunctionUnitPrefix(f.ID) + "h1:x"}} {
			if err := tx.MarkDone(ctx, u.stage, u.unit, 0); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, f.ID, f.FileID
}

func count(t *testing.T, s *Store, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.read.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// TestRemovingDocumentationOrFilesKeepsReferencesWhole checks that deleting an API,
// dropping an endpoint or superseding a repository's files leaves no reference
// dangling (the store enforces foreign keys) and takes what depended on it along.
func TestRemovingDocumentationOrFilesKeepsReferencesWhole(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		change func(tx *Tx, fid, fileID int64) error
		want   map[string]int // query → rows
	}{
		{name: "delete the API", change: func(tx *Tx, fid, fileID int64) error {
			api, err := tx.store.APIBySlug(ctx, "o", "wx")
			if err != nil {
				return err
			}
			return tx.DeleteAPI(ctx, api.ID)
		}, want: map[string]int{
			`SELECT COUNT(*) FROM apis`: 0, `SELECT COUNT(*) FROM endpoints`: 0, `SELECT COUNT(*) FROM alignments`: 0,
			`SELECT COUNT(*) FROM kept`: 0, `SELECT COUNT(*) FROM samples WHERE alignment_id IS NULL`: 1,
			`SELECT COUNT(*) FROM files WHERE api_id IS NULL`: 1, `SELECT COUNT(*) FROM work_units`: 2,
		}},
		{name: "document another endpoint instead", change: func(tx *Tx, fid, fileID int64) error {
			_, err := tx.SaveAPI(ctx, &API{Source: "rapidapi", Owner: "o", Slug: "wx", Host: "wx.p.rapidapi.com"},
				[]Endpoint{{Host: "wx.p.rapidapi.com", Method: "GET", Route: "/forecast", IsCurrent: true}})
			return err
		}, want: map[string]int{
			`SELECT COUNT(*) FROM apis`: 1, `SELECT COUNT(*) FROM endpoints WHERE route='/forecast'`: 1, `SELECT COUNT(*) FROM alignments`: 0,
			`SELECT COUNT(*) FROM kept`: 0, `SELECT COUNT(*) FROM samples WHERE alignment_id IS NULL`: 1,
		}},
		{name: "supersede with the same file", change: func(tx *Tx, fid, fileID int64) error {
			n, err := tx.SupersedeRepoFiles(ctx, "a/b", "c2", map[FileKey]string{{Path: "x.py"}: "a/b/blob/c2/x.py"})
			if err == nil && n != 0 {
				t.Errorf("superseding with the same file dropped %d", n)
			}
			return err
		}, want: map[string]int{
			`SELECT COUNT(*) FROM files WHERE commit_sha='c2' AND url='a/b/blob/c2/x.py'`: 1, `SELECT COUNT(*) FROM samples`: 1,
			`SELECT COUNT(*) FROM work_units`: 2,
		}},
		{name: "supersede without the file", change: func(tx *Tx, fid, fileID int64) error {
			n, err := tx.SupersedeRepoFiles(ctx, "a/b", "c2", map[FileKey]string{{Path: "y.py"}: "a/b/blob/c2/y.py"})
			if err == nil && n != 1 {
				t.Errorf("superseding without the file dropped %d, want 1", n)
			}
			return err
		}, want: map[string]int{
			`SELECT COUNT(*) FROM files`: 0, `SELECT COUNT(*) FROM functions`: 0, `SELECT COUNT(*) FROM samples`: 0,
			`SELECT COUNT(*) FROM kept`: 0, `SELECT COUNT(*) FROM work_units`: 0, `SELECT COUNT(*) FROM apis`: 1,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, fid, fileID := growTestEnv(t)
			if err := s.Update(ctx, func(tx *Tx) error { return tc.change(tx, fid, fileID) }); err != nil {
				t.Fatal(err)
			}
			for q, want := range tc.want {
				if got := count(t, s, q); got != want {
					t.Errorf("%s = %d, want %d", q, got, want)
				}
			}
		})
	}
}
