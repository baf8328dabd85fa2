package sandbox

import (
	"context"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"sccg/release"
)

// benchJob is one run of the split benchmark: code and the function to call.
type benchJob struct{ code, function string }

// benchJobs are the conformance samples' gold codes when SCCG_CONFORMANCE names
// them, else the suite's own good code.
func benchJobs(b *testing.B) []benchJob {
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
// any code; "no-namespaces" the same runs without the pool's namespaces.
func BenchmarkRunSplit(b *testing.B) {
	jobs := benchJobs(b)
	for _, tc := range []struct {
		name       string
		exec, noNS bool
		empty      bool
		runs       int
	}{
		{"fork-server", false, false, false, 1000},
		{"fork-server/no-code", false, false, true, 1000},
		{"fork-server/no-namespaces", false, true, false, 1000},
		{"exec", true, false, false, 200},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var setup, code, exit, total, server, evaluator time.Duration
			var n int
			for range b.N {
				self0, ch0 := rusage(syscall.RUSAGE_SELF), rusage(syscall.RUSAGE_CHILDREN)
				r, err := New(context.Background(), Options{Exec: tc.exec, NoNamespaces: tc.noNS, ScratchDir: b.TempDir()})
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
