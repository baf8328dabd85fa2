// Package conformance gives tests the public validation samples that `make
// conformance` names in $SCCG_CONFORMANCE, and skips them when it is not set, so the
// project's own tests never depend on data outside the repository.
package conformance

import (
	"os"
	"testing"

	"sccg/release"
)

// Env is the variable that names the conformance samples' file.
const Env = "SCCG_CONFORMANCE"

// Path is the conformance samples' file; it skips the test when Env is not set.
func Path(t testing.TB) string {
	t.Helper()
	p := os.Getenv(Env)
	if p == "" {
		t.Skip(Env + " not set (make conformance sets it)")
	}
	return p
}

// Records reads the conformance samples; it skips the test when Env is not set.
func Records(t testing.TB) []release.Record {
	t.Helper()
	recs, err := release.ReadFile(Path(t))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
