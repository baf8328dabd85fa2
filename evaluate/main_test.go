package evaluate

import (
	"os"
	"testing"

	"sccg/evaluate/jsbox"
)

// TestMain serves as a JavaScript worker when a jsbox runner under test
// re-executes this binary.
func TestMain(m *testing.M) {
	if jsbox.IsWorker(os.Args) {
		os.Exit(jsbox.ServeWorker(os.Stdin, os.Stdout, os.Args[2:]))
	}
	os.Exit(m.Run())
}
