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

// migration is one schema step; version N is the Nth file of migrations/ in name order.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations are loaded once from the embedded files named NNNN_name.sql. A released
// migration is never edited: change the schema by adding the next file.
var migrations = mustLoadMigrations()

func mustLoadMigrations() []migration {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		panic(err)
	}
	sort.Strings(names)
	var ms []migration
	for i, n := range names {
		base := strings.TrimPrefix(n, "migrations/")
		v, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil || v != i+1 {
			panic(fmt.Sprintf("store: migration %s: want version %04d", base, i+1))
		}
		b, _ := migrationFS.ReadFile(n)
		ms = append(ms, migration{version: v, name: base, sql: string(b)})
	}
	return ms
}

// SchemaVersion is the version a freshly opened store has.
func SchemaVersion() int { return len(migrations) }

// Version reports the schema version of the open database (PRAGMA user_version).
func (s *Store) Version(ctx context.Context) (int, error) {
	var v int
	err := s.read.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

// migrate applies every migration above the current version up to target, each in
// its own transaction together with the new user_version.
func (s *Store) migrate(ctx context.Context, target int) error {
	cur, err := s.Version(ctx)
	if err != nil {
		return err
	}
	if cur > len(migrations) {
		return fmt.Errorf("database schema version %d is newer than this sccg (%d): upgrade sccg", cur, len(migrations))
	}
	for _, m := range migrations {
		if m.version <= cur || m.version > target {
			continue
		}
		err := s.Update(ctx, func(tx *Tx) error {
			if _, err := tx.exec(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.exec(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version))
			return err
		})
		if err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return nil
}
