package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// workPrefix starts the name of a runner's work directory; the owner's process id
// follows it, so a later run can tell a directory left by a killed run (its
// owner is gone) from one in use.
const workPrefix = "sccg-sandbox-"

// workPattern is the os.MkdirTemp pattern of this process's work directory.
func workPattern() string { return workPrefix + strconv.Itoa(os.Getpid()) + "-" }

// RemoveStale removes the work directories under dir (the system's temporary
// directory when dir is "") that runs killed before their Close left behind:
// those whose owner process no longer exists. Directories of live processes, of
// other users, and without an owner in their name are left alone. It returns how
// many it removed.
func RemoveStale(dir string) (int, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("sandbox: stale work directories: %w", err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, workPrefix) {
			continue
		}
		pidText, _, ok := strings.Cut(strings.TrimPrefix(name, workPrefix), "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || alive(pid) {
			continue
		}
		path := filepath.Join(dir, name)
		var st syscall.Stat_t
		if syscall.Lstat(path, &st) != nil || int(st.Uid) != os.Getuid() {
			continue
		}
		if err := os.RemoveAll(path); err != nil {
			return n, fmt.Errorf("sandbox: remove stale %s: %w", path, err)
		}
		n++
	}
	return n, nil
}

// alive reports whether a process with the id exists (it may belong to another
// user: then it is alive too).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
