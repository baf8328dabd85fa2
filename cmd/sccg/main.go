// Command sccg rebuilds, extends and evaluates the SCCGBench benchmark of real-world
// web service-call code. Each pipeline stage is a subcommand; see `sccg help`.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"sccg/evaluate/jsbox"
)

func main() {
	if jsbox.IsWorker(os.Args) { // the JavaScript sandbox's worker process, started by jsbox.Runner
		os.Exit(jsbox.ServeWorker(os.Stdin, os.Stdout, os.Args[2:]))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	endProfile := startProfile(os.Getenv("SCCG_CPUPROFILE"))
	code := run(ctx, os.Args[1:], newEnv())
	endProfile()
	stop()
	os.Exit(code)
}

// startProfile writes a CPU profile of the command (not of the sandboxes' worker
// processes, which have their own) to path when it is set, for whoever measures
// where a command's time goes; the returned function ends it.
func startProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "sccg: SCCG_CPUPROFILE: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "sccg: SCCG_CPUPROFILE: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
