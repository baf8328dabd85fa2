package mine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"sccg/internal/blame"
	"sccg/internal/gittest"
	"sccg/internal/replay"
	"sccg/mine"
	"sccg/store"
)

// historyFixture is one made-up history of a file: created, edited, moved, then
// given a second function at HEAD.
var historyFixture = []struct {
	date   string
	files  map[string]string
	rename [2]string
}{
	{date: "2019-03-01T10:00:00Z", files: map[string]string{"weather.py": "import requests\n\nHOST = \"weather-now.p.rapidapi.com\"\n\n\ndef current(city):\n    return requests.get(\"https://\" + HOST + \"/current\", params={\"q\": city}).json()\n"}},
	{date: "2021-07-04T12:30:00Z", files: map[string]string{"weather.py": "import requests\n\nHOST = \"weather-now.p.rapidapi.com\"\n\n\ndef current(city):\n    r = requests.get(\"https://\" + HOST + \"/current\", params={\"q\": city})\n    return r.json()\n"}},
	{date: "2022-02-02T02:02:02Z", rename: [2]string{"weather.py", "app/weather.py"}},
	{date: "2023-05-06T07:08:09Z", files: map[string]string{"app/weather.py": "import requests\n\nHOST = \"weather-now.p.rapidapi.com\"\n\n\ndef current(city):\n    r = requests.get(\"https://\" + HOST + \"/current\", params={\"q\": city})\n    return r.json()\n\n\ndef aqi():\n    return requests.get(\"https://\" + HOST + \"/v1/aqi\").json()\n"}},
}

// historyCorpus is the fixture as the GitHub replay server reads it: the commits
// before HEAD in history.json, HEAD's files under files/ dated by pushed_at.
func historyCorpus(t *testing.T) fstest.MapFS {
	t.Helper()
	type entry struct {
		Date    string             `json:"date"`
		Files   map[string]*string `json:"files,omitempty"`
		Renames map[string]string  `json:"renames,omitempty"`
	}
	var commits []entry
	last := historyFixture[len(historyFixture)-1]
	for _, c := range historyFixture[:len(historyFixture)-1] {
		e := entry{Date: c.date, Files: map[string]*string{}}
		for p, s := range c.files {
			e.Files[p] = &s
		}
		if c.rename[0] != "" {
			e.Renames = map[string]string{c.rename[0]: c.rename[1]}
		}
		commits = append(commits, e)
	}
	hist, _ := json.Marshal(map[string]any{"commits": commits})
	meta, _ := json.Marshal(map[string]any{"default_branch": "main", "created_at": "2019-03-01T10:00:00Z",
		"updated_at": last.date, "pushed_at": last.date, "language": "Python"})
	return fstest.MapFS{
		"repos/eve/forecasts/repo.json":               {Data: meta},
		"repos/eve/forecasts/history.json":            {Data: hist},
		"repos/eve/forecasts/files/app/weather.py":    {Data: []byte(last.files["app/weather.py"])},
		"repos/eve/forecasts/files/README.md":         {Data: []byte("# forecasts\n")},
		"repos/eve/forecasts/files/app/__init__.py":   {Data: []byte("")},
		"repos/eve/forecasts/files/tests/test_app.py": {Data: []byte("def test():\n    pass\n")},
	}
}

// TestMineDatesLinesFromHistory mines the fixture through code search and checks
// that the dates read from the file's history on the code host (its commits and
// the file at each, a rename followed) are those git blame gives for the same
// history in a clone; with fewer versions read, the oldest lines are undated.
func TestMineDatesLinesFromHistory(t *testing.T) {
	gittest.Need(t)
	ctx := context.Background()

	// The same history in a git clone: what git blame says.
	dir := filepath.Join(t.TempDir(), "forecasts")
	gittest.Init(t, dir, "")
	var head string
	for _, c := range historyFixture {
		if c.rename[0] != "" {
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(c.rename[1])), 0o755); err != nil {
				t.Fatal(err)
			}
			gittest.Git(t, dir, c.date, "mv", c.rename[0], c.rename[1])
		}
		head = gittest.Commit(t, dir, c.date, c.files)
	}
	repo, err := blame.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := repo.File(ctx, head, "app/weather.py")
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name       string
		maxHistory int
		current    blame.Dates // lines 6-8
		aqi        blame.Dates // lines 11-12
	}{
		{"whole history", 0,
			blame.Dates{AuthoredAt: "2019-03-01T10:00:00Z", ModifiedAt: "2021-07-04T12:30:00Z", Method: blame.MethodHistory},
			blame.Dates{AuthoredAt: "2023-05-06T07:08:09Z", ModifiedAt: "2023-05-06T07:08:09Z", Method: blame.MethodHistory}},
		{"two versions read", 2,
			blame.Dates{Method: blame.MethodHistory, Unknown: blame.ReasonHistoryCut},
			blame.Dates{AuthoredAt: "2023-05-06T07:08:09Z", ModifiedAt: "2023-05-06T07:08:09Z", Method: blame.MethodHistory}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock()
			st := mineTestStore(t, clock)
			h, err := replay.GitHub(historyCorpus(t), replay.GitHubOptions{Now: clock.Now, SearchPerMinute: -1, CorePerHour: -1})
			if err != nil {
				t.Fatal(err)
			}
			srv := replay.Start(h)
			defer srv.Close()
			opts := mineTestOptions(srv, clock)
			opts.MaxHistory = tt.maxHistory
			stats, err := mine.Mine(ctx, st, opts)
			if err != nil {
				t.Fatal(err)
			}
			files, err := st.Files(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var f *store.File
			for i := range files {
				if files[i].Path == "app/weather.py" {
					f = &files[i]
				}
			}
			if f == nil {
				t.Fatalf("app/weather.py not mined (%+v)", stats)
			}
			l, err := blame.Decode(f.LineDates)
			if err != nil {
				t.Fatal(err)
			}
			if got := l.Span(6, 8); got != tt.current {
				t.Errorf("current: got %+v, want %+v", got, tt.current)
			}
			if got := l.Span(11, 12); got != tt.aqi {
				t.Errorf("aqi: got %+v, want %+v", got, tt.aqi)
			}
			if tt.maxHistory == 0 {
				if got := want.Span(1, 12); l.Span(1, 12).AuthoredAt != got.AuthoredAt || l.Span(1, 12).ModifiedAt != got.ModifiedAt {
					t.Errorf("history %+v, git blame %+v", l.Span(1, 12), got)
				}
				for n := 1; n <= 12; n++ {
					if a, b := l.Span(n, n), want.Span(n, n); a.AuthoredAt != b.AuthoredAt {
						t.Errorf("line %d: history %s, git blame %s", n, a.AuthoredAt, b.AuthoredAt)
					}
				}
				if stats.LineDates.Dated != 1 || stats.HistoryRequests == 0 {
					t.Errorf("dated %d files with %d history requests", stats.LineDates.Dated, stats.HistoryRequests)
				}
				// stored before sccg dated lines: found again, it is dated as if new
				if err := st.Update(ctx, func(tx *store.Tx) error { return tx.SetLineDates(ctx, f.ID, "") }); err != nil {
					t.Fatal(err)
				}
				again, err := mine.Mine(ctx, st, opts)
				if err != nil {
					t.Fatal(err)
				}
				back, err := st.File(ctx, f.ID)
				if err != nil {
					t.Fatal(err)
				}
				if again.Backdated != 1 || back.LineDates != f.LineDates {
					t.Errorf("second run backdated %d: %s, want %s", again.Backdated, back.LineDates, f.LineDates)
				}
			} else if stats.LineDates.Undated[blame.ReasonHistoryCut] != 1 {
				t.Errorf("undated: %v", stats.LineDates.Undated)
			}
		})
	}
}

// TestMineLocalDatesLines dates a clone's mined files with git blame at the mined
// commit (an uncommitted edit is not what the commit holds), and leaves a plain
// folder's files undated with the reason.
func TestMineLocalDatesLines(t *testing.T) {
	gittest.Need(t)
	ctx := context.Background()
	root := t.TempDir()
	clone := filepath.Join(root, "forecasts")
	gittest.Init(t, clone, "git@github.com:eve/forecasts.git")
	for _, c := range historyFixture {
		if c.rename[0] != "" {
			if err := os.MkdirAll(filepath.Join(clone, filepath.Dir(c.rename[1])), 0o755); err != nil {
				t.Fatal(err)
			}
			gittest.Git(t, clone, c.date, "mv", c.rename[0], c.rename[1])
		}
		gittest.Commit(t, clone, c.date, c.files)
	}
	if err := os.WriteFile(filepath.Join(clone, "app/weather.py"), []byte("# edited, not committed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(root, "scratch")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(plain, "aqi.py"), []byte(historyFixture[0].files["weather.py"]), 0o644); err != nil {
		t.Fatal(err)
	}

	st := mineTestStore(t, newFakeClock())
	stats, err := mine.MineLocal(ctx, st, root, mine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if stats.LineDates.Dated != 1 || stats.LineDates.Undated[blame.ReasonNotGit] != 1 {
		t.Errorf("dated %d, undated %v; want 1 and 1 %q", stats.LineDates.Dated, stats.LineDates.Undated, blame.ReasonNotGit)
	}
	files, err := st.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]blame.Dates{
		"app/weather.py": {AuthoredAt: "2019-03-01T10:00:00Z", ModifiedAt: "2021-07-04T12:30:00Z", Method: blame.MethodGit},
		"aqi.py":         {Unknown: blame.ReasonNotGit},
	}
	check := func(files []store.File) {
		t.Helper()
		for _, f := range files {
			l, err := blame.Decode(f.LineDates)
			if err != nil {
				t.Fatal(err)
			}
			if got := l.Span(6, 7); got != want[f.Path] {
				t.Errorf("%s: got %+v, want %+v", f.Path, got, want[f.Path])
			}
		}
	}
	check(files)

	// A store mined before sccg dated lines: the next run dates what it holds,
	// though the repositories are unchanged, as a fresh store would have them.
	if err := st.Update(ctx, func(tx *store.Tx) error {
		for _, f := range files {
			if err := tx.SetLineDates(ctx, f.ID, ""); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	again, err := mine.MineLocal(ctx, st, root, mine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if again.ReposUnchanged != 2 || again.Backdated != 2 || !strings.Contains(again.Redid(), "2 file(s) mined before line dating dated") {
		t.Errorf("second run: %d unchanged, %d backdated (%s)", again.ReposUnchanged, again.Backdated, again.Redid())
	}
	if files, err = st.Files(ctx); err != nil {
		t.Fatal(err)
	}
	check(files)
}
