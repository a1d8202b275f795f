package browsertest

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/browsertest/internal/browser"
	"github.com/perflab/perflab/chart"
)

// hostile is input text that would break out of HTML or script contexts
// if it were not escaped.
const hostile = `</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2">&amp;`

// hostilePage has three drawn charts (lines with a gap, points with an
// infinity, bars) and one empty chart, with hostile titles and labels.
func hostilePage() *chart.Page {
	x := chart.Values{0, 1, 2, 3, 4, 5}
	return &chart.Page{
		Title:   "heap " + hostile,
		Summary: "summary " + hostile,
		Charts: []chart.Chart{
			{Title: "heap", XLabel: "time", XUnit: chart.Seconds, YLabel: "heap", Unit: chart.Bytes, X: x,
				Series: []chart.Series{
					{Label: "live " + hostile, Y: chart.Values{1 << 20, 2 << 20, math.NaN(), 4 << 20, 5 << 20, 6 << 20}},
					{Label: "goal", Y: chart.Values{2 << 20, 4 << 20, 6 << 20, 8 << 20, 10 << 20, 12 << 20}},
				}},
			{Title: "pauses", XUnit: chart.Seconds, Unit: chart.Seconds, X: x,
				Series: []chart.Series{{Label: "pause", Style: chart.Points, Y: chart.Values{1e-5, 2e-5, 5e-4, 1e-5, math.Inf(1), 3e-5}}}},
			{Title: "queues", X: x, Series: []chart.Series{{Label: "runq", Style: chart.Bars, Y: chart.Values{0, 3, 1, 4, 1, 5}}}},
			{Title: "empty"},
		},
	}
}

// TestChartPageDraws opens a page rendered by package chart in headless
// Chromium and checks that it draws every chart without console errors
// and that the hostile labels stayed text.
func TestChartPageDraws(t *testing.T) {
	path := filepath.Join(t.TempDir(), "page.html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := hostilePage().Render(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	b := browser.ForTest(t)
	p, err := b.Open("file://"+path, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	browser.CheckCharts(t, p, 3, 1)
	if pwned, err := browser.Eval[bool](p, `window.pwned !== undefined`); err != nil || pwned {
		t.Errorf("hostile label ran as script (pwned=%v, err=%v)", pwned, err)
	}
	legend, err := browser.Eval[string](p, `document.querySelector(".u-legend").textContent`)
	if err != nil || !strings.Contains(legend, "<img src=x") {
		t.Errorf("legend %q does not show the label as text (err %v)", legend, err)
	}
	browser.ScreenshotForTest(t, p, "chart-page")
}
