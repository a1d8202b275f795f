package querier

import (
	"slices"

	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
)

// Pyroscope's flame graph format (querier.v1.FlameGraph), which Grafana's
// flame graph panel draws: Names holds every name once, "total" first (the
// root's); Levels holds the nodes of each depth, left to right, each as
// four values: its x offset, its total, its self value and the index of
// its name. The x offset is delta-encoded: the gap since the end of the
// previous node of the level. Under a node, its self value comes first,
// then its children in the order of their names, then "other", the sum of
// the children too small to show (see tree.minValue).
const flameStride = 4

// namer gives each name its index in a flame graph's Names, in the order
// the nodes are visited; the root is "total".
type namer struct {
	names []string
	index map[string]int
}

func (nm *namer) of(name string) int64 {
	if nm.index == nil {
		nm.index = map[string]int{}
	}
	i, ok := nm.index[name]
	if !ok {
		i = len(nm.names)
		if i == 0 {
			name = "total"
		}
		nm.index[name] = i
		nm.names = append(nm.names, name)
	}
	return int64(i)
}

// flameGraph returns t as a flame graph of at most about maxNodes nodes
// (0: all), as Pyroscope's querier builds it.
func flameGraph(t *tree, maxNodes int64) *querierv1.FlameGraph {
	type item struct {
		x     int64
		level int
		n     *node
	}
	minVal := t.minValue(maxNodes)
	var (
		nm      namer
		levels  [][]int64
		maxSelf int64
	)
	// Depth first, the last child first, as Pyroscope visits them: the
	// order decides the indexes of the names.
	stack := []item{{0, 0, &node{children: t.root.children, total: t.root.total}}}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := cur.n
		maxSelf = max(maxSelf, n.self)
		i := nm.of(n.name)
		if cur.level == len(levels) {
			levels = append(levels, nil)
		}
		levels[cur.level] = append(levels[cur.level], cur.x, n.total, n.self, i)
		x := cur.x + n.self
		var other int64
		for _, c := range n.children {
			if c.total >= minVal && c.name != otherName {
				stack = append(stack, item{x, cur.level + 1, c})
				x += c.total
			} else {
				other += c.total
			}
		}
		if other != 0 {
			stack = append(stack, item{x, cur.level + 1, &node{name: otherName, self: other, total: other}})
		}
	}
	fg := &querierv1.FlameGraph{Names: nm.names, Total: t.root.total, MaxSelf: maxSelf}
	for _, l := range levels {
		reverseChunks(l, flameStride) // visited right to left
		deltaEncode(l, 0, flameStride)
		fg.Levels = append(fg.Levels, &querierv1.Level{Values: l})
	}
	return fg
}

// reverseChunks reverses the order of the chunks of size values of l,
// keeping each chunk's own order.
func reverseChunks(l []int64, size int) {
	for i, j := 0, len(l)-size; i < j; i, j = i+size, j-size {
		for k := range size {
			l[i+k], l[j+k] = l[j+k], l[i+k]
		}
	}
}

// deltaEncode replaces the x offsets at start of every chunk of stride
// values (the total follows each) by the gap since the end of the chunk
// before.
func deltaEncode(l []int64, start, stride int) {
	var end int64
	for i := start; i < len(l); i += stride {
		x := l[i]
		l[i] -= end
		end = x + l[i+1]
	}
}

// The diff format (querier.v1.FlameGraphDiff): as the flame graph's, but
// the nodes are those of both trees, aligned by name, with seven values
// each: the x offset, total and self value in the left tree, the same in
// the right tree, and the name's index; both x offsets are
// delta-encoded. A node is shown when either side's total reaches the
// maxNodes-th largest of the larger of the two.
const diffStride = 7

// A pairNode is a node of two trees aligned by name: l and r hold its
// self and total on each side (zero where a side lacks it).
type pairNode struct {
	name                         string
	lSelf, lTotal, rSelf, rTotal int64
	children                     []*pairNode
}

// pair aligns the nodes of l and r (either may be nil) under one node.
func pair(l, r *node) *pairNode {
	p := &pairNode{}
	var lc, rc []*node
	if l != nil {
		p.name, p.lSelf, p.lTotal, lc = l.name, l.self, l.total, l.children
	}
	if r != nil {
		p.name, p.rSelf, p.rTotal, rc = r.name, r.self, r.total, r.children
	}
	for len(lc) > 0 || len(rc) > 0 {
		switch {
		case len(rc) == 0 || len(lc) > 0 && lc[0].name < rc[0].name:
			p.children = append(p.children, pair(lc[0], nil))
			lc = lc[1:]
		case len(lc) == 0 || rc[0].name < lc[0].name:
			p.children = append(p.children, pair(nil, rc[0]))
			rc = rc[1:]
		default:
			p.children = append(p.children, pair(lc[0], rc[0]))
			lc, rc = lc[1:], rc[1:]
		}
	}
	return p
}

// diffMinValue is minValue for aligned trees, counting the root.
func diffMinValue(root *pairNode, maxNodes int64) int64 {
	if maxNodes < 1 {
		return 0
	}
	var totals []int64
	stack := []*pairNode{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		totals = append(totals, max(n.lTotal, n.rTotal))
		stack = append(stack, n.children...)
	}
	if int64(len(totals)) <= maxNodes {
		return 0
	}
	slices.SortFunc(totals, func(a, b int64) int { return compareInt64(b, a) })
	return totals[maxNodes-1]
}

// flameGraphDiff returns the diff of the trees left and right, as
// Pyroscope's Diff answers it.
func flameGraphDiff(left, right *tree, maxNodes int64) *querierv1.FlameGraphDiff {
	type item struct {
		xl, xr int64
		level  int
		n      *pairNode
	}
	root := pair(&left.root, &right.root)
	minVal := diffMinValue(root, maxNodes)
	var (
		nm      namer
		levels  [][]int64
		maxSelf int64
	)
	stack := []item{{0, 0, 0, root}}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := cur.n
		if n.lTotal < minVal && n.rTotal < minVal && n.name != otherName {
			continue
		}
		i := nm.of(n.name)
		maxSelf = max(maxSelf, n.lSelf, n.rSelf)
		if cur.level == len(levels) {
			levels = append(levels, nil)
		}
		levels[cur.level] = append(levels[cur.level], cur.xl, n.lTotal, n.lSelf, cur.xr, n.rTotal, n.rSelf, i)
		xl, xr := cur.xl+n.lSelf, cur.xr+n.rSelf
		var otherL, otherR int64
		for _, c := range n.children {
			if c.lTotal >= minVal || c.rTotal >= minVal {
				stack = append(stack, item{xl, xr, cur.level + 1, c})
				xl, xr = xl+c.lTotal, xr+c.rTotal
			} else {
				otherL, otherR = otherL+c.lTotal, otherR+c.rTotal
			}
		}
		if otherL != 0 || otherR != 0 {
			o := &pairNode{name: otherName, lSelf: otherL, lTotal: otherL, rSelf: otherR, rTotal: otherR}
			stack = append(stack, item{xl, xr, cur.level + 1, o})
		}
	}
	fg := &querierv1.FlameGraphDiff{Names: nm.names, MaxSelf: maxSelf,
		LeftTicks: left.root.total, RightTicks: right.root.total, Total: left.root.total + right.root.total}
	for _, l := range levels {
		reverseChunks(l, diffStride)
		deltaEncode(l, 0, diffStride)
		deltaEncode(l, 3, diffStride)
		fg.Levels = append(fg.Levels, &querierv1.Level{Values: l})
	}
	return fg
}
