package beamjob_test

import (
	"flag"
	"os"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
)

// TestMain initializes Beam and keeps the runner's progress lines out of test and
// benchmark output unless -test.v asks for detail.
func TestMain(m *testing.M) {
	flag.Parse()
	if !testing.Verbose() {
		beamlog.LogLevel = "warn"
	}
	beam.Init()
	os.Exit(m.Run())
}
