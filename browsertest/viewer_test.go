package browsertest

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/browsertest/internal/browser"
	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/dirstore"
)

// hostileVersion is a version label that is markup: the viewer must show
// it as text wherever it shows labels.
const hostileVersion = `<img src=x onerror="window.pwned=1">`

// fleetStore writes two hours of a service's CPU profiles (two instances,
// one a minute, the version label hostile in the second hour) into a
// dirstore in a new directory, and returns the directory and the first
// hour's start.
func fleetStore(t *testing.T) (string, time.Time) {
	t.Helper()
	start := time.Now().UTC().Truncate(time.Minute).Add(-2 * time.Hour)
	f, err := fleetgen.New(fleetgen.Config{Seed: 7, Service: "api", Functions: 60, Stacks: 150, MaxDepth: 16, Samples: 150,
		Instances: 2, Versions: []string{"1.42.0", hostileVersion}, VersionEvery: 60, Interval: time.Minute, Start: start})
	if err != nil {
		t.Fatal(err)
	}
	var ps []store.Profile
	for i := range 120 {
		for inst := range 2 {
			p, err := f.Profile("cpu", inst, i)
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
	}
	dir := t.TempDir()
	st, err := dirstore.Open(dir, dirstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Write(context.Background(), ps...); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, start
}

// waitViewer waits until the viewer's chart and the page's flame graph,
// if it has one, are drawn.
func waitViewer(t *testing.T, p *browser.Page) {
	t.Helper()
	waitFor(t, p, `document.body.dataset.viewerReady === "1" && (!document.querySelector("[data-wait]") || document.body.dataset.ready === "1")`)
}

// TestViewerOverTime runs perflab server on a dirstore of two hours of
// profiles and checks its viewer in Chromium: the chart of the
// selection's total draws; a range dragged on it becomes the URL's from
// and until and the flame graph's total shrinks to that range's; a label
// value that is markup shows as text on the viewer's page, whose profile
// list opens a profile in the views and whose targets show one down; and
// the previous hour as the base draws the red/blue diff.
func TestViewerOverTime(t *testing.T) {
	b := browser.ForTest(t)
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	dir, start := fleetStore(t)
	base := serverURL(t, perflab, regexp.MustCompile(`Serving perflab server on (http://\S+)`), "server", "-store", dir, "-http", "127.0.0.1:0", "-retention", "0",
		"-scrape", "broken="+testprog.ClosedPortURL(t))
	sel := url.Values{"query": {`{service_name="api"}`}, "from": {start.Format(time.RFC3339)}, "until": {start.Add(2 * time.Hour).Format(time.RFC3339)}}

	p := openView(t, b, base+"/ui/flamegraph?"+sel.Encode())
	waitViewer(t, p)
	if n := evalT[int](t, p, `window.perflabViewer.chart.data[0].length`); n < 100 {
		t.Fatalf("the chart has %d points, want one a minute over two hours", n)
	}
	browser.ScreenshotForTest(t, p, "viewer-flamegraph")
	before := evalT[float64](t, p, `window.perflabFlame.view.raw.total`)
	// A search in the flame graph draws the matching total as a second
	// line, below the total.
	evalT[bool](t, p, `(() => { const s = document.querySelector(".pf-search"); s.value = "ScanRow"; s.dispatchEvent(new Event("input")); return true; })()`)
	waitFor(t, p, `document.body.dataset.viewerReady === "1" && window.perflabViewer.chart.series.length === 3`)
	if !evalT[bool](t, p, `(() => { const [, all, part] = window.perflabViewer.chart.data; return part.some((v) => v > 0) && part.every((v, i) => v <= all[i]); })()`) {
		t.Errorf("the searched function's line is not within the total, or empty")
	}
	type rect struct{ Left, Top, Width, Height float64 }
	r := evalT[rect](t, p, `(() => { window.scrollTo(0, 0); const r = window.perflabViewer.chart.over.getBoundingClientRect(); return {Left: r.left, Top: r.top, Width: r.width, Height: r.height}; })()`)
	if err := p.Drag(r.Left+r.Width/4, r.Top+r.Height/2, r.Left+r.Width/2, r.Top+r.Height/2); err != nil {
		t.Fatal(err)
	}
	waitFor(t, p, `new URLSearchParams(location.search).get("until") !== `+jsString(sel.Get("until")))
	waitViewer(t, p)
	q := evalT[string](t, p, `location.search`)
	v, _ := url.ParseQuery(strings.TrimPrefix(q, "?"))
	from, err1 := time.Parse(time.RFC3339, v.Get("from"))
	until, err2 := time.Parse(time.RFC3339, v.Get("until"))
	if err1 != nil || err2 != nil || !from.After(start) || !until.Before(start.Add(2*time.Hour)) || v.Get("query") != sel.Get("query") {
		t.Errorf("after dragging over a quarter of the chart the URL is %s, want a narrower range of the same selection", q)
	}
	after := evalT[float64](t, p, `window.perflabFlame.view.raw.total`)
	if after <= 0 || after >= before*0.6 {
		t.Errorf("the flame graph's total went from %v to %v after selecting about a quarter of the range", before, after)
	}
	noErrors(t, p, "viewer's flame graph")

	// The viewer's page lists the profiles, the hostile label as text.
	home := openView(t, b, base+"/?"+sel.Encode())
	waitViewer(t, home)
	waitFor(t, home, `document.querySelector("#profiles td.labels") !== null`)
	if !evalT[bool](t, home, `[...document.querySelectorAll("#profiles td.labels")].some((td) => td.textContent.includes(`+jsString(hostileVersion)+`))`) {
		t.Errorf("the profile list does not show the version %s as text", hostileVersion)
	}
	if evalT[bool](t, home, `window.pwned === 1 || document.querySelector("img[src=x]") !== null`) {
		t.Errorf("the hostile label value became markup")
	}
	// The scrape target that cannot be reached is shown down, with why.
	waitFor(t, home, `[...document.querySelectorAll("#targets tr.down td")].some((td) => td.textContent === "broken")`)
	browser.ScreenshotForTest(t, home, "viewer-home")
	evalT[bool](t, home, `(document.querySelector("#profiles a.open").click(), true)`)
	waitFor(t, home, `new URLSearchParams(location.search).has("id")`)
	waitViewer(t, home)
	if total := evalT[float64](t, home, `window.perflabFlame.view.raw.total`); total <= 0 || total >= before/100 {
		t.Errorf("a profile opened from the list has a flame graph total of %v, want one profile's of the %v of 240", total, before)
	}
	noErrors(t, home, "viewer's page")

	// The second hour against the first: red and blue.
	diff := url.Values{"query": sel["query"], "from": {start.Add(time.Hour).Format(time.RFC3339)}, "until": sel["until"],
		"base_from": sel["from"], "base_until": {start.Add(time.Hour).Format(time.RFC3339)}}
	d := openView(t, b, base+"/ui/flamegraph?"+diff.Encode())
	waitViewer(t, d)
	red, blue := diffInk(t, d)
	if red < 100 || blue < 100 {
		t.Errorf("the diff of two selections drew %d red and %d blue pixels, want both", red, blue)
	}
	browser.ScreenshotForTest(t, d, "viewer-diff")
	noErrors(t, d, "viewer's diff")
}

func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
