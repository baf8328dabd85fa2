package blame_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sccg/internal/blame"
	"sccg/internal/gittest"
)

func unix(s string) int64 {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.Unix()
}

// lcs is the length of a longest common subsequence, by dynamic programming.
func lcs(a, b []int) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

func TestMatchIsALongestCommonSubsequence(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 3000; round++ {
		a := make([]int, rng.IntN(30))
		b := make([]int, rng.IntN(30))
		alphabet := 1 + rng.IntN(6)
		for i := range a {
			a[i] = rng.IntN(alphabet)
		}
		for i := range b {
			b[i] = rng.IntN(alphabet)
		}
		m := blame.Match(a, b)
		n, last := 0, -1
		for j, i := range m {
			if i < 0 {
				continue
			}
			if i <= last || a[i] != b[j] {
				t.Fatalf("a=%v b=%v: match %v is not a common subsequence", a, b, m)
			}
			last = i
			n++
		}
		if want := lcs(a, b); n != want {
			t.Fatalf("a=%v b=%v: match pairs %d lines, a longest common subsequence has %d", a, b, n, want)
		}
	}
}

func TestFromHistory(t *testing.T) {
	v1, v2, v3 := unix("2019-05-01T10:00:00Z"), unix("2021-07-02T11:00:00Z"), unix("2024-09-03T12:00:00Z")
	versions := []blame.Version{
		{Time: v3, Content: []byte("import x\n\ndef f():\n    return 2\n\ndef g():\n    pass\n")},
		{Time: v2, Content: []byte("import x\n\ndef f():\n    return 1\n")},
		{Time: v1, Content: []byte("import x\n\ndef f():\n    return 1\n")},
	}
	tests := []struct {
		name        string
		complete    bool
		first, last int
		want        blame.Dates
	}{
		{"function changed in v3", true, 3, 4, blame.Dates{AuthoredAt: blame.Format(v1), ModifiedAt: blame.Format(v3), Method: blame.MethodHistory}},
		{"function added in v3", true, 6, 7, blame.Dates{AuthoredAt: blame.Format(v3), ModifiedAt: blame.Format(v3), Method: blame.MethodHistory}},
		{"history cut: the oldest lines are undated", false, 3, 4, blame.Dates{Method: blame.MethodHistory, Unknown: blame.ReasonHistoryCut}},
		{"history cut: newer lines are still dated", false, 6, 7, blame.Dates{AuthoredAt: blame.Format(v3), ModifiedAt: blame.Format(v3), Method: blame.MethodHistory}},
		{"beyond the file", true, 6, 9, blame.Dates{Method: blame.MethodHistory, Unknown: blame.ReasonOutOfRange}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := blame.FromHistory(versions, tt.complete).Span(tt.first, tt.last)
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestEncodeDecode(t *testing.T) {
	l := blame.FromTimes(blame.MethodGit, []int64{5, 5, 0, 7}, blame.ReasonShallow)
	back, err := blame.Decode(l.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if back.Encode() != `{"method":"git_blame","runs":[[1,2,5],[3,3,0],[4,4,7]],"undated":"`+blame.ReasonShallow+`"}` {
		t.Errorf("round trip: %s", back.Encode())
	}
	old, err := blame.Decode("")
	if err != nil || old.Span(1, 1).Unknown != blame.ReasonNotDated {
		t.Errorf("a file mined before dating: %+v, %v", old, err)
	}
}

// TestGitBlame dates a made-up history and checks every line against the date of
// the commit that wrote it, a rename included; a shallow clone leaves the lines
// from before its history undated.
func TestGitBlame(t *testing.T) {
	gittest.Need(t)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "repo")
	gittest.Init(t, dir, "")
	gittest.Commit(t, dir, "2019-01-02T03:04:05Z", map[string]string{"a.py": "import requests\n\ndef f():\n    return 1\n"})
	gittest.Commit(t, dir, "2021-06-07T08:09:10+02:00", map[string]string{"a.py": "import requests\n\ndef f():\n    return 2\n\ndef g():\n    pass\n"})
	gittest.Git(t, dir, "2022-01-01T00:00:00Z", "mv", "a.py", "b.py")
	head := gittest.Commit(t, dir, "2022-01-01T00:00:00Z", nil)
	r, err := blame.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := r.File(ctx, head, "b.py")
	if err != nil {
		t.Fatal(err)
	}
	old, mid := unix("2019-01-02T03:04:05Z"), unix("2021-06-07T08:09:10+02:00")
	if want := blame.FromTimes(blame.MethodGit, []int64{old, old, old, mid, mid, mid, mid}, ""); l.Encode() != want.Encode() {
		t.Errorf("got %s, want %s", l.Encode(), want.Encode())
	}
	if got := l.Span(3, 4); got.AuthoredAt != "2019-01-02T03:04:05Z" || got.ModifiedAt != "2021-06-07T06:09:10Z" {
		t.Errorf("f: %+v", got)
	}

	clone := filepath.Join(t.TempDir(), "shallow")
	gittest.Git(t, ".", "", "clone", "-q", "--depth", "1", "file://"+dir, clone)
	sr, err := blame.Open(ctx, clone)
	if err != nil {
		t.Fatal(err)
	}
	sl, err := sr.File(ctx, head, "b.py")
	if err != nil {
		t.Fatal(err)
	}
	if got := sl.Span(3, 4); got.Unknown != blame.ReasonShallow {
		t.Errorf("shallow clone: %+v", got)
	}
	if _, err := r.File(ctx, head, "missing.py"); err == nil || !strings.Contains(err.Error(), "missing.py") {
		t.Errorf("a missing file: %v", err)
	}
}
