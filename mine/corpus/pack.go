package corpus

import (
	"context"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"

	"sccg/internal/blame"
	"sccg/mine"
)

// packRow is one row as Pack writes it: The Stack v2's column names where it has
// one, content as bytes (a file that is not UTF-8 keeps its bytes).
type packRow struct {
	Repo      string `parquet:"repo_name,dict,zstd"`
	RepoURL   string `parquet:"repo_url,dict,zstd"`
	Path      string `parquet:"path,zstd"`
	Content   []byte `parquet:"content,zstd"`
	BlobID    string `parquet:"blob_id,zstd"`
	Commit    string `parquet:"revision_id,dict,zstd"`
	Branch    string `parquet:"branch_name,dict,zstd"`
	License   string `parquet:"license,dict,zstd"`
	Stars     int64  `parquet:"star_events_count"`
	Forks     int64  `parquet:"fork_events_count"`
	CreatedAt string `parquet:"gha_created_at,dict,zstd"`
	UpdatedAt string `parquet:"gha_updated_at,dict,zstd"`
	PushedAt  string `parquet:"gha_pushed_at,dict,zstd"`
	Length    int64  `parquet:"length_bytes"`
	LineDates string `parquet:"line_dates,zstd"`
}

// DefaultPackMaxFileBytes is the largest file Pack writes.
const DefaultPackMaxFileBytes = 64 << 20

// PackOptions configure Pack.
type PackOptions struct {
	// MaxFileBytes leaves larger files out (0: DefaultPackMaxFileBytes).
	MaxFileBytes int64
	// RowGroupRows is the number of rows per Parquet row group (0: 1024).
	RowGroupRows int
}

// PackStats count what Pack wrote.
type PackStats struct {
	Repos   int   `json:"repos"`
	Rows    int   `json:"rows"`
	Bytes   int64 `json:"bytes"`
	Skipped int   `json:"skipped"` // files over the size limit or unreadable
	// LineDates counts the rows whose lines git blame dated, and the others by why
	// (blame.Reason*).
	LineDates blame.Count `json:"line_dates"`
}

// Pack writes every source file of the repositories under dir — found and read as
// `mine --local` finds and reads them, with the same repository metadata, commit,
// blob SHA and line dates (git blame at the commit) — as one Parquet shard to w, a
// row per file, in repository and path order.
func Pack(ctx context.Context, dir string, w io.Writer, opts PackOptions) (*PackStats, error) {
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = DefaultPackMaxFileBytes
	}
	if opts.RowGroupRows <= 0 {
		opts.RowGroupRows = 1024
	}
	pw := parquet.NewGenericWriter[packRow](w, parquet.MaxRowsPerRowGroup(int64(opts.RowGroupRows)))
	stats := &PackStats{}
	err := mine.WalkLocal(ctx, dir, opts.MaxFileBytes, func(lr *mine.LocalRepo) error {
		stats.Repos++
		for _, f := range lr.Files {
			if f.Content == nil {
				stats.Skipped++
				continue
			}
			r := lr.Record
			dates := lr.LineDates(f.Path)
			stats.LineDates.Add(dates.Undated)
			row := packRow{LineDates: dates.Encode(), Repo: r.FullName, RepoURL: r.URL, Path: f.Path, Content: f.Content, BlobID: f.GitSHA,
				Commit: lr.Commit, Branch: r.DefaultBranch, License: r.License, Stars: int64(r.Stars), Forks: int64(r.Forks),
				CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, PushedAt: r.PushedAt, Length: int64(len(f.Content))}
			if _, err := pw.Write([]packRow{row}); err != nil {
				return fmt.Errorf("pack %s/%s: %w", r.FullName, f.Path, err)
			}
			stats.Rows++
			stats.Bytes += int64(len(f.Content))
		}
		return nil
	})
	if err != nil {
		return stats, fmt.Errorf("pack %s: %w", dir, err)
	}
	if err := pw.Close(); err != nil {
		return stats, fmt.Errorf("pack %s: %w", dir, err)
	}
	return stats, nil
}
