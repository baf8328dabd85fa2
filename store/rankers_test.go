package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

func TestRankers(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.LatestRanker(ctx); !errors.Is(err, ErrNotFound) {
		t.Fatalf("LatestRanker on an empty store: got %v, want ErrNotFound", err)
	}
	run, err := s.BeginRun(ctx, StageTrainRanker, nil)
	if err != nil {
		t.Fatal(err)
	}
	save := func(r Ranker) int64 {
		t.Helper()
		var id int64
		if err := s.Update(ctx, func(tx *Tx) (err error) { id, err = tx.SaveRanker(ctx, r); return err }); err != nil {
			t.Fatal(err)
		}
		return id
	}
	a := save(Ranker{TrainKey: "k1", Name: "dev.json", Model: `{"w":[1]}`, RunID: run.ID})
	// the same training inputs: the first model stays, under its id
	if again := save(Ranker{TrainKey: "k1", Name: "dev.json", Model: `{"w":[2]}`}); again != a {
		t.Errorf("saving key k1 again gave id %d, want %d", again, a)
	}
	b := save(Ranker{TrainKey: "k2", Name: "train.json", Model: `{"w":[3]}`})
	tests := []struct {
		name string
		get  func() (Ranker, error)
		want string
	}{
		{"by key", func() (Ranker, error) { return s.RankerByKey(ctx, "k1") }, `{"w":[1]}`},
		{"by id", func() (Ranker, error) { return s.RankerByID(ctx, b) }, `{"w":[3]}`},
		{"latest", func() (Ranker, error) { return s.LatestRanker(ctx) }, `{"w":[3]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tc.get()
			if err != nil || r.Model != tc.want || r.CreatedAt == "" {
				t.Errorf("got %+v, %v; want model %s", r, err, tc.want)
			}
		})
	}
	if r, _ := s.RankerByID(ctx, a); r.RunID != run.ID {
		t.Errorf("ranker %d run %d, want %d", a, r.RunID, run.ID)
	}
	if _, err := s.RankerByKey(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown key: %v, want ErrNotFound", err)
	}
}
