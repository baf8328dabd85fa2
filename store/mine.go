package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// Query layers, strict to loose: the kind of evidence a search matched a file on.
const (
	LayerEndpointURL = "endpoint_url" // a full documented endpoint URL
	LayerRouteHost   = "route_host"   // a documented route and the host
	LayerHost        = "host"         // the host
	LayerHeader      = "header"       // x-rapidapi-host with the host
	LayerLibrary     = "library"      // the host with requests / httpx
	LayerFunction    = "function"     // the host with a function definition
	// LayerCorpus marks a file found in a bulk corpus rather than by a search; its
	// corpus_sources row says which evidence the early filter found.
	LayerCorpus = "corpus"
)

// QueryLayers returns the query layers from the strictest to the loosest, the
// corpus last.
func QueryLayers() []string {
	return []string{LayerEndpointURL, LayerRouteHost, LayerHost, LayerHeader, LayerLibrary, LayerFunction, LayerCorpus}
}

// LayerRank is a layer's strength: 0 for the strictest, larger for looser layers, and
// len(QueryLayers()) for an unknown or empty layer.
func LayerRank(layer string) int {
	if i := slices.Index(QueryLayers(), layer); i >= 0 {
		return i
	}
	return len(QueryLayers())
}

// FileHit is one (API, layer, query) that found a file.
type FileHit struct {
	FileID     int64  `json:"file_id"`
	APIID      int64  `json:"api_id,omitempty"`
	QueryLayer string `json:"query_layer"`
	Query      string `json:"query"`
}

func mineNullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// UpsertRepository inserts r or refreshes the metadata of the repository with the same
// full name, and returns its id (also set in r.ID).
func (t *Tx) UpsertRepository(ctx context.Context, r *Repository) (int64, error) {
	if r.FullName == "" {
		return 0, errors.New("upsert repository: empty full name")
	}
	if r.FetchedAt == "" {
		r.FetchedAt = t.Now()
	}
	topics := r.Topics
	if topics == nil {
		topics = []string{}
	}
	tj, _ := json.Marshal(topics)
	_, err := t.exec(ctx, `INSERT INTO repositories(full_name, source, url, description, language, stars, forks, watchers,
		open_issues, license, topics, default_branch, is_fork, archived, created_at, updated_at, pushed_at, fetched_at)
		VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT(full_name) DO UPDATE SET source=excluded.source, url=excluded.url, description=excluded.description,
		language=excluded.language, stars=excluded.stars, forks=excluded.forks, watchers=excluded.watchers,
		open_issues=excluded.open_issues, license=excluded.license, topics=excluded.topics,
		default_branch=excluded.default_branch, is_fork=excluded.is_fork, archived=excluded.archived,
		created_at=excluded.created_at, updated_at=excluded.updated_at, pushed_at=excluded.pushed_at,
		fetched_at=excluded.fetched_at`,
		r.FullName, r.Source, r.URL, r.Description, r.Language, r.Stars, r.Forks, r.Watchers, r.OpenIssues,
		r.License, string(tj), r.DefaultBranch, r.IsFork, r.Archived, r.CreatedAt, r.UpdatedAt, r.PushedAt, r.FetchedAt)
	if err != nil {
		return 0, fmt.Errorf("upsert repository %s: %w", r.FullName, err)
	}
	// An upsert that updated a row leaves LastInsertId stale: look the id up.
	var id int64
	if err := t.tx.QueryRowContext(ctx, `SELECT id FROM repositories WHERE full_name=?`, r.FullName).Scan(&id); err != nil {
		return 0, fmt.Errorf("upsert repository %s: %w", r.FullName, err)
	}
	r.ID = id
	return id, nil
}

// SaveFile stores content as a blob and f as the file (RepoID, Path, GitSHA) pointing
// at it. Saving a file that is already stored keeps one row and the strongest query
// layer that found it; every (API, layer, query) is added to file_hits. It returns
// the file's id (also set in f.ID, with f.BlobSHA256 and f.Size).
func (t *Tx) SaveFile(ctx context.Context, f *File, content []byte) (int64, error) {
	if f.RepoID == 0 || f.Path == "" {
		return 0, fmt.Errorf("save file %q: repository and path are required", f.Path)
	}
	sum, err := t.PutBlob(ctx, content)
	if err != nil {
		return 0, fmt.Errorf("save file %s: %w", f.Path, err)
	}
	f.BlobSHA256 = sum
	if f.Size == 0 {
		f.Size = int64(len(content))
	}
	if f.FoundAt == "" {
		f.FoundAt = t.Now()
	}
	var id int64
	var layer string
	err = t.tx.QueryRowContext(ctx, `SELECT id, query_layer FROM files WHERE repo_id=? AND path=? AND git_sha=?`,
		f.RepoID, f.Path, f.GitSHA).Scan(&id, &layer)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		res, err := t.exec(ctx, `INSERT INTO files(repo_id, path, git_sha, commit_sha, url, size, blob_sha256, query_layer, query, api_id, found_at, line_dates)
			VALUES(?,?,?,?,?,?,?,?,?,?,?,?)`, f.RepoID, f.Path, f.GitSHA, f.CommitSHA, f.URL, f.Size, sum, f.QueryLayer, f.Query, mineNullID(f.APIID), f.FoundAt, f.LineDates)
		if err != nil {
			return 0, fmt.Errorf("save file %s: %w", f.Path, err)
		}
		if id, err = res.LastInsertId(); err != nil {
			return 0, fmt.Errorf("save file %s: %w", f.Path, err)
		}
	case err != nil:
		return 0, fmt.Errorf("save file %s: %w", f.Path, err)
	default:
		if LayerRank(f.QueryLayer) < LayerRank(layer) {
			_, err := t.exec(ctx, `UPDATE files SET query_layer=?, query=?, api_id=? WHERE id=?`, f.QueryLayer, f.Query, mineNullID(f.APIID), id)
			if err != nil {
				return 0, fmt.Errorf("save file %s: %w", f.Path, err)
			}
		}
	}
	f.ID = id
	if f.LineDates != "" {
		if _, err := t.exec(ctx, `UPDATE files SET line_dates=? WHERE id=?`, f.LineDates, id); err != nil {
			return 0, fmt.Errorf("save file %s: line dates: %w", f.Path, err)
		}
	}
	if f.QueryLayer != "" || f.Query != "" {
		_, err = t.exec(ctx, `INSERT INTO file_hits(file_id, api_id, query_layer, query)
			SELECT ?,?,?,? WHERE NOT EXISTS (SELECT 1 FROM file_hits WHERE file_id=? AND api_id IS ? AND query_layer=? AND query=?)`,
			id, mineNullID(f.APIID), f.QueryLayer, f.Query, id, mineNullID(f.APIID), f.QueryLayer, f.Query)
		if err != nil {
			return 0, fmt.Errorf("save file %s hit: %w", f.Path, err)
		}
	}
	return id, nil
}

const repoCols = `id, full_name, source, url, description, language, stars, forks, watchers, open_issues, license,
	topics, default_branch, is_fork, archived, created_at, updated_at, pushed_at, fetched_at`

func scanRepository(sc interface{ Scan(...any) error }) (*Repository, error) {
	var r Repository
	var topics string
	err := sc.Scan(&r.ID, &r.FullName, &r.Source, &r.URL, &r.Description, &r.Language, &r.Stars, &r.Forks, &r.Watchers,
		&r.OpenIssues, &r.License, &topics, &r.DefaultBranch, &r.IsFork, &r.Archived, &r.CreatedAt, &r.UpdatedAt, &r.PushedAt, &r.FetchedAt)
	if err != nil {
		return nil, err
	}
	_ = json.Unmarshal([]byte(topics), &r.Topics)
	return &r, nil
}

// Repository returns the repository with the given id, or ErrNotFound.
func (s *Store) Repository(ctx context.Context, id int64) (*Repository, error) {
	r, err := scanRepository(s.read.QueryRowContext(ctx, `SELECT `+repoCols+` FROM repositories WHERE id=?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("repository %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("repository %d: %w", id, err)
	}
	return r, nil
}

// RepositoryByName returns the repository with the given full name (owner/name), or
// ErrNotFound.
func (s *Store) RepositoryByName(ctx context.Context, fullName string) (*Repository, error) {
	r, err := scanRepository(s.read.QueryRowContext(ctx, `SELECT `+repoCols+` FROM repositories WHERE full_name=?`, fullName))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("repository %s: %w", fullName, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("repository %s: %w", fullName, err)
	}
	return r, nil
}

// Repositories returns every repository, by id.
func (s *Store) Repositories(ctx context.Context) ([]Repository, error) {
	return queryList(ctx, s, "repositories", deref(scanRepository), `SELECT `+repoCols+` FROM repositories ORDER BY id`)
}

const fileCols = `id, repo_id, path, git_sha, commit_sha, url, size, COALESCE(blob_sha256,''), query_layer, query,
	COALESCE(api_id,0), found_at, line_dates`

func scanFile(sc interface{ Scan(...any) error }) (*File, error) {
	var f File
	err := sc.Scan(&f.ID, &f.RepoID, &f.Path, &f.GitSHA, &f.CommitSHA, &f.URL, &f.Size, &f.BlobSHA256, &f.QueryLayer,
		&f.Query, &f.APIID, &f.FoundAt, &f.LineDates)
	if err != nil {
		return nil, err
	}
	return &f, nil
}

// UndatedFiles returns the stored files whose lines were never dated (mined before
// sccg dated lines), by id: those of the repository named repo (owner/name), or
// when repo is "", of every repository of source (github, local, corpus).
func (s *Store) UndatedFiles(ctx context.Context, repo, source string) ([]File, error) {
	return queryList(ctx, s, "undated files", deref(scanFile), `SELECT `+fileCols+` FROM files WHERE line_dates='' AND repo_id IN
		(SELECT id FROM repositories WHERE (?<>'' AND full_name=?) OR (?='' AND source=?)) ORDER BY id`, repo, repo, repo, source)
}

// SetLineDates stores when the lines of file id were written (package blame's JSON).
func (t *Tx) SetLineDates(ctx context.Context, id int64, lineDates string) error {
	if _, err := t.exec(ctx, `UPDATE files SET line_dates=? WHERE id=?`, lineDates, id); err != nil {
		return fmt.Errorf("line dates of file %d: %w", id, err)
	}
	return nil
}

// File returns the file with the given id, or ErrNotFound.
func (s *Store) File(ctx context.Context, id int64) (*File, error) {
	f, err := scanFile(s.read.QueryRowContext(ctx, `SELECT `+fileCols+` FROM files WHERE id=?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("file %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("file %d: %w", id, err)
	}
	return f, nil
}

// FileByKey returns the file stored for (repository, path, git blob SHA), or
// ErrNotFound. The miner uses it so that nothing is fetched twice.
func (s *Store) FileByKey(ctx context.Context, repoID int64, path, gitSHA string) (*File, error) {
	f, err := scanFile(s.read.QueryRowContext(ctx, `SELECT `+fileCols+` FROM files WHERE repo_id=? AND path=? AND git_sha=?`, repoID, path, gitSHA))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("file %s@%s: %w", path, gitSHA, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("file %s@%s: %w", path, gitSHA, err)
	}
	return f, nil
}

// Files returns every stored file, by id.
func (s *Store) Files(ctx context.Context) ([]File, error) {
	return queryList(ctx, s, "files", deref(scanFile), `SELECT `+fileCols+` FROM files ORDER BY id`)
}

// FileContent returns the content of f.
func (s *Store) FileContent(ctx context.Context, f *File) ([]byte, error) {
	if f.BlobSHA256 == "" {
		return nil, fmt.Errorf("file %d %s: no content: %w", f.ID, f.Path, ErrNotFound)
	}
	b, err := s.Blob(ctx, f.BlobSHA256)
	if err != nil {
		return nil, fmt.Errorf("file %d %s: %w", f.ID, f.Path, err)
	}
	return b, nil
}

// FileHits returns every (API, layer, query) that found the file, strictest layer first.
func (s *Store) FileHits(ctx context.Context, fileID int64) ([]FileHit, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT file_id, COALESCE(api_id,0), query_layer, query FROM file_hits WHERE file_id=?`, fileID)
	if err != nil {
		return nil, fmt.Errorf("file %d hits: %w", fileID, err)
	}
	defer rows.Close()
	var out []FileHit
	for rows.Next() {
		var h FileHit
		if err := rows.Scan(&h.FileID, &h.APIID, &h.QueryLayer, &h.Query); err != nil {
			return nil, fmt.Errorf("file %d hits: %w", fileID, err)
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sortHits(out)
	return out, nil
}

func sortHits(hs []FileHit) {
	slices.SortFunc(hs, func(a, b FileHit) int {
		return cmp.Or(cmp.Compare(LayerRank(a.QueryLayer), LayerRank(b.QueryLayer)), cmp.Compare(a.APIID, b.APIID),
			cmp.Compare(a.Query, b.Query))
	})
}

// AddFileHit records that (API, layer, query) found the stored file fileID, and makes
// layer the file's query layer when it is stronger than the one it has. It adds no
// content: the miner uses it for a file it already holds.
func (t *Tx) AddFileHit(ctx context.Context, fileID, apiID int64, layer, query string) error {
	var cur string
	if err := t.tx.QueryRowContext(ctx, `SELECT query_layer FROM files WHERE id=?`, fileID).Scan(&cur); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			err = ErrNotFound
		}
		return fmt.Errorf("add hit to file %d: %w", fileID, err)
	}
	if LayerRank(layer) < LayerRank(cur) {
		if _, err := t.exec(ctx, `UPDATE files SET query_layer=?, query=?, api_id=? WHERE id=?`, layer, query, mineNullID(apiID), fileID); err != nil {
			return fmt.Errorf("add hit to file %d: %w", fileID, err)
		}
	}
	_, err := t.exec(ctx, `INSERT INTO file_hits(file_id, api_id, query_layer, query)
		SELECT ?,?,?,? WHERE NOT EXISTS (SELECT 1 FROM file_hits WHERE file_id=? AND api_id IS ? AND query_layer=? AND query=?)`,
		fileID, mineNullID(apiID), layer, query, fileID, mineNullID(apiID), layer, query)
	if err != nil {
		return fmt.Errorf("add hit to file %d: %w", fileID, err)
	}
	return nil
}

// MinedFileCounts returns, per API id, how many distinct stored files were found for it.
func (s *Store) MinedFileCounts(ctx context.Context) (map[int64]int, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT api_id, COUNT(DISTINCT file_id) FROM file_hits WHERE api_id IS NOT NULL GROUP BY api_id`)
	if err != nil {
		return nil, fmt.Errorf("mined file counts: %w", err)
	}
	defer rows.Close()
	out := map[int64]int{}
	for rows.Next() {
		var id int64
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, fmt.Errorf("mined file counts: %w", err)
		}
		out[id] = n
	}
	return out, rows.Err()
}

// FileKey names a file of one version of a repository: its path and git blob SHA.
type FileKey struct{ Path, GitSHA string }

// SupersedeRepoFiles makes the stored files of repository repo (its full name) those
// of its current version: a file the version still holds (a key of current) takes
// commit and the URL current gives it; any other is deleted with what was extracted
// from it, so nothing of an earlier version reaches the benchmark. It returns how
// many files were deleted.
func (t *Tx) SupersedeRepoFiles(ctx context.Context, repo, commit string, current map[FileKey]string) (int, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT f.id, f.path, f.git_sha FROM files f JOIN repositories r ON r.id=f.repo_id
		WHERE r.full_name=? ORDER BY f.id`, repo)
	if err != nil {
		return 0, fmt.Errorf("supersede files of %s: %w", repo, err)
	}
	type row struct {
		id  int64
		key FileKey
	}
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.key.Path, &r.key.GitSHA); err != nil {
			rows.Close()
			return 0, fmt.Errorf("supersede files of %s: %w", repo, err)
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("supersede files of %s: %w", repo, err)
	}
	var stale []int64
	for _, r := range all {
		url, ok := current[r.key]
		if !ok {
			stale = append(stale, r.id)
			continue
		}
		if _, err := t.exec(ctx, `UPDATE files SET commit_sha=?, url=? WHERE id=?`, commit, url, r.id); err != nil {
			return 0, fmt.Errorf("supersede files of %s: %w", repo, err)
		}
	}
	if err := t.deleteFiles(ctx, stale); err != nil {
		return 0, fmt.Errorf("supersede files of %s: %w", repo, err)
	}
	return len(stale), nil
}

// ForgetRepoHits deletes the search hits of the APIs apiIDs on the files of
// repository repo (its full name), before the repository is searched for them again:
// what the new search finds replaces what an earlier description's queries found.
func (t *Tx) ForgetRepoHits(ctx context.Context, repo string, apiIDs []int64) error {
	for _, id := range apiIDs {
		if _, err := t.exec(ctx, `DELETE FROM file_hits WHERE api_id=? AND file_id IN
			(SELECT f.id FROM files f JOIN repositories r ON r.id=f.repo_id WHERE r.full_name=?)`, id, repo); err != nil {
			return fmt.Errorf("forget hits of api %d on %s: %w", id, repo, err)
		}
	}
	return nil
}

// FileUnit is the done unit of a stored file in the stages that work file by file
// (extract).
func FileUnit(fileID int64) string { return "file:" + strconv.FormatInt(fileID, 10) }

// FunctionUnitPrefix starts the done units of a function in the stages that work
// function by function (align).
func FunctionUnitPrefix(fid int64) string { return "function:" + strconv.FormatInt(fid, 10) + ":" }

// deleteFiles deletes files with everything extracted from them (functions,
// alignments, kept rows and intents cascade); a built sample of one of their
// functions is deleted first, for the sample builder to renumber what remains. The
// done units of the files and their functions go too: SQLite may give a later row
// a deleted row's id, and that row must not pass for done.
func (t *Tx) deleteFiles(ctx context.Context, ids []int64) error {
	for _, id := range ids {
		var fids []int64
		rows, err := t.tx.QueryContext(ctx, `SELECT id FROM functions WHERE file_id=?`, id)
		if err != nil {
			return fmt.Errorf("delete file %d: %w", id, err)
		}
		for rows.Next() {
			var fid int64
			if err := rows.Scan(&fid); err != nil {
				rows.Close()
				return fmt.Errorf("delete file %d: %w", id, err)
			}
			fids = append(fids, fid)
		}
		rows.Close()
		if _, err := t.exec(ctx, `DELETE FROM work_units WHERE unit=?`, FileUnit(id)); err != nil {
			return fmt.Errorf("forget the units of file %d: %w", id, err)
		}
		for _, fid := range fids {
			p := FunctionUnitPrefix(fid)
			if _, err := t.exec(ctx, `DELETE FROM work_units WHERE substr(unit, 1, ?)=?`, len(p), p); err != nil {
				return fmt.Errorf("forget the units of function %d: %w", fid, err)
			}
		}
		if _, err := t.exec(ctx, `DELETE FROM samples WHERE function_id IN (SELECT id FROM functions WHERE file_id=?)`, id); err != nil {
			return fmt.Errorf("delete samples of file %d: %w", id, err)
		}
		if _, err := t.exec(ctx, `DELETE FROM files WHERE id=?`, id); err != nil {
			return fmt.Errorf("delete file %d: %w", id, err)
		}
	}
	return nil
}
