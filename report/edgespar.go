package report

import "github.com/perflab/perflab/internal/parallel"

// computeKeptEdges is computeEdges for a chosen set of kept nodes (the
// call graph's rebuilds), split between goroutines on a large profile:
// the edges between kept nodes are few, so per-worker tables cost little
// memory, unlike the whole graph's. The parts are merged as one scan
// would have summed them: weights add up, an edge is residual if any
// sample made it so and inline only if every sample's call was inlined.
// The order of the returned edges may differ from computeEdges'; callers
// index them by their ends.
func (ix *index) computeKeptEdges(kept []bool, role []uint8) *edgeList {
	parts := parallel.Split(len(ix.w), parallelMin)
	if kept == nil || len(parts) < 2 {
		return ix.computeEdges(kept, role)
	}
	lists := make([]*edgeList, len(parts))
	parallel.Run(parts, func(k, lo, hi int) {
		lists[k] = ix.edgesOf(kept, role, lo, hi)
	})
	edges := lists[0]
	tab := newEdgeFinder(kept, len(ix.infos))
	for i := range edges.n {
		e := edges.at(i)
		tab.lookup(e.src, e.dst, i)
	}
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

// maxMatrixNodes bounds the kept nodes whose edges an edgeFinder indexes
// with a matrix (4 bytes per pair: 4 MB at most).
const maxMatrixNodes = 1024

// An edgeFinder finds edges by their ends: for a small set of kept nodes
// (a call graph's rebuilds), a matrix indexed by the nodes' positions in
// that set, which costs no hashing in the scan's inner loop; else an
// edgeTable.
type edgeFinder struct {
	tab  *edgeTable
	slot []int32 // node ID -> position among the kept nodes
	mat  []int32 // edge index by src*k+dst position, -1 for none
	k    int32
}

func newEdgeFinder(kept []bool, nodes int) *edgeFinder {
	f := &edgeFinder{}
	if kept != nil {
		f.slot = make([]int32, len(kept))
		for id, ok := range kept {
			if ok {
				f.slot[id] = f.k
				f.k++
			}
		}
		if f.k <= maxMatrixNodes {
			f.mat = make([]int32, f.k*f.k)
			for i := range f.mat {
				f.mat[i] = -1
			}
			return f
		}
	}
	f.tab = newEdgeTable(nodes)
	return f
}

// lookup returns the index of edge (src, dst), registering next for it if
// it is new; with a matrix, both ends must be kept nodes.
func (f *edgeFinder) lookup(src, dst, next int32) (int32, bool) {
	if f.mat == nil {
		return f.tab.lookup(src, dst, next)
	}
	c := &f.mat[f.slot[src]*f.k+f.slot[dst]]
	if *c < 0 {
		*c = next
		return next, true
	}
	return *c, false
}
