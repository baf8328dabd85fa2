package store

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"
)

// alignStoreTestEnv opens a fresh store with one API and endpoint, one repository
// and file, and two functions; it returns the store, the function ids and the
// endpoint id.
func alignStoreTestEnv(t *testing.T) (*Store, []int64, int64) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "a.db"), WithClock(func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var fids []int64
	err = s.Update(ctx, func(tx *Tx) error {
		_, err := tx.SaveAPI(ctx, &API{Source: "rapidapi", Owner: "o", Slug: "wx", Host: "wx.p.rapidapi.com", CrawledAt: tx.Now()},
			[]Endpoint{{Host: "wx.p.rapidapi.com", Method: "GET", Route: "/current", IsCurrent: true, Params: []Param{{Name: "q", Location: "query"}}}})
		if err != nil {
			return err
		}
		rid, err := tx.UpsertRepository(ctx, &Repository{FullName: "a/b", Source: "local", FetchedAt: tx.Now()})
		if err != nil {
			return err
		}
		fileID, err := tx.SaveFile(ctx, &File{RepoID: rid, Path: "x.py", FoundAt: tx.Now()}, []byte("x"))
		if err != nil {
			return err
		}
		fns := []Function{
			{Name: "f", QualName: "f", StartLine: 1, EndLine: 2, Source: "def f(): pass", Code: "def f(): pass", CodeHash: "h1", Status: FunctionCandidate},
			{Name: "g", QualName: "g", StartLine: 3, EndLine: 4, Source: "def g(): pass", Code: "def g(): pass", CodeHash: "h2", Status: FunctionCandidate},
		}
		if err := tx.SaveFunctions(ctx, fileID, fns); err != nil {
			return err
		}
		fids = []int64{fns[0].ID, fns[1].ID}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	eps, err := s.EndpointsByHost(ctx, "wx.p.rapidapi.com")
	if err != nil || len(eps) != 1 {
		t.Fatalf("EndpointsByHost = %v, %v", eps, err)
	}
	return s, fids, eps[0].ID
}

func TestAlignmentsRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, fids, eid := alignStoreTestEnv(t)
	as := []Alignment{
		{CallIndex: 0, Host: "wx.p.rapidapi.com", DocMatchType: "host_only", EndpointSource: "none", ParamsSource: "none"},
		{CallIndex: 1, EndpointID: eid, Host: "wx.p.rapidapi.com", Route: "/current", Method: "GET", DocMatchType: "url",
			EndpointSource: "documented", Params: []Param{{Name: "q", Location: "query"}}, ParamsSource: "documented",
			Evidence: json.RawMessage(`{"rule":"url_literal"}`), IsPrimary: true},
	}
	for round := 0; round < 2; round++ { // saving twice replaces, never duplicates
		if err := s.Update(ctx, func(tx *Tx) error { return tx.SaveAlignments(ctx, fids[0], as) }); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Alignments(ctx, fids[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].EndpointID != eid || string(got[1].Evidence) != `{"rule":"url_literal"}` || len(got[1].Params) != 1 {
		t.Fatalf("Alignments = %+v, want the two saved", got)
	}
	prim, err := s.PrimaryAlignments(ctx)
	if err != nil || len(prim) != 1 || prim[0].CallIndex != 1 {
		t.Fatalf("PrimaryAlignments = %+v, %v; want call 1", prim, err)
	}

	if err := s.Update(ctx, func(tx *Tx) error {
		return tx.SaveDedup(ctx, []DedupEntry{{FunctionID: fids[0], Cluster: fids[0], Kind: DedupRepresentative, Similarity: 1},
			{FunctionID: fids[1], Cluster: fids[0], Kind: DedupNear, Similarity: 0.9}})
	}); err != nil {
		t.Fatal(err)
	}
	d, err := s.DedupOf(ctx, fids[1])
	if err != nil || d.Cluster != fids[0] || d.Kind != DedupNear {
		t.Fatalf("DedupOf = %+v, %v", d, err)
	}

	k := &KeptFunction{FunctionID: fids[0], Alignment: prim[0], Code: "code", Source: "src",
		Redactions: json.RawMessage(`[{"kind":"EMAIL"}]`), Facts: json.RawMessage(`{"calls":[]}`), InputHash: KeptInputHash("a", "b", nil)}
	if err := s.Update(ctx, func(tx *Tx) error { return tx.SaveKept(ctx, k) }); err != nil {
		t.Fatal(err)
	}
	kept, err := s.KeptFunctions(ctx)
	if err != nil || len(kept) != 1 || kept[0].Code != "code" || string(kept[0].Facts) != `{"calls":[]}` || kept[0].Alignment.Route != "/current" || kept[0].Alignment.ID != prim[0].ID {
		t.Fatalf("KeptFunctions = %+v, %v", kept, err)
	}
	if err := s.Update(ctx, func(tx *Tx) error { return tx.RetainKept(ctx, []int64{fids[1]}) }); err != nil {
		t.Fatal(err)
	}
	if kept, _ := s.KeptFunctions(ctx); len(kept) != 0 {
		t.Errorf("after RetainKept of another function, %d kept rows remain", len(kept))
	}
}
