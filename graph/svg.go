package graph

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// WriteSVG lays g out (Layout) and writes it as a standalone SVG
// document. Every text taken from the profile is escaped. Each node is a
// <g class="node"> with the id pprof's SVG gives it ("node1", or the
// nodelet's "N1_0"), data-id (the DOT name) and data-name (the full
// function name), so that a page can find, highlight or focus it; edges
// are <g class="edge"> with data-from and data-to.
func WriteSVG(w io.Writer, g *Graph) error {
	return WriteDrawingSVG(w, g, Layout(g))
}

// WriteDrawingSVG writes g as SVG with the positions of d, a Layout of g.
func WriteDrawingSVG(w io.Writer, g *Graph, d *Drawing) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	s := &svgWriter{w: bw}
	s.printf(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>` + "\n")
	s.printf(`<svg xmlns="http://www.w3.org/2000/svg" class="perflab-graph" width="%s" height="%s" viewBox="0 0 %s %s" font-family="Times,serif">`+"\n",
		num(d.Width), num(d.Height), num(d.Width), num(d.Height))
	s.printf("<title>%s</title>\n", esc(g.Title))
	s.printf(`<g id="graph0" class="graph">` + "\n")
	s.printf(`<rect class="background" x="0" y="0" width="%s" height="%s" fill="white"/>`+"\n", num(d.Width), num(d.Height))
	if len(g.Legend) > 0 {
		s.legend(g, d.Legend)
	}
	s.printf("<g class=\"edges\">\n")
	for i, e := range g.Edges {
		if len(d.Edges[i].Points) >= 2 {
			s.edge(g, i, e, d.Edges[i])
		}
	}
	s.printf("</g>\n<g class=\"nodes\">\n")
	for i, n := range g.Nodes {
		s.node(n, d.Nodes[i])
	}
	s.printf("</g>\n</g>\n</svg>\n")
	if s.err != nil {
		return s.err
	}
	return bw.Flush()
}

type svgWriter struct {
	w   io.Writer
	err error
}

func (s *svgWriter) printf(format string, args ...any) {
	if s.err == nil {
		_, s.err = fmt.Fprintf(s.w, format, args...)
	}
}

func (s *svgWriter) legend(g *Graph, b Box) {
	s.printf(`<g id="legend" class="legend"><rect x="%s" y="%s" width="%s" height="%s" fill="white" stroke="black"/>`+"\n",
		num(b.X), num(b.Y), num(b.W), num(b.H))
	s.printf(`<text x="%s" y="%s" font-size="%s">`, num(b.X+8), num(b.Y+6), num(legendFont))
	for _, l := range g.Legend {
		for _, part := range splitLines(l) {
			s.printf(`<tspan x="%s" dy="%s">%s</tspan>`, num(b.X+8), num(legendFont*lineSpace), esc(part))
		}
	}
	s.printf("</text></g>\n")
}

func (s *svgWriter) node(n *Node, b Box) {
	id := n.ID
	if n.Kind == Function && strings.HasPrefix(id, "N") {
		id = "node" + id[1:]
	}
	class := "node"
	if n.Kind == Tag {
		class = "node tag"
	}
	s.printf(`<g id="%s" class="%s" data-id="%s" data-name="%s">`, esc(id), class, esc(n.ID), esc(n.Name))
	s.printf("<title>%s</title>", esc(n.Tooltip))
	fill, stroke := n.FillColor, n.Color
	if fill == "" {
		fill = "#f8f8f8"
	}
	if stroke == "" {
		stroke = "black"
	}
	s.printf(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="%s"/>`,
		num(b.X), num(b.Y), num(b.W), num(b.H), esc(fill), esc(stroke))
	fs := float64(max(n.FontSize, 8))
	cx := b.X + b.W/2
	// The first baseline sits one font size below the top padding.
	s.printf(`<text x="%s" y="%s" font-size="%s" text-anchor="middle">`, num(cx), num(b.Y+4+fs-fs*lineSpace), num(fs))
	for _, line := range n.Lines {
		s.printf(`<tspan x="%s" dy="%s">%s</tspan>`, num(cx), num(fs*lineSpace), esc(line))
	}
	s.printf("</text></g>\n")
}

func (s *svgWriter) edge(g *Graph, i int, e *Edge, p Path) {
	from, to := "", ""
	if e.From >= 0 && e.From < len(g.Nodes) {
		from = g.Nodes[e.From].ID
	}
	if e.To >= 0 && e.To < len(g.Nodes) {
		to = g.Nodes[e.To].ID
	}
	color := e.Color
	if color == "" {
		color = "black"
	}
	s.printf(`<g id="edge%d" class="edge" data-from="%s" data-to="%s"><title>%s</title>`, i+1, esc(from), esc(to), esc(e.Tooltip))
	dash := ""
	if e.Dotted {
		dash = ` stroke-dasharray="1,5"`
	}
	pts := p.Points
	// Stop the line short of the arrowhead.
	last, prev := pts[len(pts)-1], pts[len(pts)-2]
	dx, dy := last.X-prev.X, last.Y-prev.Y
	if l := math.Hypot(dx, dy); l > 0 {
		dx, dy = dx/l, dy/l
	} else {
		dx, dy = 0, 1
	}
	pen := float64(max(e.PenWidth, 1))
	head := 7 + pen
	body := append([]Point(nil), pts...)
	body[len(body)-1] = Point{last.X - dx*head, last.Y - dy*head}
	s.printf(`<path d="%s" fill="none" stroke="%s" stroke-width="%s"%s/>`, curve(body), esc(color), num(pen), dash)
	bx, by := last.X-dx*head, last.Y-dy*head
	hw := head / 2.2
	s.printf(`<polygon points="%s,%s %s,%s %s,%s" fill="%s" stroke="%s"/>`,
		num(last.X), num(last.Y), num(bx-dy*hw), num(by+dx*hw), num(bx+dy*hw), num(by-dx*hw), esc(color), esc(color))
	if e.Label != "" {
		s.printf(`<text x="%s" y="%s" font-size="%s">%s</text>`, num(p.Label.X), num(p.Label.Y), num(labelFont), esc(e.Label))
	}
	s.printf("</g>\n")
}

// curve is an SVG path through pts: a Catmull-Rom spline drawn as cubic
// Bézier segments.
func curve(pts []Point) string {
	var b strings.Builder
	fmt.Fprintf(&b, "M%s,%s", num(pts[0].X), num(pts[0].Y))
	for i := 0; i+1 < len(pts); i++ {
		p0, p1, p2, p3 := pts[max(i-1, 0)], pts[i], pts[i+1], pts[min(i+2, len(pts)-1)]
		c1 := Point{p1.X + (p2.X-p0.X)/6, p1.Y + (p2.Y-p0.Y)/6}
		c2 := Point{p2.X - (p3.X-p1.X)/6, p2.Y - (p3.Y-p1.Y)/6}
		fmt.Fprintf(&b, " C%s,%s %s,%s %s,%s", num(c1.X), num(c1.Y), num(c2.X), num(c2.Y), num(p2.X), num(p2.Y))
	}
	return b.String()
}

// num formats a coordinate with two decimals at most.
func num(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		f = 0
	}
	return strconv.FormatFloat(math.Round(f*100)/100, 'f', -1, 64)
}

// splitLines splits a legend line at its newlines.
func splitLines(s string) []string { return strings.Split(s, "\n") }

// esc escapes s for XML text and attributes. Characters XML cannot hold
// (control characters, invalid UTF-8) become U+FFFD.
func esc(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '"':
			b.WriteString("&#34;")
		case r == '\'':
			b.WriteString("&#39;")
		case r == utf8.RuneError && size == 1, !xmlChar(r):
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// xmlChar says whether XML 1.0 allows r in a document.
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		(r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}
