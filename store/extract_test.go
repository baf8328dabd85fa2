package store

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// extractFixtureFile saves one repository and one file to hang functions on.
func extractFixtureFile(t *testing.T, s *Store) int64 {
	t.Helper()
	ctx := context.Background()
	var fileID int64
	err := s.Update(ctx, func(tx *Tx) error {
		repoID, err := tx.UpsertRepository(ctx, &Repository{FullName: "o/r", Source: "local"})
		if err != nil {
			return err
		}
		fileID, err = tx.SaveFile(ctx, &File{RepoID: repoID, Path: "a.py", GitSHA: "x"}, []byte("import requests\n"))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return fileID
}

func TestSaveFunctionsIsIdempotentPerFileAndKeepsIDs(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	fileID := extractFixtureFile(t, s)
	fns := []Function{
		{Name: "get", QualName: "Client.get", ClassName: "Client", StartLine: 3, EndLine: 9, Source: "def get(self): ...",
			Code: "code", CodeHash: "h1", SyntaxOK: true, Status: FunctionCandidate, Quality: 80,
			QualityComponents: map[string]float64{"syntax": 20}, Facts: json.RawMessage(`{"calls":[]}`)},
		{Name: "<module>", QualName: "<module>", StartLine: 12, EndLine: 14, Source: "requests.get(u)",
			Code: "code2", CodeHash: "h2", SyntaxOK: true, Status: FunctionRejected, RejectReason: "top-level script request"},
	}
	save := func(fns []Function) {
		t.Helper()
		if err := s.Update(ctx, func(tx *Tx) error { return tx.SaveFunctions(ctx, fileID, fns) }); err != nil {
			t.Fatal(err)
		}
	}
	save(fns)
	first, err := s.FunctionsOfFile(ctx, fileID)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 2 {
		t.Fatalf("got %d functions, want 2", len(first))
	}
	want := fns[0]
	want.ID, want.FileID = first[0].ID, fileID
	if !reflect.DeepEqual(first[0], want) {
		t.Errorf("round trip:\ngot  %+v\nwant %+v", first[0], want)
	}
	before := mustDump(t, s, "functions")
	save(fns)
	after := mustDump(t, s, "functions")
	if before != after {
		t.Errorf("saving twice changed the store:\n%s\nvs\n%s", before, after)
	}

	// Re-extraction that drops a function deletes it and keeps the other's id.
	save(fns[:1])
	got, err := s.Functions(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ID != first[0].ID {
		t.Errorf("after dropping one: got %+v, want only id %d", got, first[0].ID)
	}
}

func TestFunctionsFilterByStatus(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	fileID := extractFixtureFile(t, s)
	err := s.Update(ctx, func(tx *Tx) error {
		return tx.SaveFunctions(ctx, fileID, []Function{
			{Name: "a", QualName: "a", StartLine: 1, Status: FunctionCandidate},
			{Name: "b", QualName: "b", StartLine: 5, Status: FunctionRejected, RejectReason: "no request"},
			{Name: "c", QualName: "c", StartLine: 9, Status: FunctionCandidate},
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		status string
		want   []string
	}{
		{"all", "", []string{"a", "b", "c"}},
		{"candidates", FunctionCandidate, []string{"a", "c"}},
		{"rejected", FunctionRejected, []string{"b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fns, err := s.Functions(ctx, tc.status)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, f := range fns {
				names = append(names, f.Name)
			}
			if !reflect.DeepEqual(names, tc.want) {
				t.Errorf("got %v, want %v", names, tc.want)
			}
		})
	}
	all, _ := s.Functions(ctx, "")
	f, err := s.Function(ctx, all[1].ID)
	if err != nil || f.RejectReason != "no request" {
		t.Errorf("Function(%d) = %+v, %v; want b with its reason", all[1].ID, f, err)
	}
	if _, err := s.Function(ctx, 9999); !errors.Is(err, ErrNotFound) {
		t.Errorf("Function(9999) error = %v, want ErrNotFound", err)
	}
}

func TestSaveFunctionsKeepsFunctionsThatSamplesUse(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	fileID := extractFixtureFile(t, s)
	fns := []Function{
		{Name: "a", QualName: "a", StartLine: 1, Status: FunctionCandidate},
		{Name: "b", QualName: "b", StartLine: 5, Status: FunctionCandidate},
		{Name: "c", QualName: "c", StartLine: 9, Status: FunctionCandidate},
	}
	err := s.Update(ctx, func(tx *Tx) error {
		if err := tx.SaveFunctions(ctx, fileID, fns); err != nil {
			return err
		}
		return tx.PutSample(ctx, &Sample{SampleID: "SCG-000001", FunctionID: fns[1].ID, Origin: "built"})
	})
	if err != nil {
		t.Fatal(err)
	}
	// A new extraction finds only a: b has a sample and stays, rejected; c goes.
	if err := s.Update(ctx, func(tx *Tx) error { return tx.SaveFunctions(ctx, fileID, fns[:1]) }); err != nil {
		t.Fatal(err)
	}
	got, _ := s.FunctionsOfFile(ctx, fileID)
	var states []string
	for _, f := range got {
		states = append(states, f.QualName+":"+f.Status+":"+f.RejectReason)
	}
	want := []string{"a:candidate:", "b:rejected:" + ReasonNoLongerExtracted}
	if !reflect.DeepEqual(states, want) {
		t.Errorf("functions = %v, want %v", states, want)
	}
}
