// Package gittest builds git repositories with a made-up history for tests: a
// fixed identity, fixed author and committer dates, and none of the user's or the
// system's configuration.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Need skips the test when git is not on PATH.
func Need(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
}

// Git runs git in dir with date as the author and committer date ("" leaves
// them to git) and returns its trimmed output; a failure fails the test.
func Git(t testing.TB, dir, date string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com")
	if date != "" {
		cmd.Env = append(cmd.Env, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Init makes dir a new repository; a non-empty remote becomes its origin.
func Init(t testing.TB, dir, remote string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	Git(t, dir, "", "init", "-q")
	if remote != "" {
		Git(t, dir, "", "remote", "add", "origin", remote)
	}
}

// Commit writes files (path → content; "" deletes the file) into the repository
// at dir and commits everything on date; it returns the new commit.
func Commit(t testing.TB, dir, date string, files map[string]string) string {
	t.Helper()
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if files[p] == "" {
			if err := os.Remove(full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(files[p]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	Git(t, dir, date, "add", "-A")
	Git(t, dir, date, "commit", "-q", "--allow-empty", "-m", "commit of "+date)
	return Git(t, dir, "", "rev-parse", "HEAD")
}
