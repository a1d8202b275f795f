package browsertest

import (
	"bufio"
	"bytes"
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/browsertest/internal/browser"
	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/internal/testprog"
)

// webServer runs "perflab web -no_browser ARGS" and returns its base URL;
// the server is stopped when t ends.
func webServer(t testing.TB, perflab string, args ...string) string {
	t.Helper()
	return serverURL(t, perflab, regexp.MustCompile(`Serving web UI on (http://\S+)`), append([]string{"web", "-no_browser"}, args...)...)
}

// serverURL runs perflab with args until t ends and returns the first
// submatch of rx in a line of its standard error: the URL it serves.
func serverURL(t testing.TB, perflab string, rx *regexp.Regexp, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, perflab, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := rx.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() {
				}
			}()
			return m[1]
		}
		t.Logf("perflab %s: %s", args[0], sc.Text())
	}
	t.Fatalf("perflab %s exited before serving", args[0])
	return ""
}

// genProfile writes a profgen profile of config c into dir.
func genProfile(t testing.TB, c profgen.Config, dir, name string) string {
	t.Helper()
	p, err := profgen.Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// openView opens a page of the web UI and waits until its script says it
// is drawn (document.body.dataset.ready), or for the load event only.
func openView(t *testing.T, b *browser.Browser, url string) *browser.Page {
	t.Helper()
	p, err := b.Open(url, 60*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		ready, err := browser.Eval[bool](p, `document.readyState === "complete" && (!document.querySelector("[data-wait]") || document.body.dataset.ready === "1")`)
		if err == nil && ready {
			return p
		}
	}
	t.Fatalf("%s: not drawn within 30s", url)
	return nil
}

func noErrors(t *testing.T, p *browser.Page, what string) {
	t.Helper()
	time.Sleep(100 * time.Millisecond) // console events arrive asynchronously
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("%s: console errors: %q", what, errs)
	}
}

func evalT[T any](t *testing.T, p *browser.Page, expr string) T {
	t.Helper()
	v, err := browser.Eval[T](p, expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// smallWebUI starts a browser and perflab web on profgen's Small profile.
func smallWebUI(t *testing.T) (*browser.Browser, string) {
	b := browser.ForTest(t)
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	return b, webServer(t, perflab, genProfile(t, profgen.Small, t.TempDir(), "cpu.pb.gz"))
}

// TestWebTablesAndRefine opens the top, peek and source views, sorts the
// top table, and refines through the menu and through a pprof-style URL.
func TestWebTablesAndRefine(t *testing.T) {
	b, base := smallWebUI(t)

	p := openView(t, b, base+"/ui/top")
	rows := evalT[int](t, p, `document.querySelectorAll("#top tbody tr").length`)
	if rows < 10 {
		t.Fatalf("top has %d rows", rows)
	}
	// Sorting by name puts the rows in name order.
	sorted := evalT[bool](t, p, `(() => {
		document.querySelectorAll("#top th")[5].click();
		const names = [...document.querySelectorAll("#top tbody td.fn")].map((td) => td.dataset.name);
		return names.every((n, i) => i === 0 || names[i-1].localeCompare(n) >= 0);
	})()`)
	if !sorted {
		t.Errorf("clicking the name column did not sort the table by name")
	}
	browser.ScreenshotForTest(t, p, "web-top")
	noErrors(t, p, "top")

	// Select a function, then Refine > focus writes f=^name$ into the URL.
	name := evalT[string](t, p, `document.querySelector("#top tbody td.fn").dataset.name`)
	evalT[bool](t, p, `(() => { document.querySelector("#top tbody td.fn").click();
		document.querySelector('button[data-refine="f"]').click(); return true; })()`)
	waitFor(t, p, `new URLSearchParams(location.search).has("f")`)
	u := evalT[string](t, p, `location.search`)
	q := evalT[string](t, p, `new URLSearchParams(location.search).get("f")`)
	if q != "^"+regexp.QuoteMeta(name)+"$" {
		t.Errorf("after Refine > focus on %s: URL %s", name, u)
	}

	// A pprof bookmark opens the same view: its settings are in the menu.
	p = openView(t, b, base+"/ui/top?f=Compute&i=Render&si=samples&g=files&sort=cum")
	got := evalT[[]string](t, p, `["f","i"].map((n) => document.querySelector("#settings [name="+n+"]").value).concat(
		["si","g","sort"].map((n) => document.querySelector("#settings select[name="+n+"]").value))`)
	if want := []string{"Compute", "Render", "samples", "files", "cum"}; !equal(got, want) {
		t.Errorf("bookmark's settings in the menu: %q, want %q", got, want)
	}
	noErrors(t, p, "top bookmark")

	// A bad parameter shows the error in place.
	p = openView(t, b, base+"/ui/top?f=(")
	if msg := evalT[string](t, p, `document.getElementById("error").textContent`); !regexp.MustCompile(`parsing focus regexp`).MatchString(msg) {
		t.Errorf("bad regexp: error box %q", msg)
	}

	for _, view := range []string{"peek?f=ComputeRecord", "source?f=ComputeRecord"} {
		p = openView(t, b, base+"/ui/"+view)
		n := evalT[int](t, p, `document.querySelectorAll("table.peek, table.source").length`)
		if n == 0 {
			t.Errorf("%s: no tables", view)
		}
		browser.ScreenshotForTest(t, p, "web-"+regexp.MustCompile(`\?.*`).ReplaceAllString(view, ""))
		noErrors(t, p, view)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestWebGraph opens the call graph: an SVG with nodes, zoom and pan
// through its viewBox, click to select a node, double click to focus.
func TestWebGraph(t *testing.T) {
	b, base := smallWebUI(t)
	// pprof's 80 nodes open readable: the median label at least 8 pixels
	// high, not the whole graph shrunk into the window; Whole graph shows
	// it all.
	p := openView(t, b, base+"/ui/graph")
	type size struct{ Nodes, Text, WholeText float64 }
	sz := evalT[size](t, p, `(() => {
		const texts = [...document.querySelectorAll("#graph g.node text")];
		const h = () => texts.map((x) => x.getBoundingClientRect().height).sort((a, b) => a - b)[texts.length >> 1];
		const readable = h();
		document.querySelector("#graph-tools button").click();
		const whole = h();
		perflabGraph.reset();
		return {Nodes: document.querySelectorAll("#graph g.node").length, Text: readable, WholeText: whole};
	})()`)
	if sz.Nodes < 60 || sz.Text < 8 || sz.WholeText >= sz.Text {
		t.Errorf("the default graph of %v nodes opens with labels %.1f px high (median; %.1f px when whole), want at least 8", sz.Nodes, sz.Text, sz.WholeText)
	}
	browser.ScreenshotForTest(t, p, "web-graph-readable")
	noErrors(t, p, "default graph")
	p = openView(t, b, base+"/ui/graph?n=30")
	nodes := evalT[int](t, p, `document.querySelectorAll("#graph svg g.node[data-name]").length`)
	if nodes < 10 {
		t.Fatalf("graph has %d nodes", nodes)
	}
	zoomed := evalT[bool](t, p, `(() => { const a = perflabGraph.viewBox(); const r = document.getElementById("graph").getBoundingClientRect();
		perflabGraph.zoom(0.5, r.left + r.width/2, r.top + r.height/2); const b = perflabGraph.viewBox();
		return Math.abs(b.width - a.width/2) < 1e-6 * a.width && document.querySelector("#graph svg").getAttribute("viewBox") !== "" })()`)
	if !zoomed {
		t.Errorf("zoom did not halve the viewBox")
	}
	evalT[bool](t, p, `(perflabGraph.fit(), true)`) // the whole graph: every node inside the window
	name := evalT[string](t, p, `(() => { const host = document.getElementById("graph"), h = host.getBoundingClientRect();
		const inside = (r) => r.width > 4 && r.left > h.left && r.right < h.right && r.top > h.top && r.bottom < h.bottom;
		const n = [...document.querySelectorAll("#graph g.node[data-name]")].find((n) => inside(n.getBoundingClientRect()));
		const r = n.getBoundingClientRect(), x = r.left + r.width/2, y = r.top + r.height/2;
		for (const type of ["pointerdown", "pointerup"]) n.dispatchEvent(new PointerEvent(type, {clientX: x, clientY: y, button: 0, bubbles: true, pointerId: 1}));
		return n.dataset.name; })()`)
	sel := evalT[string](t, p, `document.getElementById("selected-name").textContent + "|" + (document.querySelector("#graph g.node.selected")?.dataset.name ?? "")`)
	if sel != name+"|"+name {
		t.Errorf("clicking node %s selected %q", name, sel)
	}
	browser.ScreenshotForTest(t, p, "web-graph")
	noErrors(t, p, "graph")
	// A double click on the selected node focuses the graph on it.
	evalT[bool](t, p, `document.querySelector("#graph g.node.selected").dispatchEvent(new MouseEvent("dblclick", {bubbles: true})) || true`)
	want := "^" + regexp.QuoteMeta(name) + "$"
	var got string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		f, err := browser.Eval[string](p, `document.readyState === "complete" ? (new URLSearchParams(location.search).get("f") ?? "") : ""`)
		if got = f; err == nil && f != "" {
			break
		}
	}
	if got != want {
		t.Errorf("double click on %s: focus %q, want %q", name, got, want)
	}
}

// clickWebFrame clicks the first drawn frame of the web UI's flame graph
// named like the regexp re and returns its name.
func clickWebFrame(t *testing.T, p *browser.Page, re string) string {
	t.Helper()
	name, err := browser.Eval[string](p, `(() => {
		const g = window.perflabFlame, d = g.view, rx = new RegExp(`+strconv.Quote(re)+`);
		for (let i = 1; i < d.n; i++) {
			const name = d.strings[d.name[i]], w = d.width[i] * g.scale;
			if (!rx.test(name) || w < 20) continue;
			const r = g.canvas.getBoundingClientRect();
			const x = r.left + d.offset[i] * g.scale + w / 2, y = r.top + g.rowOf(d.depth[i]) * 18 + 9;
			if (y > innerHeight) continue;
			g.canvas.dispatchEvent(new MouseEvent("click", {clientX: x, clientY: y, bubbles: true}));
			return name;
		}
		return "";
	})()`)
	if err != nil || name == "" {
		t.Fatalf("no drawn frame matching %s to click (err %v)", re, err)
	}
	return name
}

// TestWebFlame opens the flame graph view: it draws, search shows the
// matched share, a click zooms and writes the URL, the URL reopens the
// same zoom, and a bad search is an error in place.
func TestWebFlame(t *testing.T) {
	b, base := smallWebUI(t)

	p := openView(t, b, base+"/ui/")
	if ink := inkCount(t, p, `Math.max(r, g, b) - Math.min(r, g, b) > 40`); ink < 5000 {
		t.Errorf("flame graph drew %d coloured pixels", ink)
	}
	browser.ScreenshotForTest(t, p, "web-flamegraph")
	// Labels are shortened as pprof's: the package path goes first, and
	// only the shortest name is cut; the full one is in the hover.
	type label struct{ Name, Label string }
	labels := evalT[[]label](t, p, `[...window.perflabFlame.labels].map(([i, l]) => ({Name: window.perflabFlame.view.strings[window.perflabFlame.view.name[i]], Label: l}))`)
	short := 0
	for _, l := range labels {
		names := evalT[[]string](t, p, `window.perflabFlameShortNames(`+strconv.Quote(l.Name)+`)`)
		last := names[len(names)-1]
		cut, ok := strings.CutSuffix(l.Label, "…")
		if !slices.Contains(names, l.Label) && !(ok && strings.HasPrefix(last, cut)) {
			t.Errorf("frame %s labelled %q, want one of %q or a cut of the last", l.Name, l.Label, names)
		}
		if strings.Contains(l.Name, "/") && !strings.Contains(l.Label, "/") {
			short++
		}
	}
	if len(labels) < 10 || short == 0 {
		t.Errorf("%d labels drawn, %d of import-path names shortened", len(labels), short)
	}

	evalT[bool](t, p, `(() => { const s = document.querySelector(".pf-search"); s.value = "Compute"; s.dispatchEvent(new Event("input")); return true; })()`)
	waitFor(t, p, `/matched [0-9.]+% of total/.test(document.querySelector(".pf-match").textContent)`)
	if u := evalT[string](t, p, `new URLSearchParams(location.search).get("search")`); u != "Compute" {
		t.Errorf("after a search the URL's search is %q", u)
	}
	evalT[bool](t, p, `(() => { const s = document.querySelector(".pf-search"); s.value = ""; s.dispatchEvent(new Event("input")); return true; })()`)
	waitFor(t, p, `!new URLSearchParams(location.search).has("search")`)

	name := clickWebFrame(t, p, `acme`)
	waitFor(t, p, `new URLSearchParams(location.search).getAll("path").length > 0`)
	zoomed := evalT[string](t, p, `location.href`)
	path := evalT[[]string](t, p, `new URLSearchParams(location.search).getAll("path")`)
	if path[len(path)-1] != name {
		t.Errorf("clicked %s; URL path %q", name, path)
	}
	if sel := evalT[string](t, p, `document.getElementById("selected-name").textContent`); sel != name {
		t.Errorf("clicked %s; menu selection %q", name, sel)
	}
	noErrors(t, p, "flame graph")

	// The zoomed URL opens the same zoom; the view's JSON root is the frame.
	p = openView(t, b, zoomed)
	got := evalT[[]string](t, p, `window.perflabFlame.view.raw.path`)
	if !equal(got, path) {
		t.Errorf("bookmarked zoom opened at %q, want %q", got, path)
	}
	crumbs := evalT[string](t, p, `document.querySelector(".pf-crumbs").textContent`)
	if !regexp.MustCompile(regexp.QuoteMeta(name)).MatchString(crumbs) {
		t.Errorf("breadcrumbs %q lack %s", crumbs, name)
	}
	noErrors(t, p, "zoomed flame graph")

	// Refine through the URL: a focus keeps only the focused samples.
	p = openView(t, b, base+"/ui/flamegraph?f=Compute&si=samples")
	if st := evalT[string](t, p, `window.perflabFlame.view.raw.sampleType`); st != "samples" {
		t.Errorf("si=samples: the flame graph shows %q", st)
	}
	p = openView(t, b, base+"/ui/flamegraph?search=(")
	if msg := evalT[string](t, p, `document.getElementById("error")?.textContent ?? ""`); msg == "" {
		t.Errorf("a broken search regexp shows no error")
	}
}

// TestWebSandwich opens the sandwich view of a function: callers drawn
// above, callees below, and the function table picks another.
func TestWebSandwich(t *testing.T) {
	b, base := smallWebUI(t)
	p := openView(t, b, base+"/ui/sandwich")
	rows := evalT[int](t, p, `document.querySelectorAll("#functions tbody tr").length`)
	if rows < 10 {
		t.Fatalf("function table has %d rows", rows)
	}
	// Pick a function in the middle of the stacks: it has callers and callees.
	name := evalT[string](t, p, `[...document.querySelectorAll("#functions td.fn")].map((td) => td.dataset.name).find((n) => n.includes("acme"))`)
	evalT[bool](t, p, `(() => { [...document.querySelectorAll("#functions td.fn")].find((td) => td.dataset.name === `+strconv.Quote(name)+`).click(); return true; })()`)
	waitFor(t, p, `new URLSearchParams(location.search).has("sandwich")`)
	p = openView(t, b, evalT[string](t, p, `location.href`))
	v := evalT[[]int](t, p, `(() => { const d = window.perflabFlame.view; return [d.minDepth, d.maxDepth]; })()`)
	if sw := evalT[string](t, p, `window.perflabFlame.view.raw.sandwich`); sw != name {
		t.Errorf("sandwich of %q after clicking %q", sw, name)
	}
	if v[0] >= 0 || v[1] <= 0 {
		t.Errorf("sandwich of %s: depths %d..%d, want callers above (<0) and callees below (>0)", name, v[0], v[1])
	}
	if ink := inkCount(t, p, `Math.max(r, g, b) - Math.min(r, g, b) > 40`); ink < 1000 {
		t.Errorf("sandwich drew %d coloured pixels", ink)
	}
	sorted := evalT[bool](t, p, `(() => { document.querySelectorAll("#functions th")[0].click();
		const v = [...document.querySelectorAll("#functions tbody tr")].map((tr) => +tr.cells[0].dataset.v);
		return v.every((x, i) => i === 0 || v[i-1] >= x); })()`)
	if !sorted {
		t.Errorf("sorting by self did not order the table")
	}
	browser.ScreenshotForTest(t, p, "web-sandwich")
	noErrors(t, p, "sandwich")
}

// TestWebDiff serves a -diff_base comparison of two profgen profiles:
// the flame graph is red where the new profile grew and blue where it
// shrank, and the reverse view draws the base's shape.
func TestWebDiff(t *testing.T) {
	b := browser.ForTest(t)
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	dir := t.TempDir()
	newer := profgen.Small
	newer.MaxDepth = 25 // the same functions, shallower stacks: some frames grow, deep ones shrink
	base := webServer(t, perflab, "-diff_base", genProfile(t, profgen.Small, dir, "old.pb.gz"), genProfile(t, newer, dir, "new.pb.gz"))
	p := openView(t, b, base+"/ui/flamegraph")
	red, blue := diffInk(t, p)
	if red < 100 || blue < 100 {
		t.Errorf("diff drew %d red and %d blue pixels, want both", red, blue)
	}
	browser.ScreenshotForTest(t, p, "web-diff")
	// The legend says what the colours mean and names the base.
	if l := evalT[string](t, p, `document.querySelector(".pf-legend").textContent`); !strings.Contains(l, "old.pb.gz") || !strings.Contains(l, "grew") || !strings.Contains(l, "shrank") {
		t.Errorf("diff legend %q, want the colours and the base old.pb.gz", l)
	}
	// Hovering a frame shows its change first, as top -diff_base does.
	tip := evalT[string](t, p, `(() => {
		const g = window.perflabFlame, d = g.view, r = g.canvas.getBoundingClientRect();
		for (let i = 1; i < d.n; i++) {
			const w = d.width[i] * g.scale;
			if (w < 20) continue;
			const x = r.left + d.offset[i] * g.scale + w / 2, y = r.top + g.rowOf(d.depth[i]) * 18 + 9;
			if (y > innerHeight) continue;
			g.canvas.dispatchEvent(new MouseEvent("mousemove", {clientX: x, clientY: y, bubbles: true}));
			return g.tip.textContent;
		}
		return "";
	})()`)
	if !regexp.MustCompile(`change: cum [+-]`).MatchString(tip) || !strings.Contains(tip, "base") {
		t.Errorf("hover on a diff frame: %q, want its change first", tip)
	}
	evalT[bool](t, p, `(() => { [...document.querySelectorAll(".pf-btn")].find((b) => b.textContent === "Reverse").click(); return true; })()`)
	waitFor(t, p, `window.perflabFlame.view.raw.reverse === true && new URLSearchParams(location.search).get("reverse") === "1"`)
	noErrors(t, p, "diff")
	p = openView(t, b, base+"/ui/flamegraph?reverse=1&normalize=1")
	if !evalT[bool](t, p, `window.perflabFlame.view.raw.reverse === true && window.perflabFlame.query.normalize === true`) {
		t.Errorf("reverse=1&normalize=1 did not open the reverse, normalised view")
	}
	noErrors(t, p, "diff reverse")
}

// TestWebHostileStrings serves a profile whose function, file and label
// names are HTML and script, and opens every view: nothing runs, the
// names show as text.
func TestWebHostileStrings(t *testing.T) {
	b := browser.ForTest(t)
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	path := filepath.Join(t.TempDir(), "hostile.pb.gz")
	writeHostileProfile(t, path)
	base := webServer(t, perflab, path)
	for _, view := range []string{"flamegraph", "top", "graph", "peek?f=main", "source?f=main", "sandwich", "top?f=" + url.QueryEscape(hostile)} {
		p := openView(t, b, base+"/ui/"+view)
		if pwned := evalT[bool](t, p, `window.pwned !== undefined`); pwned {
			t.Errorf("%s: a hostile name ran as script", view)
		}
		text := evalT[string](t, p, `document.body.innerText + [...document.querySelectorAll("[data-name]")].map((e) => e.dataset.name).join(" ")`)
		if view != "flamegraph" && view != "sandwich" && !strings.Contains(text, "<img src=x") {
			t.Errorf("%s: the hostile name is not shown as text", view)
		}
		if view == "top" {
			browser.ScreenshotForTest(t, p, "web-hostile-top")
		}
		noErrors(t, p, "hostile "+view)
	}
}
