package evaluate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"sccg/evaluate/metrics"
	"sccg/evaluate/sandbox"
	"sccg/lang/frontends"
	"sccg/release"
)

// BenchmarkEvalGold scores 2,000 gold completions with full isolation: the
// conformance codes replicated when SCCG_CONFORMANCE is set, the synthetic
// testdata otherwise, each copy made distinct by a trailing comment (so no run is
// reused). It reports completions per second, CPU per completion (user and
// system: the evaluator's own, scoring included, and the sandbox's, fork servers
// and children), the rate two idle cores would reach, peak memory (the
// evaluator's own maximum resident set, and the largest sandboxed child's), and
// how many completions ran in batches. sandbox.BenchmarkRunSplit splits the
// sandbox's part further, sandbox.BenchmarkBatched compares batching with the
// harness run in-process without isolation.
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
			SampleIndex: i / len(bench), Completion: r.Code.CompleteFunction + fmt.Sprintf("\n# copy %d\n", i/len(bench))})
	}
	for _, m := range []struct {
		name string
		opts sandbox.Options
	}{{"exec", sandbox.Options{Exec: true}}, {"fork-server", sandbox.Options{NoBatch: true}}, {"batched", sandbox.Options{}}} {
		b.Run(m.name, func(b *testing.B) { benchEval(b, bench, gens, m.opts) })
	}
}

// cpuSeconds is the CPU time (user and system) of who: this process
// (RUSAGE_SELF) or its reaped children (RUSAGE_CHILDREN).
func cpuSeconds(who int) float64 {
	var ru syscall.Rusage
	syscall.Getrusage(who, &ru)
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

func benchEval(b *testing.B, bench []release.Record, gens []Generation, opts sandbox.Options) {
	self0, ch0 := cpuSeconds(syscall.RUSAGE_SELF), cpuSeconds(syscall.RUSAGE_CHILDREN)
	b.ResetTimer()
	var done, batched, reused int
	for i := 0; i < b.N; i++ {
		opts.ScratchDir = b.TempDir()
		out, err := Run(context.Background(), Config{Bench: bench, Generations: gens, Sandbox: opts})
		if err != nil {
			b.Fatal(err)
		}
		done += len(out.Results)
		batched += int(out.Runs.Batched)
		reused += out.Runs.Reused
		if i == 0 {
			b.Logf("%d completions, isolation %s, runs %+v", len(out.Results), out.Summary.Isolation, *out.Runs)
		}
	}
	b.ReportMetric(float64(batched)/float64(done), "batched-share")
	b.ReportMetric(float64(reused)/float64(done), "reused-share")
	b.StopTimer()
	b.ReportMetric(float64(done)/b.Elapsed().Seconds(), "completions/s")
	// The wall-clock rate depends on what else the machine runs; CPU seconds per
	// completion give the rate two otherwise idle cores would reach.
	selfPer := (cpuSeconds(syscall.RUSAGE_SELF) - self0) / float64(done)
	sandboxPer := (cpuSeconds(syscall.RUSAGE_CHILDREN) - ch0) / float64(done)
	b.ReportMetric((selfPer+sandboxPer)*1000, "cpu-ms/completion")
	b.ReportMetric(selfPer*1000, "evaluator-cpu-ms/completion")
	b.ReportMetric(sandboxPer*1000, "sandbox-cpu-ms/completion")
	b.ReportMetric(2/(selfPer+sandboxPer), "projected-completions/s-2cores")
	var self, children syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	b.ReportMetric(float64(self.Maxrss)/1024, "peak-evaluator-MB")
	b.ReportMetric(float64(children.Maxrss)/1024, "peak-child-MB")
}

// BenchmarkStaticScores scores every benchmark code against a neighbour's gold
// code (each sample's gold code as a completion of the next sample) with the static
// metrics a completion gets: CodeBLEU (tokens, tree-sitter parse, subtrees, data
// flow), edit similarity, token precision and recall, and the credential scan. It
// is what a distinct completion costs the evaluator beyond its run.
func BenchmarkStaticScores(b *testing.B) {
	path := os.Getenv("SCCG_CONFORMANCE")
	if path == "" {
		path = filepath.Join("testdata", "bench.json")
	}
	bench, err := release.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	infos := make([]*sampleInfo, len(bench))
	for i, r := range bench {
		fe, d, err := frontends.ForRecord(&r)
		if err != nil {
			b.Fatal(err)
		}
		infos[i] = &sampleInfo{rec: r, fe: fe, dialect: d, ref: metrics.Analyze(ctx, fe, d, r.Code.CompleteFunction)}
	}
	b.ResetTimer()
	n := 0
	for range b.N {
		for i, s := range infos {
			s.static = nil
			s.staticOf(ctx, bench[(i+1)%len(bench)].Code.CompleteFunction)
			n++
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(n), "ms/completion")
}
