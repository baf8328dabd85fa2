package blame

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Repo dates the files of one local git clone with `git blame`.
type Repo struct {
	dir string
	// shallow are the commits a shallow clone's history stops at: a line blamed on
	// one of them may be older, so it is not dated.
	shallow map[string]bool
}

// Open prepares the clone at dir for dating.
func Open(ctx context.Context, dir string) (*Repo, error) {
	r := &Repo{dir: dir, shallow: map[string]bool{}}
	out, err := r.git(ctx, "rev-parse", "--is-shallow-repository")
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(string(out)) != "true" {
		return r, nil
	}
	p, err := r.git(ctx, "rev-parse", "--git-path", "shallow")
	if err != nil {
		return nil, err
	}
	file := strings.TrimSpace(string(p))
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("git shallow list: %w", err)
	}
	for _, c := range strings.Fields(string(b)) {
		r.shallow[c] = true
	}
	return r, nil
}

func (r *Repo) git(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", r.dir}, args...)...)
	cmd.Env = append(os.Environ(), "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// File dates every line of path as it is at commit: each line's author date is
// that of the commit `git blame` names for it.
func (r *Repo) File(ctx context.Context, commit, path string) (*Lines, error) {
	out, err := r.git(ctx, "blame", "--porcelain", commit, "--", path)
	if err != nil {
		return nil, fmt.Errorf("blame %s at %s: %w", path, commit, err)
	}
	lineOf, times, err := parsePorcelain(out)
	if err != nil {
		return nil, fmt.Errorf("blame %s at %s: %w", path, commit, err)
	}
	ts := make([]int64, len(lineOf))
	for i, sha := range lineOf {
		if sha == "" {
			return nil, fmt.Errorf("blame %s at %s: line %d not blamed", path, commit, i+1)
		}
		if !r.shallow[sha] {
			ts[i] = times[sha]
		}
	}
	return FromTimes(MethodGit, ts, ReasonShallow), nil
}

// parsePorcelain reads `git blame --porcelain`: the commit of each final line
// (index 0 is line 1) and each commit's author time.
func parsePorcelain(out []byte) ([]string, map[string]int64, error) {
	var lineOf []string
	times := map[string]int64{}
	cur := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "\t") {
			continue // the line's content
		}
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if len(f) >= 3 && isCommitID(f[0]) {
			n, err := strconv.Atoi(f[2])
			if err != nil || n < 1 {
				return nil, nil, fmt.Errorf("porcelain header %q", l)
			}
			cur = f[0]
			for len(lineOf) < n {
				lineOf = append(lineOf, "")
			}
			lineOf[n-1] = cur
			continue
		}
		if f[0] == "author-time" && len(f) == 2 && cur != "" {
			t, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("porcelain %q", l)
			}
			times[cur] = t
		}
	}
	return lineOf, times, sc.Err()
}

// isCommitID reports whether s is a SHA-1 or SHA-256 object name.
func isCommitID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
