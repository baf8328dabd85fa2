package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"sccg/internal/workpool"
	"sccg/release"
)

// benchJob is one run of the split benchmark: code and the function to call.
type benchJob struct{ code, function string }

// benchJobs are the conformance samples' gold codes when SCCG_CONFORMANCE names
// them, else the suite's own good code.
func benchJobs(b testing.TB) []benchJob {
	path := os.Getenv("SCCG_CONFORMANCE")
	if path == "" {
		return []benchJob{{goodCode, "get_weather"}}
	}
	recs, err := release.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var out []benchJob
	for _, r := range recs {
		out = append(out, benchJob{r.Code.CompleteFunction, r.FunctionName})
	}
	return out
}

// BenchmarkRunSplit runs gold code in the sandbox, two runs at a time, and reports
// where a run's CPU time goes (user and system, in ms per run; wall time on a
// shared machine says little): in the child, its setup (taking the job,
// compiling it, its facts, the fakes and limits; for an exec'd run the
// interpreter's start-up too), the code (its statements and the calls of its
// functions) and its exit (tearing its address space down); in the fork server,
// the fork and the loop around it; in the evaluator, the supervision of the run.
// "no-code" runs an empty completion: what isolation and the harness cost before
// any code; "unbatched" runs every completion in a child of its own (as code that
// is not tame does; compare its no-code run with BenchmarkForkFloor);
// "no-namespaces" the same runs without the pool's namespaces.
func BenchmarkRunSplit(b *testing.B) {
	jobs := benchJobs(b)
	for _, tc := range []struct {
		name                string
		exec, noNS, noBatch bool
		empty               bool
		runs                int
	}{
		{"fork-server", false, false, false, false, 1000},
		{"fork-server/no-code", false, false, false, true, 1000},
		{"fork-server/unbatched", false, false, true, false, 300},
		{"fork-server/unbatched/no-code", false, false, true, true, 300},
		{"fork-server/no-namespaces", false, true, false, false, 1000},
		{"exec", true, false, false, false, 200},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var setup, code, exit, total, server, evaluator time.Duration
			var n int
			for range b.N {
				self0, ch0 := rusage(syscall.RUSAGE_SELF), rusage(syscall.RUSAGE_CHILDREN)
				r, err := New(context.Background(), Options{Exec: tc.exec, NoNamespaces: tc.noNS, NoBatch: tc.noBatch,
					ScratchDir: b.TempDir()})
				if err != nil {
					b.Skipf("no sandbox: %v", err)
				}
				var mu sync.Mutex
				var wg sync.WaitGroup
				next := make(chan benchJob)
				for range 2 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for j := range next {
							if tc.empty {
								j = benchJob{}
							}
							res, err := r.Run(context.Background(), j.code, j.function)
							if err != nil {
								b.Error(err)
								continue
							}
							mu.Lock()
							setup, code, total = setup+res.CPU.Setup, code+res.CPU.Code, total+res.CPU.Total
							if res.CPU.Setup > 0 {
								exit += res.CPU.Total - res.CPU.Setup - res.CPU.Code
							}
							n++
							mu.Unlock()
						}
					}()
				}
				for i := range tc.runs {
					next <- jobs[i%len(jobs)]
				}
				close(next)
				wg.Wait()
				r.Close() // reaps the fork servers: their CPU and their children's is counted from here
				evaluator += rusage(syscall.RUSAGE_SELF) - self0
				server += rusage(syscall.RUSAGE_CHILDREN) - ch0
			}
			server -= total // what the servers spent themselves
			per := func(d time.Duration) float64 { return d.Seconds() * 1000 / float64(n) }
			b.ReportMetric(per(setup), "setup-ms/run")
			b.ReportMetric(per(code), "code-ms/run")
			b.ReportMetric(per(exit), "exit-ms/run")
			b.ReportMetric(per(total), "child-ms/run")
			b.ReportMetric(per(server), "server-ms/run")
			b.ReportMetric(per(evaluator), "evaluator-ms/run")
			b.ReportMetric(2000/(per(total)+per(server)+per(evaluator)), "projected-runs/s-2cores")
		})
	}
}

// rusage is the CPU time (user and system) of who (RUSAGE_SELF or RUSAGE_CHILDREN).
func rusage(who int) time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(who, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// distinctJobs are the benchmark's jobs made distinct: each copies times with a
// trailing comment, so nothing can tell two runs of one code apart.
func distinctJobs(b testing.TB, copies int) []benchJob {
	var out []benchJob
	jobs := benchJobs(b)
	for c := range copies {
		for _, j := range jobs {
			out = append(out, benchJob{fmt.Sprintf("%s\n# copy %d\n", j.code, c), j.function})
		}
	}
	return out
}

// inProcessDriver runs jobs (JSON lines on stdin: code and function) one after
// another in this interpreter with the harness as a batch child runs them (fresh
// harness state, fakes and dummies for each) but without any isolation: no fork,
// limits, audit hook, tameness check or verification. A benchmark-only yardstick;
// it prints the CPU seconds the jobs took.
const inProcessDriver = `import sys, json, posix, time, importlib.util
here, scratch = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location("_sccg_entry", here + "/__main__.py")
entry = importlib.util.module_from_spec(spec)
spec.loader.exec_module(entry)
pkg = entry.load(here, server=True)
b, job = pkg.batch, pkg.job
posix.chdir(scratch)
out = posix.dup(1)  # what the code prints goes to /dev/null
null = posix.open("/dev/null", posix.O_WRONLY)
posix.dup2(null, 1)
job.setup(null, scratch, ["0"] * 5, "")
for m in b._PRELOAD:
    try:
        __import__(m)
    except BaseException:
        pass
import os, logging, warnings, random, atexit
jobs = [json.loads(l) for l in sys.stdin]
harness = [m for n, m in list(sys.modules.items()) if n == entry.PACKAGE or n.startswith(entry.PACKAGE + ".")]
import gc
gc.freeze()  # as a fork server does: collections walk only what the jobs made
state = b._HarnessState(harness)
shared = b._Shared(scratch, os, logging, warnings, random, atexit, json, harness, [])
c0 = time.process_time()
for code, fn in jobs:
    state.reset()
    job.nonce, job.function, job.code = "n", fn, code
    b._one(shared, [], [False], check=False)
posix.write(out, b"%f\n" % (time.process_time() - c0))
`

// BenchmarkBatched scores distinct gold codes (the conformance samples' when
// SCCG_CONFORMANCE names them, five copies each made distinct) isolated and
// batched, two runs at a time, and the same jobs with the same harness in-process
// without any isolation, two drivers at a time (and one alone: two processes on
// two cores each take more CPU for the same work); it reports the rates (per CPU
// second, as two idle cores would reach them: wall time on a shared machine says
// little), the ratio of the two at a time, the
// share of tame runs, the batches a verification ended, the batched runs that
// failed and ran again on their own, and the fork servers started (of them, those of
// batch children).
func BenchmarkBatched(b *testing.B) {
	jobs := distinctJobs(b, 5)
	var batchedCPU, inprocCPU, aloneCPU, evaluatorCPU, inBatchCPU, ownCPU time.Duration
	var n, servers, batchServers int
	var full int64
	var st BatchStats
	for range b.N {
		// Not counted: finding the interpreter and writing the harness, once per
		// evaluation (the in-process run's start-up is not counted either). Every
		// fork server, batch child and child of its own is.
		r, err := New(context.Background(), Options{ScratchDir: b.TempDir()})
		if err != nil {
			b.Skipf("no sandbox: %v", err)
		}
		// Nor is collecting and handing back to the system what reading the jobs
		// (and the last round's in-process run) left behind.
		debug.FreeOSMemory()
		self0, ch0 := rusage(syscall.RUSAGE_SELF), rusage(syscall.RUSAGE_CHILDREN)
		var mu sync.Mutex
		if err := workpool.ForEach(context.Background(), 2, len(jobs), func(i int) error {
			res, err := r.Run(context.Background(), jobs[i].code, jobs[i].function)
			mu.Lock()
			if res.Placement == PlacedBatch {
				inBatchCPU += res.CPU.Total
			} else {
				ownCPU += res.CPU.Total
			}
			mu.Unlock()
			return err
		}); err != nil {
			b.Fatal(err)
		}
		s := r.BatchStats()
		st.Batched, st.Own, st.NotTame, st.Ended, st.Failed, st.Children = st.Batched+s.Batched, st.Own+s.Own,
			st.NotTame+s.NotTame, st.Ended+s.Ended, st.Failed+s.Failed, st.Children+s.Children
		if len(st.Culprits) == 0 {
			st.Culprits = s.Culprits
		}
		for why, n := range s.FullCompare {
			full += n
			b.Logf("batch children comparing every namespace: %d (%s)", n, why)
		}
		r.pool.mu.Lock()
		servers += r.pool.started[0] + r.pool.started[1]
		batchServers += r.pool.started[1]
		r.pool.mu.Unlock()
		r.Close() // reaps the fork servers: their CPU and their children's is counted from here
		evaluatorCPU += rusage(syscall.RUSAGE_SELF) - self0
		batchedCPU += rusage(syscall.RUSAGE_SELF) - self0 + rusage(syscall.RUSAGE_CHILDREN) - ch0
		n += len(jobs)
		ip, err := New(context.Background(), Options{ScratchDir: b.TempDir(), NoBatch: true})
		if err != nil {
			b.Fatal(err)
		}
		inprocCPU += inProcess(b, ip, jobs, 2)
		aloneCPU += inProcess(b, ip, jobs, 1)
		ip.Close()
	}
	per := func(d time.Duration) float64 { return d.Seconds() * 1000 / float64(n) }
	b.ReportMetric(2000/per(batchedCPU), "isolated-batched-runs/s-2cores")
	b.ReportMetric(2000/per(inprocCPU), "in-process-runs/s-2cores")
	b.ReportMetric(2000/per(aloneCPU), "in-process-alone-runs/s-2cores")
	b.ReportMetric(per(inprocCPU)/per(batchedCPU), "ratio")
	b.ReportMetric(per(evaluatorCPU), "evaluator-ms/run")
	b.ReportMetric(per(batchedCPU-evaluatorCPU), "children-ms/run")
	// where the children's CPU goes: the batched jobs themselves, the children of
	// their own (code that is not tame), and the rest (fork servers and batch
	// children starting and ending)
	b.ReportMetric(inBatchCPU.Seconds()*1000/float64(max(st.Batched, 1)), "batched-job-ms")
	b.ReportMetric(ownCPU.Seconds()*1000/float64(max(st.Own, 1)), "own-child-ms")
	b.ReportMetric(per(batchedCPU-evaluatorCPU-inBatchCPU-ownCPU), "servers-and-batches-ms/run")
	b.ReportMetric(float64(st.Batched)/float64(st.Batched+st.Own), "batched-share")
	b.ReportMetric(1-float64(st.NotTame)/float64(st.Batched+st.Own), "tame-share")
	b.ReportMetric(float64(st.Ended), "batches-ended-by-verification")
	b.ReportMetric(float64(st.Failed), "batched-runs-failed")
	b.ReportMetric(float64(st.Children), "batch-children")
	b.ReportMetric(float64(full), "full-compare-children")
	b.ReportMetric(float64(servers)/float64(b.N), "fork-servers")
	b.ReportMetric(float64(batchServers)/float64(b.N), "fork-servers-of-batches")
	if len(st.Culprits) > 0 {
		b.Logf("batches ended: %q", st.Culprits)
	}
}

// inProcess runs jobs with inProcessDriver, in parallel drivers at a time (each
// every parallel-th job), and returns their CPU time.
func inProcess(b *testing.B, r *Runner, jobs []benchJob, parallel int) time.Duration {
	dir := filepath.Dir(r.harness)
	driver := filepath.Join(b.TempDir(), "driver.py")
	if err := os.WriteFile(driver, []byte(inProcessDriver), 0o600); err != nil {
		b.Fatal(err)
	}
	cpu := make([]time.Duration, parallel)
	var wg sync.WaitGroup
	for p := range parallel {
		var in bytes.Buffer
		for i := p; i < len(jobs); i += parallel {
			line, _ := json.Marshal([]string{jobs[i].code, jobs[i].function})
			in.Write(append(line, '\n'))
		}
		cmd := exec.Command(r.python, "-I", "-S", "-B", driver, dir, b.TempDir())
		cmd.Stdin = &in
		cmd.Env = baseEnv(b.TempDir())
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := cmd.Output()
			if err != nil {
				b.Errorf("in-process driver: %v %s", err, out)
				return
			}
			f := strings.Fields(string(out))
			secs, err := strconv.ParseFloat(f[len(f)-1], 64)
			if err != nil {
				b.Errorf("in-process driver: %q", out)
				return
			}
			cpu[p] = time.Duration(secs * float64(time.Second))
		}()
	}
	wg.Wait()
	var sum time.Duration
	for _, c := range cpu {
		sum += c
	}
	return sum
}

// forkFloorDriver loads the harness and the warm modules as a fork server does,
// then forks children that exit at once, and prints the CPU seconds (its own and
// its children's) per fork.
const forkFloorDriver = `import sys, posix, time, gc, resource, importlib.util
here = sys.argv[1]
spec = importlib.util.spec_from_file_location("_sccg_entry", here + "/__main__.py")
entry = importlib.util.module_from_spec(spec)
spec.loader.exec_module(entry)
pkg = entry.load(here, server=True)
for m in pkg.server._WARM:
    try:
        __import__(m)
    except ImportError:
        pass
gc.freeze()
def cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime
n = 300
c0 = cpu()
for _ in range(n):
    pid = posix.fork()
    if pid == 0:
        posix._exit(0)
    posix.waitpid(pid, 0)
posix.write(1, b"%f\n" % ((cpu() - c0) / n))
`

// BenchmarkForkFloor measures the fork floor of this machine: the CPU time of a
// fork and exit of a bare fork server (harness and warm modules loaded), the least
// a run in a child of its own can cost; compare BenchmarkRunSplit's no-code run.
func BenchmarkForkFloor(b *testing.B) {
	r, err := New(context.Background(), Options{ScratchDir: b.TempDir(), NoBatch: true})
	if err != nil {
		b.Skipf("no sandbox: %v", err)
	}
	defer r.Close()
	driver := filepath.Join(b.TempDir(), "floor.py")
	if err := os.WriteFile(driver, []byte(forkFloorDriver), 0o600); err != nil {
		b.Fatal(err)
	}
	var sum float64
	for range b.N {
		cmd := exec.Command(r.python, "-I", "-S", "-B", driver, filepath.Dir(r.harness))
		cmd.Env = baseEnv(b.TempDir())
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("fork floor: %v %s", err, out)
		}
		s, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
		if err != nil {
			b.Fatalf("fork floor: %q", out)
		}
		sum += s
	}
	b.ReportMetric(sum*1000/float64(b.N), "fork-floor-ms")
}
