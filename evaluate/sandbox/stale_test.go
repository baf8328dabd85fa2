package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// A run killed with kill -9 leaves its work directory; the next run removes it,
// and only it: a live process's directory and one that names no owner stay.
func TestRemoveStale(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("cannot start a process:", err)
	}
	dir := t.TempDir()
	gone := filepath.Join(dir, workPrefix+strconv.Itoa(dead.Process.Pid)+"-123")
	live := filepath.Join(dir, workPrefix+strconv.Itoa(os.Getpid())+"-456")
	old := filepath.Join(dir, workPrefix+"789abc")
	for _, d := range []string{gone, live, old} {
		if err := os.MkdirAll(filepath.Join(d, "harness"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	n, err := RemoveStale(dir)
	if err != nil || n != 1 {
		t.Fatalf("removed %d (%v), want 1", n, err)
	}
	for d, want := range map[string]bool{gone: false, live: true, old: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s exists %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}
