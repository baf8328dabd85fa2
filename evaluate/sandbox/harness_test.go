package sandbox

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestHarnessPythonUnit runs the harness's own unit tests (harness/tests, standard
// library unittest only) with the interpreter a Runner would use, and fails with
// their output when one of them fails. Slow (about 10 s, most of it waiting on the
// fork servers and children the tests start, little CPU), so it runs in parallel
// with the package's other parallel tests.
func TestHarnessPythonUnit(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	py, err := resolvePython(ctx, "")
	if err != nil {
		t.Skipf("no python: %v", err)
	}
	cmd := exec.CommandContext(ctx, py, "-I", "-S", "-B", "-m", "unittest", "discover",
		"-s", filepath.Join("harness", "tests"), "-t", ".")
	cmd.Env = baseEnv(t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python unit tests of the harness: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
