package report

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"sccg/evaluate"
)

var screenshot = flag.String("screenshot", "", "also save the browser test's screenshot of index.html to this PNG file")

// chromium finds Debian's chromium (or another Chromium-based browser) on PATH.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser starts a headless Chromium with a fresh profile, and records the URL of
// every request its pages make.
type browser struct {
	ctx  context.Context
	mu   sync.Mutex
	reqs []string
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	exe := chromium()
	if exe == "" {
		t.Skip("Chromium is not installed (apt-get install chromium): the report is not rendered in a browser")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.NoFirstRun,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	ctx, cancelTimeout := context.WithTimeout(context.Background(), 60*time.Second)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelBrowser(); cancelAlloc(); cancelTimeout() })
	b := &browser{ctx: bctx}
	if err := chromedp.Listen(bctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			b.mu.Lock()
			b.reqs = append(b.reqs, e.Request.URL)
			b.mu.Unlock()
		}
	}); err != nil {
		t.Fatalf("start Chromium (%s): %v", exe, err)
	}
	if _, err := chromedp.Call(bctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("start Chromium (%s): %v", exe, err)
	}
	return b
}

// external returns the requests that left the local files.
func (b *browser) external() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, u := range b.reqs {
		if !strings.HasPrefix(u, "file://") {
			out = append(out, u)
		}
	}
	return out
}

func fileURL(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return "file://" + filepath.ToSlash(abs)
}

// checkRendered is run in the page: for every table and figure id, what is wrong
// with it ("" when it is there, laid out, and has rows or a drawn SVG).
const checkRendered = `(ids) => ids.map((id) => {
	const el = document.getElementById(id);
	if (!el) return id + ": missing";
	const r = el.getBoundingClientRect();
	if (r.width === 0 || r.height === 0) return id + ": not laid out";
	if (el.tagName === "FIGURE") {
		const svg = el.querySelector("svg");
		if (!svg || svg.getBoundingClientRect().width < 200) return id + ": no SVG drawn";
		if (svg.querySelectorAll("path").length === 0) return id + ": an empty SVG";
	} else if (el.querySelectorAll("tbody tr").length === 0) return id + ": no rows";
	return "";
}).filter((s) => s !== "")`

func TestBrowserRendersReport(t *testing.T) {
	dir, m := writeFixture(t, fixtureInputs, Options{Rounds: 200, Lineage: func(_ context.Context, id string) (string, error) {
		return "lineage of " + id, nil
	}})
	var ids []string
	for _, e := range append(append([]Entry{}, m.Tables...), m.Figures...) {
		ids = append(ids, e.ID)
	}
	want := []string{"table-ii", "table-iv", "table-v", "table-dep-recall", "table-vi", "table-vii", "table-viii", "table-pass-at-k",
		"table-doc-match-type", "table-comments-source", "table-time-slice", "fig-loc-cdf", "fig-lorenz",
		"fig-update-years", "fig-staircase", "fig-failures", "fig-retrieval"}
	for _, id := range want {
		if !strings.Contains(strings.Join(ids, " "), id) {
			t.Errorf("the manifest lacks %s (has %v)", id, ids)
		}
	}
	b := newBrowser(t)
	idsJSON, _ := json.Marshal(ids)
	ctx := b.ctx
	visible := `[...document.querySelectorAll("#sample-index tbody tr")].filter((tr) => tr.style.display !== "none").length`
	if err := chromedp.Do(ctx, chromedp.Navigate(fileURL(t, filepath.Join(dir, "index.html"))), chromedp.WaitReady("#sample-index")); err != nil {
		t.Fatal(err)
	}
	problems := run(t, ctx, chromedp.Evaluate[[]string](fmt.Sprintf("(%s)(%s)", checkRendered, idsJSON)))
	shot := run(t, ctx, chromedp.CaptureScreenshot())
	rows := run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("#sample-index tbody tr").length`))
	if err := chromedp.Do(ctx, chromedp.SendKeys("#sample-filter", "SCG-000073")); err != nil {
		t.Fatal(err)
	}
	filtered := run(t, ctx, chromedp.Evaluate[int](visible))
	hostRows := run(t, ctx, chromedp.Evaluate[int](`(() => {
		document.getElementById("sample-filter").value = "";
		document.getElementById("sample-group").value = "g0";
		const st = document.getElementById("sample-stage");
		st.value = "host";
		st.dispatchEvent(new Event("input"));
	})(), `+visible))
	group0 := run(t, ctx, chromedp.Evaluate[string](`document.querySelector("#sample-group option[value=g0]").textContent`))
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

	if err := chromedp.Do(ctx, chromedp.Navigate(fileURL(t, filepath.Join(dir, "samples", "SCG-000008.html"))), chromedp.WaitReady("#lineage")); err != nil {
		t.Fatal(err)
	}
	gold := run(t, ctx, chromedp.Text("#gold-code"))
	lineage := run(t, ctx, chromedp.Text("#lineage-text"))
	gens := run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll(".gen").length`))
	if !strings.Contains(gold, "def ") || lineage != "lineage of SCG-000008" {
		t.Errorf("sample page: gold code %q, lineage %q", gold, lineage)
	}
	if gens != 9 { // one per grid cell (three for intent/synthetic-large) and gold
		t.Errorf("sample page shows %d generations, want 9", gens)
	}
	if ext := b.external(); len(ext) > 0 {
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
	b := newBrowser(t)
	if err := chromedp.Do(b.ctx, chromedp.Navigate(fileURL(t, page)), chromedp.WaitReady("#x")); err != nil {
		t.Fatal(err)
	}
	ext := b.external()
	if len(ext) != 1 || !strings.HasPrefix(ext[0], srv.URL) {
		t.Errorf("external requests = %v, want the one image from %s (server hits %d)", ext, srv.URL, hits.Load())
	}
}

// run runs one action that returns a value.
func run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
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
