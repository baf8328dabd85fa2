package jsbox

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"sccg/evaluate/sandbox"
	"sccg/lang"
)

// canary is an ordinary completion run after each hostile one in the same worker:
// it must score as it does alone.
const canary = `import axios from 'axios';
export async function getQuote(symbol: string) {
  const r = await axios.get('https://quotes.example.com/v1/quote', { params: { symbol }, headers: { 'X-RapidAPI-Key': 'k' } });
  if (r.status !== 200) throw new Error('bad status');
  return r.data;
}`

func checkCanary(t *testing.T, r *Runner, alone sandbox.Result) {
	t.Helper()
	got, err := r.RunDialect(context.Background(), lang.DialectTS, canary, "getQuote")
	if err != nil {
		t.Fatal(err)
	}
	if !sameScore(got, alone) {
		t.Errorf("canary after it: %s (%s) %v, alone: %s %v", got.Status, got.Reason, got.Requests, alone.Status, alone.Requests)
	}
}

// sameScore: what scoring reads is the same (status, requests, facts).
func sameScore(a, b sandbox.Result) bool {
	if a.Status != b.Status || a.Reason != b.Reason || len(a.Requests) != len(b.Requests) {
		return false
	}
	for i := range a.Requests {
		x, y := a.Requests[i], b.Requests[i]
		if x.Lib != y.Lib || x.Method != y.Method || x.URL != y.URL || string(x.Params) != string(y.Params) ||
			string(x.JSON) != string(y.JSON) || string(x.Data) != string(y.Data) || len(x.Headers) != len(y.Headers) {
			return false
		}
		for k, v := range x.Headers {
			if y.Headers[k] != v {
				return false
			}
		}
	}
	fa, fb := a.Facts, b.Facts
	return fa.Syntax == fb.Syntax && fa.HasTry == fb.HasTry && fa.HasStatusCheck == fb.HasStatusCheck &&
		slices.Equal(fa.Imports, fb.Imports) && slices.Equal(fa.Defs, fb.Defs) && slices.Equal(fa.Free, fb.Free)
}

func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile suite: several seconds of timeouts")
	}
	r := newTestRunner(t, Options{Workers: 1})
	ctx := context.Background()
	alone, err := r.RunDialect(ctx, lang.DialectTS, canary, "getQuote")
	if err != nil || alone.Status != sandbox.StatusOK || len(alone.Requests) != 1 {
		t.Fatalf("canary alone: %v %s %s %v", err, alone.Status, alone.Reason, alone.Requests)
	}
	const fail = "failure" // any status but ok
	// stopped by a limit: the deadline or the heap watch, whichever a busy machine
	// lets come first (a microtask chain and a backtracking regexp both allocate
	// while they spin)
	const limited = "limited"
	tests := []struct {
		name, code, fn string
		status         sandbox.Status // fail: anything but ok; limited: timeout or oom
		reason         string         // a part of the reason, when it matters
	}{
		{"infinite loop", "while (true) {}", "", sandbox.StatusTimeout, ""},
		{"infinite loop in an async function", "async function f() { await null; while (true) {} }", "f", sandbox.StatusTimeout, ""},
		{"infinite loop in a promise callback", "Promise.resolve().then(() => { for (;;) {} });", "", sandbox.StatusTimeout, ""},
		{"microtask loop", "function spin() { return Promise.resolve().then(spin); } spin();", "", limited, ""},
		{"catastrophic regex (backtracking engine)", "function f() { return /^(a+)+\\1$/.test('a'.repeat(40) + 'b'); }", "f", limited, ""},
		{"catastrophic regex (lookahead)", "/^(?=(a|aa)+$)/.test('a'.repeat(60) + 'b');", "", limited, ""},
		{"memory bomb: typed arrays", "const keep = []; for (;;) keep.push(new Float64Array(1e7));", "", sandbox.StatusOOM, ""},
		{"memory bomb: objects", "const keep = []; for (let i = 0; ; i++) keep.push({ i, s: 'v' + i, a: [i, i, i, i] });", "", fail, ""},
		{"memory bomb: string doubling", "let s = 'x'; while (true) s = s + s + '!';", "", fail, ""},
		{"deep recursion", "function f(n) { return f(n + 1) + 1; } f(0);", "", sandbox.StatusError, "stack"},
		{"child_process", "const cp = require('child_process'); cp.execSync('id');", "", sandbox.StatusError, "not available"},
		// fs is an empty, read-only view: a read finds no file, a listing nothing
		{"fs read", "const fs = require('node:fs'); fs.readFileSync('/etc/passwd', 'utf8');", "", sandbox.StatusError, "ENOENT"},
		{"fs sees no disk", "const fs = require('fs'); if (fs.readdirSync('/').length || fs.existsSync('/etc/passwd')) throw new Error('saw the disk'); fs.mkdirSync('/tmp/sccg-jsbox-dir');", "", sandbox.StatusError, "not available"},
		{"fs/promises write", "import { writeFile } from 'fs/promises'; export async function pwn() { await writeFile('/tmp/sccg-jsbox-pwned', 'x'); }", "pwn", sandbox.StatusError, "not available"},
		{"fs write via import", "import { writeFileSync } from 'fs'; writeFileSync('/tmp/sccg-jsbox-pwned', 'x');", "", sandbox.StatusError, "not available"},
		{"process.exit", "process.exit(1);", "", sandbox.StatusError, "process.exit(1)"},
		{"process.binding", "process.binding('spawn_sync');", "", sandbox.StatusError, "not available"},
		{"eval reaching for require", "eval(\"require('child_process').spawnSync('sh')\");", "", sandbox.StatusError, "not available"},
		{"Function constructor", "const g = new Function('return this')(); g.process.binding('fs');", "", sandbox.StatusError, "not available"},
		{"constructor chain", "const g = (() => {}).constructor('return globalThis')(); if (!g.fetch) throw new Error('x'); g.process.kill(1);", "", sandbox.StatusError, "not available"},
		{"setInterval that never ends", "setInterval(() => {}, 10);", "", sandbox.StatusError, "timers"},
		{"setTimeout storm", "for (let i = 0; i < 1e6; i++) setTimeout(() => {}, i);", "", sandbox.StatusError, "timers"},
		{"huge console output", "for (let i = 0; i < 100; i++) console.log('x'.repeat(100000)); throw new Error('done');", "", sandbox.StatusError, "done"},
		{"throw a number", "throw 42;", "", sandbox.StatusError, "42"},
		{"throw an object with a hostile toString", "throw { toString() { while (true) {} } };", "", sandbox.StatusError, "thrown"},
		{"reject with a symbol", "async function f() { throw Symbol('s'); }", "f", sandbox.StatusError, "rejected"},
		{"no Worker, WebAssembly or SharedArrayBuffer", "for (const n of ['Worker', 'WebAssembly', 'SharedArrayBuffer', 'Deno', 'Bun']) if (n in globalThis) throw new Error(n + ' present'); throw new Error('none');", "", sandbox.StatusError, "none"},
		{"network without a client", "require('net').connect(80, 'example.com');", "", sandbox.StatusError, "not available"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := r.Run(ctx, tc.code, tc.fn)
			if err != nil {
				t.Fatal(err)
			}
			if tc.status == fail {
				if res.Status == sandbox.StatusOK {
					t.Errorf("status ok, want a failure")
				}
			} else if tc.status == sandbox.StatusOOM && wantOOM(res.Status) {
				// contained either way
			} else if tc.status == limited {
				if res.Status != sandbox.StatusTimeout && !wantOOM(res.Status) {
					t.Errorf("status %s (%s), want a timeout or the memory limit", res.Status, res.Reason)
				}
			} else if res.Status != tc.status {
				t.Errorf("status %s (%s), want %s", res.Status, res.Reason, tc.status)
			}
			if !strings.Contains(res.Reason, tc.reason) {
				t.Errorf("reason %q, want it to mention %q", res.Reason, tc.reason)
			}
			if len(res.Requests) != 0 {
				t.Errorf("requests %v", res.Requests)
			}
			if len(res.Stderr) > maxConsole+200 {
				t.Errorf("stderr of %d bytes", len(res.Stderr))
			}
			checkCanary(t, r, alone)
		})
	}
	t.Logf("workers replaced: %d", r.Replaced())
	if _, err := os.Stat("/tmp/sccg-jsbox-pwned"); err == nil {
		t.Error("a completion wrote /tmp/sccg-jsbox-pwned")
	}
}
