package browsertest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/browsertest/internal/browser"
	"github.com/perflab/perflab/internal/testprog"
)

// TestWebTimeline serves a trace of examples/tracefreq with perflab web:
// the timeline draws busy lanes from the server's tiles, zooming in
// fetches finer tiles read from the trace, and a click on a busy P's lane
// shows the stack of the goroutine it ran.
func TestWebTimeline(t *testing.T) {
	b := browser.ForTest(t)
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	tracefreq := testprog.BuildPackage(t, "github.com/perflab/perflab/examples/tracefreq/cmd/tracefreq")
	trace := filepath.Join(t.TempDir(), "trace.out")
	if out, err := exec.Command(tracefreq, "-variant", "findNumCPUTasks", "-docs", "400", "-trace", trace).CombinedOutput(); err != nil {
		t.Fatalf("tracefreq: %v\n%s", err, out)
	}
	base := webServer(t, perflab, trace)
	p, err := b.Open(base+"/ui/timeline", 60*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	waitFor(t, p, `document.body.dataset.painted === "1"`)
	// The page asks again while the server reads the trace in the
	// background, until the overview and the summary are read.
	waitFor(t, p, `document.body.dataset.complete === "1" && document.body.dataset.summary === "1"`)
	if pending := evalT[int](t, p, `perflabTrace.tiles.pending.length`); pending != 0 {
		t.Errorf("complete, with %d stretches still marked as not read", pending)
	}
	ink, err := browser.CanvasInk(p, "#timeline", "#1f77b4")
	if err != nil || len(ink) != 1 || ink[0] < 200 {
		t.Fatalf("busy lanes: %v pixels (err %v)", ink, err)
	}
	if n := evalT[int](t, p, `document.querySelectorAll("#spans tbody tr").length`); n < 2 {
		t.Errorf("%d rows of tasks and regions, want the task and its regions", n)
	}
	browser.ScreenshotForTest(t, p, "web-timeline")

	// Zoom in around the middle until the server reads tiles from the trace.
	before := evalT[int](t, p, `perflabTrace.fetches`)
	evalT[bool](t, p, `(() => {
		const c = document.getElementById("timeline"), r = c.getBoundingClientRect();
		for (let i = 0; i < 30; i++) c.dispatchEvent(new WheelEvent("wheel", {deltaY: -100, clientX: r.left + r.width / 2, clientY: r.top + 40, bubbles: true, cancelable: true}));
		return true;
	})()`)
	waitFor(t, p, `perflabTrace.fetches > `+strconv.Itoa(before)+` && perflabTrace.tiles.source === "window"`)
	view := evalT[[]float64](t, p, `perflabTrace.view()`)
	if whole := evalT[float64](t, p, `perflabTrace.tiles.duration_ns`); view[1]-view[0] > whole/50 {
		t.Errorf("zoomed view %v of a %vns trace", view, whole)
	}
	if read := evalT[float64](t, p, `perflabTrace.tiles.read_bytes`); read <= 0 {
		t.Errorf("zoomed tiles read %v bytes of the trace", read)
	}
	ink, err = browser.CanvasInk(p, "#timeline", "#1f77b4")
	if err != nil || ink[0] < 100 {
		t.Errorf("zoomed busy lanes: %v pixels (err %v)", ink, err)
	}
	browser.ScreenshotForTest(t, p, "web-timeline-zoomed")

	// Click the first P's lane where it is busiest in the view, away from
	// its edges (on a loaded machine the program has idle stretches, and a
	// click there finds no goroutine).
	busy := evalT[float64](t, p, `(() => {
		const c = document.getElementById("timeline"), r = c.getBoundingClientRect(), t = perflabTrace.tiles, v = perflabTrace.view();
		const w = (t.end_ns - t.start_ns) / t.columns, lo = v[0] + (v[1] - v[0]) / 20, hi = v[1] - (v[1] - v[0]) / 20;
		let best = 0, ns = (v[0] + v[1]) / 2;
		for (let i = 0; i < t.columns; i++) {
			const mid = t.start_ns + (i + 0.5) * w, b = t.procs[0].busy[i] || 0;
			if (mid > lo && mid < hi && b > best) [best, ns] = [b, mid];
		}
		const x = r.left + 44 + (ns - v[0]) / (v[1] - v[0]) * (r.width - 44), y = r.top + 22 + 22 + 9;
		for (const type of ["mousedown", "mouseup"]) c.dispatchEvent(new MouseEvent(type, {clientX: x, clientY: y, bubbles: true}));
		return best;
	})()`)
	if busy <= 0.99 {
		t.Fatalf("the first P's lane is busy at most %.2f of any column in the zoomed view", busy)
	}
	waitFor(t, p, `perflabTrace.stack !== null`)
	text := evalT[string](t, p, `document.getElementById("stack").textContent`)
	// The goroutine that ran there is the program's, or one of the
	// runtime's own (a GC mark worker) when the click lands on its slice.
	g := evalT[int](t, p, `perflabTrace.stack.goroutine`)
	known := strings.Contains(text, "/examples/tracefreq") || strings.Contains(text, "runtime.")
	if g == 0 || !strings.Contains(text, fmt.Sprintf("ran goroutine %d", g)) || !known {
		t.Errorf("click on a busy lane (%.2f): goroutine %d, %q", busy, g, text)
	}
	if dimmed := evalT[int](t, p, `document.querySelectorAll("#stack li.std").length`); strings.Contains(text, "runtime.") && dimmed == 0 {
		t.Errorf("no standard-library frame dimmed in %q", text)
	}
	browser.ScreenshotForTest(t, p, "web-timeline-stack")

	// The goroutine's own lane, on demand.
	if evalT[bool](t, p, `!!document.getElementById("add-lane")`) {
		evalT[bool](t, p, `(() => { document.getElementById("add-lane").click(); return true; })()`)
		waitFor(t, p, `perflabTrace.tiles.goroutine_lanes.length === 1 && perflabTrace.tiles.procs.some((l) => l.label === "G" + perflabTrace.stack.goroutine)`)
		browser.ScreenshotForTest(t, p, "web-timeline-lane")
	} else {
		t.Errorf("no button to show the lane of goroutine %d", evalT[int](t, p, `perflabTrace.stack.goroutine`))
	}

	// Tasks and regions are bars on the timeline; a click on one zooms to it.
	fetches := evalT[int](t, p, `perflabTrace.fetches`)
	bar := evalT[map[string]float64](t, p, `(() => {
		const bars = perflabTrace.bars().filter(b => b.span.kind === "task" && b.x1 - b.x0 > 4);
		if (!bars.length) return {n: 0};
		const b = bars[0], c = document.getElementById("timeline"), r = c.getBoundingClientRect();
		const x = r.left + (b.x0 + b.x1) / 2, y = r.top + (b.y0 + b.y1) / 2;
		for (const type of ["mousedown", "mouseup"]) c.dispatchEvent(new MouseEvent(type, {clientX: x, clientY: y, bubbles: true}));
		return {n: bars.length, start: b.span.start_ns, end: b.span.end_ns};
	})()`)
	if bar["n"] == 0 {
		t.Fatalf("no task drawn as a bar; bars in the tiles: %d", evalT[int](t, p, `perflabTrace.tiles.bars.length`))
	}
	if v := evalT[[]float64](t, p, `perflabTrace.view()`); v[0] > bar["start"] || v[1] < bar["end"] || v[1]-v[0] > 1.2*(bar["end"]-bar["start"])+1000 {
		t.Errorf("a click on the task bar [%v, %v] shows %v", bar["start"], bar["end"], v)
	}
	waitFor(t, p, `perflabTrace.fetches > `+strconv.Itoa(fetches))
	browser.ScreenshotForTest(t, p, "web-timeline-task")
	noErrors(t, p, "timeline")
	if errs := evalT[[]string](t, p, `perflabTrace.errors`); len(errs) > 0 {
		t.Errorf("fetch errors: %q", errs)
	}
}

// TestWebGoroutines serves a real dump whose function names were turned
// into HTML with perflab web -base: the groups render, the leak finding
// is shown and the hostile names stay text.
func TestWebGoroutines(t *testing.T) {
	b := browser.ForTest(t)
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	src, err := os.ReadFile("../goroutines/testdata/prog.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	prog := testprog.BuildSource(t, string(src))
	dir := t.TempDir()
	dump := func(name, n string) string {
		out, _ := exec.Command(prog, "stackn", n).Output()
		out = bytes.ReplaceAll(out, []byte("main.leakyWorker"), []byte(`main.<img/src=x/onerror=window.pwned=1>`))
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	old, cur := dump("old.txt", "5"), dump("new.txt", "105")
	p := openView(t, b, webServer(t, perflab, "-base", old, cur)+"/ui/goroutines")
	if n := evalT[int](t, p, `document.querySelectorAll(".goroutines details").length`); n < 2 {
		t.Errorf("%d groups drawn", n)
	}
	leak := evalT[string](t, p, `(document.querySelector(".goroutines .leak") || {}).textContent || ""`)
	if !bytes.Contains([]byte(leak), []byte(`+100 goroutines in main.<img/src=x/onerror=window.pwned=1>`)) {
		t.Errorf("leak finding: %q", leak)
	}
	if evalT[bool](t, p, `window.pwned !== undefined || document.querySelector(".goroutines img") !== null`) {
		t.Error("a function name from the dump became HTML")
	}
	browser.ScreenshotForTest(t, p, "web-goroutines")
	noErrors(t, p, "goroutines")
}

// TestBenchTimelinePaint is scripts/bench-timeline's measurement, run only
// when PERFLAB_BENCH_TIMELINE_URL is set (the /ui/timeline of a running
// perflab web): it loads the page, waits for the first paint, then zooms
// in three times and waits for each answer, and prints one line:
//
//	bench-timeline: paint_ms=P zoom_ms=Z1,Z2,Z3 read_mb=R1,R2,R3
//
// P from navigation start to the timeline drawn; Z the time from a zoom
// to finer tiles drawn; R the megabytes of trace the server read for them.
func TestBenchTimelinePaint(t *testing.T) {
	u := os.Getenv("PERFLAB_BENCH_TIMELINE_URL")
	if u == "" {
		t.Skip("PERFLAB_BENCH_TIMELINE_URL not set; scripts/bench-timeline sets it")
	}
	b := browser.ForTest(t)
	p, err := b.Open(u, 120*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	waitFor(t, p, `document.body.dataset.painted === "1"`)
	paint := evalT[float64](t, p, `perflabTrace.firstPaintMs`)
	waitFor(t, p, `document.body.dataset.complete === "1"`)
	var zooms, reads []string
	for i := range 3 {
		evalT[bool](t, p, `(() => {
			const c = document.getElementById("timeline"), r = c.getBoundingClientRect();
			window.zoomStart = {t0: performance.now(), n: perflabTrace.fetches};
			for (let i = 0; i < 12; i++) c.dispatchEvent(new WheelEvent("wheel", {deltaY: -100, clientX: r.left + r.width * 0.4, clientY: r.top + 40, bubbles: true, cancelable: true}));
			return true;
		})()`)
		waitFor(t, p, `perflabTrace.fetches > zoomStart.n && perflabTrace.lastFetch > zoomStart.t0`)
		ms := evalT[float64](t, p, `perflabTrace.lastFetch - zoomStart.t0`)
		zooms = append(zooms, strconv.FormatFloat(ms, 'f', 0, 64))
		reads = append(reads, strconv.FormatFloat(evalT[float64](t, p, `perflabTrace.tiles.read_bytes`)/(1<<20), 'f', 1, 64))
		browser.ScreenshotForTest(t, p, "bench-timeline-zoom"+strconv.Itoa(i))
	}
	fmt.Printf("bench-timeline: paint_ms=%.0f zoom_ms=%s read_mb=%s\n", paint, strings.Join(zooms, ","), strings.Join(reads, ","))
	noErrors(t, p, "timeline")
}
