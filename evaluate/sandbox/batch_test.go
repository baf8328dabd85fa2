package sandbox

import (
	"context"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// interControl is the completion that runs after each interfering one: it uses
// what they try to change (the recorders, json, print, open, the environment,
// logging, decimal's context, the working directory, the scratch directory), and
// sends what it saw in a header (a run scores by its parameters' names alone).
const interControl = `import json, os, logging, requests, decimal
log = logging.getLogger(__name__)
def control(city):
    host = os.environ.get("RAPIDAPI_HOST", "weather.p.rapidapi.com")
    print("fetching", city)
    log.info("fetching %s", city)
    params = json.loads('{"units": "metric"}')
    with open("input.txt") as fh:
        params["cols"] = fh.readline().strip()
    params["cwd"] = os.getcwd().rsplit("/", 1)[-1][:7]
    params["files"] = ",".join(sorted(os.listdir(".")))
    params["seventh"] = str(decimal.Decimal(1) / decimal.Decimal(7))
    fresh = decimal.Context()  # a new context copies decimal.DefaultContext
    params["context"] = "%d-%s" % (fresh.prec, fresh.traps[decimal.DivisionByZero])
    r = requests.get("https://" + host + "/forecast/" + city, params=params,
                     headers={"X-RapidAPI-Host": host, "X-Seen": json.dumps(params, sort_keys=True)})
    r.raise_for_status()
    return r.json()
`

// interferers try to reach the completion after them. tame says whether the
// static check lets it into a batch (where verification must catch what it did,
// or the harness must undo it).
var interferers = []struct {
	name, code string
	tame       bool
}{
	{"patch requests.get", "import requests\nrequests.get = lambda *a, **k: None\n", false},
	{"patch requests.get through an alias", "import requests\nr = requests\nr.get = lambda *a, **k: None\n", true},
	{"patch json.loads through an alias", "import json\nj = json\nj.loads = lambda s, **k: {}\n", true},
	{"patch json.loads through an argument", "import json\ndef patch(m):\n    m.loads = lambda s, **k: {}\npatch(json)\n", true},
	{"patch requests.get through a container", "import requests\nbox = {'r': requests}\nbox['r'].get = None\n", true},
	{"patch json.loads with setattr held as a value", "import json\ns = setattr\ns(json, 'loads', None)\n", false},
	{"set logging's logger class", "import logging\nlogging.setLoggerClass(type('L', (logging.Logger,), {'info': lambda *a, **k: 1 / 0}))\n", false},
	{"rebind a module's globals through the standard library", "import mimetypes\nmimetypes.init()\n", true},
	{"patch print", "import builtins\nbuiltins.print = None\n", false},
	{"patch print in its own globals", "print = None\nopen = None\n", true},
	{"patch open through io", "import io\nm = io\nm.open = None\n", true},
	{"set an environment variable", "import os\nos.environ['RAPIDAPI_HOST'] = 'evil.example'\n", true},
	{"putenv", "import os\nos.putenv('RAPIDAPI_HOST', 'evil.example')\n", false},
	{"chdir", "import os\nos.chdir('/')\n", false},
	{"leave a thread", "import threading, time\nthreading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n", false},
	{"leave a timer", "import threading\nthreading.Timer(0.2, print).start()\n", false},
	{"register atexit", "import atexit\natexit.register(print, 'bye')\n", false},
	{"write into scratch", "with open('leftover.txt', 'w') as f:\n    f.write('x')\n", true},
	{"overwrite the input file", "with open('input.txt', 'w') as f:\n    f.write('evil\\n')\n", true},
	{"replace a sys.modules entry", "import sys\nsys.modules['json'] = None\n", false},
	{"set a class attribute on a standard type", "import json\nD = json.JSONDecoder\nD.decode = lambda self, s: {}\n", true},
	{"set a class attribute on a recorder", "import requests\nr = requests.get('https://x.example/')\ntype(r).raise_for_status = lambda self: 1 / 0\n", true},
	{"change the recursion limit", "import sys\nsys.setrecursionlimit(60)\n", false},
	{"install a signal handler", "import signal\nsignal.signal(signal.SIGALRM, print)\nsignal.alarm(1)\n", false},
	{"mutate a harness default", "import requests\nrequests.get.__kwdefaults__ = {}\n", false},
	{"configure logging", "import logging\nlogging.basicConfig(level=logging.DEBUG)\nlogging.getLogger('sccg_user.main').disabled = True\n", true},
	{"change the decimal context", "import decimal\ndecimal.getcontext().prec = 3\n", true},
	{"change decimal's default context through an alias", "import decimal\nd = decimal.DefaultContext\nd.prec = 3\n", true},
	{"change decimal's default context by a method", "import decimal\nd = decimal.DefaultContext\nd.clear_traps()\n", true},
	{"patch json.loads through the standard library", "import functools, json\ndef f():\n    pass\nf.loads = len\nfunctools.update_wrapper(json, f)\n", true},
	{"unhook the store check", "import json\ndef __sccg_store__(x):\n    return x\nm = json\nm.loads = len\n", false},
	{"reach the harness through frames", "for f in inspect.stack():\n    f.frame.f_locals.get('taint', []).clear()\n", false},
	{"patch json.loads with the builtins module", "import json\nbuiltins.setattr(json, 'loads', len)\n", false},
	{"change a shared container by a method", "import copy, datetime\nt = copy.dispatch_table\nt.update({datetime.datetime: lambda d: (str, ('x',))})\n", true},
	{"filter the root logger", "import logging\nlogging.getLogger().filters.append(lambda r: False)\n", true},
	{"reach sys through a module", "import logging\nlogging.sys.modules['json'] = None\n", false},
	{"reach the builtins through a format field", "import string\nb = string.Formatter().get_field('0.__builtins__', [len], {})\n", false},
	{"patch json.loads through argparse", "import argparse, json\np = argparse.ArgumentParser()\np.add_argument('--x', dest='loads', action='store_const', const=len)\np.parse_args(['--x'], namespace=json)\n", false},
	{"register an archive format", "import shutil\nshutil.register_archive_format('evil', print)\n", false},
	{"seed random and filter warnings", "import random, warnings\nrandom.seed(1)\nwarnings.simplefilter('error')\n", true},
	{"swap json.loads's code through an alias of logging", "import json, logging\nl = logging\nb = l.sys.modules.get('builtins')\n" +
		"b.setattr(json.loads, '__co' + 'de__', b.getattr(lambda s, *a, **k: {'forged': 1}, '__co' + 'de__'))\n", false},
	{"swap json.loads's code through __import__", "import json\nb = __import__('logging').sys.modules.get('builtins')\n" +
		"b.setattr(json.loads, '__co' + 'de__', b.getattr(lambda s, *a, **k: {'forged': 1}, '__co' + 'de__'))\n", false},
	{"read os.environ through __import__", "k = __import__('os').environ.get('RAPIDAPI_KEY', '')\n", true},
	{"open the job socket", "import os\nfor n in range(3, 1000):\n    try:\n        open(n).read()\n    except Exception:\n        pass\n", true},
	{"leave through sys.exit", "import sys\nprint('bye', file=sys.stderr)\nsys.exit(3)\n", true},
	{"leave through exit and quit", "def f():\n    exit(3)\nf()\nquit()\n", true},
	{"close sys.stderr", "import sys\nsys.stderr.close()\n", true},
	{"close stdout's buffer", "import sys\nsys.stdout.buffer.close()\n", true},
	{"close stderr's file", "import sys\nsys.stderr.buffer.raw.close()\n", true},
	{"plant a file in the other scratch directories through a link", "import os\nos.mkdir('a')\nos.symlink(os.getcwd(), 'a/me')\n" +
		"for d in os.listdir('a/me/..'):\n    try:\n        open('a/me/../' + d + '/planted.txt', 'w').close()\n" +
		"    except OSError:\n        pass\n", false},
	{"redirect stderr through an alias of os", "import os as o\no.dup2(o.open('f.txt', o.O_WRONLY | o.O_CREAT), 2)\n", false},
}

// scoreOf is what a run scores by.
func scoreOf(res Result) Result {
	return Result{Status: res.Status, Reason: res.Reason, Facts: res.Facts, Requests: res.Requests,
		Stubbed: res.Stubbed, Undefined: res.Undefined}
}

// TestInterferenceSuite runs each interfering completion and then the control,
// batched and unbatched: the control scores exactly as it does alone.
func TestInterferenceSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("interference suite takes a few seconds")
	}
	for _, batched := range []bool{false, true} {
		name := "unbatched"
		if batched {
			name = "batched"
		}
		t.Run(name, func(t *testing.T) {
			r, err := New(context.Background(), Options{Limits: Limits{Timeout: 10 * time.Second},
				ScratchDir: t.TempDir(), NoBatch: !batched})
			if err != nil {
				t.Skipf("no python sandbox here: %v", err)
			}
			defer r.Close()
			ctx := context.Background()
			alone, err := r.runOwn(ctx, interControl, "control")
			if err != nil {
				t.Fatal(err)
			}
			if alone.Status != StatusOK || len(alone.Requests) != 1 ||
				!strings.HasPrefix(alone.Requests[0].URL, "https://weather.p.rapidapi.com/forecast/") {
				t.Fatalf("control alone: %s %s %+v", alone.Status, alone.Reason, alone.Requests)
			}
			for _, it := range interferers {
				res, err := r.Run(ctx, it.code, "")
				if err != nil {
					t.Fatal(err)
				}
				if batched && !it.tame && !strings.HasPrefix(res.Placement, PlacedOwn+": not tame") {
					t.Errorf("%s: placed %q, want a child of its own (not tame)", it.name, res.Placement)
				}
				if batched && it.tame && strings.HasPrefix(res.Placement, PlacedOwn+": not tame") {
					t.Errorf("%s: placed %q, want a batch (tame)", it.name, res.Placement)
				}
				got, err := r.Run(ctx, interControl, "control")
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(scoreOf(got), scoreOf(alone)) {
					t.Errorf("after %s (%s): control scored %+v, alone %+v", it.name, res.Placement, scoreOf(got), scoreOf(alone))
				}
				if batched && got.Placement != PlacedBatch {
					t.Errorf("after %s: control placed %q, want %q", it.name, got.Placement, PlacedBatch)
				}
			}
			st := r.BatchStats()
			t.Logf("batch stats: %+v", st)
			if batched && (st.Ended == 0 || st.NotTame == 0 || st.Batched == 0) {
				t.Errorf("batch stats %+v: want batches, verification failures and code that is not tame", st)
			}
			var why int64
			for _, n := range st.OwnWhy {
				why += n
			}
			if batched && (why != st.Own || st.OwnWhy["assigns to an attribute of requests"] == 0 || st.OwnWhy["batch ended"] != st.Ended) {
				t.Errorf("own runs by why %v: want them all (%d), named as the static check or the batch said", st.OwnWhy, st.Own)
			}
			if batched && len(st.FullCompare) > 0 && versionTags(t, r) {
				t.Errorf("batch children compared every namespace on an interpreter with version tags: %v", st.FullCompare)
			}
			if !batched && st.Batched+st.Own != 0 {
				t.Errorf("unbatched runner batched: %+v", st)
			}
		})
	}
}

// TestBatchedStderrIsItsOwn runs a job that logs a long line to stderr and then
// one that logs a short one, in one batch: the second's stderr holds its own
// line and nothing of the first's.
func TestBatchedStderrIsItsOwn(t *testing.T) {
	r, err := New(context.Background(), Options{Limits: Limits{Timeout: 10 * time.Second}, ScratchDir: t.TempDir()})
	if err != nil {
		t.Skipf("no python sandbox here: %v", err)
	}
	defer r.Close()
	logs := func(s string) string {
		return "import logging\n\ndef f():\n    logging.warning(" + strconv.Quote(s) + ")\n"
	}
	ctx := context.Background()
	long, err := r.Run(ctx, logs(strings.Repeat("first ", 400)), "f")
	if err != nil {
		t.Fatal(err)
	}
	short, err := r.Run(ctx, logs("second"), "f")
	if err != nil {
		t.Fatal(err)
	}
	if long.Placement != PlacedBatch || short.Placement != PlacedBatch {
		t.Fatalf("placed %q and %q, want both in a batch", long.Placement, short.Placement)
	}
	if !strings.Contains(long.Stderr, "first first") {
		t.Errorf("first job's stderr %q: want its log line", long.Stderr)
	}
	if !strings.Contains(short.Stderr, "second") || strings.Contains(short.Stderr, "first") {
		t.Errorf("second job's stderr %q: want its own log line alone", short.Stderr)
	}
}

// versionTags is whether r's interpreter keeps dict version tags where a batch
// child reads them (CPython 3.11 to 3.13).
func versionTags(t *testing.T, r *Runner) bool {
	out, err := exec.Command(r.python, "-I", "-S", "-c",
		"import sys; print(sys.implementation.name, *sys.version_info[:2])").Output()
	if err != nil {
		t.Fatalf("interpreter version: %v", err)
	}
	f := strings.Fields(string(out))
	return len(f) == 3 && f[0] == "cpython" && f[1] == "3" && (f[2] == "11" || f[2] == "12" || f[2] == "13")
}

// TestBatchedRunCancelled cancels a batched run mid-way: it ends as killed with
// the context's error well before its wall-clock limit, and the next run of the
// runner scores in a batch as usual.
func TestBatchedRunCancelled(t *testing.T) {
	r := newTestRunner(t, Limits{Timeout: time.Minute}, true)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	start := time.Now()
	res, err := r.Run(ctx, "while True:\n    pass\n", "")
	if err != context.Canceled || res.Status != StatusKilled {
		t.Fatalf("cancelled run: %s (%s), %v; want killed, %v", res.Status, res.Reason, err, context.Canceled)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("cancelled run ended after %v, at its wall-clock limit rather than at the cancellation", d)
	}
	res, err = r.Run(context.Background(), goodCode, "get_weather")
	if err != nil || res.Status != StatusOK || len(res.Requests) != 1 || res.Placement != PlacedBatch {
		t.Fatalf("run after a cancelled one: %s %s %+v %q %v", res.Status, res.Reason, res.Requests, res.Placement, err)
	}
}

// TestForkServersByKind: with batching, a run in a child of its own is forked by a
// server that does not load what batches share, and the batch child that follows
// a full one takes the server the full one held instead of starting another.
func TestForkServersByKind(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a batch to its end")
	}
	r := newTestRunner(t, Limits{}, true)
	ctx := context.Background()
	res, err := r.Run(ctx, "import subprocess\n", "")
	if err != nil || !strings.HasPrefix(res.Placement, PlacedOwn+": not tame") {
		t.Fatalf("code that is not tame: placed %q, %v", res.Placement, err)
	}
	for range batchFirst + 1 {
		res, err := r.Run(ctx, goodCode, "get_weather")
		if err != nil || res.Status != StatusOK || res.Placement != PlacedBatch {
			t.Fatalf("tame code: %s %s placed %q, %v", res.Status, res.Reason, res.Placement, err)
		}
	}
	var batch, plain int
	r.pool.mu.Lock()
	for z := range r.pool.all {
		if z.batch {
			batch++
		} else {
			plain++
		}
	}
	r.pool.mu.Unlock()
	if st := r.BatchStats(); st.Children != 2 || batch != 1 || plain != 1 {
		t.Errorf("%d batch children, fork servers: %d of batches, %d of children of their own; want 2, 1 and 1",
			st.Children, batch, plain)
	}
}

// TestBatchJobSizes: a job as large as a batch takes goes to a batch whole (it is
// sent without waiting, as one message), and a larger one runs in a child of its
// own; both score as the code alone does.
func TestBatchJobSizes(t *testing.T) {
	r := newTestRunner(t, Limits{}, true)
	for _, tc := range []struct {
		size      int
		placement string
	}{{batchJobMax, PlacedBatch}, {batchJobMax + 1, PlacedOwn + ": too large for a batch"}} {
		pad := tc.size - len(goodCode) - len("get_weather") - len("\n# \n")
		code := goodCode + "\n# " + strings.Repeat("x", pad) + "\n"
		res, err := r.Run(context.Background(), code, "get_weather")
		if err != nil || res.Status != StatusOK || len(res.Requests) != 1 || res.Placement != tc.placement {
			t.Errorf("job of %d bytes: %s %s %d requests, placed %q, %v; want ok, 1, %q",
				tc.size, res.Status, res.Reason, len(res.Requests), res.Placement, err, tc.placement)
		}
	}
}

// TestIdleBatchChildLives: a batch child left idle for longer than a job may take
// (its wall-clock limit and its server's grace) still takes the next job; the wait
// for its end is not a job's. Slow: the 3 s of idleness are the test.
func TestIdleBatchChildLives(t *testing.T) {
	if testing.Short() {
		t.Skip("leaves a batch child idle for 3 s")
	}
	defer func(g time.Duration) { serverGrace = g }(serverGrace)
	serverGrace = time.Second
	r := newTestRunner(t, Limits{Timeout: time.Second}, true)
	for i := range 2 {
		if i > 0 {
			time.Sleep(3 * time.Second)
		}
		res, err := r.Run(context.Background(), goodCode, "get_weather")
		if err != nil || res.Status != StatusOK || res.Placement != PlacedBatch {
			t.Fatalf("run %d: %s %s placed %q, %v", i, res.Status, res.Reason, res.Placement, err)
		}
	}
	if st := r.BatchStats(); st.Children != 1 || st.Failed != 0 {
		t.Errorf("batch stats %+v: want one batch child, no failure", st)
	}
}

// TestStuckServerOfABatch: a batch child's fork server that never reports the
// child's end is dropped after its grace, and the batched runs after it do not
// wait on it.
func TestStuckServerOfABatch(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out a job's limit and a server's grace")
	}
	defer func(g time.Duration) { serverGrace = g }(serverGrace)
	serverGrace = time.Second
	r := newTestRunner(t, Limits{Timeout: 2 * time.Second}, true)
	ctx := context.Background()
	if res, err := r.Run(ctx, goodCode, "get_weather"); err != nil || res.Placement != PlacedBatch {
		t.Fatalf("first run: placed %q, %v", res.Placement, err)
	}
	var stopped []int
	r.pool.mu.Lock()
	for z := range r.pool.all {
		if z.batch {
			stopped = append(stopped, z.cmd.Process.Pid)
			syscall.Kill(z.cmd.Process.Pid, syscall.SIGSTOP)
		}
	}
	r.pool.mu.Unlock()
	defer func() {
		for _, pid := range stopped {
			syscall.Kill(pid, syscall.SIGCONT)
		}
	}()
	if len(stopped) == 0 {
		t.Fatal("no fork server of batches to stop")
	}
	// The loop times out in its batch: the batch child is killed, and its server,
	// stopped, reports nothing of its end.
	if _, err := r.Run(ctx, "while True:\n    pass\n", ""); err != nil {
		t.Fatal(err)
	}
	done := make(chan Result, 1)
	go func() {
		res, _ := r.Run(ctx, goodCode, "get_weather")
		done <- res
	}()
	select {
	case res := <-done:
		if res.Status != StatusOK || len(res.Requests) != 1 {
			t.Errorf("run after a stuck server: %s %s %+v", res.Status, res.Reason, res.Requests)
		}
		if st := r.BatchStats(); st.ServersDropped != 1 {
			t.Errorf("batch stats %+v: want the stuck server counted as dropped", st)
		}
	case <-time.After(time.Minute):
		t.Fatal("a batched run still waits on a stopped fork server after a minute")
	}
}
