package extract

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sccg/lang"
	"strings"
	"testing"
	"time"

	"sccg/internal/storetest"
	"sccg/lang/python"
	"sccg/store"
)

// extractStageFiles are the files every stage test stores, by path.
var extractStageFiles = map[string]string{
	"client.py": `import requests

HOST = "cats.p.rapidapi.com"

def breeds(limit=10):
    """List cat breeds."""
    r = requests.get(f"https://{HOST}/breeds", params={"limit": limit}, headers={"x-rapidapi-host": HOST})
    r.raise_for_status()
    return r.json()

def broken(:
    return requests.get("https://x.example.com/a")

requests.get("https://cats.p.rapidapi.com/ping")
`,
	"util.py":   "def add(a, b):\n    return a + b\n",
	"latin.py":  "# caf\xe9\nimport requests\n\ndef get():\n    return requests.get('https://caf.example.com/menu')\n",
	"blob.py":   "\x00\x01\x02binary",
	"panic.py":  "PANIC = 1\n",
	"hangs.py":  "HANG = 1\n",
	"big.py":    "import requests\n" + strings.Repeat("# padding\n", 120),
	"second.py": "import httpx\n\nasync def go():\n    async with httpx.AsyncClient() as c:\n        return await c.get('https://dogs.p.rapidapi.com/x')\n",
}

func extractStageStore(t *testing.T) *store.Store {
	t.Helper()
	ctx := context.Background()
	st := storetest.Open(t)
	err := st.Update(ctx, func(tx *store.Tx) error {
		repoID, err := tx.UpsertRepository(ctx, &store.Repository{FullName: "o/r", Source: "local", Stars: 120, Forks: 7})
		if err != nil {
			return err
		}
		for _, p := range []string{"big.py", "blob.py", "client.py", "hangs.py", "latin.py", "panic.py", "second.py", "util.py"} {
			c := extractStageFiles[p]
			if _, err := tx.SaveFile(ctx, &store.File{RepoID: repoID, Path: p, GitSHA: p, Size: int64(len(c))}, []byte(c)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// faultyExtract panics on PANIC files and blocks on HANG files until the per-file
// timeout, like a parser that never returns.
func faultyExtract(ctx context.Context, path string, content []byte, opts lang.ExtractOptions) (*lang.Result, error) {
	switch {
	case strings.Contains(string(content), "PANIC"):
		panic("boom")
	case strings.Contains(string(content), "HANG"):
		tctx, cancel := context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
		<-tctx.Done()
		return nil, lang.ErrTimeout
	}
	return extractWithFrontend(ctx, path, content, opts)
}

func TestRunRecordsEveryFileAndFunction(t *testing.T) {
	ctx := context.Background()
	st := extractStageStore(t)
	stats, err := Run(ctx, st, Options{Workers: 3, Timeout: 200 * time.Millisecond, MaxBytes: 1000, extract: faultyExtract})
	if err != nil {
		t.Fatal(err)
	}
	py := *stats.Syntax[lang.Python]
	want := Stats{Files: 8, Bytes: stats.Bytes, Candidates: 3, Rejected: 2, NoRequest: 1, Failed: 2, Binary: 1, Latin1: 1, TooLarge: 1,
		Syntax: map[lang.Name]*SyntaxStats{lang.Python: {Tool: py.Tool, Version: py.Version}}}
	if py.Version == "" {
		want.Syntax[lang.Python].Unchecked = 3 // no python3 on PATH: counted, never silent
	}
	if !reflect.DeepEqual(*stats, want) {
		t.Errorf("stats = %+v, want %+v", *stats, want)
	}
	files, _ := st.Files(ctx)
	byPath := map[string]store.File{}
	for _, f := range files {
		byPath[f.Path] = f
	}
	tests := []struct {
		name    string
		path    string
		verdict string
		reason  string
	}{
		{"functions found", "client.py", store.Kept, ReasonFunctions},
		{"no request", "util.py", store.Rejected, ReasonNoRequest},
		{"binary", "blob.py", store.Rejected, ReasonBinary},
		{"panic", "panic.py", store.Failed, ReasonPanic},
		{"timeout", "hangs.py", store.Failed, ReasonTimeout},
		{"latin-1", "latin.py", store.Changed, ReasonLatin1},
		{"too large", "big.py", store.Rejected, ReasonTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := st.Decisions(ctx, "file", itoa(byPath[tc.path].ID))
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				if d.Stage == Stage && d.Verdict == tc.verdict && d.Reason == tc.reason {
					return
				}
			}
			t.Errorf("%s: no %s %q decision among %+v", tc.path, tc.verdict, tc.reason, ds)
		})
	}
	fns, err := st.FunctionsOfFile(ctx, byPath["client.py"].ID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range fns {
		got[f.QualName] = f.Status + " " + f.RejectReason
		ds, _ := st.Decisions(ctx, "function", itoa(f.ID))
		if len(ds) != 1 {
			t.Errorf("function %s: %d decisions, want 1", f.QualName, len(ds))
		}
	}
	wantFns := map[string]string{
		"breeds":   "candidate ",
		"broken":   "rejected " + python.ReasonSyntax,
		"<module>": "rejected " + python.ReasonTopLevel,
	}
	for k, v := range wantFns {
		if got[k] != v {
			t.Errorf("function %s: got %q, want %q", k, got[k], v)
		}
	}
	if fns[0].Quality <= 0 || len(fns[0].QualityComponents) == 0 || len(fns[0].Facts) == 0 {
		t.Errorf("breeds lacks quality or facts: %+v", fns[0])
	}
}

func TestRunIsResumableAndIdempotent(t *testing.T) {
	ctx := context.Background()

	// One uninterrupted run.
	full := extractStageStore(t)
	if _, err := Run(ctx, full, Options{Workers: 2, Timeout: 200 * time.Millisecond, extract: faultyExtract}); err != nil {
		t.Fatal(err)
	}
	want := storetest.MustDump(t, full)

	// A run cancelled once its first file is saved, then resumed.
	st := extractStageStore(t)
	cctx, cancel := context.WithCancel(ctx)
	_, err := Run(cctx, st, Options{Workers: 1, Timeout: 200 * time.Millisecond, extract: faultyExtract,
		Progress: cancelAfterFirst{cancel}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: err = %v, want context.Canceled", err)
	}
	stats, err := Run(ctx, st, Options{Workers: 2, Timeout: 200 * time.Millisecond, extract: faultyExtract})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Skipped == 0 || stats.Files+stats.Skipped != 8 {
		t.Errorf("resumed run: %+v, want the done file skipped and the rest extracted", stats)
	}
	got := storetest.MustDump(t, st)
	if got != want {
		t.Errorf("resumed store differs from an uninterrupted run:\n%s\nwant\n%s", got, want)
	}

	// Running again changes nothing; --refresh re-extracts to the same store.
	for _, refresh := range []bool{false, true} {
		stats, err := Run(ctx, st, Options{Refresh: refresh, Timeout: 200 * time.Millisecond, extract: faultyExtract})
		if err != nil {
			t.Fatal(err)
		}
		if !refresh && stats.Files != 0 {
			t.Errorf("second run extracted %d files, want 0", stats.Files)
		}
		if again := storetest.MustDump(t, st); again != want {
			t.Errorf("refresh=%v changed the store:\n%s", refresh, again)
		}
	}
}

func itoa(id int64) string { return Unit(id)[len("file:"):] }

// cancelAfterFirst is a progress counter that cancels the run when a file is done.
type cancelAfterFirst struct{ cancel context.CancelFunc }

func (c cancelAfterFirst) SetTotal(int64) {}
func (c cancelAfterFirst) Add(int64)      { c.cancel() }
func (c cancelAfterFirst) Done()          {}

// TestJudgeSyntax: a function tree-sitter parses but the evaluator's Python cannot
// compile (a PEP 701 f-string before 3.12) is rejected with the version and the
// error; without an interpreter every candidate is counted unchecked.
func TestJudgeSyntax(t *testing.T) {
	ctx := context.Background()
	src := "import requests\n\ndef show(names):\n    r = requests.get('https://a.example.com/x')\n    return f\"{'\\n'.join(names)}: {r.status_code}\"\n"
	fn := func() lang.Function {
		res, err := python.Extract(ctx, []byte(src), python.Options{})
		if err != nil || len(res.Functions) != 1 || res.Functions[0].Status != lang.StatusCandidate {
			t.Fatalf("extract: %v %+v", err, res)
		}
		return res.Functions[0]
	}
	var stats Stats
	f := fn()
	if err := judgeSyntax(ctx, &f, Options{Logf: t.Logf}, &stats); err != nil || stats.Syntax[lang.Python].Unchecked != 1 || f.Status != lang.StatusCandidate {
		t.Errorf("without a checker: err %v, unchecked %d, status %s; want 1 unchecked candidate", err, stats.Syntax[lang.Python].Unchecked, f.Status)
	}
	c, err := python.Frontend{}.NewChecker(ctx, "")
	if err != nil {
		t.Skipf("no python3: %v", err)
	}
	defer c.Close()
	f = fn()
	if err := judgeSyntax(ctx, &f, Options{checkers: map[lang.Name]lang.Checker{lang.Python: c}, Logf: t.Logf}, &stats); err != nil {
		t.Fatal(err)
	}
	var major, minor int
	fmt.Sscanf(c.Version(), "%d.%d", &major, &minor)
	newer := major > 3 || major == 3 && minor >= 12
	if py := f.Facts.Check; py == nil || py.Tool != "Python" || py.Version != c.Version() || py.OK != newer {
		t.Fatalf("facts.check = %+v, want python ok %v under %s", py, newer, c.Version())
	}
	if !newer && (f.Status != lang.StatusRejected || !strings.HasPrefix(f.RejectReason, ReasonPythonSyntax) ||
		f.Facts.Quality.Checks.IsSyntacticallyValid || stats.Syntax[lang.Python].Rejected != 1) {
		t.Errorf("under %s: status %s (%s), valid %v, rejected %d; want rejected, not valid", c.Version(), f.Status, f.RejectReason,
			f.Facts.Quality.Checks.IsSyntacticallyValid, stats.Syntax[lang.Python].Rejected)
	}
}
