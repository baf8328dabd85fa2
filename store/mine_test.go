package store

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func openMineStore(t *testing.T) *Store {
	t.Helper()
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "mine.db"), WithClock(func() time.Time { return clock }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// mineSeedAPI inserts a bare API row so file rows can reference it.
func mineSeedAPI(t *testing.T, s *Store, slug string) int64 {
	t.Helper()
	var id int64
	err := s.Update(context.Background(), func(tx *Tx) error {
		res, err := tx.exec(context.Background(), `INSERT INTO apis(source, slug, host, crawled_at) VALUES('rapidapi', ?, ?, 'x')`, slug, slug+".p.rapidapi.com")
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestUpsertRepository(t *testing.T) {
	ctx := context.Background()
	s := openMineStore(t)
	r := &Repository{FullName: "acme/weather", Source: "github", URL: "https://github.com/acme/weather", Stars: 3,
		Topics: []string{"api", "weather"}, License: "mit", IsFork: true, CreatedAt: "2020-01-01T00:00:00Z"}
	var id1, id2 int64
	err := s.Update(ctx, func(tx *Tx) error {
		var err error
		id1, err = tx.UpsertRepository(ctx, r)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	r2 := *r
	r2.Stars = 7
	r2.Archived = true
	err = s.Update(ctx, func(tx *Tx) error {
		var err error
		id2, err = tx.UpsertRepository(ctx, &r2)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if id1 != id2 || id1 == 0 {
		t.Fatalf("ids: got %d and %d, want one non-zero id", id1, id2)
	}
	got, err := s.Repository(ctx, id1)
	if err != nil {
		t.Fatal(err)
	}
	want := r2
	want.ID = id1
	want.FetchedAt = got.FetchedAt
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("got %+v\nwant %+v", *got, want)
	}
	byName, err := s.RepositoryByName(ctx, "acme/weather")
	if err != nil || byName.ID != id1 {
		t.Errorf("RepositoryByName: got %v, %v; want id %d", byName, err, id1)
	}
	if _, err := s.Repository(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing repository: got %v, want ErrNotFound", err)
	}
}

func TestSaveFileKeepsStrongestLayer(t *testing.T) {
	ctx := context.Background()
	s := openMineStore(t)
	api := mineSeedAPI(t, s, "weather")
	var repoID int64
	content := []byte("import requests\nHOST = 'weather.p.rapidapi.com'\n")
	save := func(layer, query string) int64 {
		t.Helper()
		var id int64
		err := s.Update(ctx, func(tx *Tx) error {
			var err error
			if repoID == 0 {
				if repoID, err = tx.UpsertRepository(ctx, &Repository{FullName: "acme/w", Source: "github"}); err != nil {
					return err
				}
			}
			f := &File{RepoID: repoID, Path: "w.py", GitSHA: "abc", CommitSHA: "c1", URL: "u", QueryLayer: layer, Query: query, APIID: api}
			id, err = tx.SaveFile(ctx, f, content)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	steps := []struct {
		name      string
		layer     string
		query     string
		wantLayer string
		wantHits  int
	}{
		{"first hit", LayerHost, "q-host", LayerHost, 1},
		{"looser layer keeps host", LayerLibrary, "q-lib", LayerHost, 2},
		{"stricter layer wins", LayerEndpointURL, "q-url", LayerEndpointURL, 3},
		{"same hit again adds nothing", LayerEndpointURL, "q-url", LayerEndpointURL, 3},
	}
	var first int64
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			id := save(st.layer, st.query)
			if first == 0 {
				first = id
			}
			if id != first {
				t.Fatalf("id: got %d, want %d", id, first)
			}
			f, err := s.File(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if f.QueryLayer != st.wantLayer {
				t.Errorf("layer: got %q, want %q", f.QueryLayer, st.wantLayer)
			}
			hits, err := s.FileHits(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) != st.wantHits {
				t.Errorf("hits: got %d (%+v), want %d", len(hits), hits, st.wantHits)
			}
			if hits[0].QueryLayer != st.wantLayer {
				t.Errorf("first hit: got %q, want %q", hits[0].QueryLayer, st.wantLayer)
			}
		})
	}
	files, err := s.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Size != int64(len(content)) || files[0].APIID != api {
		t.Fatalf("files: got %+v, want one file of %d bytes for api %d", files, len(content), api)
	}
	got, err := s.FileContent(ctx, &files[0])
	if err != nil || string(got) != string(content) {
		t.Errorf("content: got %q, %v; want %q", got, err, content)
	}
	if f, err := s.FileByKey(ctx, repoID, "w.py", "abc"); err != nil || f.ID != first {
		t.Errorf("FileByKey: got %v, %v; want id %d", f, err, first)
	}
	if _, err := s.FileByKey(ctx, repoID, "w.py", "other"); !errors.Is(err, ErrNotFound) {
		t.Errorf("FileByKey other sha: got %v, want ErrNotFound", err)
	}
	if _, err := s.File(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing file: got %v, want ErrNotFound", err)
	}
}

func TestSaveFileRequiresRepoAndPath(t *testing.T) {
	ctx := context.Background()
	s := openMineStore(t)
	err := s.Update(ctx, func(tx *Tx) error {
		_, err := tx.SaveFile(ctx, &File{Path: "x.py"}, []byte("x"))
		return err
	})
	if err == nil {
		t.Fatal("SaveFile without a repository: got nil error")
	}
}
