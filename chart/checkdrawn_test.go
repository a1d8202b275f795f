package chart

import (
	"testing"

	"github.com/perflab/perflab/internal/browser"
)

// CheckDrawn fails t unless the page drew drawn uPlot charts with data
// (their canvases holding the first series' color) and empty "no data"
// notes, with no console errors.
func CheckDrawn(t *testing.T, p *browser.Page, drawn, empty int) {
	t.Helper()
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
	n, err := browser.Eval[int](p, `document.querySelectorAll(".uplot").length`)
	if err != nil || n != drawn {
		t.Errorf("page has %d uPlot charts (err %v), want %d", n, err, drawn)
	}
	notes, err := browser.Eval[int](p, `document.querySelectorAll(".perflab-nodata").length`)
	if err != nil || notes != empty {
		t.Errorf("page has %d empty-chart notes (err %v), want %d", notes, err, empty)
	}
	ink, err := browser.CanvasInk(p, ".uplot canvas", "#1f77b4")
	if err != nil {
		t.Fatal(err)
	}
	for i, px := range ink {
		if px < 20 {
			t.Errorf("chart %d: %d pixels of its first series' color; it did not draw", i, px)
		}
	}
}
