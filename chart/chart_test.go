package chart

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"math"
	"strings"
	"testing"
)

// hostile is input text that would break out of HTML or script contexts
// if it were not escaped.
const hostile = `</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2">&amp;`

func testPage() *Page {
	x := Values{0, 1, 2, 3, 4, 5}
	return &Page{
		Title:   "heap " + hostile,
		Summary: "summary " + hostile,
		Charts: []Chart{
			{Title: "heap", XLabel: "time", XUnit: Seconds, YLabel: "heap", Unit: Bytes, X: x,
				Series: []Series{
					{Label: "live " + hostile, Y: Values{1 << 20, 2 << 20, math.NaN(), 4 << 20, 5 << 20, 6 << 20}},
					{Label: "goal", Y: Values{2 << 20, 4 << 20, 6 << 20, 8 << 20, 10 << 20, 12 << 20}},
				}},
			{Title: "pauses", XUnit: Seconds, Unit: Seconds, X: x,
				Series: []Series{{Label: "pause", Style: Points, Y: Values{1e-5, 2e-5, 5e-4, 1e-5, math.Inf(1), 3e-5}}}},
			{Title: "queues", X: x, Series: []Series{{Label: "runq", Style: Bars, Y: Values{0, 3, 1, 4, 1, 5}}}},
			{Title: "empty"},
		},
	}
}

func TestRenderEscapes(t *testing.T) {
	var b strings.Builder
	if err := testPage().Render(&b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if strings.Contains(html, "<script>window.pwned") || strings.Contains(html, `<img src=x`) {
		t.Errorf("input text reached the page unescaped")
	}
	if n := strings.Count(html, "<script"); n != 3 {
		t.Errorf("page has %d <script> elements, want 3 (data, uPlot, perflab-chart)", n)
	}
	for _, bad := range []string{"NaN", "+Inf", "Infinity"} {
		if strings.Contains(html[strings.Index(html, `id="perflab-charts"`):strings.Index(html, "/*! https")], bad) {
			t.Errorf("chart data holds %s; want null", bad)
		}
	}
}

func TestValuesJSON(t *testing.T) {
	got, err := json.Marshal(Values{1, 0.5, math.NaN(), math.Inf(-1), 1e21})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "[1,0.5,null,null,1e+21]" {
		t.Errorf("got %s", got)
	}
	var back []any
	if err := json.Unmarshal(got, &back); err != nil {
		t.Errorf("not valid JSON: %v", err)
	}
}

// TestVendoredAssets checks the vendored uPlot against the checksums its
// VERSION note records.
func TestVendoredAssets(t *testing.T) {
	note, err := fs.ReadFile(Assets(), "VERSION")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(note), "uPlot "+UPlotVersion) {
		t.Errorf("VERSION does not name uPlot %s", UPlotVersion)
	}
	for _, name := range []string{"uPlot.iife.min.js", "uPlot.min.css"} {
		b, err := fs.ReadFile(Assets(), name)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if !strings.Contains(strings.Join(strings.Fields(string(note)), " "), name+" sha256 "+hex.EncodeToString(sum[:])) {
			t.Errorf("%s does not match the checksum in VERSION", name)
		}
	}
}
