package store_test

import (
	"context"
	"testing"

	"sccg/internal/storetest"
	"sccg/store"
)

func TestCorpusSources(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	var fileID int64
	err := st.Update(ctx, func(tx *store.Tx) error {
		repoID, err := tx.UpsertRepository(ctx, &store.Repository{FullName: "o/r", Source: "corpus"})
		if err != nil {
			return err
		}
		if fileID, err = tx.SaveFile(ctx, &store.File{RepoID: repoID, Path: "a.py", GitSHA: "s", QueryLayer: store.LayerCorpus}, []byte("x")); err != nil {
			return err
		}
		for i := 0; i < 2; i++ { // the second add is the same source: no new row
			for _, row := range []int64{9, 3} {
				if err := tx.AddCorpusSource(ctx, store.CorpusSource{FileID: fileID, Shard: "s.parquet", Row: row, BlobID: "s",
					License: "MIT", MatchLayer: store.LayerHost, Output: "part-00000-of-00001.jsonl.gz"}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := st.CorpusSources(ctx, fileID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Row != 3 || got[1].Row != 9 || got[0].License != "MIT" || got[0].MatchLayer != store.LayerHost {
		t.Errorf("sources %+v, want rows 3 and 9", got)
	}
	if store.LayerRank(store.LayerCorpus) <= store.LayerRank(store.LayerFunction) {
		t.Error("the corpus layer ranks above a search layer")
	}
}
