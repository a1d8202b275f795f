// Package browser drives Debian's headless Chromium from tests, through
// chromedp: it loads a page, collects console errors and uncaught
// exceptions, evaluates JavaScript and takes screenshots. Each Browser
// runs its own Chromium with a fresh profile directory and no network
// features of its own (no QUIC, sync, component updates or background
// requests), so tests see only the page they load.
package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/perflab/perflab/internal/testprog"
)

// A Browser is one running headless Chromium.
type Browser struct {
	ctx         context.Context // the browser's first tab; holds the process
	cancel      context.CancelFunc
	cancelAlloc context.CancelFunc
}

// Start runs the Chromium at path headless, with a fresh profile in dir.
func Start(ctx context.Context, path, dir string) (*Browser, error) {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 900),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancel := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		cancel()
		cancelAlloc()
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	return &Browser{ctx: bctx, cancel: cancel, cancelAlloc: cancelAlloc}, nil
}

// Close stops the browser.
func (b *Browser) Close() {
	b.cancel()
	b.cancelAlloc()
}

// A Page is one tab with a loaded page.
type Page struct {
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	errs   []string
}

// Open loads url in a new tab and waits for its load event. Console
// errors and uncaught exceptions are collected from before the navigation.
func (b *Browser) Open(url string, timeout time.Duration) (*Page, error) {
	tctx, cancel := chromedp.NewContext(b.ctx)
	p := &Page{ctx: tctx, cancel: cancel}
	if err := chromedp.Listen(tctx, p.listen); err != nil {
		cancel()
		return nil, err
	}
	nctx, ncancel := context.WithTimeout(tctx, timeout)
	defer ncancel()
	if err := chromedp.Do(nctx, chromedp.Navigate(url)); err != nil {
		cancel()
		return nil, fmt.Errorf("loading %s: %w", url, err)
	}
	return p, nil
}

func (p *Page) listen(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, string(a.Value)+a.Description)
			}
			msg = "console." + string(ev.Type) + ": " + strings.Join(parts, " ")
		}
	case *runtime.EventExceptionThrown:
		msg = "exception: " + (&chromedp.ExceptionError{ExceptionDetails: ev.ExceptionDetails}).Error()
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError {
			msg = "log: " + ev.Entry.Text + " " + ev.Entry.URL
		}
	}
	if msg != "" {
		p.mu.Lock()
		p.errs = append(p.errs, msg)
		p.mu.Unlock()
	}
}

// Errors returns the console errors, uncaught exceptions and error log
// entries seen so far.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errs...)
}

// Eval evaluates a JavaScript expression and decodes its JSON value.
func Eval[T any](p *Page, expr string) (T, error) {
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr))
}

// Screenshot writes a PNG of the whole page to path.
func (p *Page) Screenshot(path string) error {
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		return err
	}
	return os.WriteFile(path, png, 0o644)
}

// Close closes the tab.
func (p *Page) Close() { p.cancel() }

// ForTest starts a browser for t and stops it when t ends. Without
// Chromium the test is skipped, or fails under PERFLAB_REQUIRE_ORACLES=1
// (see testprog.Oracle): scripts/test installs Chromium.
func ForTest(t testing.TB) *Browser {
	t.Helper()
	b, err := Start(context.Background(), testprog.Oracle(t, "chromium"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// CanvasInk returns, for each canvas matching the CSS selector, how many
// of its pixels are within a small distance of the color rgb ("#rrggbb");
// for rgb "" how many are not fully transparent; for rgb "color" how many
// are of a saturated color, as chart series are and axes, grid lines and
// text are not.
func CanvasInk(p *Page, selector, rgb string) ([]int, error) {
	sel, _ := json.Marshal(selector)
	col, _ := json.Marshal(rgb)
	return Eval[[]int](p, fmt.Sprintf(`(() => {
		const want = %s, hex = want.startsWith("#") ? [1, 3, 5].map((i) => parseInt(want.slice(i, i + 2), 16)) : null;
		return Array.from(document.querySelectorAll(%s)).map((c) => {
			const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
			let n = 0;
			for (let i = 0; i < d.length; i += 4) {
				if (d[i + 3] === 0) continue;
				const r = d[i], g = d[i + 1], b = d[i + 2];
				if (hex) {
					if (Math.abs(r - hex[0]) + Math.abs(g - hex[1]) + Math.abs(b - hex[2]) < 60) n++;
				} else if (want === "color") {
					if (Math.max(r, g, b) - Math.min(r, g, b) > 60) n++;
				} else {
					n++;
				}
			}
			return n;
		});
	})()`, col, sel))
}

// ScreenshotForTest saves a screenshot of p named name.png in t's
// temporary directory, or in $PERFLAB_SCREENSHOTS when that is set so a
// person can look at it, and returns its path.
func ScreenshotForTest(t testing.TB, p *Page, name string) string {
	t.Helper()
	dir := os.Getenv("PERFLAB_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".png")
	if err := p.Screenshot(path); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	return path
}

// CheckCharts fails t unless the page, made by package chart, drew drawn
// uPlot charts whose canvases hold series colors (not only gray axes and
// text) and empty "no data" notes, and logged no console errors.
func CheckCharts(t testing.TB, p *Page, drawn, empty int) {
	t.Helper()
	n, err := Eval[int](p, `document.querySelectorAll(".uplot").length`)
	if err != nil || n != drawn {
		t.Errorf("page has %d uPlot charts (err %v), want %d", n, err, drawn)
	}
	notes, err := Eval[int](p, `document.querySelectorAll(".perflab-nodata").length`)
	if err != nil || notes != empty {
		t.Errorf("page has %d empty-chart notes (err %v), want %d", notes, err, empty)
	}
	ink, err := CanvasInk(p, ".uplot canvas", "color")
	if err != nil {
		t.Fatal(err)
	}
	for i, px := range ink {
		if px < 50 {
			t.Errorf("chart %d: %d colored pixels; its series did not draw", i, px)
		}
	}
	if errs := p.Errors(); len(errs) > 0 { // checked last: events arrive asynchronously
		t.Errorf("console errors: %q", errs)
	}
}
