package jsbox

import (
	"context"
	"os"
	"testing"
	"time"

	"sccg/evaluate/sandbox"
)

// TestMain serves as a worker when the runner under test re-executes this binary.
func TestMain(m *testing.M) {
	if IsWorker(os.Args) {
		os.Exit(ServeWorker(os.Stdin, os.Stdout, os.Args[2:]))
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
