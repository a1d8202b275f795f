package report

import "regexp"

// A trimmed graph is what top, tree and peek show: the nodes left after
// -nodefraction and -nodecount, sorted, with the edges between them.
type trimmed struct {
	ix        *index
	st        *stats
	nodes     []int32 // shown nodes, in report order
	origCount int     // nodes before -nodecount
	dropped   int     // nodes under -nodefraction
	edges     *edgeList
	in, out   [][]int32 // edge indexes by node ID
}

// buildGraph indexes the filtered profile and trims its graph as pprof's
// text reports do. Edges are collected only around the nodes a report
// prints: those matching rx (peek) or, if rx is nil, every shown node.
func (r *run) buildGraph(rx *regexp.Regexp) *trimmed {
	ix := newIndex(r.p, newGranularity(&r.o, false, true), r.val)
	st := ix.stats
	g := &trimmed{ix: ix, st: st}
	var graphFlat int64
	for n := range ix.infos {
		if st.cum[n] != 0 || st.flat[n] != 0 {
			g.nodes = append(g.nodes, int32(n))
			graphFlat += st.flat[n]
		}
	}
	all := len(g.nodes)
	if nodeCut := abs64(int64(float64(graphFlat) * r.o.NodeFraction)); nodeCut > 0 {
		g.nodes = filterNodes(g.nodes, func(n int32) bool { return abs64(st.cum[n]) >= nodeCut })
		g.dropped = all - len(g.nodes)
	}
	g.origCount = len(g.nodes)
	ix.sortNodes(g.nodes, st, r.o.Cum)
	if c := r.o.NodeCount; c > 0 && c < len(g.nodes) {
		g.nodes = g.nodes[:c]
	}
	var kept []bool // nil when every node is kept
	if len(g.nodes) != all {
		kept = keepSet(len(ix.infos), g.nodes)
	}
	edgeCut := abs64(int64(float64(graphFlat) * r.o.EdgeFraction))
	g.edges = ix.computeKeptEdges(kept, edgeRoles(ix, g.nodes, rx, edgeCut))
	g.in = make([][]int32, len(ix.infos))
	g.out = make([][]int32, len(ix.infos))
	for i := range g.edges.n {
		e := g.edges.at(i)
		if abs64(e.w) < edgeCut {
			continue
		}
		g.in[e.dst] = append(g.in[e.dst], i)
		g.out[e.src] = append(g.out[e.src], i)
	}
	r.selectUnit(g)
	return g
}

func filterNodes(nodes []int32, keep func(int32) bool) []int32 {
	out := nodes[:0]
	for _, n := range nodes {
		if keep(n) {
			out = append(out, n)
		}
	}
	return out
}

func keepSet(size int, nodes []int32) []bool {
	k := make([]bool, size)
	for _, n := range nodes {
		k[n] = true
	}
	return k
}

// shownTotal is the sum of the shown nodes' flat values.
func (g *trimmed) shownTotal() int64 {
	var t int64
	for _, n := range g.nodes {
		t += g.st.flatValue(n)
	}
	return t
}

// selectUnit picks the output unit for -unit=minimum: the unit of the
// smallest shown value, or a larger one when values span more than 100x.
func (r *run) selectUnit(g *trimmed) {
	if r.o.Unit != "minimum" || len(g.nodes) == 0 {
		return
	}
	var minV int64
	for _, n := range g.nodes {
		v := abs64(g.st.flatValue(n))
		if v == 0 {
			v = abs64(g.st.cumValue(n))
		}
		if v > 0 && (minV == 0 || v < minV) {
			minV = v
		}
	}
	if minV == 0 {
		minV = r.total
	}
	minV, maxV := r.divided(minV), r.divided(r.total)
	_, minU := scale(minV, r.sampleUnit, "minimum")
	_, maxU := scale(maxV, r.sampleUnit, "minimum")
	u := minU
	if minU != maxU && minV*100 < maxV {
		_, u = scale(100*minV, r.sampleUnit, "minimum")
	}
	if u != "" {
		r.o.Unit = u
	} else {
		r.o.Unit = r.sampleUnit
	}
}

// edgeRoles says which nodes' edges a report needs: those of the shown
// nodes matching rx (all shown nodes if rx is nil). An edge weighs at most
// the cumulative value of either end when no value is negative, so the
// edges of nodes under the edge cutoff cannot be shown and are skipped.
func edgeRoles(ix *index, shown []int32, rx *regexp.Regexp, edgeCut int64) []uint8 {
	role := make([]uint8, len(ix.infos))
	for n := range role {
		role[n] = endpoint
		if !ix.stats.negative && ix.stats.cum[n] < edgeCut {
			role[n] = edgeless
		}
	}
	for _, n := range shown {
		if role[n] == endpoint && (rx == nil || rx.MatchString(ix.names[n])) {
			role[n] = needed
		}
	}
	return role
}
