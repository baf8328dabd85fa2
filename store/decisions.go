package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

const decisionCols = `id, COALESCE(run_id,0), stage, subject_kind, subject, verdict, reason, evidence, created_at`

func scanDecision(r rowScanner) (Decision, error) {
	var d Decision
	var ev string
	if err := r.Scan(&d.ID, &d.RunID, &d.Stage, &d.SubjectKind, &d.Subject, &d.Verdict, &d.Reason, &ev, &d.CreatedAt); err != nil {
		return d, err
	}
	_ = json.Unmarshal([]byte(ev), &d.Evidence)
	return d, nil
}

// queryOne runs a read query for one row and decodes it with scan; no row is
// ErrNotFound, and what names the row in errors.
func queryOne[T any](ctx context.Context, s *Store, what string, scan func(rowScanner) (T, error), query string, args ...any) (*T, error) {
	v, err := scan(s.read.QueryRowContext(ctx, query, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return &v, nil
}

// LastRunID is the id of the newest run in the store, 0 when there is none. A
// command takes it before it runs its stages and reads what they decided with
// DecisionsSince.
func (s *Store) LastRunID(ctx context.Context) (int64, error) {
	var id int64
	if err := s.read.QueryRowContext(ctx, `SELECT COALESCE(MAX(id),0) FROM runs`).Scan(&id); err != nil {
		return 0, fmt.Errorf("last run: %w", err)
	}
	return id, nil
}

// DecisionsSince returns the decisions recorded (or recorded again) by the runs
// newer than run, oldest first, leaving out those whose verdict is one of skip.
func (s *Store) DecisionsSince(ctx context.Context, run int64, skip ...string) ([]Decision, error) {
	q := `SELECT ` + decisionCols + ` FROM decisions WHERE run_id > ?`
	args := []any{run}
	if len(skip) > 0 {
		q += ` AND verdict NOT IN (?` + strings.Repeat(`,?`, len(skip)-1) + `)`
		for _, v := range skip {
			args = append(args, v)
		}
	}
	return queryList(ctx, s, "decisions since run "+strconv.FormatInt(run, 10), scanDecision, q+` ORDER BY id`, args...)
}

// DecisionCount is how many decisions a stage made with one verdict and reason.
type DecisionCount struct {
	Stage   string `json:"stage"`
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
	Count   int64  `json:"count"`
}

// DecisionBreakdown counts every decision of the store by stage, verdict and
// reason, ordered by stage, verdict and then the most frequent reason first.
func (s *Store) DecisionBreakdown(ctx context.Context) ([]DecisionCount, error) {
	return queryList(ctx, s, "decision breakdown", func(r rowScanner) (DecisionCount, error) {
		var c DecisionCount
		err := r.Scan(&c.Stage, &c.Verdict, &c.Reason, &c.Count)
		return c, err
	}, `SELECT stage, verdict, reason, COUNT(*) AS n FROM decisions GROUP BY stage, verdict, reason ORDER BY stage, verdict, n DESC, reason`)
}

// SubjectDecisions returns the decisions about any of the subjects of one kind,
// oldest first.
func (s *Store) SubjectDecisions(ctx context.Context, kind string, subjects ...string) ([]Decision, error) {
	if len(subjects) == 0 {
		return nil, nil
	}
	args := []any{kind}
	for _, v := range subjects {
		args = append(args, v)
	}
	q := `SELECT ` + decisionCols + ` FROM decisions WHERE subject_kind=? AND subject IN (?` + strings.Repeat(`,?`, len(subjects)-1) + `) ORDER BY id`
	return queryList(ctx, s, "decisions on "+kind, scanDecision, q, args...)
}

// DecidedSubjects lists the distinct (stage, subject) pairs of kind whose subject
// equals name, ends in "/"+name or is the end of name after a "/", for resolving
// what a person typed to what a stage decided about; at most limit pairs.
func (s *Store) DecidedSubjects(ctx context.Context, kind, name string, limit int) ([][2]string, error) {
	return queryList(ctx, s, "decided subjects", func(r rowScanner) ([2]string, error) {
		var p [2]string
		err := r.Scan(&p[0], &p[1])
		return p, err
	}, `SELECT DISTINCT stage, subject FROM decisions WHERE subject_kind=? AND (subject=? OR substr(subject, -?)=? OR substr(?, -length(subject)-1) = '/' || subject)
		ORDER BY subject, stage LIMIT ?`, kind, name, len(name)+1, "/"+name, name, limit)
}

// DecisionsUnder returns a stage's decisions on subjects of kind that start with
// prefix (the files of a repository by their URLs), oldest first; at most limit.
func (s *Store) DecisionsUnder(ctx context.Context, stage, kind, prefix string, limit int) ([]Decision, error) {
	return queryList(ctx, s, "decisions under "+prefix, scanDecision, `SELECT `+decisionCols+` FROM decisions
		WHERE stage=? AND subject_kind=? AND substr(subject, 1, ?)=? ORDER BY id LIMIT ?`, stage, kind, len(prefix), prefix, limit)
}

// RepositoryByURL returns the repository whose URL is u, or ErrNotFound.
func (s *Store) RepositoryByURL(ctx context.Context, u string) (*Repository, error) {
	return queryOne(ctx, s, "repository "+u, deref(scanRepository), `SELECT `+repoCols+` FROM repositories WHERE url=? ORDER BY id LIMIT 1`, u)
}

// FunctionRef names a function for people: where it is and what extract said of it.
type FunctionRef struct {
	ID           int64  `json:"id"`
	FileID       int64  `json:"file_id"`
	Name         string `json:"name"`
	QualName     string `json:"qualname"`
	StartLine    int    `json:"start_line"`
	Status       string `json:"status"`
	RejectReason string `json:"reject_reason,omitempty"`
	Repo         string `json:"repo"`
	Path         string `json:"path"`
	FileURL      string `json:"file_url"`
}

// String is the function as repo:path:qualname.
func (f FunctionRef) String() string { return f.Repo + ":" + f.Path + ":" + f.QualName }

const functionRefCols = `f.id, f.file_id, f.name, f.qualname, f.start_line, f.status, f.reject_reason, fi.path, fi.url, r.full_name
	FROM functions f JOIN files fi ON fi.id = f.file_id JOIN repositories r ON r.id = fi.repo_id`

func scanFunctionRef(r rowScanner) (FunctionRef, error) {
	var f FunctionRef
	err := r.Scan(&f.ID, &f.FileID, &f.Name, &f.QualName, &f.StartLine, &f.Status, &f.RejectReason, &f.Path, &f.FileURL, &f.Repo)
	return f, err
}

// FunctionRefByID returns the named function, or ErrNotFound.
func (s *Store) FunctionRefByID(ctx context.Context, id int64) (*FunctionRef, error) {
	return queryOne(ctx, s, fmt.Sprintf("function %d", id), scanFunctionRef, `SELECT `+functionRefCols+` WHERE f.id=?`, id)
}

// FunctionRefsOfFile returns the functions extracted from a file, in line order.
func (s *Store) FunctionRefsOfFile(ctx context.Context, fileID int64) ([]FunctionRef, error) {
	return queryList(ctx, s, "functions of file", scanFunctionRef, `SELECT `+functionRefCols+` WHERE f.file_id=? ORDER BY f.start_line, f.id`, fileID)
}

// FunctionRefsNamed returns the functions called name (their name or qualname) in
// files whose repository and path are repo and path; an empty repo or path
// matches any.
func (s *Store) FunctionRefsNamed(ctx context.Context, repo, path, name string) ([]FunctionRef, error) {
	return queryList(ctx, s, "functions named "+name, scanFunctionRef, `SELECT `+functionRefCols+`
		WHERE (f.qualname=? OR f.name=?) AND (?='' OR r.full_name=?) AND (?='' OR fi.path=?) ORDER BY f.id`,
		name, name, repo, repo, path, path)
}

// FunctionRefsAlignedTo returns the functions with a primary alignment to the API.
func (s *Store) FunctionRefsAlignedTo(ctx context.Context, apiID int64) ([]FunctionRef, error) {
	return queryList(ctx, s, "functions aligned to an API", scanFunctionRef, `SELECT `+functionRefCols+`
		WHERE f.id IN (SELECT function_id FROM alignments WHERE api_id=? AND is_primary=1) ORDER BY f.id`, apiID)
}

// FileRef names a mined file for people.
type FileRef struct {
	ID     int64  `json:"id"`
	RepoID int64  `json:"repo_id"`
	Repo   string `json:"repo"`
	Path   string `json:"path"`
	URL    string `json:"url"`
	APIID  int64  `json:"api_id,omitempty"`
}

// String is the file as repo/path.
func (f FileRef) String() string { return f.Repo + "/" + f.Path }

const fileRefCols = `fi.id, fi.repo_id, r.full_name, fi.path, fi.url, COALESCE(fi.api_id,0) FROM files fi JOIN repositories r ON r.id = fi.repo_id`

func scanFileRef(r rowScanner) (FileRef, error) {
	var f FileRef
	err := r.Scan(&f.ID, &f.RepoID, &f.Repo, &f.Path, &f.URL, &f.APIID)
	return f, err
}

// FileRefByID returns the named file, or ErrNotFound.
func (s *Store) FileRefByID(ctx context.Context, id int64) (*FileRef, error) {
	return queryOne(ctx, s, fmt.Sprintf("file %d", id), scanFileRef, `SELECT `+fileRefCols+` WHERE fi.id=?`, id)
}

// FileRefsNamed returns the files whose URL is name, or whose repo/path or
// repo:path is name, or (when no such file exists) whose path ends in name at a
// folder boundary; at most limit.
func (s *Store) FileRefsNamed(ctx context.Context, name string, limit int) ([]FileRef, error) {
	exact, err := queryList(ctx, s, "files named "+name, scanFileRef, `SELECT `+fileRefCols+`
		WHERE fi.url=? OR r.full_name || '/' || fi.path = ? OR r.full_name || ':' || fi.path = ? ORDER BY fi.id LIMIT ?`, name, name, name, limit)
	if err != nil || len(exact) > 0 {
		return exact, err
	}
	return queryList(ctx, s, "files named "+name, scanFileRef, `SELECT `+fileRefCols+`
		WHERE fi.path=? OR substr(fi.path, -?)=? ORDER BY fi.id LIMIT ?`, name, len(name)+1, "/"+name, limit)
}

// FileRefsOfRepo returns the mined files of a repository, by path.
func (s *Store) FileRefsOfRepo(ctx context.Context, repoID int64) ([]FileRef, error) {
	return queryList(ctx, s, "files of repository", scanFileRef, `SELECT `+fileRefCols+` WHERE fi.repo_id=? ORDER BY fi.path, fi.id`, repoID)
}

// FileRefsOfAPI returns the files mined for an API (found by one of its queries).
func (s *Store) FileRefsOfAPI(ctx context.Context, apiID int64) ([]FileRef, error) {
	return queryList(ctx, s, "files of API", scanFileRef, `SELECT `+fileRefCols+`
		WHERE fi.api_id=? OR fi.id IN (SELECT file_id FROM file_hits WHERE api_id=?) ORDER BY fi.id`, apiID, apiID)
}

// SampleOfFunction returns the sample built from a function, or ErrNotFound.
func (s *Store) SampleOfFunction(ctx context.Context, fid int64) (*Sample, error) {
	return queryOne(ctx, s, fmt.Sprintf("sample of function %d", fid), scanSample, `SELECT `+sampleCols+` FROM samples s
		LEFT JOIN splits sp ON sp.sample_id = s.id WHERE s.function_id=? ORDER BY s.id LIMIT 1`, fid)
}

// APIsNamed returns the APIs whose slug, owner/slug or host is name, or that have
// an endpoint on host name.
func (s *Store) APIsNamed(ctx context.Context, name string) ([]API, error) {
	return queryList(ctx, s, "APIs named "+name, deref(scanAPI), `SELECT `+apiColumns+` FROM apis
		WHERE slug=? OR owner || '/' || slug = ? OR host=lower(?) OR id IN (SELECT api_id FROM endpoints WHERE host=lower(?))
		ORDER BY id`, name, name, name, name)
}

// APIsFromFile returns the APIs imported from a description file: those whose url
// is path, ends in "/"+path or is the end of path after a "/".
func (s *Store) APIsFromFile(ctx context.Context, path string) ([]API, error) {
	return queryList(ctx, s, "APIs from "+path, deref(scanAPI), `SELECT `+apiColumns+` FROM apis
		WHERE url=? OR substr(url, -?)=? OR (url != '' AND substr(?, -length(url)-1) = '/' || url) ORDER BY id`,
		path, len(path)+1, "/"+path, path)
}
