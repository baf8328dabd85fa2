// Package store owns sccg's SQLite database: the schema and its migrations, the typed
// records every stage reads and writes, provenance (blobs, fetches, decisions) and run
// bookkeeping. It is the only package that writes SQL.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver
)

// Store is an open sccg database. It is safe for concurrent use: reads run in
// parallel, and every write goes through one writer connection.
type Store struct {
	path   string
	read   *sql.DB
	write  *sql.DB
	wmu    sync.Mutex // serializes write transactions inside this process
	now    func() time.Time
	closed bool
}

// Option configures Open.
type Option func(*Store)

// WithClock makes the store stamp times with now instead of the wall clock; tests use
// it to get reproducible rows.
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// Open opens (creating if needed) the database at path and migrates it to the latest
// schema version.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	s, err := openRaw(path, opts...)
	if err != nil {
		return nil, err
	}
	if err := s.migrate(ctx, SchemaVersion()); err != nil {
		s.Close()
		return nil, fmt.Errorf("migrate %s: %w", path, err)
	}
	return s, nil
}

func openRaw(path string, opts ...Option) (*Store, error) {
	if path == "" {
		return nil, errors.New("open store: empty database path")
	}
	q := url.Values{}
	q.Set("_foreign_keys", "on")
	q.Set("_busy_timeout", "10000")
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "NORMAL")
	dsn := "file:" + path + "?" + q.Encode()
	w, err := sql.Open("sqlite3", dsn+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	if err := w.Ping(); err != nil {
		w.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	r, err := sql.Open("sqlite3", dsn)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	r.SetMaxOpenConns(4)
	s := &Store{path: path, read: r, write: w, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s, nil
}

// Path is the file the store was opened from.
func (s *Store) Path() string { return s.path }

// Now is the store's clock, formatted as the store keeps times (RFC 3339, UTC).
func (s *Store) Now() string { return s.now().UTC().Format(time.RFC3339) }

// Close closes the database. It is safe to call twice.
func (s *Store) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	return errors.Join(s.read.Close(), s.write.Close())
}

// Tx is a write transaction. Stage-specific writes are methods on Tx so that a unit's
// output and its done-mark commit together.
type Tx struct {
	tx    *sql.Tx
	store *Store
}

// Update runs fn in one write transaction and commits it when fn returns nil.
func (s *Store) Update(ctx context.Context, fn func(*Tx) error) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	if err := fn(&Tx{tx: tx, store: s}); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// Now is the transaction's store clock.
func (t *Tx) Now() string { return t.store.Now() }

func (t *Tx) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, q, args...)
}

// lastID returns the id of the row an upsert touched: the inserted one or the
// existing one that the conflict clause kept. It always looks the row up: after an
// ON CONFLICT DO UPDATE, RowsAffected is 1 but LastInsertId still holds the id of the
// connection's previous insert (possibly another table's row).
func (t *Tx) lastID(ctx context.Context, res sql.Result, lookup string, args ...any) (int64, error) {
	_ = res
	var id int64
	err := t.tx.QueryRowContext(ctx, lookup, args...).Scan(&id)
	return id, err
}
