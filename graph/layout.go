package graph

import (
	"sort"
	"unicode/utf8"
)

// A Drawing is a graph laid out: a box for every node and a path for
// every edge, in SVG user units (1/72 inch) with the origin at the top
// left and y growing downwards.
type Drawing struct {
	Width, Height float64
	Legend        Box    // the legend's box (empty without a legend)
	Nodes         []Box  // by index in Graph.Nodes
	Edges         []Path // by index in Graph.Edges
}

// A Point is a position in a Drawing.
type Point struct{ X, Y float64 }

// A Box is a node's rectangle: its top left corner and its size.
type Box struct{ X, Y, W, H float64 }

// Center returns the centre of b.
func (b Box) Center() Point { return Point{b.X + b.W/2, b.Y + b.H/2} }

// Overlaps says whether a and b share some area.
func (a Box) Overlaps(b Box) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

// A Path is an edge's route from its source box to its target's: draw a
// smooth curve through Points; the arrowhead goes at the last one.
type Path struct {
	Points []Point
	Label  Point // where the label's text starts
}

// Spacing of the layout, in points.
const (
	nodeSep   = 18.0 // between boxes of a rank
	rankSep   = 46.0 // between ranks
	dummySep  = 10.0 // width of an edge passing through a rank
	margin    = 12.0
	lineSpace = 1.25 // line height, as a multiple of the font size
	charWidth = 0.58 // average glyph width, as a multiple of the font size
)

// Layout places g's nodes in ranks, callers above callees, as Graphviz's
// dot does: it breaks cycles, ranks the nodes by longest path, routes
// long edges through virtual nodes, orders each rank by median sweeps
// that minimise crossings and assigns coordinates that keep edges
// straight. It is deterministic: the same graph gives the same drawing.
func Layout(g *Graph) *Drawing {
	l := newLayered(g)
	l.breakCycles()
	l.rank()
	l.addDummies()
	l.order()
	d := &Drawing{Nodes: make([]Box, len(g.Nodes)), Edges: make([]Path, len(g.Edges))}
	top := margin
	if len(g.Legend) > 0 {
		d.Legend = legendBox(g.Legend)
		top += d.Legend.H + rankSep/2
	}
	l.place(d, top)
	l.route(d)
	d.Width = max(d.Width, d.Legend.X+d.Legend.W+margin)
	return d
}

// legendBox sizes the legend at the top left.
func legendBox(lines []string) Box {
	w, n := 0, 0
	for _, l := range lines {
		for _, part := range splitLines(l) {
			w = max(w, utf8.RuneCountInString(part))
			n++
		}
	}
	return Box{X: margin, Y: margin, W: float64(w)*legendFont*charWidth + 16, H: float64(n)*legendFont*lineSpace + 12}
}

const legendFont = 12.0

// nodeSize estimates the box a node's label needs.
func nodeSize(n *Node) (w, h float64) {
	fs := float64(max(n.FontSize, 8))
	chars := 0
	for _, l := range n.Lines {
		chars = max(chars, utf8.RuneCountInString(l))
	}
	return float64(chars)*fs*charWidth + 12, float64(len(n.Lines))*fs*lineSpace + 8
}

// A vertex is a node of the layered graph: a real node or a dummy that an
// edge spanning several ranks passes through.
type vertex struct {
	node       int // index in Graph.Nodes, or -1 for a dummy
	w, h       float64
	rank, pos  int
	up, down   []int // neighbours in the ranks above and below
	x          float64
	upW, downW []float64
}

// A layered graph is the working state of Layout.
type layered struct {
	g        *Graph
	v        []vertex
	out, in  [][]int   // edge indexes by node
	reversed []bool    // edges turned upside down to break cycles
	chains   [][]int   // per edge: the vertices from its top end to its bottom end
	ranks    [][]int   // vertices of each rank, in order
	centers  []float64 // y of each rank's centre line

	keys     []float64 // scratch space of sortRank
	idx, tmp []int
}

func newLayered(g *Graph) *layered {
	n := len(g.Nodes)
	l := &layered{g: g, v: make([]vertex, n), out: make([][]int, n), in: make([][]int, n),
		reversed: make([]bool, len(g.Edges)), chains: make([][]int, len(g.Edges))}
	for i, nd := range g.Nodes {
		l.v[i].node = i
		l.v[i].w, l.v[i].h = nodeSize(nd)
	}
	for i, e := range g.Edges {
		if !l.valid(e) {
			continue
		}
		l.out[e.From] = append(l.out[e.From], i)
		l.in[e.To] = append(l.in[e.To], i)
	}
	return l
}

// valid says whether e joins two distinct nodes of the graph.
func (l *layered) valid(e *Edge) bool {
	n := len(l.g.Nodes)
	return e.From >= 0 && e.From < n && e.To >= 0 && e.To < n && e.From != e.To
}

// breakCycles reverses the edges that close a cycle in a depth-first
// search started from the roots (nodes nothing calls), in node order.
func (l *layered) breakCycles() {
	n := len(l.g.Nodes)
	state := make([]uint8, n) // 0 new, 1 on the stack, 2 done
	type frame struct{ node, next int }
	visit := func(root int) {
		stack := []frame{{root, 0}}
		state[root] = 1
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next == len(l.out[f.node]) {
				state[f.node] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			ei := l.out[f.node][f.next]
			f.next++
			to := l.g.Edges[ei].To
			switch state[to] {
			case 1:
				l.reversed[ei] = true
			case 0:
				state[to] = 1
				stack = append(stack, frame{to, 0})
			}
		}
	}
	for i := range n {
		if len(l.in[i]) == 0 && state[i] == 0 {
			visit(i)
		}
	}
	for i := range n {
		if state[i] == 0 {
			visit(i)
		}
	}
}

// ends returns the top and bottom node of edge i once cycles are broken.
func (l *layered) ends(i int) (top, bottom int) {
	e := l.g.Edges[i]
	if l.reversed[i] {
		return e.To, e.From
	}
	return e.From, e.To
}

func minLen(e *Edge) int { return max(e.MinLen, 1) }

// rank gives each node the longest path from a root, then moves roots
// down next to their highest callee so that their edges stay short.
func (l *layered) rank() {
	n := len(l.g.Nodes)
	indeg := make([]int, n)
	down := make([][]int, n)
	for i, e := range l.g.Edges {
		if !l.valid(e) {
			continue
		}
		t, b := l.ends(i)
		down[t] = append(down[t], i)
		indeg[b]++
	}
	var order []int
	for i := range n {
		if indeg[i] == 0 {
			order = append(order, i)
		}
	}
	for k := 0; k < len(order); k++ {
		t := order[k]
		for _, ei := range down[t] {
			_, b := l.ends(ei)
			l.v[b].rank = max(l.v[b].rank, l.v[t].rank+minLen(l.g.Edges[ei]))
			if indeg[b]--; indeg[b] == 0 {
				order = append(order, b)
			}
		}
	}
	for k := len(order) - 1; k >= 0; k-- {
		t := order[k]
		if indeg0(l, t) && len(down[t]) > 0 {
			r := int(^uint(0) >> 1)
			for _, ei := range down[t] {
				_, b := l.ends(ei)
				r = min(r, l.v[b].rank-minLen(l.g.Edges[ei]))
			}
			l.v[t].rank = r
		}
	}
	// Tags hang right below their node.
	for i, nd := range l.g.Nodes {
		if nd.Kind == Tag && nd.Parent >= 0 && nd.Parent < n && len(l.out[i]) == 0 {
			l.v[i].rank = max(l.v[i].rank, l.v[nd.Parent].rank+1)
		}
	}
}

// indeg0 says whether node t has no edge coming from above.
func indeg0(l *layered, t int) bool {
	for _, ei := range l.in[t] {
		if !l.reversed[ei] {
			return false
		}
	}
	for _, ei := range l.out[t] {
		if l.reversed[ei] {
			return false
		}
	}
	return true
}

// maxDummies bounds the virtual nodes of long edges: a graph of n nodes
// gets at most max(4000, 8n); the longest edges beyond the budget are
// drawn straight from end to end and take no part in ordering, so that
// layout time stays near linear on deep graphs (a 1000-node profile graph
// can span 700 ranks).
func maxDummies(n int) int { return max(4000, 8*n) }

// addDummies routes every edge through one vertex per rank it crosses
// (the shortest edges first, within maxDummies), then orders the ranks.
func (l *layered) addDummies() {
	var edges []int
	for i, e := range l.g.Edges {
		if l.valid(e) {
			edges = append(edges, i)
		}
	}
	span := func(i int) int {
		t, b := l.ends(i)
		return l.v[b].rank - l.v[t].rank
	}
	sort.SliceStable(edges, func(a, b int) bool { return span(edges[a]) < span(edges[b]) })
	budget := maxDummies(len(l.g.Nodes))
	for _, i := range edges {
		t, b := l.ends(i)
		if s := span(i) - 1; s > budget {
			l.chains[i] = []int{t, b} // drawn straight
			continue
		} else {
			budget -= s
		}
		chain := []int{t}
		prev := t
		for r := l.v[t].rank + 1; r < l.v[b].rank; r++ {
			l.v = append(l.v, vertex{node: -1, w: dummySep, h: 0, rank: r})
			d := len(l.v) - 1
			l.link(prev, d, 1)
			chain = append(chain, d)
			prev = d
		}
		l.link(prev, b, 1)
		l.chains[i] = append(chain, b)
	}
	l.initialOrder()
}

// initialOrder builds the ranks' vertex lists, each vertex in the order a
// breadth-first walk from the roots (in node order) first reaches it.
func (l *layered) initialOrder() {
	maxRank := 0
	for i := range l.v {
		maxRank = max(maxRank, l.v[i].rank)
	}
	l.ranks = make([][]int, maxRank+1)
	seen := make([]bool, len(l.v))
	var queue []int
	for i := range l.g.Nodes {
		if len(l.v[i].up) == 0 {
			queue = append(queue, i)
			seen[i] = true
		}
	}
	for k := 0; k < len(queue) || k < len(l.v); k++ {
		if k >= len(queue) {
			// Unreached vertices (only on cycles of equal ranks): add them.
			for i := range l.v {
				if !seen[i] {
					seen[i] = true
					queue = append(queue, i)
					break
				}
			}
		}
		u := queue[k]
		l.v[u].pos = len(l.ranks[l.v[u].rank])
		l.ranks[l.v[u].rank] = append(l.ranks[l.v[u].rank], u)
		for _, w := range l.v[u].down {
			if !seen[w] {
				seen[w] = true
				queue = append(queue, w)
			}
		}
	}
}

// link joins vertices a (above) and b (below).
func (l *layered) link(a, b int, w float64) {
	if l.v[a].node < 0 || l.v[b].node < 0 {
		w = 2
		if l.v[a].node < 0 && l.v[b].node < 0 {
			w = 8
		}
	}
	l.v[a].down = append(l.v[a].down, b)
	l.v[a].downW = append(l.v[a].downW, w)
	l.v[b].up = append(l.v[b].up, a)
	l.v[b].upW = append(l.v[b].upW, w)
}

// order reduces crossings: sweeps down and up the ranks, sorting each by
// the median position of its neighbours in the rank just fixed, keeping
// the best order seen.
func (l *layered) order() {
	best := l.snapshot()
	bestC := l.crossings()
	const sweeps = 12
	for it := 0; it < sweeps && bestC > 0; it++ {
		if it%2 == 0 {
			for r := 1; r < len(l.ranks); r++ {
				l.sortRank(r, true)
			}
		} else {
			for r := len(l.ranks) - 2; r >= 0; r-- {
				l.sortRank(r, false)
			}
		}
		l.transpose()
		if c := l.crossings(); c < bestC {
			bestC, best = c, l.snapshot()
		}
	}
	l.ranks = best
	for _, rk := range l.ranks {
		for p, u := range rk {
			l.v[u].pos = p
		}
	}
}

func (l *layered) snapshot() [][]int {
	s := make([][]int, len(l.ranks))
	for i, r := range l.ranks {
		s[i] = append([]int(nil), r...)
	}
	return s
}

// sortRank orders rank r by the median position of each vertex's
// neighbours above (fromAbove) or below; vertices without any keep their
// place.
func (l *layered) sortRank(r int, fromAbove bool) {
	rk := l.ranks[r]
	key := l.keys[:0]
	var ps []int
	for _, u := range rk {
		nb := l.v[u].down
		if fromAbove {
			nb = l.v[u].up
		}
		if len(nb) == 0 {
			key = append(key, -1)
			continue
		}
		ps = ps[:0]
		for _, w := range nb {
			ps = append(ps, l.v[w].pos)
		}
		sort.Ints(ps)
		m := len(ps) / 2
		if len(ps)%2 == 1 {
			key = append(key, float64(ps[m]))
		} else {
			key = append(key, float64(ps[m-1]+ps[m])/2)
		}
	}
	// Vertices without neighbours stay between their neighbours in the rank.
	prev := -0.5
	for i := range key {
		if key[i] < 0 {
			key[i] = prev
		} else {
			prev = key[i]
		}
	}
	idx := l.idx[:0]
	for i := range rk {
		idx = append(idx, i)
	}
	sort.SliceStable(idx, func(a, b int) bool { return key[idx[a]] < key[idx[b]] })
	old := append(l.tmp[:0], rk...)
	for p, i := range idx {
		rk[p] = old[i]
		l.v[rk[p]].pos = p
	}
	l.keys, l.idx, l.tmp = key, idx, old
}

// crossings counts the edge crossings between all pairs of adjacent
// ranks, with a Fenwick tree over the lower rank's positions.
func (l *layered) crossings() int {
	total := 0
	for r := 0; r+1 < len(l.ranks); r++ {
		n := len(l.ranks[r+1])
		tree := make([]int, n+1)
		seen := 0
		var ps []int
		for _, u := range l.ranks[r] {
			ps = ps[:0]
			for _, w := range l.v[u].down {
				ps = append(ps, l.v[w].pos)
			}
			sort.Ints(ps)
			for _, p := range ps {
				// Crossings: earlier edges ending right of p.
				le := 0
				for i := p + 1; i > 0; i -= i & -i {
					le += tree[i]
				}
				total += seen - le
				for i := p + 1; i <= n; i += i & -i {
					tree[i]++
				}
				seen++
			}
		}
	}
	return total
}
