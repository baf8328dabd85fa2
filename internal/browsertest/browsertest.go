// Package browsertest renders pages in a real headless Chromium (Debian's chromium
// package) for tests, through chromedp: it records every request a page makes, so a
// test can prove a page is self-contained, and checks that tables and figures are
// laid out. A test that needs it skips with a message when Chromium is absent.
package browsertest

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Chromium finds Debian's chromium (or another Chromium-based browser) on PATH.
func Chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Browser is a headless Chromium with a fresh profile, and records the URL of
// every request its pages make.
type Browser struct {
	// Ctx is the browser tab's context, for chromedp actions.
	Ctx  context.Context
	mu   sync.Mutex
	reqs []string
}

// New starts a headless Chromium with a fresh profile for the test; it skips the
// test when Chromium is not installed.
func New(t *testing.T) *Browser {
	t.Helper()
	exe := Chromium()
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
	b := &Browser{Ctx: bctx}
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

// External returns the requests that left the local files.
func (b *Browser) External() []string {
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

// FileURL is the file:// URL of a local path.
func FileURL(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return "file://" + filepath.ToSlash(abs)
}

// CheckRendered is a function to evaluate in the page: for every table and figure id, what is wrong
// with it ("" when it is there, laid out, and has rows or a drawn SVG).
const CheckRendered = `(ids) => ids.map((id) => {
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

// Run runs one action that returns a value, failing the test on an error.
func Run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
