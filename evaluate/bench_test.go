package evaluate

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"sccg/release"
)

// BenchmarkEvalGold scores 2,000 gold completions with full isolation: the
// conformance codes replicated when SCCG_CONFORMANCE is set, the synthetic
// testdata otherwise. It reports completions per second and peak memory (the
// evaluator's own maximum resident set, and the largest sandboxed child's).
func BenchmarkEvalGold(b *testing.B) {
	path := os.Getenv("SCCG_CONFORMANCE")
	if path == "" {
		path = filepath.Join("testdata", "bench.json")
	}
	bench, err := release.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	const total = 2000
	var gens []Generation
	for i := 0; len(gens) < total; i++ {
		r := bench[i%len(bench)]
		gens = append(gens, Generation{SampleID: r.SampleID, Setting: "gold", Model: "gold",
			SampleIndex: i / len(bench), Completion: r.Code.CompleteFunction})
	}
	for _, warm := range []bool{false, true} {
		name := "exec"
		if warm {
			name = "fork-server"
		}
		b.Run(name, func(b *testing.B) { benchEval(b, bench, gens, warm) })
	}
}

// cpuSeconds is the CPU time of this process and its reaped children so far.
func cpuSeconds() float64 {
	var self, ch syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ch)
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(self.Utime) + tv(self.Stime) + tv(ch.Utime) + tv(ch.Stime)
}

func benchEval(b *testing.B, bench []release.Record, gens []Generation, warm bool) {
	c0 := cpuSeconds()
	b.ResetTimer()
	var done int
	for i := 0; i < b.N; i++ {
		opts := sandboxOpts(b)
		opts.Exec = !warm
		out, err := Run(context.Background(), Config{Bench: bench, Generations: gens, Sandbox: opts})
		if err != nil {
			b.Fatal(err)
		}
		done += len(out.Results)
		if i == 0 {
			b.Logf("%d completions, isolation %s", len(out.Results), out.Summary.Isolation)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(done)/b.Elapsed().Seconds(), "completions/s")
	// The wall-clock rate depends on what else the machine runs; CPU seconds per
	// completion give the rate two otherwise idle cores would reach.
	cpuPer := (cpuSeconds() - c0) / float64(done)
	b.ReportMetric(cpuPer*1000, "cpu-ms/completion")
	b.ReportMetric(2/cpuPer, "projected-completions/s-2cores")
	var self, children syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	b.ReportMetric(float64(self.Maxrss)/1024, "peak-evaluator-MB")
	b.ReportMetric(float64(children.Maxrss)/1024, "peak-child-MB")
}
