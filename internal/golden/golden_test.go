package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of stopping the test.
type recorder struct {
	testing.TB
	failed bool
	msg    string
}

func (r *recorder) Helper()                        {}
func (r *recorder) Errorf(format string, a ...any) { r.failed, r.msg = true, format }
func (r *recorder) Fatalf(format string, a ...any) { r.failed, r.msg = true, format }

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.golden")
	r := &recorder{TB: t}
	Check(r, path, []byte("a\nb\n"), false)
	if !r.failed || !strings.Contains(r.msg, "-update to create") {
		t.Fatalf("missing golden: failed=%v msg=%q", r.failed, r.msg)
	}
	Check(t, path, []byte("a\nb\n"), true)
	if b, _ := os.ReadFile(path); string(b) != "a\nb\n" {
		t.Fatalf("update wrote %q", b)
	}
	Check(t, path, []byte("a\nb\n"), false)
	r = &recorder{TB: t}
	Check(r, path, []byte("a\nc\n"), false)
	if !r.failed {
		t.Fatal("a changed output passed")
	}
}

func TestDiff(t *testing.T) {
	got := Diff("a\nb\nc", "a\nx\nc\nd")
	for _, want := range []string{`line 2:`, `want "b"`, `got "x"`, `line 4:`, `(3 lines wanted, 4 got)`} {
		if !strings.Contains(got, want) {
			t.Errorf("Diff lacks %q:\n%s", want, got)
		}
	}
	if Diff("same", "same") != "" {
		t.Error("equal texts have a diff")
	}
}
