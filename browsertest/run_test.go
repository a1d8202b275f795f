package browsertest

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/browsertest/internal/browser"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/investigate"
	"github.com/perflab/perflab/loadgen"
)

// TestRunReport runs the real rsssearch service under investigate.Run,
// naive then tuned with naive as its base, with a hostile search term in
// the URL; opens the tuned report, whose CPU and differential flame graphs
// must draw; then adds hostile function and
// file names to the report (as a profile could carry them) and opens the
// HTML page in headless Chromium: every chart drawn, no console errors,
// nothing hostile run as script or parsed as markup.
func TestRunReport(t *testing.T) {
	bin := testprog.BuildPackage(t, "github.com/perflab/perflab/examples/rsssearch/cmd/rsssearch")
	base := t.TempDir()
	if _, err := investigate.Run(context.Background(), rssOptions(t, bin, "naive", base)); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	o := rssOptions(t, bin, "tuned", dir)
	o.Base = base
	rep, err := investigate.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	rep.Findings = append(rep.Findings, investigate.Finding{Kind: "alloc", Title: "finding " + hostile, Evidence: hostile, Where: hostile})
	rep.AllocTop = append(rep.AllocTop, investigate.AllocSite{Func: "main.f" + hostile, File: "/x/" + hostile + ".go", Callee: hostile, Reasons: []string{hostile}})
	rep.CPUTop = append(rep.CPUTop, investigate.FuncShare{Func: "main.g" + hostile})
	rep.Goroutines.Groups = append(rep.Goroutines.Groups, investigate.GoroutineGroup{Top: hostile, Root: hostile})
	rep.Problems = append(rep.Problems, hostile)
	path := filepath.Join(dir, "hostile.html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteHTML(f, ""); err != nil {
		t.Fatal(err)
	}
	f.Close()

	b := browser.ForTest(t)
	for _, page := range []string{filepath.Join(dir, "report.html"), path} {
		p, err := b.Open("file://"+page, 30*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		browser.CheckCharts(t, p, 4, 0)
		if page != path {
			waitFor(t, p, `(() => { const f = window.perflabFlames || {}; return !!(f["flame-cpu"] && f["flame-cpu"].view && f["flame-diff"] && f["flame-diff"].view); })()`)
			for _, id := range []string{"flame-cpu", "flame-diff"} { // drawn where scrolled into view
				browser.Eval[bool](p, `(document.querySelector("#`+id+` .pf-canvas").scrollIntoView(), true)`)
				var ink []int
				var err error
				for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
					ink, err = browser.CanvasInk(p, "#"+id+" .pf-canvas", "color")
					if err == nil && len(ink) == 1 && ink[0] >= 1000 || time.Now().After(deadline) {
						break
					}
				}
				if err != nil || len(ink) != 1 || ink[0] < 1000 {
					t.Errorf("%s: %s drew %v coloured pixels (err %v), want a drawn graph", page, id, ink, err)
				}
			}
		}
		if rep.Trace.File != "" { // the trace's timeline, drawn by package timeline's timeline.js
			browser.Eval[bool](p, `(document.getElementById("trace-timeline").scrollIntoView(), true)`)
			ink, err := browser.CanvasInk(p, "#trace-timeline", "color")
			if err != nil || len(ink) != 1 || ink[0] < 1000 {
				t.Errorf("%s: the trace timeline drew %v coloured pixels (err %v)", page, ink, err)
			}
		} else {
			t.Errorf("no execution trace in the run: %v", rep.Problems)
		}
		if pwned, err := browser.Eval[bool](p, `window.pwned !== undefined`); err != nil || pwned {
			t.Errorf("%s: hostile text ran as script (pwned=%v, err=%v)", page, pwned, err)
		}
		if n, err := browser.Eval[int](p, `document.querySelectorAll("img").length`); err != nil || n != 0 {
			t.Errorf("%s: hostile text became %d img elements (err %v)", page, n, err)
		}
		want := "</script><script>window.pwned=1</script>" // as a profile's names carry it
		if page != path {
			want = url.QueryEscape(hostile) // as the URL carries it
		}
		text, err := browser.Eval[string](p, `document.body.innerText`)
		if err != nil || !strings.Contains(text, want) {
			t.Errorf("%s: the hostile term is not shown as text (err %v)", page, err)
		}
		head, _ := browser.Eval[string](p, `document.getElementById("headline").textContent`)
		if !strings.Contains(head, "req/s") {
			t.Errorf("%s: headline %q", page, head)
		}
		browser.ScreenshotForTest(t, p, "run-report-"+strings.TrimSuffix(filepath.Base(page), ".html"))
		p.Close()
	}
}

// rssOptions loads one variant of rsssearch briefly, with a hostile
// search term in the URL.
func rssOptions(t *testing.T, bin, variant, dir string) investigate.Options {
	port, debug := testprog.FreePort(t), testprog.FreePort(t)
	return investigate.Options{
		Program: bin,
		Args:    []string{"-variant=" + variant, "-addr=127.0.0.1:" + port, "-debug-addr=127.0.0.1:" + debug},
		URLs:    []string{"http://127.0.0.1:" + port + "/search?cnn=on&nyt=on&term=" + url.QueryEscape(hostile)},
		Pprof:   "http://127.0.0.1:" + debug + "/debug/pprof/",
		Load:    loadgen.Config{Method: "POST", C: 2, Duration: 1500 * time.Millisecond},
		Dir:     dir, Warmup: 300 * time.Millisecond, NoReasons: true,
	}
}
