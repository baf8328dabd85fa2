package store

import (
	"context"
	"fmt"
)

// CorpusSource is where a file mined from a bulk corpus came from: the corpus shard
// and row, the content id and license the corpus gives, the evidence the early
// filter found and the pipeline output it was loaded from.
type CorpusSource struct {
	FileID     int64  `json:"file_id"`
	Shard      string `json:"shard"`
	Row        int64  `json:"row"`
	BlobID     string `json:"blob_id,omitempty"`
	License    string `json:"license,omitempty"`
	MatchLayer string `json:"match_layer"`
	Output     string `json:"output"`
}

// AddCorpusSource records that file c.FileID was read from (c.Shard, c.Row). Adding
// the same source again changes nothing.
func (t *Tx) AddCorpusSource(ctx context.Context, c CorpusSource) error {
	_, err := t.exec(ctx, `INSERT INTO corpus_sources(file_id, shard, row, blob_id, license, match_layer, output)
		VALUES(?,?,?,?,?,?,?) ON CONFLICT(file_id, shard, row) DO NOTHING`,
		c.FileID, c.Shard, c.Row, c.BlobID, c.License, c.MatchLayer, c.Output)
	if err != nil {
		return fmt.Errorf("add corpus source of file %d: %w", c.FileID, err)
	}
	return nil
}

func scanCorpusSource(r rowScanner) (CorpusSource, error) {
	var c CorpusSource
	err := r.Scan(&c.FileID, &c.Shard, &c.Row, &c.BlobID, &c.License, &c.MatchLayer, &c.Output)
	return c, err
}

// CorpusSources returns the corpus rows file fileID was read from, by shard and row.
func (s *Store) CorpusSources(ctx context.Context, fileID int64) ([]CorpusSource, error) {
	return queryList(ctx, s, "corpus sources", scanCorpusSource, `SELECT file_id, shard, row, blob_id, license, match_layer, output
		FROM corpus_sources WHERE file_id=? ORDER BY shard, row`, fileID)
}
