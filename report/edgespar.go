package report

import "github.com/perflab/perflab/internal/parallel"

// computeKeptEdges is computeEdges for a chosen set of kept nodes (top's
// and tree's shown nodes; the call graph's rebuilds when they cannot read
// kept stacks, see dotscan.go), split between goroutines on a large
// profile:
// the edges between kept nodes are few, so per-worker tables cost little
// memory, unlike the whole graph's. The parts are merged as one scan
// would have summed them: weights add up, an edge is residual if any
// sample made it so and inline only if every sample's call was inlined.
// The order of the returned edges may differ from computeEdges'; callers
// index them by their ends or sort them (sortedEdges: a total order).
func (ix *index) computeKeptEdges(kept []bool, role []uint8) *edgeList {
	parts := parallel.Split(len(ix.w), parallelMin)
	if kept == nil || len(parts) < 2 {
		return ix.computeEdges(kept, role)
	}
	lists := make([]*edgeList, len(parts))
	tabs := make([]*edgeTable, len(parts))
	parallel.Run(parts, func(k, lo, hi int) {
		lists[k], tabs[k] = ix.edgesOf(kept, role, lo, hi)
	})
	return mergeEdges(lists, tabs)
}

// mergeEdges adds up the edges of parts of the samples, each found by its
// table, into the first part's list.
func mergeEdges(lists []*edgeList, tabs []*edgeTable) *edgeList {
	edges, tab := lists[0], tabs[0]
	for _, l := range lists[1:] {
		for i := range l.n {
			e := l.at(i)
			ei, isNew := tab.lookup(e.src, e.dst, edges.n)
			if isNew {
				edges.add(*e)
				continue
			}
			m := edges.at(ei)
			m.w += e.w
			m.wdiv += e.wdiv
			m.residual = m.residual || e.residual
			m.inline = m.inline && e.inline
		}
	}
	return edges
}
