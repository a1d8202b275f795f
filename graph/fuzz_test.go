package graph

import (
	"bytes"
	"fmt"
	"testing"
)

// graphFromBytes decodes arbitrary bytes as a graph: the first byte is
// the node count, then each pair of bytes an edge (its high bits its
// minimum length and style), the rest the nodes' text.
func graphFromBytes(data []byte) *Graph {
	if len(data) == 0 {
		return &Graph{}
	}
	n := int(data[0])%48 + 1
	data = data[1:]
	g := &Graph{Title: string(data[:min(len(data), 8)]), Legend: []string{string(data[:min(len(data), 20)])}}
	for i := range n {
		text := ""
		if len(data) > 0 {
			text = string(data[i%len(data) : min(len(data), i%len(data)+12)])
		}
		g.Nodes = append(g.Nodes, &Node{ID: fmt.Sprintf("N%d", i+1), Name: text, Lines: []string{text, "x"}, FontSize: 8 + i%17, Parent: -1})
	}
	for i := 0; i+1 < len(data); i += 2 {
		a, b := int(data[i])%n, int(data[i+1])%n
		g.Edges = append(g.Edges, &Edge{From: a, To: b, MinLen: 1 + int(data[i]>>7), Dotted: data[i+1]&0x80 != 0, Label: "e"})
	}
	return g
}

// FuzzLayout lays out and draws graphs of arbitrary shape and text: no
// panic, no overlapping boxes, well-formed SVG.
func FuzzLayout(f *testing.F) {
	f.Add([]byte{5, 0, 1, 1, 2, 2, 0, 0, 3, 3, 4})
	f.Add([]byte("\x30<script>&\"'\x00\xff]]>abcdefghijklmnopqrstuvwxyz"))
	f.Add([]byte{1, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		g := graphFromBytes(data)
		d := Layout(g)
		for i, a := range d.Nodes {
			for j := i + 1; j < len(d.Nodes); j++ {
				if a.Overlaps(d.Nodes[j]) {
					t.Fatalf("nodes %d %+v and %d %+v overlap", i, a, j, d.Nodes[j])
				}
			}
		}
		var b bytes.Buffer
		if err := WriteDrawingSVG(&b, g, d); err != nil {
			t.Fatal(err)
		}
		parseSVG(t, b.Bytes())
	})
}
