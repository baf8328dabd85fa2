package jsbox

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"sccg/evaluate/sandbox"
)

// TestMain serves as a worker when the runner under test re-executes this binary.
func TestMain(m *testing.M) {
	if IsWorker(os.Args) {
		// syscall.Exit, not os.Exit: under the race detector os.Exit(0) sleeps a
		// second first (GORACE's atexit_sleep_ms; a worker gets an empty
		// environment), and Runner.Close waits for each worker to end, so every
		// runner a test closed cost a second per worker. The runner reads no exit
		// status of a worker it stopped, so nothing it checks is lost.
		syscall.Exit(ServeWorker(os.Stdin, os.Stdout, os.Args[2:]))
	}
	os.Exit(m.Run())
}

// newTestRunner starts a runner whose workers are this test binary.
func newTestRunner(t testing.TB, opts Options) *Runner {
	t.Helper()
	if len(opts.Command) == 0 {
		opts.Command = []string{os.Args[0], WorkerArg}
	}
	if opts.Timeout == 0 {
		opts.Timeout = 2 * time.Second
		if raceBuild {
			opts.Timeout = 4 * time.Second
		}
	}
	r, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// wantOOM: a worker out of memory, which a race build reports as a crash (its
// allocator fails other than Go's).
func wantOOM(s sandbox.Status) bool {
	return s == sandbox.StatusOOM || raceBuild && s == sandbox.StatusCrash
}
