package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"sccg/provenance"
)

// rejectFixture is one `sccg build` over inputs of which some are rejected at
// every stage that can reject them, shared by the tests that read its store.
var rejectFixture struct {
	once           sync.Once
	dir, db, docs  string
	repos          string
	stdout, stderr string
	code           int
}

// noHostDocs are description files that declare no server: crawl rejects each.
var noHostDocs = []string{"nohost-a.json", "nohost-b.json", "nohost-c.json", "nohost-d.json"}

// writeRejectInputs writes descriptions (two good, four without a host, one
// without operations) and three repositories: dana/wx holds the sample, a
// module-level request and a call to an undocumented host; erin/fun an exact
// copy of the sample's function; dana/notes nothing that calls an API.
func writeRejectInputs(t testing.TB, root string) (docs, repos string) {
	docs, repos = filepath.Join(root, "docs"), filepath.Join(root, "repos")
	good := func(title, host, route string) string {
		return `{"openapi": "3.0.3", "info": {"title": "` + title + `", "version": "1"}, "servers": [{"url": "https://` + host + `"}],
  "paths": {"` + route + `": {"get": {"operationId": "op", "summary": "` + title + `", "responses": {"200": {"description": "ok"}}}}}}`
	}
	noHost := `{"openapi": "3.0.3", "info": {"title": "Nowhere", "version": "1"},
  "paths": {"/x": {"get": {"operationId": "x", "responses": {"200": {"description": "ok"}}}}}}`
	joke := "def random_joke(key):\n    \"\"\"Tell me a joke.\"\"\"\n" +
		"    r = requests.get(\"https://jokes-now.p.rapidapi.com/random\", headers={\"x-rapidapi-key\": key})\n    return r.json()\n"
	files := map[string]string{
		filepath.Join(docs, "jokes.json"):      good("Jokes", "jokes-now.p.rapidapi.com", "/random"),
		filepath.Join(docs, "quotes.json"):     good("Quotes", "quotes-now.p.rapidapi.com", "/today"),
		filepath.Join(docs, "empty.json"):      `{"openapi": "3.0.3", "info": {"title": "Empty", "version": "1"}, "servers": [{"url": "https://empty-now.p.rapidapi.com"}], "paths": {}}`,
		filepath.Join(repos, "wx", "jokes.py"): "import requests\n\n\n" + joke,
		filepath.Join(repos, "wx", "script.py"): "import requests\n\n" +
			"r = requests.get(\"https://jokes-now.p.rapidapi.com/random\")\nprint(r.json())\n",
		filepath.Join(repos, "wx", "other.py"): "import requests\n\n# not jokes-now.p.rapidapi.com: the other service\n\n\n" +
			"def fetch_other(q):\n    \"\"\"Search the other service.\"\"\"\n    return requests.get(\"https://api.other.example/search\", params={\"q\": q}).json()\n",
		filepath.Join(repos, "fun", "jokes.py"):   "import requests\n\n\n" + joke,
		filepath.Join(repos, "notes", "notes.py"): "def add(a, b):\n    return a + b\n",
	}
	for _, d := range noHostDocs {
		files[filepath.Join(docs, d)] = noHost
	}
	for path, body := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for dir, remote := range map[string]string{"wx": "dana/wx", "fun": "erin/fun", "notes": "dana/notes"} {
		repo := filepath.Join(repos, dir)
		for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"remote", "add", "origin", "https://github.com/" + remote + ".git"}, {"add", "."}, {"commit", "-q", "-m", "add"}} {
			cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
			cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2025-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2025-01-01T00:00:00Z", "GIT_CONFIG_GLOBAL=/dev/null")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
	}
	return docs, repos
}

// rejectBuild builds the fixture once (text output) and returns its store.
func rejectBuild(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end build skipped in -short mode")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	f := &rejectFixture
	f.once.Do(func() {
		dir, err := os.MkdirTemp("", "sccg-reject-")
		if err != nil {
			t.Fatal(err)
		}
		f.dir = dir
		f.docs, f.repos = writeRejectInputs(t, dir)
		e, out, errb := newTestEnv(t)
		f.db = filepath.Join(dir, "sccg.db")
		e.db = f.db
		f.code = run(context.Background(), []string{"build", "--docs", f.docs, "--local", f.repos, "--out", filepath.Join(dir, "out"), "--seed", "1"}, e)
		f.stdout, f.stderr = out.String(), errb.String()
	})
	if f.code != 0 {
		t.Fatalf("build exit %d:\n%s", f.code, f.stderr)
	}
	return f.db
}

// TestBuildNamesRejectionsFirst: a build whose inputs are partly rejected names,
// under each stage's line on stderr, what the stage rejected, by reason, with up
// to three examples that name the file or function.
func TestBuildNamesRejectionsFirst(t *testing.T) {
	rejectBuild(t)
	stderr := rejectFixture.stderr
	tests := []struct {
		name     string
		group    string   // the group's line
		examples []string // lines under it
		before   string   // the next stage's line, which the group comes before
	}{
		{"descriptions without a host", "crawl rejected 4 files: no_host", []string{"nohost-a.json: nohost-a.json says nowhere which host", "nohost-b.json", "nohost-c.json", "… and 1 more"}, "[2/9] mine"},
		{"a description without operations", "crawl rejected 1 file: no_endpoints", []string{"empty.json"}, "[2/9] mine"},
		{"a repository with no candidate file", "mine rejected 1 repository: no candidate file", []string{"dana/notes: no source file names"}, "[3/9] extract"},
		{"a module-level request", "extract rejected 1 function: top-level script request", []string{"dana/wx:script.py:<module>"}, "[4/9] align"},
		{"a call to an undocumented host", "align rejected 1 function: no call aligned", []string{"dana/wx:other.py:fetch_other: unknown host api.other.example"}, "[5/9] decontam"},
		{"an exact copy", "decontam rejected 1 function: exact_duplicate", []string{":jokes.py:random_joke"}, "[6/9] redact"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i := strings.Index(stderr, tc.group)
			if i < 0 {
				t.Fatalf("stderr lacks %q:\n%s", tc.group, stderr)
			}
			if j := strings.Index(stderr, tc.before); j < i {
				t.Errorf("%q comes at %d, not before %q at %d:\n%s", tc.group, i, tc.before, j, stderr)
			}
			rest := stderr[i:]
			if k := strings.Index(rest, tc.before); k > 0 {
				rest = rest[:k]
			}
			for _, ex := range tc.examples {
				if !strings.Contains(rest, ex) {
					t.Errorf("group %q lacks %q:\n%s", tc.group, ex, rest)
				}
			}
		})
	}
	if strings.Contains(stderr, "nohost-d.json") {
		t.Errorf("the text shows more than three examples of a reason:\n%s", stderr)
	}
	if first := strings.SplitN(stderr, "\n", 6); !strings.Contains(strings.Join(first[:len(first)-1], "\n"), "crawl rejected") {
		t.Errorf("the crawl's rejections are not on the build's first lines:\n%s", stderr)
	}
}

// TestRejectionsJSON: --json carries every rejected subject of the command's
// runs, for a stage command run alone, for a build, and for a stage run again
// (its decisions made again are its own).
func TestRejectionsJSON(t *testing.T) {
	db := rejectBuild(t)
	type group struct {
		Stage, Verdict, Reason string
		SubjectKind            string `json:"subject_kind"`
		Count                  int
		Subjects               []struct{ Subject, Name, Detail string }
	}
	tests := []struct {
		name     string
		args     func(t *testing.T) []string
		group    string // stage/verdict/reason
		count    int
		subjects []string // names that must all be there
	}{
		{"crawl of every description", func(t *testing.T) []string {
			return []string{"crawl", "--db", filepath.Join(t.TempDir(), "c.db"), "--source", "openapi", rejectFixture.docs}
		}, "crawl/rejected/no_host", 4, noHostDocs},
		{"a whole build", func(t *testing.T) []string {
			return []string{"build", "--db", filepath.Join(t.TempDir(), "b.db"), "--docs", rejectFixture.docs, "--local", rejectFixture.repos}
		}, "align/rejected/no call aligned", 1, []string{"dana/wx:other.py:fetch_other"}},
		{"decontam again", func(t *testing.T) []string {
			return []string{"decontam", "--db", copyDB(t, db)}
		}, "decontam/rejected/exact_duplicate", 1, []string{"jokes.py:random_joke"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, out, errb := newTestEnv(t)
			if code := run(context.Background(), append([]string{"--json"}, tc.args(t)...), e); code != 0 {
				t.Fatalf("exit %d: %s", code, errb)
			}
			if errb.Len() != 0 {
				t.Errorf("--json wrote to stderr: %s", errb)
			}
			var got struct {
				Rejections struct {
					Total  int
					Groups []group
				}
			}
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var g *group
			for i := range got.Rejections.Groups {
				x := &got.Rejections.Groups[i]
				if x.Stage+"/"+x.Verdict+"/"+x.Reason == tc.group {
					g = x
				}
			}
			if g == nil {
				t.Fatalf("no group %s in %+v", tc.group, got.Rejections)
			}
			if g.Count != tc.count || len(g.Subjects) != tc.count {
				t.Errorf("group %s: count %d with %d subjects, want %d", tc.group, g.Count, len(g.Subjects), tc.count)
			}
			for _, want := range tc.subjects {
				found := false
				for _, s := range g.Subjects {
					found = found || strings.Contains(s.Name, want)
				}
				if !found {
					t.Errorf("group %s lacks %s: %+v", tc.group, want, g.Subjects)
				}
			}
		})
	}
}

func copyDB(t *testing.T, db string) string {
	t.Helper()
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestWhy explains subjects of the fixture end to end: each answer names the
// decisions on the way and ends in one line that says whether the subject is in
// the benchmark and, if not, which decision kept it out.
func TestWhy(t *testing.T) {
	db := rejectBuild(t)
	nohost := filepath.Join(rejectFixture.docs, "nohost-a.json")
	tests := []struct {
		name    string
		subject string
		code    int
		stdout  []string // in this order
		last    string   // the last line of stdout, or of stderr on failure
	}{
		{"a dropped description file", nohost, 0,
			[]string{"description file nohost-a.json", "crawl     rejected  no_host: nohost-a.json says nowhere which host"},
			"is not in the benchmark: no API imported from it: crawl rejected it (no_host"},
		{"a dropped file", "dana/wx/other.py", 0,
			[]string{"repository dana/wx", "file dana/wx/other.py", "mine      kept", "extract   kept", "function dana/wx:other.py:fetch_other", "align     rejected  no call aligned: unknown host api.other.example"},
			"file dana/wx/other.py is not in the benchmark: none of its 1 function became a sample: fetch_other: kept out: align rejected it (no call aligned: unknown host api.other.example)"},
		{"a dropped function", "dana/wx:script.py:<module>", 0,
			[]string{"repository dana/wx", "file dana/wx/script.py", "function dana/wx:script.py:<module>", "extract   rejected  top-level script request"},
			"is not in the benchmark: kept out: extract rejected it (top-level script request"},
		{"a kept sample", "SCG-000001", 0,
			[]string{"repository ", "file ", "mine      kept", "function ", "extract   kept", "align     kept      aligned: url", "decontam  kept", "sample SCG-000001", "split "},
			"sample SCG-000001 is in the benchmark: sample SCG-000001, in the "},
		{"an API with a sample, by host", "jokes-now.p.rapidapi.com", 0,
			[]string{"description file ", "api ", "1 endpoint documented", "GET jokes-now.p.rapidapi.com /random", "function "},
			"is in the benchmark: 1 sample: SCG-000001"},
		{"an API nothing calls", "quotes-now.p.rapidapi.com", 0,
			[]string{"api "},
			"is not in the benchmark: no mined file calls it"},
		{"a repository mine rejected", "https://github.com/dana/notes", 0,
			[]string{"repository https://github.com/dana/notes", "mine      rejected  no candidate file"},
			"is not in the benchmark: kept out: mine rejected it (no candidate file"},
		{"a name two files share", "jokes.py", 1, nil, `"jokes.py" names 2 things in the store`},
		{"an unknown name", "no-such-thing", 1, nil, `nothing in `},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, out, errb := newTestEnv(t)
			e.db = db
			if code := run(context.Background(), []string{"why", tc.subject}, e); code != tc.code {
				t.Fatalf("exit %d, want %d: %s%s", code, tc.code, out, errb)
			}
			text := out.String()
			if tc.code != 0 {
				text = errb.String()
			}
			at := 0
			for _, want := range tc.stdout {
				i := strings.Index(text[at:], want)
				if i < 0 {
					t.Fatalf("output lacks %q after byte %d:\n%s", want, at, text)
				}
				at += i + len(want)
			}
			lines := strings.Split(strings.TrimSpace(text), "\n")
			if last := lines[len(lines)-1]; !strings.Contains(last, tc.last) {
				t.Errorf("last line %q, want it to contain %q\n%s", last, tc.last, text)
			}
		})
	}
	t.Run("candidates of an ambiguous name", func(t *testing.T) {
		e, _, errb := newTestEnv(t)
		e.db = db
		run(context.Background(), []string{"why", "jokes.py"}, e)
		for _, want := range []string{"file dana/wx/jokes.py", "file erin/fun/jokes.py"} {
			if !strings.Contains(errb.String(), want) {
				t.Errorf("stderr lacks candidate %q:\n%s", want, errb)
			}
		}
		// each candidate's subject names it alone
		for _, line := range strings.Split(errb.String(), "\n") {
			if f := strings.Fields(line); len(f) > 1 && strings.HasPrefix(f[0], "file:") {
				e, out, errb := newTestEnv(t)
				e.db = db
				if code := run(context.Background(), []string{"why", f[0]}, e); code != 0 || !strings.Contains(out.String(), "jokes.py") {
					t.Errorf("why %s: exit %d\n%s%s", f[0], code, out, errb)
				}
			}
		}
	})
	t.Run("json", func(t *testing.T) {
		e, out, errb := newTestEnv(t)
		e.db = db
		if code := run(context.Background(), []string{"why", "--json", "dana/wx/other.py"}, e); code != 0 {
			t.Fatalf("exit %d: %s", code, errb)
		}
		var got provenance.Report
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.InBenchmark || got.KeptOutBy == nil || got.KeptOutBy.Stage != "align" || len(got.Subject.Parts) != 1 || len(got.Upstream) != 1 {
			t.Errorf("why --json = %+v", got)
		}
	})
}

// TestStatsDecisions: stats breaks the store's decisions down by stage, verdict
// and reason, in text and JSON.
func TestStatsDecisions(t *testing.T) {
	db := rejectBuild(t)
	tests := []struct {
		stage, verdict, reason string
		count                  int64
	}{
		{"crawl", "rejected", "no_host", 4},
		{"crawl", "rejected", "no_endpoints", 1},
		{"mine", "rejected", "no candidate file", 1},
		{"align", "rejected", "no call aligned", 1},
		{"decontam", "rejected", "exact_duplicate", 1},
	}
	e, out, errb := newTestEnv(t)
	e.db = db
	if code := run(context.Background(), []string{"stats"}, e); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	text := out.String()
	e, out, errb = newTestEnv(t)
	e.db = db
	if code := run(context.Background(), []string{"stats", "--json"}, e); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var got struct {
		Decisions []struct {
			Stage, Verdict, Reason string
			Count                  int64
		}
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.stage+" "+tc.reason, func(t *testing.T) {
			var n int64 = -1
			for _, d := range got.Decisions {
				if d.Stage == tc.stage && d.Verdict == tc.verdict && d.Reason == tc.reason {
					n = d.Count
				}
			}
			if n != tc.count {
				t.Errorf("json count of %s %s %s = %d, want %d", tc.stage, tc.verdict, tc.reason, n, tc.count)
			}
			found := false
			for _, line := range strings.Split(text, "\n") {
				f := strings.Fields(line)
				found = found || (len(f) >= 4 && f[0] == tc.stage && f[1] == tc.verdict && f[2] == strconv.FormatInt(tc.count, 10) &&
					strings.Join(f[3:], " ") == tc.reason)
			}
			if !found {
				t.Errorf("text lacks the row %s %s %d %s:\n%s", tc.stage, tc.verdict, tc.count, tc.reason, text)
			}
		})
	}
}

// TestStageCommandsNameRejections: a stage command run alone names what its run
// rejected on stderr, with up to three examples per reason.
func TestStageCommandsNameRejections(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	docs, _ := writeRejectInputs(t, t.TempDir())
	tests := []struct {
		name   string
		setup  [][]string
		args   []string
		stderr []string
		not    []string
	}{
		{name: "crawl", args: []string{"crawl", "--source", "openapi", docs},
			stderr: []string{"crawl rejected 4 files: no_host\n", "nohost-a.json: nohost-a.json says nowhere which host", "… and 1 more", "crawl rejected 1 file: no_endpoints\n"},
			not:    []string{"nohost-d.json"}},
		{name: "export of a sample in no split", setup: [][]string{{"import", filepath.Join("..", "..", "samples", "testdata", "mini.json")}},
			args:   []string{"export", "--out", t.TempDir()},
			stderr: []string{"export rejected 1 sample: in no split\n", "SCG-000008: written to the whole benchmark's file, to no split file"},
			not:    []string{"SCG-000007"}},
		{name: "a stage that rejects nothing", setup: [][]string{{"import", "--split", "test", filepath.Join("..", "..", "samples", "testdata", "mini.json")}},
			args: []string{"export", "--out", t.TempDir()},
			not:  []string{"rejected"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, _, errb := newTestEnv(t)
			for _, args := range tc.setup {
				importTestRun(t, e, 0, args...)
			}
			errb.Reset()
			importTestRun(t, e, 0, tc.args...)
			for _, want := range tc.stderr {
				if !strings.Contains(errb.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, errb)
				}
			}
			for _, bad := range tc.not {
				if strings.Contains(errb.String(), bad) {
					t.Errorf("stderr has %q:\n%s", bad, errb)
				}
			}
		})
	}
}
