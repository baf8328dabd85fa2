package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

func TestRealcallUsage(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"nothing", []string{"realcall"}, "--bench, --results and --out are required"},
		{"bad resolve", []string{"realcall", "--bench", "b", "--results", "r", "--out", "o", "--resolve", "h=ftp://x"}, "want an http(s) base URL"},
		{"unset key", []string{"realcall", "--bench", "b", "--results", "r", "--out", "o", "--key-env", "NOPE"}, "NOPE: the variable is unset or empty"},
		{"bad rate", []string{"realcall", "--bench", "b", "--results", "r", "--out", "o", "--rate", "0"}, "--rate one > 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, _, errb := newTestEnv(t)
			if code := run(ctx, tc.args, e); code != 2 || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errb, tc.want)
			}
		})
	}
}

// TestRealcallCommand runs sccg eval on the evaluator's synthetic benchmark, then
// sccg realcall against a loopback stand-in for its services: the dry run sends
// nothing, the live run sends, says N/M 2xx per group, and the key appears in no
// file it, the store or the report wrote.
func TestRealcallCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox end to end")
	}
	// Slow: two evaluations in the sandbox before the real calls.
	t.Parallel() // its own store and directories; the other slow end-to-end tests run beside it
	ctx := context.Background()
	e, out, errb, bench, gens := evalTestEnv(t)
	const key = "cli-k3y-never-written-9d2"
	e.getenv = func(k string) string {
		if k == "TEST_RAPIDAPI_KEY" {
			return key
		}
		return ""
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"eval", "--gold", "--bench", bench, "--out", filepath.Join(dir, "gold"), "--timeout", "30s"},
		{"eval", "--generations", gens, "--bench", bench, "--out", filepath.Join(dir, "gens"), "--timeout", "30s", "--partial"},
	} {
		if code := run(ctx, args, e); code != 0 {
			t.Fatalf("%v: exit %d, stderr %s", args, code, errb)
		}
	}
	var mu sync.Mutex
	var got []*http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r)
		mu.Unlock()
		if r.Header.Get("X-RapidAPI-Key") != key {
			http.Error(w, "no key", http.StatusUnauthorized)
			return
		}
		w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	args := []string{"realcall", "--bench", bench, "--results", filepath.Join(dir, "gold"), "--results", filepath.Join(dir, "gens"),
		"--key-env", "TEST_RAPIDAPI_KEY", "--rate", "1000", "--out", filepath.Join(dir, "rc")}
	for _, h := range []string{"weatherly", "translit", "ticktalk", "binlookup", "newsy", "cardcheck", "sportsfeed", "geoloc"} {
		args = append(args, "--allow-host", h+".p.rapidapi.com", "--resolve", h+".p.rapidapi.com="+srv.URL)
	}

	// Given the gold results only, it screens every eligible service (in a store
	// of its own, so the runs below send their own calls).
	var screen []string
	for i := 0; i < len(args); i++ {
		if args[i] == "--results" && args[i+1] == filepath.Join(dir, "gens") {
			i++
			continue
		}
		screen = append(screen, args[i])
	}
	screen = append(screen, "--live", "--db", filepath.Join(dir, "screen.db"), "--out", filepath.Join(dir, "screen"))
	out.Reset()
	if code := run(ctx, screen, e); code != 0 {
		t.Fatalf("screen: exit %d, stderr %s", code, errb)
	}
	if !regexp.MustCompile(`realcall screen \(gold results only\): gold [1-9]\d*/[1-9]\d* 2xx`).MatchString(out.String()) ||
		!regexp.MustCompile(`[1-9]\d* of \d+ services called with their gold request answered 2xx: \w+ \(\w+\.p\.rapidapi\.com\)`).MatchString(out.String()) {
		t.Errorf("screen output:\n%s", out)
	}
	screened := len(got)
	if screened == 0 {
		t.Fatal("the screen sent nothing")
	}
	got = nil

	out.Reset()
	if code := run(ctx, args, e); code != 0 {
		t.Fatalf("dry run: exit %d, stderr %s", code, errb)
	}
	if len(got) != 0 {
		t.Fatalf("the dry run sent %d requests", len(got))
	}
	if !strings.Contains(out.String(), "dry run: nothing sent") || !regexp.MustCompile(`would send [1-9]\d* calls`).MatchString(out.String()) {
		t.Errorf("dry run output:\n%s", out)
	}

	out.Reset()
	if code := run(ctx, append(args, "--live"), e); code != 0 {
		t.Fatalf("live: exit %d, stderr %s", code, errb)
	}
	if len(got) == 0 {
		t.Fatal("the live run sent nothing")
	}
	for _, r := range got {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			t.Errorf("sent %s %s", r.Method, r.URL)
		}
	}
	if !regexp.MustCompile(`realcall: gold \d+/\d+ 2xx.*; Mock-positive \d+/\d+ 2xx.*; Mock-negative \d+/\d+ 2xx`).MatchString(out.String()) {
		t.Errorf("live output lacks N/M 2xx per group:\n%s", out)
	}
	if !strings.Contains(out.String(), "screened out: translit") || !strings.Contains(out.String(), "not_get") {
		t.Errorf("live output does not name the service screened out for its POST gold request:\n%s", out)
	}

	// A second live run sends nothing new: every call is in the store.
	n := len(got)
	if code := run(ctx, append(args, "--live"), e); code != 0 {
		t.Fatalf("rerun: exit %d, stderr %s", code, errb)
	}
	if len(got) != n {
		t.Errorf("the rerun sent %d more requests", len(got)-n)
	}

	if code := run(ctx, []string{"report", "--results", filepath.Join(dir, "rc"), "--results", filepath.Join(dir, "gens"),
		"--out", filepath.Join(dir, "report")}, e); code != 0 {
		t.Fatalf("report: exit %d, stderr %s", code, errb)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report", "report.md"))
	if err != nil || !strings.Contains(string(md), "Real-call validation: 2xx rates") {
		t.Errorf("the report has no real-call table (%v)", err)
	}
	var files []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	dbs, _ := filepath.Glob(e.db + "*")
	for _, p := range append(files, dbs...) {
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte(key)) {
			t.Errorf("the key leaked into %s", p)
		}
	}
	if strings.Contains(out.String()+errb.String(), key) {
		t.Error("the key was printed")
	}
}
