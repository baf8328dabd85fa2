package report

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"

	"sccg/evaluate"
	"sccg/internal/browsertest"
)

var screenshot = flag.String("screenshot", "", "also save the browser test's screenshot of index.html to this PNG file")

func TestBrowserRendersReport(t *testing.T) {
	dir, m := writeFixture(t, fixtureInputs, Options{Rounds: 200, Lineage: func(_ context.Context, id string) (string, error) {
		return "lineage of " + id, nil
	}})
	var ids []string
	for _, e := range append(append([]Entry{}, m.Tables...), m.Figures...) {
		ids = append(ids, e.ID)
	}
	want := []string{"table-ii", "table-iv", "table-v", "table-answers", "table-dep-recall", "table-vi", "table-vii", "table-attribution", "table-viii", "table-pass-at-k",
		"table-doc-match-type", "table-comments-source", "table-time-slice", "fig-loc-cdf", "fig-lorenz",
		"fig-update-years", "fig-staircase", "fig-attribution", "fig-failures", "fig-retrieval"}
	for _, id := range want {
		if !strings.Contains(strings.Join(ids, " "), id) {
			t.Errorf("the manifest lacks %s (has %v)", id, ids)
		}
	}
	b := browsertest.New(t)
	idsJSON, _ := json.Marshal(ids)
	ctx := b.Ctx
	visible := `[...document.querySelectorAll("#sample-index tbody tr")].filter((tr) => tr.style.display !== "none").length`
	if err := chromedp.Do(ctx, chromedp.Navigate(browsertest.FileURL(t, filepath.Join(dir, "index.html"))), chromedp.WaitReady("#sample-index")); err != nil {
		t.Fatal(err)
	}
	problems := browsertest.Run(t, ctx, chromedp.Evaluate[[]string](fmt.Sprintf("(%s)(%s)", browsertest.CheckRendered, idsJSON)))
	shot := browsertest.Run(t, ctx, chromedp.CaptureScreenshot())
	rows := browsertest.Run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("#sample-index tbody tr").length`))
	// Table V fits a 1400-px window (the page's padding aside), Mock and Robust included.
	if w := browsertest.Run(t, ctx, chromedp.Evaluate[float64](`document.querySelector("#table-v table").getBoundingClientRect().width`)); w > 1400-2*28 {
		t.Errorf("Table V is %.0f px wide, more than a 1400-px window shows", w)
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys("#sample-filter", "SCG-000073")); err != nil {
		t.Fatal(err)
	}
	filtered := browsertest.Run(t, ctx, chromedp.Evaluate[int](visible))
	hostRows := browsertest.Run(t, ctx, chromedp.Evaluate[int](`(() => {
		document.getElementById("sample-filter").value = "";
		document.getElementById("sample-group").value = "g0";
		const st = document.getElementById("sample-stage");
		st.value = "host";
		st.dispatchEvent(new Event("input"));
	})(), `+visible))
	group0 := browsertest.Run(t, ctx, chromedp.Evaluate[string](`document.querySelector("#sample-group option[value=g0]").textContent`))
	res, err := evaluate.ReadResults("testdata/grid/cells/intent/synthetic-small")
	if err != nil {
		t.Fatal(err)
	}
	wantHost := 0
	for _, r := range res {
		if r.FailureStage == evaluate.StageHost {
			wantHost++
		}
	}
	for _, p := range problems {
		t.Errorf("index.html: %s", p)
	}
	if rows != m.Samples || rows == 0 {
		t.Errorf("the sample index has %d rows, want %d", rows, m.Samples)
	}
	if filtered != 1 {
		t.Errorf("filtering the samples by SCG-000073 shows %d rows, want 1", filtered)
	}
	if group0 != "intent / synthetic-small" || hostRows != wantHost || wantHost == 0 {
		t.Errorf("filtering by group %q and the host stage shows %d rows, want %d", group0, hostRows, wantHost)
	}
	saveScreenshot(t, shot)

	if err := chromedp.Do(ctx, chromedp.Navigate(browsertest.FileURL(t, filepath.Join(dir, "samples", "SCG-000008.html"))), chromedp.WaitReady("#lineage")); err != nil {
		t.Fatal(err)
	}
	gold := browsertest.Run(t, ctx, chromedp.Text("#gold-code"))
	lineage := browsertest.Run(t, ctx, chromedp.Text("#lineage-text"))
	gens := browsertest.Run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll(".gen").length`))
	if !strings.Contains(gold, "def ") || lineage != "lineage of SCG-000008" {
		t.Errorf("sample page: gold code %q, lineage %q", gold, lineage)
	}
	if gens != 9 { // one per grid cell (three for intent/synthetic-large) and gold
		t.Errorf("sample page shows %d generations, want 9", gens)
	}
	if ext := b.External(); len(ext) > 0 {
		t.Errorf("the report made network requests: %v", ext)
	}
}

// TestBrowserSeesRequests shows that the network check can fail: a page that
// loads an image from a (local) server is caught.
func TestBrowserSeesRequests(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "image/gif")
		w.Write([]byte("GIF89a"))
	}))
	defer srv.Close()
	page := filepath.Join(t.TempDir(), "leaky.html")
	if err := os.WriteFile(page, []byte(`<!DOCTYPE html><html><body><p id="x">x</p><img src="`+srv.URL+`/pixel.gif"></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	b := browsertest.New(t)
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(browsertest.FileURL(t, page)), chromedp.WaitReady("#x")); err != nil {
		t.Fatal(err)
	}
	ext := b.External()
	if len(ext) != 1 || !strings.HasPrefix(ext[0], srv.URL) {
		t.Errorf("external requests = %v, want the one image from %s (server hits %d)", ext, srv.URL, hits.Load())
	}
}

// saveScreenshot keeps the screenshot under the test's temp dir, and where
// -screenshot says.
func saveScreenshot(t *testing.T, png []byte) {
	t.Helper()
	if len(png) < 1000 {
		t.Fatalf("screenshot of %d bytes", len(png))
	}
	path := filepath.Join(t.TempDir(), "report.png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	if *screenshot != "" {
		if err := os.WriteFile(*screenshot, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
