package store

import (
	"context"
	"fmt"
)

// SaveRepoPaths records the source files of a repository's tree (of every
// language mined), replacing what an earlier mining recorded.
func (t *Tx) SaveRepoPaths(ctx context.Context, repoID int64, paths []string) error {
	if _, err := t.exec(ctx, `DELETE FROM repo_paths WHERE repo_id=?`, repoID); err != nil {
		return fmt.Errorf("repository %d paths: %w", repoID, err)
	}
	for _, p := range paths {
		if _, err := t.exec(ctx, `INSERT OR IGNORE INTO repo_paths(repo_id, path) VALUES (?,?)`, repoID, p); err != nil {
			return fmt.Errorf("repository %d paths: %w", repoID, err)
		}
	}
	return nil
}

// RepoPaths returns the source files known of a repository, sorted, of every
// language: those of its tree when mining listed it, and always the files mined
// from it.
func (s *Store) RepoPaths(ctx context.Context, repoID int64) ([]string, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT path FROM repo_paths WHERE repo_id=? UNION SELECT path FROM files WHERE repo_id=? ORDER BY 1`,
		repoID, repoID)
	if err != nil {
		return nil, fmt.Errorf("repository %d paths: %w", repoID, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("repository %d paths: %w", repoID, err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("repository %d paths: %w", repoID, err)
	}
	return out, nil
}
