package jsbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"sccg/lang"
	"sccg/lang/frontends"
	"sccg/release"
)

// benchTemplates are small request functions of each client kind, as models
// write them; %[1]d makes each completion distinct (host, path, parameter).
var benchTemplates = []struct{ lang, fn, code string }{
	{"javascript", "getWeather", `async function getWeather(city) {
  const url = 'https://weather%[1]d.p.rapidapi.com/current?city=' + encodeURIComponent(city) + '&p%[1]d=1';
  const response = await fetch(url, { method: 'GET', headers: { 'X-RapidAPI-Key': process.env.RAPIDAPI_KEY, 'X-RapidAPI-Host': 'weather%[1]d.p.rapidapi.com' } });
  if (!response.ok) throw new Error('HTTP ' + response.status);
  return await response.json();
}`},
	{"javascript", "searchNews", `const axios = require('axios');
async function searchNews(query, page = 1) {
  const options = { method: 'GET', url: 'https://news%[1]d.p.rapidapi.com/v1/search', params: { q: query, page, k%[1]d: 'x' },
    headers: { 'x-rapidapi-key': 'KEY', 'x-rapidapi-host': 'news%[1]d.p.rapidapi.com' } };
  try {
    const { data } = await axios.request(options);
    return data.articles;
  } catch (error) {
    console.error(error);
  }
}`},
	{"typescript", "getQuote", `import axios, { AxiosInstance } from 'axios';
interface Quote { symbol: string; price: number }
const client: AxiosInstance = axios.create({ baseURL: 'https://finance%[1]d.example.com/api', timeout: 5000 });
export async function getQuote(symbol: string): Promise<Quote> {
  const res = await client.get<Quote>('/quote/%[1]d', { params: { symbol } });
  if (res.status !== 200) throw new Error('bad status');
  return res.data;
}`},
	{"javascript", "translate", `import fetch from 'node-fetch';
export async function translate(text, target) {
  const res = await fetch('https://translate%[1]d.example.com/v2', { method: 'POST', body: JSON.stringify({ q: text, target, n%[1]d: 1 }), headers: { 'Content-Type': 'application/json' } });
  return res.json();
}`},
	{"javascript", "lookup", `const got = require('got');
module.exports.lookup = async (ip) => {
  const body = await got('https://geo%[1]d.example.com/lookup', { searchParams: { ip, v: %[1]d } }).json();
  return body.country;
};`},
	{"javascript", "send", `const superagent = require('superagent');
function send(to, message) {
  return superagent.post('https://sms%[1]d.example.com/send').set('Authorization', 'Bearer t').send({ to, message, id: %[1]d }).then((r) => r.body);
}`},
	{"typescript", "listUsers", `import ky from 'ky';
export async function listUsers(limit: number = 10) {
  return ky.get('https://users%[1]d.example.com/users', { searchParams: { limit } }).json<{ id: number }[]>();
}`},
	{"javascript", "loadData", `function loadData(callback) {
  var xhr = new XMLHttpRequest();
  xhr.open('GET', 'https://data%[1]d.example.com/items?page=1');
  xhr.onload = function () { if (xhr.status === 200) callback(JSON.parse(xhr.responseText)); };
  xhr.send();
}`},
	{"javascript", "fetchScores", `function fetchScores(league) {
  $.ajax({ url: 'https://sports%[1]d.example.com/scores', type: 'GET', data: { league: league }, success: function (d) { render(d); } });
}`},
	{"javascript", "convert", `const https = require('https');
function convert(amount) {
  return new Promise((resolve, reject) => {
    const req = https.request({ method: 'POST', hostname: 'fx%[1]d.example.com', path: '/convert', headers: { 'content-type': 'application/json' } }, (res) => {
      let data = '';
      res.on('data', (c) => (data += c));
      res.on('end', () => resolve(JSON.parse(data)));
    });
    req.on('error', reject);
    req.write(JSON.stringify({ amount, from: 'USD', to: 'EUR' }));
    req.end();
  });
}`},
	{"javascript", "status", `const { request } = require('undici');
async function status(id) {
  const { statusCode, body } = await request('https://status%[1]d.example.com/jobs/' + id);
  if (statusCode !== 200) return null;
  return body.json();
}`},
}

type benchCompletion struct{ lang, fn, code string }

// benchCorpus is n distinct completions, the client kinds in turn.
func benchCorpus(n int) []benchCompletion {
	out := make([]benchCompletion, n)
	for i := range out {
		t := benchTemplates[i%len(benchTemplates)]
		out[i] = benchCompletion{t.lang, t.fn, fmt.Sprintf(t.code, i)}
	}
	return out
}

// cpuNow is this process's CPU time and that of its waited-for children.
func cpuNow() time.Duration {
	self, kids := cpuSplit()
	return self + kids
}

// cpuSplit is this process's CPU time, and its waited-for children's.
func cpuSplit() (self, kids time.Duration) {
	var s, k unix.Rusage
	unix.Getrusage(unix.RUSAGE_SELF, &s)
	unix.Getrusage(unix.RUSAGE_CHILDREN, &k)
	return time.Duration(s.Utime.Nano() + s.Stime.Nano()), time.Duration(k.Utime.Nano() + k.Stime.Nano())
}

// BenchmarkIsolated runs distinct completions of every client kind through worker
// processes (each completion in a fresh runtime), two workers as on the target
// machine. Each iteration starts the workers, runs the batch and ends them, so
// their start-up and the evaluator's side are counted. completions/s is wall
// clock; projected-completions/s-2cores is 2 cores' time over the CPU time spent
// (evaluator and workers), which a shared machine does not distort.
// SCCG_JSBOX_WORKER_PROFILE=PREFIX has each worker write a CPU profile of its jobs
// to PREFIX.PID (the evaluator's side is -cpuprofile's).
func BenchmarkIsolated(b *testing.B) { benchIsolated(b, benchCorpus(600)) }

// benchIsolated runs corpus through two isolated workers per iteration (see
// BenchmarkIsolated) and reports the figures.
func benchIsolated(b *testing.B, corpus []benchCompletion) {
	batch := len(corpus)
	opts := Options{Workers: 2, Timeout: 5 * time.Second}
	if p := os.Getenv("SCCG_JSBOX_WORKER_PROFILE"); p != "" {
		opts.Command = []string{os.Args[0], WorkerArg, "-cpuprofile", p}
	}
	var wall, cpu, evaluator time.Duration
	var ph wirePhases
	failed := 0
	for i := 0; i < b.N; i++ {
		s0, k0 := cpuSplit()
		t0 := time.Now()
		r := newTestRunner(b, opts)
		jobs := make(chan benchCompletion)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for c := range jobs {
					res, p, err := r.run(context.Background(), job{Lang: c.lang, Code: c.code, Function: c.fn, TimeoutMS: 5000})
					mu.Lock()
					if err != nil || len(res.Requests) == 0 {
						failed++ // a completion may fail after its request, as real code does on a fake answer
					}
					ph.Transform += p.Transform
					ph.Parse += p.Parse
					ph.Runtime += p.Runtime
					ph.Code += p.Code
					mu.Unlock()
				}
			}()
		}
		for _, c := range corpus {
			jobs <- c
		}
		close(jobs)
		wg.Wait()
		r.Close()
		wall += time.Since(t0)
		s1, k1 := cpuSplit()
		cpu += s1 - s0 + k1 - k0
		evaluator += s1 - s0
	}
	if failed > 0 {
		b.Errorf("%d of %d completions did not send their request", failed/b.N, batch)
	}
	n := float64(b.N * batch)
	b.ReportMetric(n/wall.Seconds(), "completions/s")
	b.ReportMetric(2*n/cpu.Seconds(), "projected-completions/s-2cores")
	b.ReportMetric(cpu.Seconds()*1e3/n, "cpu-ms/completion")
	b.ReportMetric(evaluator.Seconds()*1e3/n, "evaluator-cpu-ms/completion")
	us := func(d int64) float64 { return float64(d) / 1e3 / n }
	b.ReportMetric(us(ph.Transform), "transform-µs")
	b.ReportMetric(us(ph.Parse), "parse+facts+compile-µs")
	b.ReportMetric(us(ph.Runtime), "runtime+harness-µs")
	b.ReportMetric(us(ph.Code), "code-µs")
}

// BenchmarkIsolatedRealExport is BenchmarkIsolated over the JavaScript and
// TypeScript samples of a benchmark built from real repositories, named by
// SCCG_JSBOX_REAL (an export's sccgbench.json), each sample's own code made
// distinct 1,200 times over; skipped without it. It measures what the real-shaped
// corpus (BenchmarkIsolatedRealShaped) stands in for in make bench.
func BenchmarkIsolatedRealExport(b *testing.B) {
	path := os.Getenv("SCCG_JSBOX_REAL")
	if path == "" {
		b.Skip("SCCG_JSBOX_REAL names no export of real JavaScript samples")
	}
	corpus, err := exportCorpus(path, 1200)
	if err != nil {
		b.Fatal(err)
	}
	benchIsolated(b, corpus)
}

// BenchmarkPhases runs the same completions in this process, one at a time, and
// reports where a completion's time goes: esbuild's transform; parsing, facts and
// compiling; a fresh runtime with the harness; the code with its targets. With
// -cpu 1 and GOGC=400 it runs as a worker does; cpu-µs/completion is the whole
// process's CPU time, garbage collection included.
func BenchmarkPhases(b *testing.B) {
	e, err := newEngine()
	if err != nil {
		b.Fatal(err)
	}
	corpus := benchCorpus(len(benchTemplates) * 10)
	var ph phases
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		for _, c := range corpus {
			_, p := e.run(job{Lang: c.lang, Code: c.code, Function: c.fn, TimeoutMS: 5000})
			ph.transform += p.transform
			ph.parse += p.parse
			ph.runtime += p.runtime
			ph.code += p.code
		}
	}
	cpu := processCPU() - cpu0
	n := float64(b.N * len(corpus))
	us := func(d time.Duration) float64 { return float64(d.Microseconds()) / n }
	b.ReportMetric(us(cpu), "cpu-µs/completion")
	b.ReportMetric(us(ph.transform), "transform-µs")
	b.ReportMetric(us(ph.parse), "parse+facts+compile-µs")
	b.ReportMetric(us(ph.runtime), "runtime+harness-µs")
	b.ReportMetric(us(ph.code), "code-µs")
	b.ReportMetric(n/b.Elapsed().Seconds(), "completions/s-1core")
}

// nodeShim records fetch and axios calls in node: the yardstick's harness. It
// reads the completion from argv[2], runs it as a CommonJS module (TypeScript is
// not its business: the yardstick runs the JavaScript completions), calls the
// function named argv[3] and prints the requests.
const nodeShim = `
const Module = require('module');
const fs = require('fs');
const reqs = [];
const rec = (lib, method, url, o = {}) => reqs.push({ lib, method: String(method || 'GET').toUpperCase(), url: String(url), params: o.params ? Object.keys(o.params) : undefined });
const resp = () => ({ ok: true, status: 200, data: {}, json: async () => ({}), text: async () => '{}' });
globalThis.fetch = async (u, init = {}) => { rec('fetch', init.method, u); return resp(); };
const axios = (a, b) => typeof a === 'string' ? axios.request({ ...b, url: a }) : axios.request(a);
axios.request = async (c) => { rec('axios', c.method, (c.baseURL || '') + c.url, c); return resp(); };
for (const m of ['get', 'delete', 'head']) axios[m] = (u, c = {}) => axios.request({ ...c, method: m, url: u });
for (const m of ['post', 'put', 'patch']) axios[m] = (u, d, c = {}) => axios.request({ ...c, method: m, url: u, data: d });
axios.create = (d = {}) => { const i = (a, b) => axios(a, b); Object.assign(i, axios); i.request = (c) => axios.request({ ...d, ...c }); return i; };
const load = Module._load;
Module._load = function (name, ...rest) {
  if (name === 'axios') return axios;
  if (name === 'node-fetch') return globalThis.fetch;
  try { return load.call(this, name, ...rest); } catch (e) { return new Proxy(function () {}, { get: () => () => ({}) }); }
};
const code = fs.readFileSync(process.argv[2], 'utf8');
const m = new Module('/sandbox/main.js');
m.paths = [];
let fn;
try { m._compile(code + '\n;module.exports.__t = typeof ' + process.argv[3] + ' === "function" ? ' + process.argv[3] + ' : undefined;', '/sandbox/main.js'); fn = m.exports.__t || m.exports[process.argv[3]]; } catch (e) {}
Promise.resolve(fn && fn('test')).catch(() => {}).finally(() => { process.stdout.write(JSON.stringify(reqs)); });
`

// BenchmarkNodeYardstick starts node once per completion with a recording
// fetch/axios shim, two at a time: what the design would cost with a process per
// completion. It runs the CommonJS fetch and axios completions of the corpus.
func BenchmarkNodeYardstick(b *testing.B) {
	node, err := exec.LookPath("node")
	if err != nil {
		b.Skip("node is not on PATH: no yardstick")
	}
	dir := b.TempDir()
	shim := filepath.Join(dir, "shim.js")
	if err := os.WriteFile(shim, []byte(nodeShim), 0o644); err != nil {
		b.Fatal(err)
	}
	var corpus []benchCompletion
	for _, c := range benchCorpus(len(benchTemplates) * 4) {
		cjs := !strings.Contains(c.code, "import ") && !strings.Contains(c.code, "export ")
		if c.lang == "javascript" && cjs && (strings.Contains(c.code, "fetch(") || strings.Contains(c.code, "require('axios')")) {
			corpus = append(corpus, c)
		}
	}
	files := make([]string, len(corpus))
	for i, c := range corpus {
		files[i] = filepath.Join(dir, fmt.Sprintf("c%d.js", i))
		if err := os.WriteFile(files[i], []byte(c.code), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	var wall, cpu time.Duration
	failed := 0
	for i := 0; i < b.N; i++ {
		c0, t0 := cpuNow(), time.Now()
		idx := make(chan int)
		var wg sync.WaitGroup
		var mu sync.Mutex
		for w := 0; w < 2; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range idx {
					out, err := exec.Command(node, shim, files[k], corpus[k].fn).Output()
					if err != nil || !strings.Contains(string(out), `"url"`) {
						mu.Lock()
						failed++
						if failed == 1 {
							b.Logf("node on %s: %v %s", corpus[k].fn, err, out)
						}
						mu.Unlock()
					}
				}
			}()
		}
		for k := range corpus {
			idx <- k
		}
		close(idx)
		wg.Wait()
		wall += time.Since(t0)
		cpu += cpuNow() - c0
	}
	if failed > 0 {
		b.Errorf("%d node runs recorded no request", failed)
	}
	n := float64(b.N * len(corpus))
	b.ReportMetric(n/wall.Seconds(), "completions/s")
	b.ReportMetric(2*n/cpu.Seconds(), "projected-completions/s-2cores")
	b.ReportMetric(cpu.Seconds()*1e3/n, "cpu-ms/completion")
}

// exportCorpus reads the JavaScript and TypeScript samples of a benchmark file and
// makes n distinct completions of their own code (a trailing comment numbers each
// copy), the samples in turn.
func exportCorpus(path string, n int) ([]benchCompletion, error) {
	recs, err := release.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var base []benchCompletion
	for _, r := range recs {
		n := lang.Of(r.Language)
		if n.Family() != lang.JavaScript {
			continue
		}
		d := frontends.DialectOf(n, r.GitHubInfo.FilePath)
		base = append(base, benchCompletion{string(d), r.FunctionName, r.Code.CompleteFunction})
	}
	if len(base) == 0 {
		return nil, fmt.Errorf("%s: no JavaScript or TypeScript sample", path)
	}
	out := make([]benchCompletion, n)
	for i := range out {
		c := base[i%len(base)]
		c.code += fmt.Sprintf("\n// copy %d\n", i)
		out[i] = c
	}
	return out, nil
}

// BenchmarkIsolatedRealShaped is BenchmarkIsolated over completions shaped like
// real samples (realShaped: components, services, page scripts, at real sizes),
// 1,200 distinct ones: the figure beside BenchmarkIsolated's synthetic one.
func BenchmarkIsolatedRealShaped(b *testing.B) { benchIsolated(b, realShapedCorpus(1200)) }

// TestRealShapedCorpusSends checks that every real-shaped completion of the
// benchmark sends its request, so the benchmark measures runs that reach the
// recorders.
func TestRealShapedCorpusSends(t *testing.T) {
	r := newTestRunner(t, Options{Workers: 1})
	for _, c := range realShapedCorpus(len(realShaped)) {
		res, _, err := r.run(context.Background(), job{Lang: c.lang, Code: c.code, Function: c.fn, TimeoutMS: 4000})
		if err != nil || len(res.Requests) == 0 {
			t.Errorf("%s: status %s (%s), %d requests, err %v\n%s", c.fn, res.Status, res.Reason, len(res.Requests), err, res.Stderr)
		}
	}
}
