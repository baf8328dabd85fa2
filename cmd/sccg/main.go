// Command sccg rebuilds, extends and evaluates the SCCGBench benchmark of real-world
// web service-call code. Each pipeline stage is a subcommand; see `sccg help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"sccg/evaluate/jsbox"
)

func main() {
	if jsbox.IsWorker(os.Args) { // the JavaScript sandbox's worker process, started by jsbox.Runner
		os.Exit(jsbox.ServeWorker(os.Stdin, os.Stdout, os.Args[2:]))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], newEnv())
	stop()
	os.Exit(code)
}
