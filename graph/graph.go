package graph

// A Graph is a call graph ready to be laid out and drawn: pprof's `web`
// graph. Nodes are functions (or lines, files, addresses, by granularity)
// and the tag nodelets pprof hangs below them; edges are calls.
type Graph struct {
	// Title names the profile (pprof: the main binary's base name).
	Title string
	// Legend holds the legend lines: File, Type, Time, Showing nodes...
	Legend []string
	Nodes  []*Node
	Edges  []*Edge
}

// NodeKind says what a node stands for.
type NodeKind int

// The kinds of nodes.
const (
	// Function is a node of the profile's graph: a function, a line, a
	// file or an address, by the report's granularity.
	Function NodeKind = iota
	// Tag is a nodelet: the share of a node's value carrying one label
	// value or numeric label range (pprof's box3d nodes).
	Tag
)

// A Node is one box of the graph.
type Node struct {
	// ID is the node's DOT name and the SVG element's id base: "N1",
	// "N1_0" (a label tag) or "NN1_0" (a numeric tag), as pprof names them.
	ID   string
	Kind NodeKind
	// Name is the full printable name (function, file:line) of a Function
	// node, or the tag's text.
	Name string
	// Lines are the label's lines as drawn: the shortened name split at
	// its dots, then the flat and cumulative values.
	Lines []string
	// Flat and Cum are the node's values in the profile's unit (negative
	// in a diff where the value shrank); FlatText and CumText format them
	// with their percentages, as the label shows them.
	Flat, Cum         int64
	FlatText, CumText string
	// FontSize is in points: 8 to 24, growing with |Flat|.
	FontSize int
	// Color (border) and FillColor are "#rrggbb": red for large positive
	// values, green for negative ones (diffs), grey near zero.
	Color, FillColor string
	// Tooltip is the hover text.
	Tooltip string
	// Parent is the index of the node a Tag belongs to, or -1.
	Parent int
}

// An Edge is a call from one node to another (or a node's link to one of
// its tags).
type Edge struct {
	From, To int // indexes in Graph.Nodes
	// Weight is the value of the calls, and Label its formatted text.
	Weight int64
	Label  string
	// Inline is set when every call was inlined; Residual when the edge
	// skips nodes that were dropped (drawn dotted).
	Inline, Residual bool
	// Dotted is the drawn style: residual edges and cumulative tag links.
	Dotted bool
	// PenWidth is the stroke width, 1 to 6; Color "#rrggbb" or "".
	PenWidth int
	Color    string
	Tooltip  string
	// MinLen is the least number of ranks the edge spans (1 or 2).
	MinLen int
}
