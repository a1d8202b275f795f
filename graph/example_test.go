package graph_test

import (
	"fmt"
	"strings"

	"github.com/perflab/perflab/graph"
)

// A graph of three functions, laid out and drawn: the caller sits above
// its callees.
func Example() {
	g := &graph.Graph{
		Title:  "prog",
		Legend: []string{"File: prog", "Type: cpu"},
		Nodes: []*graph.Node{
			{ID: "N1", Name: "main.main", Lines: []string{"main", "main", "0 of 30ms (100%)"}, FontSize: 8, Parent: -1},
			{ID: "N2", Name: "main.parse", Lines: []string{"main", "parse", "20ms (66.67%)"}, FontSize: 24, Parent: -1},
			{ID: "N3", Name: "main.<print>", Lines: []string{"main", "<print>", "10ms (33.33%)"}, FontSize: 17, Parent: -1},
		},
		Edges: []*graph.Edge{
			{From: 0, To: 1, Weight: 20, Label: "20ms", PenWidth: 4},
			{From: 0, To: 2, Weight: 10, Label: "10ms", PenWidth: 2, Residual: true, Dotted: true},
		},
	}
	d := graph.Layout(g)
	fmt.Println("main above parse:", d.Nodes[0].Y+d.Nodes[0].H < d.Nodes[1].Y)
	fmt.Println("parse and print overlap:", d.Nodes[1].Overlaps(d.Nodes[2]))

	var svg strings.Builder
	if err := graph.WriteSVG(&svg, g); err != nil {
		fmt.Println(err)
	}
	fmt.Println(strings.Contains(svg.String(), `data-name="main.&lt;print&gt;"`))
	// Output:
	// main above parse: true
	// parse and print overlap: false
	// true
}
