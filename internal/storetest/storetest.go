// Package storetest opens stores for tests and compares their contents, so a
// before == after check fails when a dump fails instead of comparing two empty strings.
package storetest

import (
	"path/filepath"
	"testing"
	"time"

	"sccg/store"
)

// Clock is the time every store opened by Open stamps its rows with, unless an
// option given to Open sets another.
var Clock = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// Open opens a new store in a temporary directory of t, with the fixed Clock, and
// closes it when the test ends. opts are applied after the clock, so they may
// replace it.
func Open(t testing.TB, opts ...store.Option) *store.Store {
	t.Helper()
	opts = append([]store.Option{store.WithClock(func() time.Time { return Clock })}, opts...)
	s, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "test.db"), opts...)
	if err != nil {
		t.Fatalf("open test store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// MustDump returns s.Dump of the tables (every table but runs when none is named)
// and fails the test when the dump fails.
func MustDump(t testing.TB, s *store.Store, tables ...string) string {
	t.Helper()
	d, err := s.Dump(t.Context(), tables...)
	if err != nil {
		t.Fatalf("dump store %v: %v", tables, err)
	}
	return d
}
