package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migration is one schema step, from the file migrations/NNNN_name.sql.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations are loaded once from the embedded files named NNNN_name.sql, in version
// order. A released migration is never edited: change the schema by adding a file.
// Numbers are reserved per feature, so they may have gaps, and a store may get a
// lower number after a higher one (schema_migrations records which are applied).
var migrations = mustLoadMigrations()

func mustLoadMigrations() []migration {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		panic(err)
	}
	sort.Strings(names)
	var ms []migration
	for _, n := range names {
		base := strings.TrimPrefix(n, "migrations/")
		v, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil || v < 1 || (len(ms) > 0 && v <= ms[len(ms)-1].version) {
			panic(fmt.Sprintf("store: migration %s: want a number above the one before it", base))
		}
		b, _ := migrationFS.ReadFile(n)
		ms = append(ms, migration{version: v, name: base, sql: string(b)})
	}
	return ms
}

// SchemaVersion is the version a freshly opened store has: its newest migration's.
func SchemaVersion() int { return migrations[len(migrations)-1].version }

// Version reports the schema version of the open database (PRAGMA user_version):
// the newest migration applied.
func (s *Store) Version(ctx context.Context) (int, error) {
	var v int
	err := s.read.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

// applied returns the versions of the migrations of ms the database has. A database
// from before schema_migrations has every migration up to its user_version.
func (s *Store) applied(ctx context.Context, ms []migration) (map[int]bool, error) {
	known := map[int]bool{}
	for _, m := range ms {
		known[m.version] = true
	}
	cur, err := s.Version(ctx)
	if err != nil {
		return nil, err
	}
	if newest := ms[len(ms)-1].version; cur > newest {
		return nil, fmt.Errorf("database schema version %d is newer than this sccg (%d): upgrade sccg", cur, newest)
	}
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name='schema_migrations'`).Scan(&n); err != nil {
		return nil, err
	}
	out := map[int]bool{}
	if n == 0 {
		for _, m := range ms {
			if m.version <= cur {
				out[m.version] = true
			}
		}
		return out, nil
	}
	rows, err := s.read.QueryContext(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		if !known[v] {
			return nil, fmt.Errorf("database has schema migration %d, which is newer than this sccg: upgrade sccg", v)
		}
		out[v] = true
	}
	return out, rows.Err()
}

// migrate applies, in version order, every migration up to version target that the
// database does not have yet, each in its own transaction together with its row in
// schema_migrations and the new user_version.
func (s *Store) migrate(ctx context.Context, target int) error {
	return s.migrateWith(ctx, migrations, target)
}

func (s *Store) migrateWith(ctx context.Context, ms []migration, target int) error {
	applied, err := s.applied(ctx, ms)
	if err != nil {
		return err
	}
	for _, m := range ms {
		if applied[m.version] || m.version > target {
			continue
		}
		err := s.Update(ctx, func(tx *Tx) error {
			if _, err := tx.exec(ctx, m.sql); err != nil {
				return err
			}
			if _, err := tx.exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)`); err != nil {
				return err
			}
			applied[m.version] = true
			newest := 0
			for _, k := range ms {
				if !applied[k.version] {
					continue
				}
				newest = k.version
				if _, err := tx.exec(ctx, `INSERT OR IGNORE INTO schema_migrations(version, name) VALUES(?,?)`, k.version, k.name); err != nil {
					return err
				}
			}
			_, err := tx.exec(ctx, fmt.Sprintf("PRAGMA user_version = %d", newest))
			return err
		})
		if err != nil {
			delete(applied, m.version)
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return nil
}
