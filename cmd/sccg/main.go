// Command sccg rebuilds, extends and evaluates the SCCGBench benchmark of real-world
// web service-call code. Each pipeline stage is a subcommand; see `sccg help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], newEnv())
	stop()
	os.Exit(code)
}
