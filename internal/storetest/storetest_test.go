package storetest

import (
	"strings"
	"testing"
)

func TestOpenAndDump(t *testing.T) {
	s := Open(t)
	d := MustDump(t, s, "runs")
	if !strings.HasPrefix(d, "[runs] 0") {
		t.Errorf("dump of an empty runs table = %q", d)
	}
}

// fatalRecorder is a testing.TB that records Fatalf instead of stopping the test.
type fatalRecorder struct {
	testing.TB
	failed bool
}

func (f *fatalRecorder) Fatalf(string, ...any) { f.failed = true }
func (f *fatalRecorder) Helper()               {}

func TestMustDumpFailsOnError(t *testing.T) {
	s := Open(t)
	rec := &fatalRecorder{TB: t}
	MustDump(rec, s, "no_such_table")
	if !rec.failed {
		t.Error("MustDump of a missing table did not fail the test")
	}
}
