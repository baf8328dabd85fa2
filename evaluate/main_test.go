package evaluate

import (
	"os"
	"syscall"
	"testing"

	"sccg/evaluate/jsbox"
)

// TestMain serves as a JavaScript worker when a jsbox runner under test
// re-executes this binary.
func TestMain(m *testing.M) {
	if jsbox.IsWorker(os.Args) {
		// syscall.Exit, not os.Exit: a race-built worker sleeps a second in
		// os.Exit(0), and each runner's Close waits for it (see jsbox's TestMain).
		syscall.Exit(jsbox.ServeWorker(os.Stdin, os.Stdout, os.Args[2:]))
	}
	os.Exit(m.Run())
}
