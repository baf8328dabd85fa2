package crawl

import (
	"os"
	"path/filepath"
	"testing"

	"sccg/internal/storetest"
	"sccg/internal/synthapi"
)

// writeLargeDescription writes the 1,000-path code-hosting API's description into
// dir and returns its path.
func writeLargeDescription(t testing.TB, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "codehost.json")
	if err := os.WriteFile(p, synthapi.OpenAPI("Code host REST API", "https://api.codehost.test", synthapi.CodeHost(1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A 1,000-path description imports whole: one API, every operation an endpoint.
// Slow: the description's size is the test (3 s under the race detector).
func TestImportLargeDescription(t *testing.T) {
	if testing.Short() {
		t.Skip("imports a 1,000-path description")
	}
	s := storetest.Open(t)
	p := writeLargeDescription(t, t.TempDir())
	sum, err := Run(t.Context(), s, Options{Source: SourceOpenAPI, Paths: []string{p}})
	if err != nil {
		t.Fatal(err)
	}
	if want := len(synthapi.CodeHost(1000)); sum.Saved != 1 || sum.Endpoints != want || sum.Bad != 0 {
		t.Errorf("saved %d APIs with %d endpoints (%d bad), want 1 with %d", sum.Saved, sum.Endpoints, sum.Bad, want)
	}
}

// BenchmarkImportLargeDescription imports a 1,000-path OpenAPI description (about
// 2,200 operations) into a fresh store; -benchmem gives what it allocates.
func BenchmarkImportLargeDescription(b *testing.B) {
	p := writeLargeDescription(b, b.TempDir())
	info, err := os.Stat(p)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := storetest.Open(b)
		b.StartTimer()
		if _, err := Run(b.Context(), s, Options{Source: SourceOpenAPI, Paths: []string{p}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(info.Size())/(1<<20), "file-MB")
}
