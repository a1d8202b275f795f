package browsertest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/perflab/perflab/browsertest/internal/browser"
	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/timeline"
)

// TestTimelinePageDraws opens package timeline's static page in headless
// Chromium: the P lanes and the stop-the-world band are drawn, hostile
// names stay inert, and the wheel zooms in.
func TestTimelinePageDraws(t *testing.T) {
	busy := make([]float32, 200)
	for i := range busy {
		busy[i] = float32(i%4) / 3
	}
	tiles := &exectrace.Tiles{End: 2 * time.Second, Columns: len(busy),
		Procs:      []exectrace.Lane{{Proc: 0, Busy: busy}, {Proc: 1, Busy: busy}},
		Goroutines: make([]float32, len(busy)),
		GC:         []exectrace.Band{{Start: 100 * time.Millisecond, End: 400 * time.Millisecond, Name: "GC"}},
		STW:        []exectrace.Band{{Start: 500 * time.Millisecond, End: 700 * time.Millisecond, Name: hostile}},
	}
	path := filepath.Join(t.TempDir(), "timeline.html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	spans := []exectrace.Span{
		{Kind: "task", Name: hostile, Start: 200 * time.Millisecond, End: 1500 * time.Millisecond, Task: 1},
		{Kind: "region", Name: "region " + hostile, Start: 300 * time.Millisecond, End: 900 * time.Millisecond, Goroutine: 7},
	}
	page := &timeline.Page{Title: "timeline " + hostile, Summary: hostile, Tiles: tiles, Spans: spans}
	if err := page.Render(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	p, err := browser.ForTest(t).Open("file://"+path, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
	for _, c := range []struct{ what, rgb string }{{"busy lanes", "#1f77b4"}, {"stop-the-world band", "#d62728"}} {
		ink, err := browser.CanvasInk(p, "#timeline", c.rgb)
		if err != nil || len(ink) != 1 || ink[0] < 100 {
			t.Errorf("%s: %v pixels of %s (err %v)", c.what, ink, c.rgb, err)
		}
	}
	if pwned, err := browser.Eval[bool](p, `window.pwned !== undefined`); err != nil || pwned {
		t.Errorf("hostile name ran as script (pwned=%v, err=%v)", pwned, err)
	}
	if names, err := browser.Eval[[]string](p, `perflabTimelineView.bars().map(b => b.span.kind + " " + b.span.name)`); err != nil || len(names) != 2 || names[0] != "task "+hostile {
		t.Errorf("bars drawn: %q (err %v), want the task and the region", names, err)
	}
	before, err := browser.Eval[[]float64](p, `perflabTimelineView.view()`)
	if err != nil {
		t.Fatal(err)
	}
	after, err := browser.Eval[[]float64](p, `(() => {
		const c = document.getElementById("timeline");
		for (let i = 0; i < 5; i++) c.dispatchEvent(new WheelEvent("wheel", {deltaY: -100, clientX: c.getBoundingClientRect().left + 300, bubbles: true, cancelable: true}));
		return perflabTimelineView.view();
	})()`)
	if err != nil || len(after) != 2 || after[1]-after[0] >= (before[1]-before[0])/2 {
		t.Errorf("wheel did not zoom in: view %v, then %v (err %v)", before, after, err)
	}
	browser.ScreenshotForTest(t, p, "timeline-page")
}
