package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// schema returns the DDL of every object in the database, in name order.
func schema(t *testing.T, s *Store) string {
	t.Helper()
	rows, err := s.read.Query(`SELECT type, name, COALESCE(sql,'') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var typ, name, sql string
		if err := rows.Scan(&typ, &name, &sql); err != nil {
			t.Fatal(err)
		}
		b.WriteString(typ + " " + name + ": " + sql + "\n")
	}
	return b.String()
}

func TestMigrateFromEmptyFile(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "new.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v, err := s.Version(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v != SchemaVersion() || v != migrations[len(migrations)-1].version {
		t.Fatalf("version = %d, want %d", v, migrations[len(migrations)-1].version)
	}
	var fk int
	s.write.QueryRow("PRAGMA foreign_keys").Scan(&fk)
	var mode string
	s.write.QueryRow("PRAGMA journal_mode").Scan(&mode)
	if fk != 1 || mode != "wal" {
		t.Fatalf("foreign_keys=%d journal_mode=%s, want 1 and wal", fk, mode)
	}
}

// Every earlier version upgrades to the same schema a fresh store gets.
func TestMigrateFromEveryEarlierVersion(t *testing.T) {
	ctx := context.Background()
	fresh, err := Open(ctx, filepath.Join(t.TempDir(), "fresh.db"))
	if err != nil {
		t.Fatal(err)
	}
	want := schema(t, fresh)
	fresh.Close()
	for i := 0; i < len(migrations); i++ {
		from := 0
		if i > 0 {
			from = migrations[i-1].version
		}
		path := filepath.Join(t.TempDir(), "old.db")
		old, err := openRaw(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := old.migrate(ctx, from); err != nil {
			t.Fatalf("migrate to %d: %v", from, err)
		}
		if v, _ := old.Version(ctx); v != from {
			t.Fatalf("partial migration left version %d, want %d", v, from)
		}
		old.Close()
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("upgrade from version %d: %v", from, err)
		}
		if got := schema(t, s); got != want {
			t.Errorf("upgrade from version %d: schema differs from a fresh store", from)
		}
		s.Close()
	}
}

// A store that has a later migration but not an earlier one (numbers are reserved
// per feature, so features land in any order) gets the missing one on Open.
func TestMigrateFillsAGap(t *testing.T) {
	ctx := context.Background()
	fresh, err := Open(ctx, filepath.Join(t.TempDir(), "fresh.db"))
	if err != nil {
		t.Fatal(err)
	}
	want := schema(t, fresh)
	fresh.Close()
	if len(migrations) < 3 {
		t.Skip("needs three migrations")
	}
	skipped := migrations[len(migrations)-2]
	path := filepath.Join(t.TempDir(), "gap.db")
	old, err := openRaw(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := old.migrate(ctx, skipped.version-1); err != nil {
		t.Fatal(err)
	}
	// Apply the newest migration alone, as a store made before the skipped one
	// landed would have it.
	without := append(append([]migration(nil), migrations[:len(migrations)-2]...), migrations[len(migrations)-1])
	if err := old.migrateWith(ctx, without, SchemaVersion()); err != nil {
		t.Fatal(err)
	}
	old.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := schema(t, s); got != want {
		t.Errorf("a store missing migration %s does not get it on Open", skipped.name)
	}
	if v, _ := s.Version(ctx); v != SchemaVersion() {
		t.Errorf("version %d, want %d", v, SchemaVersion())
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "future.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.write.Exec("PRAGMA user_version = 999"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(ctx, path); err == nil || !strings.Contains(err.Error(), "newer than this sccg") {
		t.Fatalf("Open of a newer schema: err = %v, want a clear refusal", err)
	}
}

// A migration that fails leaves the store at the version before it.
func TestFailedMigrationRollsBack(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "x.db")
	s, err := openRaw(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.migrate(ctx, 1); err != nil {
		t.Fatal(err)
	}
	// Make migration 2 collide with an existing table.
	if _, err := s.write.Exec("CREATE TABLE apis (x INTEGER)"); err != nil {
		t.Fatal(err)
	}
	if err := s.migrate(ctx, 2); err == nil {
		t.Fatal("migration over a conflicting table succeeded")
	}
	if v, _ := s.Version(ctx); v != 1 {
		t.Fatalf("version after failed migration = %d, want 1", v)
	}
	var n int
	s.read.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE name='endpoints'`).Scan(&n)
	if n != 0 {
		t.Fatal("failed migration left part of its tables behind")
	}
}
