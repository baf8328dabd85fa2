package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// ErrNotFound is returned by lookups that find no row.
var ErrNotFound = errors.New("not found")

// ErrNoSamples is returned by stages that need samples when the store has none.
var ErrNoSamples = errors.New("the store has no samples (build them, or import a benchmark)")

// rowScanner is what the scan functions read one row from: *sql.Row or *sql.Rows.
type rowScanner = interface{ Scan(dest ...any) error }

// queryList runs a read query and decodes every row with scan; what names the
// list in errors.
func queryList[T any](ctx context.Context, s *Store, what string, scan func(rowScanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := s.read.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// deref adapts a scan function that returns a pointer to queryList.
func deref[T any](scan func(rowScanner) (*T, error)) func(rowScanner) (T, error) {
	return func(r rowScanner) (T, error) {
		p, err := scan(r)
		if err != nil {
			var zero T
			return zero, err
		}
		return *p, nil
	}
}

// Run is one invocation of a stage, as recorded in the runs table.
type Run struct {
	ID        int64            `json:"id"`
	Stage     string           `json:"stage"`
	Args      map[string]any   `json:"args"`
	StartedAt string           `json:"started_at"`
	EndedAt   string           `json:"ended_at,omitempty"`
	Status    string           `json:"status"`
	Counts    map[string]int64 `json:"counts"`
	Error     string           `json:"error,omitempty"`
}

// Run statuses.
const (
	RunRunning   = "running"
	RunOK        = "ok"
	RunFailed    = "failed"
	RunCancelled = "cancelled"
)

var secretArg = regexp.MustCompile(`(?i)(token|secret|password|passwd|api[-_]?key|apikey|credential|auth)`)

// redactArgs drops every argument whose name looks like it carries a secret, so a
// run's recorded arguments can be shown and exported safely.
func redactArgs(args map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	for k, v := range args {
		if secretArg.MatchString(k) {
			out[k] = "<redacted>"
			continue
		}
		out[k] = v
	}
	return out
}

// BeginRun records the start of a stage run. Arguments whose names look like
// secrets are replaced before they are stored.
func (s *Store) BeginRun(ctx context.Context, stage string, args map[string]any) (*Run, error) {
	r := &Run{Stage: stage, Args: redactArgs(args), StartedAt: s.Now(), Status: RunRunning, Counts: map[string]int64{}}
	a, _ := json.Marshal(r.Args)
	err := s.Update(ctx, func(tx *Tx) error {
		res, err := tx.exec(ctx, `INSERT INTO runs(stage, args, started_at, status) VALUES(?,?,?,?)`, stage, string(a), r.StartedAt, r.Status)
		if err != nil {
			return err
		}
		r.ID, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("begin %s run: %w", stage, err)
	}
	return r, nil
}

// FinishRun records the end of a run: its status, counters and error (if any). It
// uses a fresh context so a cancelled stage still records that it was cancelled.
func (s *Store) FinishRun(ctx context.Context, r *Run, runErr error) error {
	r.EndedAt = s.Now()
	switch {
	case runErr == nil:
		r.Status = RunOK
	case errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded):
		r.Status = RunCancelled
		r.Error = runErr.Error()
	default:
		r.Status = RunFailed
		r.Error = runErr.Error()
	}
	c, _ := json.Marshal(r.Counts)
	ctx = context.WithoutCancel(ctx)
	return s.Update(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE runs SET ended_at=?, status=?, counts=?, error=? WHERE id=?`, r.EndedAt, r.Status, string(c), r.Error, r.ID)
		return err
	})
}

// LastRuns returns the n most recent runs, newest first.
func (s *Store) LastRuns(ctx context.Context, n int) ([]Run, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, stage, args, started_at, COALESCE(ended_at,''), status, counts, error FROM runs ORDER BY id DESC LIMIT ?`, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		var r Run
		var a, c string
		if err := rows.Scan(&r.ID, &r.Stage, &a, &r.StartedAt, &r.EndedAt, &r.Status, &c, &r.Error); err != nil {
			return nil, err
		}
		_ = json.Unmarshal([]byte(a), &r.Args)
		_ = json.Unmarshal([]byte(c), &r.Counts)
		out = append(out, r)
	}
	return out, rows.Err()
}

// Fetch describes where and when a blob was fetched.
type Fetch struct {
	ID        int64             `json:"id"`
	URL       string            `json:"url"`
	SHA256    string            `json:"sha256,omitempty"`
	Status    int               `json:"status"`
	Headers   map[string]string `json:"headers,omitempty"`
	FetchedAt string            `json:"fetched_at"`
	RunID     int64             `json:"run_id,omitempty"`
}

// HashBlob is the content address PutBlob gives data.
func HashBlob(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// PutBlob stores data content-addressed (gzip-compressed when that helps) and returns
// its sha256. Storing the same content twice keeps one copy.
func (t *Tx) PutBlob(ctx context.Context, data []byte) (string, error) {
	sum := HashBlob(data)
	comp, body := "none", data
	if len(data) > 256 {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
		zw.Write(data)
		zw.Close()
		if buf.Len() < len(data) {
			comp, body = "gzip", buf.Bytes()
		}
	}
	_, err := t.exec(ctx, `INSERT INTO blobs(sha256, size, compression, data) VALUES(?,?,?,?) ON CONFLICT(sha256) DO NOTHING`, sum, len(data), comp, body)
	if err != nil {
		return "", fmt.Errorf("put blob: %w", err)
	}
	return sum, nil
}

// RecordFetch stores a fetched body (nil for none) and where it came from.
func (t *Tx) RecordFetch(ctx context.Context, f *Fetch, body []byte) error {
	var sha any
	if body != nil {
		sum, err := t.PutBlob(ctx, body)
		if err != nil {
			return err
		}
		f.SHA256, sha = sum, sum
	}
	if f.FetchedAt == "" {
		f.FetchedAt = t.Now()
	}
	h, _ := json.Marshal(f.Headers)
	var run any
	if f.RunID != 0 {
		run = f.RunID
	}
	res, err := t.exec(ctx, `INSERT INTO fetches(url, sha256, status, headers, fetched_at, run_id) VALUES(?,?,?,?,?,?)`, f.URL, sha, f.Status, string(h), f.FetchedAt, run)
	if err != nil {
		return fmt.Errorf("record fetch %s: %w", f.URL, err)
	}
	f.ID, _ = res.LastInsertId()
	return nil
}

// Blob returns the content stored under sha.
func (s *Store) Blob(ctx context.Context, sha string) ([]byte, error) {
	var comp string
	var data []byte
	err := s.read.QueryRowContext(ctx, `SELECT compression, data FROM blobs WHERE sha256=?`, sha).Scan(&comp, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("blob %s: %w", sha, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("blob %s: %w", sha, err)
	}
	if comp == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("blob %s: %w", sha, err)
		}
		return io.ReadAll(zr)
	}
	return data, nil
}

// LatestFetch returns the newest fetch of url, or ErrNotFound. Crawlers use it to
// skip what they already have and to send conditional requests (ETag).
func (s *Store) LatestFetch(ctx context.Context, url string) (*Fetch, error) {
	var f Fetch
	var sha sql.NullString
	var run sql.NullInt64
	var h string
	err := s.read.QueryRowContext(ctx, `SELECT id, url, sha256, status, headers, fetched_at, run_id FROM fetches WHERE url=? ORDER BY id DESC LIMIT 1`, url).
		Scan(&f.ID, &f.URL, &sha, &f.Status, &h, &f.FetchedAt, &run)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("fetch %s: %w", url, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", url, err)
	}
	f.SHA256, f.RunID = sha.String, run.Int64
	_ = json.Unmarshal([]byte(h), &f.Headers)
	return &f, nil
}

// Decision is a verdict a stage made about a subject, with its reason and evidence.
type Decision struct {
	ID          int64          `json:"id"`
	RunID       int64          `json:"run_id,omitempty"`
	Stage       string         `json:"stage"`
	SubjectKind string         `json:"subject_kind"`
	Subject     string         `json:"subject"`
	Verdict     string         `json:"verdict"`
	Reason      string         `json:"reason"`
	Evidence    map[string]any `json:"evidence,omitempty"`
	CreatedAt   string         `json:"created_at"`
}

// Decision verdicts.
const (
	Kept     = "kept"
	Rejected = "rejected"
	Changed  = "changed"
	Failed   = "failed"
	// Warning marks a problem that was repaired or ignored: the subject was kept.
	Warning = "warning"
)

// RecordDecision stores d. Recording the same (stage, subject, verdict, reason) again
// does not add a second row, so reruns stay idempotent; the row takes the newer
// run's id, so the decisions of a run are all those it made, new or made again.
func (t *Tx) RecordDecision(ctx context.Context, d Decision) error {
	if d.CreatedAt == "" {
		d.CreatedAt = t.Now()
	}
	ev, _ := json.Marshal(d.Evidence)
	if d.Evidence == nil {
		ev = []byte("{}")
	}
	var run any
	if d.RunID != 0 {
		run = d.RunID
	}
	var id, prev int64
	err := t.tx.QueryRowContext(ctx, `SELECT id, COALESCE(run_id,0) FROM decisions WHERE stage=? AND subject_kind=? AND subject=? AND verdict=? AND reason=? LIMIT 1`,
		d.Stage, d.SubjectKind, d.Subject, d.Verdict, d.Reason).Scan(&id, &prev)
	switch {
	case err == nil:
		if d.RunID > prev {
			if _, err := t.exec(ctx, `UPDATE decisions SET run_id=? WHERE id=?`, d.RunID, id); err != nil {
				return fmt.Errorf("record decision on %s %s: %w", d.SubjectKind, d.Subject, err)
			}
		}
		return nil
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("record decision on %s %s: %w", d.SubjectKind, d.Subject, err)
	}
	_, err = t.exec(ctx, `INSERT INTO decisions(run_id, stage, subject_kind, subject, verdict, reason, evidence, created_at) VALUES(?,?,?,?,?,?,?,?)`,
		run, d.Stage, d.SubjectKind, d.Subject, d.Verdict, d.Reason, string(ev), d.CreatedAt)
	if err != nil {
		return fmt.Errorf("record decision on %s %s: %w", d.SubjectKind, d.Subject, err)
	}
	return nil
}

// Decisions returns the decisions about one subject (all stages), oldest first. An
// empty kind matches every kind.
func (s *Store) Decisions(ctx context.Context, kind, subject string) ([]Decision, error) {
	return queryList(ctx, s, "decisions on "+subject, scanDecision, `SELECT `+decisionCols+`
		FROM decisions WHERE (?='' OR subject_kind=?) AND subject=? ORDER BY id`, kind, kind, subject)
}

// DecisionCounts counts a stage's decisions by verdict and reason ("rejected: binary file").
func (s *Store) DecisionCounts(ctx context.Context, stage string) (map[string]int64, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT verdict, reason, COUNT(*) FROM decisions WHERE stage=? GROUP BY verdict, reason`, stage)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var v, r string
		var n int64
		if err := rows.Scan(&v, &r, &n); err != nil {
			return nil, err
		}
		out[v+": "+r] = n
	}
	return out, rows.Err()
}

// MarkDone records that unit of stage is finished. Call it in the transaction that
// writes the unit's output, so a killed run never loses output or redoes a unit.
func (t *Tx) MarkDone(ctx context.Context, stage, unit string, runID int64) error {
	var run any
	if runID != 0 {
		run = runID
	}
	_, err := t.exec(ctx, `INSERT INTO work_units(stage, unit, run_id, done_at) VALUES(?,?,?,?) ON CONFLICT(stage, unit) DO NOTHING`, stage, unit, run, t.Now())
	if err != nil {
		return fmt.Errorf("mark %s %s done: %w", stage, unit, err)
	}
	return nil
}

// IsDone reports whether unit of stage was marked done.
func (s *Store) IsDone(ctx context.Context, stage, unit string) (bool, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM work_units WHERE stage=? AND unit=?`, stage, unit).Scan(&n)
	return n > 0, err
}

// DoneUnits returns the set of units of stage already done.
func (s *Store) DoneUnits(ctx context.Context, stage string) (map[string]bool, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT unit FROM work_units WHERE stage=?`, stage)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var u string
		if err := rows.Scan(&u); err != nil {
			return nil, err
		}
		out[u] = true
	}
	return out, rows.Err()
}

// ResetStage forgets which units of stage are done (for --refresh style reruns).
func (t *Tx) ResetStage(ctx context.Context, stage string) error {
	_, err := t.exec(ctx, `DELETE FROM work_units WHERE stage=?`, stage)
	return err
}

// ResetUnits forgets the done units of stage whose names start with prefix, so a
// refresh of one source leaves the others' progress alone.
func (t *Tx) ResetUnits(ctx context.Context, stage, prefix string) error {
	_, err := t.exec(ctx, `DELETE FROM work_units WHERE stage=? AND substr(unit, 1, ?)=?`, stage, len(prefix), prefix)
	return err
}

// Tables lists the store's data tables in name order (not the migrations' own
// bookkeeping).
func (s *Store) Tables(ctx context.Context) ([]string, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'
		AND name != 'schema_migrations' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// Counts returns the number of rows in every table.
func (s *Store) Counts(ctx context.Context) (map[string]int64, error) {
	tables, err := s.Tables(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, t := range tables {
		var n int64
		if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM "`+t+`"`).Scan(&n); err != nil {
			return nil, fmt.Errorf("count %s: %w", t, err)
		}
		out[t] = n
	}
	return out, nil
}

// volatile columns differ between two otherwise equal runs (clocks, run ids).
var volatile = map[string]bool{"started_at": true, "ended_at": true, "done_at": true, "fetched_at": true,
	"created_at": true, "crawled_at": true, "found_at": true, "run_id": true}

// Dump renders the content of the given tables (all but runs when none are named) as
// sorted text lines, leaving out volatile columns such as clocks and run ids. Two
// stores that hold the same data dump the same; tests use it to compare a resumed run
// with an uninterrupted one.
func (s *Store) Dump(ctx context.Context, tables ...string) (string, error) {
	if len(tables) == 0 {
		all, err := s.Tables(ctx)
		if err != nil {
			return "", err
		}
		for _, t := range all {
			if t != "runs" {
				tables = append(tables, t)
			}
		}
	}
	var b strings.Builder
	for _, t := range tables {
		rows, err := s.read.QueryContext(ctx, `SELECT * FROM "`+t+`"`)
		if err != nil {
			return "", fmt.Errorf("dump %s: %w", t, err)
		}
		cols, _ := rows.Columns()
		var lines []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return "", err
			}
			var parts []string
			for i, c := range cols {
				if volatile[c] {
					continue
				}
				v := vals[i]
				if bs, ok := v.([]byte); ok {
					v = HashBlob(bs)[:12]
				}
				parts = append(parts, fmt.Sprintf("%s=%v", c, v))
			}
			lines = append(lines, strings.Join(parts, " "))
		}
		rows.Close()
		sort.Strings(lines)
		fmt.Fprintf(&b, "[%s] %d\n", t, len(lines))
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String(), nil
}
