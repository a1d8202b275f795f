package graph

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomGraph makes a call graph of n nodes with about n*deg random
// edges (cycles included) and a tag under some nodes.
func randomGraph(seed uint64, n int, deg float64) *Graph {
	r := rand.New(rand.NewPCG(seed, 1))
	g := &Graph{Title: "random", Legend: []string{"Type: cpu", "Showing nodes"}}
	for i := range n {
		lines := []string{"pkg", strings.Repeat("f", 1+r.IntN(30)), fmt.Sprintf("%dms (%d%%)", i, i)}
		g.Nodes = append(g.Nodes, &Node{ID: fmt.Sprintf("N%d", i+1), Name: fmt.Sprintf("pkg.f%d", i), Lines: lines, FontSize: 8 + r.IntN(17), Parent: -1})
	}
	seen := map[[2]int]bool{}
	for range int(float64(n) * deg) {
		a, b := r.IntN(n), r.IntN(n)
		if a == b || seen[[2]int{a, b}] {
			continue
		}
		seen[[2]int{a, b}] = true
		g.Edges = append(g.Edges, &Edge{From: a, To: b, Label: "1ms", PenWidth: 1 + r.IntN(6), MinLen: 1, Dotted: r.IntN(5) == 0})
	}
	for i := range n / 7 {
		g.Nodes = append(g.Nodes, &Node{ID: fmt.Sprintf("N%d_0", i+1), Kind: Tag, Name: "worker:w0", Lines: []string{"worker:w0"}, FontSize: 8, Parent: i})
		g.Edges = append(g.Edges, &Edge{From: i, To: len(g.Nodes) - 1, Label: "1ms", MinLen: 1})
	}
	return g
}

// checkDrawing wants no two boxes to overlap, every box and edge point
// inside the drawing, edges leaving their source box and reaching their
// target's.
func checkDrawing(t *testing.T, g *Graph, d *Drawing) {
	t.Helper()
	for i, a := range d.Nodes {
		if a.X < 0 || a.Y < 0 || a.X+a.W > d.Width+0.01 || a.Y+a.H > d.Height+0.01 {
			t.Errorf("node %d %+v outside the drawing %gx%g", i, a, d.Width, d.Height)
		}
		if a.Overlaps(d.Legend) {
			t.Errorf("node %d %+v overlaps the legend %+v", i, a, d.Legend)
		}
		for j := i + 1; j < len(d.Nodes); j++ {
			if a.Overlaps(d.Nodes[j]) {
				t.Fatalf("nodes %d %+v and %d %+v overlap", i, a, j, d.Nodes[j])
			}
		}
	}
	for i, e := range g.Edges {
		pts := d.Edges[i].Points
		if e.From == e.To {
			continue
		}
		if len(pts) < 2 {
			t.Fatalf("edge %d has %d points", i, len(pts))
		}
		if !near(d.Nodes[e.From], pts[0]) || !near(d.Nodes[e.To], pts[len(pts)-1]) {
			t.Errorf("edge %d (%d->%d) runs from %v to %v, not between %+v and %+v", i, e.From, e.To, pts[0], pts[len(pts)-1], d.Nodes[e.From], d.Nodes[e.To])
		}
	}
}

// near says whether p lies on the border of b (or within a point of it).
func near(b Box, p Point) bool {
	return p.X >= b.X-1 && p.X <= b.X+b.W+1 && p.Y >= b.Y-1 && p.Y <= b.Y+b.H+1
}

func TestLayoutNoOverlap(t *testing.T) {
	for _, c := range []struct {
		n   int
		deg float64
	}{{1, 0}, {2, 1}, {5, 2}, {30, 1.5}, {80, 2.5}, {200, 4}} {
		for seed := range uint64(5) {
			g := randomGraph(seed, c.n, c.deg)
			checkDrawing(t, g, Layout(g))
		}
	}
}

func TestLayoutEmpty(t *testing.T) {
	d := Layout(&Graph{})
	if d.Width <= 0 || d.Height <= 0 || len(d.Nodes) != 0 {
		t.Errorf("empty graph: %+v", d)
	}
	var b bytes.Buffer
	if err := WriteSVG(&b, &Graph{}); err != nil {
		t.Fatal(err)
	}
	parseSVG(t, b.Bytes())
}

// TestLayoutDeterministic lays the same graph out twice and wants the
// same SVG.
func TestLayoutDeterministic(t *testing.T) {
	g := randomGraph(7, 120, 3)
	var a, b bytes.Buffer
	if err := WriteSVG(&a, g); err != nil {
		t.Fatal(err)
	}
	if err := WriteSVG(&b, g); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two layouts of the same graph differ")
	}
}

// TestLayoutRanks checks the layered order on a DAG: every caller above
// its callees, and a chain stays straight.
func TestLayoutRanks(t *testing.T) {
	g := randomGraph(3, 40, 0)
	g.Nodes, g.Edges = g.Nodes[:40], nil // no tags
	for i := 0; i+1 < 40; i++ {
		g.Edges = append(g.Edges, &Edge{From: i, To: i + 1, MinLen: 1})
	}
	d := Layout(g)
	for _, e := range g.Edges {
		a, b := d.Nodes[e.From], d.Nodes[e.To]
		if a.Y+a.H >= b.Y {
			t.Errorf("caller %d %+v not above callee %d %+v", e.From, a, e.To, b)
		}
	}
	for i := 0; i+1 < 40; i++ {
		if ca, cb := d.Nodes[i].Center(), d.Nodes[i+1].Center(); ca.X != cb.X {
			t.Errorf("chain bends between %d (x=%g) and %d (x=%g)", i, ca.X, i+1, cb.X)
			break
		}
	}
	checkDrawing(t, g, d)
}

// TestLayoutLarge lays out 1000 nodes with long edges and cycles: the
// virtual node budget keeps it fast.
func TestLayoutLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	g := randomGraph(1, 1000, 6)
	d := Layout(g)
	checkDrawing(t, g, d)
}

// TestWriteSVGEscapes draws nodes, edges, legend and title made of markup
// and wants well-formed XML that gives every string back intact.
func TestWriteSVGEscapes(t *testing.T) {
	hostile := []string{`<script>alert("x")</script>`, `a&b'c"d`, "nul\x00ctl\x01", "bad\xffutf8", `]]><!--`}
	g := &Graph{Title: hostile[0], Legend: hostile}
	for i, h := range hostile {
		g.Nodes = append(g.Nodes, &Node{ID: fmt.Sprintf("N%d", i+1), Name: h, Lines: []string{h}, Tooltip: h, Color: h, Parent: -1})
	}
	g.Edges = append(g.Edges, &Edge{From: 0, To: 1, Label: hostile[0], Tooltip: hostile[1], Color: hostile[2]})
	var b bytes.Buffer
	if err := WriteSVG(&b, g); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b.Bytes(), []byte("<script")) || bytes.Contains(b.Bytes(), []byte("<!--")) {
		t.Errorf("markup from the graph reached the SVG:\n%s", b.Bytes())
	}
	names := parseSVG(t, b.Bytes())
	for _, h := range hostile[:2] {
		found := false
		for _, n := range names {
			found = found || n == h
		}
		if !found {
			t.Errorf("data-name %q not found in %q", h, names)
		}
	}
}

// parseSVG decodes svg as XML and returns its nodes' data-name values.
func parseSVG(t testing.TB, svg []byte) []string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	var names []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%s", err, svg)
		}
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				if a.Name.Local == "data-name" {
					names = append(names, a.Value)
				}
			}
		}
	}
}

func TestIsotonic(t *testing.T) {
	got := isotonic([]float64{1, 3, 2, 4, 0}, []float64{1, 1, 1, 1, 1})
	want := []float64{1, 2.25, 2.25, 2.25, 2.25}
	for i := range want {
		if d := got[i] - want[i]; d > 1e-9 || d < -1e-9 {
			t.Fatalf("isotonic = %v, want %v", got, want)
		}
	}
}

// TestLayoutSpreadsLabels fans one node out to four callees with long
// edge labels, which would print over each other at the same height.
func TestLayoutSpreadsLabels(t *testing.T) {
	g := &Graph{Nodes: []*Node{{ID: "N1", Lines: []string{"x"}, Parent: -1}}}
	for i := range 4 {
		g.Nodes = append(g.Nodes, &Node{ID: fmt.Sprintf("N%d", i+2), Lines: []string{"y"}, Parent: -1})
		g.Edges = append(g.Edges, &Edge{From: 0, To: i + 1, Label: "1234.56ms (inline)", MinLen: 1})
	}
	d := Layout(g)
	for i := range g.Edges {
		a := d.Edges[i].Label
		for j := i + 1; j < len(g.Edges); j++ {
			b := d.Edges[j].Label
			wa, wb := labelWidth(g.Edges[i].Label), labelWidth(g.Edges[j].Label)
			if a.X < b.X+wb && b.X < a.X+wa && a.Y-labelFont < b.Y && b.Y-labelFont < a.Y {
				t.Errorf("labels %d at %v and %d at %v overlap", i, a, j, b)
			}
		}
	}
}
