package browsertest

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/browsertest/internal/browser"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/internal/testprog"
)

// TestGraphSVGDraws opens perflab graph -svg's output of a real CPU profile
// in headless Chromium: no console errors, every node drawn with its text
// inside its box, no two node boxes overlapping on screen, the wheel
// zooms, a drag pans and a click on a node reports it.
func TestGraphSVGDraws(t *testing.T) {
	b := browser.ForTest(t)
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	profs := reporttest.Generate(t)
	svg := filepath.Join(t.TempDir(), "cpu.svg")
	if out, err := exec.Command(perflab, "graph", "-svg", "-o", svg, profs.Path("cpu.pb.gz")).CombinedOutput(); err != nil {
		t.Fatalf("perflab graph: %v\n%s", err, out)
	}
	p, err := b.Open("file://"+svg, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	type check struct {
		Nodes, Drawn, Overlaps, Overflows, Edges int
	}
	c, err := browser.Eval[check](p, `(() => {
		const nodes = Array.from(document.querySelectorAll("g.node"));
		const boxes = nodes.map((n) => n.querySelector("rect").getBoundingClientRect());
		let drawn = 0, overlaps = 0, overflows = 0;
		nodes.forEach((n, i) => {
			const t = n.querySelector("text").getBBox(), r = n.querySelector("rect").getBBox();
			if (boxes[i].width > 0 && boxes[i].height > 0 && t.width > 0) drawn++;
			if (t.x < r.x || t.y < r.y || t.x + t.width > r.x + r.width || t.y + t.height > r.y + r.height) overflows++;
			for (let j = i + 1; j < boxes.length; j++) {
				const a = boxes[i], b = boxes[j];
				if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) overlaps++;
			}
		});
		return {Nodes: nodes.length, Drawn: drawn, Overlaps: overlaps, Overflows: overflows, Edges: document.querySelectorAll("g.edge path").length};
	})()`)
	if err != nil {
		t.Fatal(err)
	}
	if c.Nodes < 10 || c.Drawn != c.Nodes || c.Overlaps != 0 || c.Overflows != 0 || c.Edges < c.Nodes/2 {
		t.Errorf("graph: %+v; want every node drawn with its text inside, none overlapping, edges", c)
	}
	type view struct {
		Zoomed, Panned, Clicked string
	}
	v, err := browser.Eval[view](p, `(() => {
		const svg = document.querySelector("svg.perflab-graph");
		const before = svg.getAttribute("viewBox");
		svg.dispatchEvent(new WheelEvent("wheel", {deltaY: -100, clientX: 300, clientY: 300, bubbles: true, cancelable: true}));
		const zoomed = svg.getAttribute("viewBox") !== before ? "yes" : "no: " + before;
		const z = svg.getAttribute("viewBox");
		const opts = (x, y) => ({clientX: x, clientY: y, button: 0, bubbles: true, pointerId: 1});
		svg.dispatchEvent(new PointerEvent("pointerdown", opts(300, 300)));
		svg.dispatchEvent(new PointerEvent("pointermove", opts(360, 340)));
		svg.dispatchEvent(new PointerEvent("pointerup", opts(360, 340)));
		const panned = svg.getAttribute("viewBox") !== z ? "yes" : "no";
		let clicked = "no event";
		svg.addEventListener("perflab-node", (e) => { clicked = e.detail.id + " " + e.detail.name; });
		const node = document.querySelector("g.node rect");
		const r = node.getBoundingClientRect();
		const x = r.left + r.width / 2, y = r.top + r.height / 2;
		node.dispatchEvent(new PointerEvent("pointerdown", opts(x, y)));
		node.dispatchEvent(new PointerEvent("pointerup", opts(x, y)));
		return {Zoomed: zoomed, Panned: panned, Clicked: clicked};
	})()`)
	if err != nil {
		t.Fatal(err)
	}
	if v.Zoomed != "yes" || v.Panned != "yes" || !strings.HasPrefix(v.Clicked, "node1 ") {
		t.Errorf("interaction: %+v", v)
	}
	t.Logf("interaction: %+v", v)
	browser.ScreenshotForTest(t, p, "graph-cpu")
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
