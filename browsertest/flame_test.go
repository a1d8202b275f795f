package browsertest

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/browsertest/internal/browser"
	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/internal/testprog"
)

// flamePage runs perflab flame with args and opens the page it writes.
func flamePage(t *testing.T, b *browser.Browser, perflab string, args ...string) *browser.Page {
	t.Helper()
	page := filepath.Join(t.TempDir(), "flame.html")
	args = append([]string{"flame", "-o", page}, args...)
	if out, err := exec.Command(perflab, args...).CombinedOutput(); err != nil {
		t.Fatalf("perflab %q: %v\n%s", args, err, out)
	}
	p, err := b.Open("file://"+page, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	waitFor(t, p, `(() => { const f = window.perflabFlames && window.perflabFlames["perflab-flame"]; return !!(f && f.view); })()`)
	return p
}

// waitFor polls the JavaScript expression cond until it is true.
func waitFor(t *testing.T, p *browser.Page, cond string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok, err := browser.Eval[bool](p, cond)
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s (err %v); console: %q", cond, err, p.Errors())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

const fg = `window.perflabFlames["perflab-flame"]`

// clickFrame clicks the first drawn frame named like the regexp re (with
// shift for the sandwich view) and returns its name.
func clickFrame(t *testing.T, p *browser.Page, re string, shift bool) string {
	t.Helper()
	name, err := browser.Eval[string](p, fmt.Sprintf(`(() => {
		const g = %s, d = g.view, rx = new RegExp(%q);
		for (let i = 1; i < d.n; i++) {
			const name = d.strings[d.name[i]], w = d.width[i] * g.scale;
			if (!rx.test(name) || w < 20) continue;
			const r = g.canvas.getBoundingClientRect();
			const x = r.left + d.offset[i] * g.scale + w / 2, y = r.top + g.rowOf(d.depth[i]) * 18 + 9;
			window.scrollTo(0, 0);
			g.canvas.dispatchEvent(new MouseEvent("click", {clientX: x, clientY: y, shiftKey: %v, bubbles: true}));
			return name;
		}
		return "";
	})()`, fg, re, shift))
	if err != nil || name == "" {
		t.Fatalf("no drawn frame matching %s to click (err %v)", re, err)
	}
	return name
}

// inkCount counts the canvas pixels for which the JavaScript predicate
// on r, g, b holds.
func inkCount(t *testing.T, p *browser.Page, pred string) int {
	t.Helper()
	n, err := browser.Eval[int](p, `(() => {
		const c = document.querySelector(".pf-canvas"), d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		let n = 0;
		for (let i = 0; i < d.length; i += 4) { const r = d[i], g = d[i+1], b = d[i+2]; if (d[i+3] && (`+pred+`)) n++; }
		return n;
	})()`)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// diffInk counts the red and the blue pixels of the page's flame graph:
// what grew and what shrank in a diff.
func diffInk(t *testing.T, p *browser.Page) (red, blue int) {
	t.Helper()
	return inkCount(t, p, `r > g + 40 && r > b + 40`), inkCount(t, p, `b > r + 40 && b > g + 20`)
}

// TestFlamePage opens the flame graph of a real CPU profile: it draws,
// search highlights frames and shows their share, a click zooms and
// shift-click opens the sandwich view.
func TestFlamePage(t *testing.T) {
	b := browser.ForTest(t)
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	profs := reporttest.Generate(t)
	p := flamePage(t, b, perflab, profs.Path("cpu.pb.gz"))
	ink, err := browser.CanvasInk(p, ".pf-canvas", "color")
	if err != nil || len(ink) != 1 || ink[0] < 1000 {
		t.Fatalf("flame graph canvas ink %v (err %v), want a drawn graph", ink, err)
	}
	browser.ScreenshotForTest(t, p, "flame")

	// Hover: flat, cum, percentages and file:line, as text.
	tip, err := browser.Eval[string](p, `(() => {
		const g = `+fg+`, d = g.view, r = g.canvas.getBoundingClientRect();
		let i = 1; while (i < d.n && !/cpuWork/.test(d.strings[d.name[i]])) i++;
		g.canvas.dispatchEvent(new MouseEvent("mousemove", {clientX: r.left + d.offset[i] * g.scale + 2, clientY: r.top + g.rowOf(d.depth[i]) * 18 + 9, bubbles: true}));
		return document.querySelector(".pf-tip").textContent;
	})()`)
	if err != nil || !strings.Contains(tip, "main.cpuWork") || !strings.Contains(tip, "cum ") || !strings.Contains(tip, "flat ") ||
		!strings.Contains(tip, "%") || !strings.Contains(tip, "main.go:") {
		t.Errorf("tooltip %q (err %v) lacks name, cum, flat, percentages or file:line", tip, err)
	}
	// Flame orientation: the root row moves to the bottom.
	rootY := func() float64 {
		y, err := browser.Eval[float64](p, fg+`.rowOf(0)`)
		if err != nil {
			t.Fatal(err)
		}
		return y
	}
	icicle := rootY()
	browser.Eval[bool](p, fg+`.orientBtn.click() || true`)
	if flameY := rootY(); icicle != 0 || flameY <= 0 {
		t.Errorf("root row %v in icicle and %v in flame orientation, want 0 and the bottom", icicle, flameY)
	}
	if ink, _ := browser.CanvasInk(p, ".pf-canvas", "color"); len(ink) != 1 || ink[0] < 1000 {
		t.Errorf("flame orientation drew %v pixels", ink)
	}
	browser.ScreenshotForTest(t, p, "flame-orientation")
	browser.Eval[bool](p, fg+`.orientBtn.click() || true`)

	if _, err := browser.Eval[bool](p, `(() => { const s = document.querySelector(".pf-search"); s.value = "cpuWork"; s.dispatchEvent(new Event("input")); return true; })()`); err != nil {
		t.Fatal(err)
	}
	waitFor(t, p, fg+`.view.raw.search === "cpuWork"`)
	match, _ := browser.Eval[string](p, `document.querySelector(".pf-match").textContent`)
	if !strings.Contains(match, "matched") || !strings.Contains(match, "%") {
		t.Errorf("search shows %q, want the matched share", match)
	}
	if n := inkCount(t, p, `Math.abs(r - 0xb0) + Math.abs(g - 0x3c) + Math.abs(b - 0xf0) < 30`); n < 100 {
		t.Errorf("search highlighted %d pixels, want the matched frames drawn in the highlight colour", n)
	}
	browser.ScreenshotForTest(t, p, "flame-search")

	name := clickFrame(t, p, `cpuWork`, false)
	waitFor(t, p, fg+`.view.raw.path.length > 0`)
	crumbs, _ := browser.Eval[string](p, `document.querySelector(".pf-crumbs").textContent`)
	if !strings.Contains(crumbs, name) {
		t.Errorf("after clicking %s the breadcrumbs read %q", name, crumbs)
	}
	root, _ := browser.Eval[string](p, fg+`.view.strings[`+fg+`.view.name[0]]`)
	if root != name {
		t.Errorf("zoom root is %q, want the clicked %q", root, name)
	}
	browser.ScreenshotForTest(t, p, "flame-zoom")
	// Escape zooms out one level, the first breadcrumb to the root.
	depth, _ := browser.Eval[int](p, fg+`.view.raw.path.length`)
	browser.Eval[bool](p, `document.dispatchEvent(new KeyboardEvent("keydown", {key: "Escape"})) || true`)
	waitFor(t, p, fmt.Sprintf(fg+`.view.raw.path.length === %d`, depth-1))
	browser.Eval[bool](p, `document.querySelector(".pf-crumb").click() || true`)
	waitFor(t, p, fg+`.view.raw.path.length === 0`)
	clickFrame(t, p, `cpuWork`, false)
	waitFor(t, p, fg+`.view.raw.path.length > 0`)

	clickFrame(t, p, `.`, true)
	waitFor(t, p, fg+`.view.raw.sandwich !== "" && `+fg+`.view.minDepth < 0`)
	browser.ScreenshotForTest(t, p, "flame-sandwich")
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestFlameDiffPage draws a -diff_base flame graph of two real CPU
// profiles: red frames (grew) and blue ones (shrank) are drawn.
func TestFlameDiffPage(t *testing.T) {
	b := browser.ForTest(t)
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	profs := reporttest.Generate(t)
	p := flamePage(t, b, perflab, "-diff_base", profs.Path("cpu2.pb.gz"), profs.Path("cpu.pb.gz"))
	// The page and the graph's legend name the base.
	type named struct{ Heading, Legend string }
	n, err := browser.Eval[named](p, `({Heading: document.querySelector(".perflab-flame-base")?.textContent ?? "", Legend: document.querySelector(".pf-legend")?.textContent ?? ""})`)
	if err != nil || !strings.Contains(n.Heading, "cpu2.pb.gz") || !strings.Contains(n.Legend, "cpu2.pb.gz") || !strings.Contains(n.Legend, "grew") {
		t.Errorf("the diff page does not name its base: %+v (%v)", n, err)
	}
	// The new profile is twice as long as the base: most frames grew.
	red := inkCount(t, p, `r > g + 25 && r > b + 25`)
	if red < 1000 {
		t.Errorf("diff drew %d red pixels, want the frames that grew", red)
	}
	browser.ScreenshotForTest(t, p, "flame-diff")
	// Normalized, some frames shrank.
	if _, err := browser.Eval[bool](p, fg+`.normBtn.click() || true`); err != nil {
		t.Fatal(err)
	}
	waitFor(t, p, fg+`.view.raw.baseScale !== 1`)
	red = inkCount(t, p, `r > g + 25 && r > b + 25`)
	blue := inkCount(t, p, `b > r + 25 && b > g + 10`)
	if red < 100 || blue < 100 {
		t.Errorf("normalized diff drew %d red and %d blue pixels, want both", red, blue)
	}
	browser.ScreenshotForTest(t, p, "flame-diff-normalized")
	if _, err := browser.Eval[bool](p, fg+`.revBtn.click() || true`); err != nil {
		t.Fatal(err)
	}
	waitFor(t, p, fg+`.view.raw.reverse === true`)
	browser.ScreenshotForTest(t, p, "flame-diff-reverse")
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestFlameHostileStrings draws a profile whose function and file names
// are HTML and script: nothing runs, and the names show as text.
func TestFlameHostileStrings(t *testing.T) {
	b := browser.ForTest(t)
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	path := filepath.Join(t.TempDir(), "hostile.pb.gz")
	writeHostileProfile(t, path)
	p := flamePage(t, b, perflab, path)
	if pwned, err := browser.Eval[bool](p, `window.pwned !== undefined`); err != nil || pwned {
		t.Errorf("hostile name ran as script (pwned=%v, err=%v)", pwned, err)
	}
	clickFrame(t, p, `script`, false)
	waitFor(t, p, fg+`.view.raw.path.length > 0`)
	crumbs, _ := browser.Eval[string](p, `document.querySelector(".pf-crumbs").textContent`)
	if !strings.Contains(crumbs, "<img src=x") {
		t.Errorf("breadcrumbs %q do not show the hostile name as text", crumbs)
	}
	title, _ := browser.Eval[string](p, `document.title`)
	if !strings.Contains(title, "perflab flame") {
		t.Errorf("title %q", title)
	}
	if pwned, err := browser.Eval[bool](p, `window.pwned !== undefined`); err != nil || pwned {
		t.Errorf("hostile name ran as script after zoom (pwned=%v, err=%v)", pwned, err)
	}
	browser.ScreenshotForTest(t, p, "flame-hostile")
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

func writeHostileProfile(t *testing.T, path string) {
	t.Helper()
	var fns []*profile.Function
	var locs []*profile.Location
	for i, name := range []string{"main.main", "main." + hostile, hostile + ".(*T).M"} {
		f := &profile.Function{ID: uint64(i + 1), Name: name, SystemName: name, Filename: "/src/" + hostile + ".go", StartLine: 1}
		fns = append(fns, f)
		locs = append(locs, &profile.Location{ID: uint64(i + 1), Address: uint64(0x1000 * (i + 1)), Line: []profile.Line{{Function: f, Line: 2}}})
	}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10_000_000,
		Function: fns, Location: locs,
		Comments: []string{hostile},
		Sample: []*profile.Sample{
			{Value: []int64{5, 50_000_000}, Location: []*profile.Location{locs[2], locs[1], locs[0]}, Label: map[string][]string{hostile: {hostile}}},
			{Value: []int64{3, 30_000_000}, Location: []*profile.Location{locs[1], locs[0]}},
		},
	}
	reporttest.WriteProfile(t, p, path)
}

// TestFlameLargeProfile opens the flame graph of the 500,000-sample
// benchmark profile (profgen.Default, generated on first use): the page
// draws within seconds, and a zoom redraws.
func TestFlameLargeProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("the benchmark profile is large")
	}
	src, err := profgen.Benchmark()
	if err != nil {
		t.Fatal(err)
	}
	b := browser.ForTest(t)
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	start := time.Now()
	p := flamePage(t, b, perflab, src)
	t.Logf("perflab flame and first draw: %v", time.Since(start))
	ms, err := browser.Eval[float64](p, `(() => { const t0 = performance.now(); `+fg+`.draw(); return performance.now() - t0; })()`)
	if err != nil || ms > 1000 {
		t.Errorf("a redraw took %v ms (err %v), want well under a second", ms, err)
	}
	t.Logf("redraw: %.1f ms", ms)
	clickFrame(t, p, `acme`, false)
	waitFor(t, p, fg+`.view.raw.path.length > 0`)
	if ink, _ := browser.CanvasInk(p, ".pf-canvas", "color"); len(ink) != 1 || ink[0] < 1000 {
		t.Errorf("zoomed graph drew %v pixels", ink)
	}
	browser.ScreenshotForTest(t, p, "flame-large-zoom")
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestFlameEmptyPage draws the graph of a focus that matches nothing:
// only the root, of width zero, and no console errors.
func TestFlameEmptyPage(t *testing.T) {
	b := browser.ForTest(t)
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	path := filepath.Join(t.TempDir(), "hostile.pb.gz")
	writeHostileProfile(t, path)
	p := flamePage(t, b, perflab, "-focus=no such function", path)
	if n, err := browser.Eval[int](p, fg+`.view.n`); err != nil || n != 1 {
		t.Errorf("empty graph has %d frames (err %v), want the root alone", n, err)
	}
	browser.Eval[bool](p, `(() => { const s = document.querySelector(".pf-search"); s.value = "x"; s.dispatchEvent(new Event("input")); return true; })()`)
	waitFor(t, p, fg+`.view.raw.search === "x"`)
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
