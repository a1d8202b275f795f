package report

import (
	"math"

	"github.com/perflab/perflab/internal/parallel"
)

// keptStacks holds, for each sample, the kept nodes of its stack from the
// root to the leaf, one uint32 entry per node frame: the call graph's
// first rebuild reads the samples' frames once to fill it, and its edges
// and tags, the second rebuild's edges (whose nodes are a subset) then read
// these few, contiguous entries, not the frames again. On the 500k-sample
// profile about a fifth of the frames are kept.
type keptStacks []keptPart

// A keptPart holds the stacks of samples [lo, hi), one goroutine's share.
type keptPart struct {
	lo, hi int
	start  []int // sample lo+i's entries are ents[start[i]:start[i+1]]
	ents   []uint32
	// leafKept[i] says whether sample lo+i's innermost node is kept: it
	// gets the sample's flat tags.
	leafKept []bool
}

// Flags of an entry, above its node ID.
const (
	entResidual = 1 << 31 // dropped nodes come between the last entry and this one
	entInline   = 1 << 30 // not the outermost line of its location (an inlined call)
	entNode     = 1<<30 - 1
)

// maxKeptNodes is the most nodes an index may have for kept stacks: their
// IDs must fit an entry (tests lower it to check the frames' path).
var maxKeptNodes = entNode

// keptStacksOf records the kept nodes of every sample's stack, or returns
// nil if node IDs do not fit an entry.
func (ix *index) keptStacksOf(kept []bool) keptStacks {
	if len(ix.infos) > maxKeptNodes {
		return nil
	}
	lk := ix.locKept(kept)
	if lk == nil {
		return nil
	}
	// Kept nodes per sample, from the values: room for the entries, so
	// that appends need not copy them.
	var keptCum, total float64
	for id, k := range kept {
		if k {
			keptCum += math.Abs(float64(ix.stats.cum[id]))
		}
	}
	for _, w := range ix.w {
		total += math.Abs(float64(w))
	}
	perSample := 0.0
	if total > 0 {
		perSample = min(keptCum/total*1.1, 64)
	}
	parts := parallel.Split(len(ix.w), parallelMin)
	ks := make(keptStacks, len(parts))
	parallel.Run(parts, func(k, lo, hi int) {
		ks[k] = ix.keptPartOf(lk, lo, hi, int(perSample*float64(hi-lo)))
	})
	return ks
}

// locKept gives the entries of each location's kept nodes, so that the
// scan of the frames reads one word per frame: ents[loc] is the entry of
// the location's node when it has one, kept; locDropped when none of its
// nodes is kept; else entResidual | i, and multi[i] its entries (of its
// several nodes: inlined calls).
type locKept struct {
	ents      []uint32
	multi     []multiLoc
	multiEnts []uint32
}

// A multiLoc is the entries multiEnts[lo:hi] of a location of several
// nodes, from the outermost; dropped says whether dropped nodes follow
// the last one (then it is not the leaf of a stack ending there).
type multiLoc struct {
	lo, hi  int32
	dropped bool
}

// locDropped is the entry of a location none of whose nodes is kept.
const locDropped = math.MaxUint32

func (ix *index) locKept(kept []bool) *locKept {
	lk := &locKept{ents: make([]uint32, len(ix.locStart)-1)}
	for loc := range lk.ents {
		nodes := ix.locNodes[ix.locStart[loc]:ix.locStart[loc+1]]
		if len(nodes) == 1 {
			lk.ents[loc] = locDropped
			if kept[nodes[0]] {
				lk.ents[loc] = uint32(nodes[0])
			}
			continue
		}
		m := multiLoc{lo: int32(len(lk.multiEnts))}
		residual := false
		for j := len(nodes) - 1; j >= 0; j-- {
			n := nodes[j]
			if !kept[n] {
				residual = true
				continue
			}
			e := uint32(n)
			if residual {
				e |= entResidual
			}
			if j != len(nodes)-1 {
				e |= entInline
			}
			lk.multiEnts = append(lk.multiEnts, e)
			residual = false
		}
		m.hi, m.dropped = int32(len(lk.multiEnts)), residual
		switch {
		case m.hi == m.lo:
			lk.ents[loc] = locDropped
		case len(lk.multi) >= entResidual-1:
			return nil // too many to number
		default:
			lk.ents[loc] = entResidual | uint32(len(lk.multi))
			lk.multi = append(lk.multi, m)
		}
	}
	return lk
}

func (ix *index) keptPartOf(lk *locKept, lo, hi, room int) keptPart {
	p := keptPart{lo: lo, hi: hi, start: make([]int, hi-lo+1), leafKept: make([]bool, hi-lo)}
	ents := make([]uint32, 0, room)
	for si := lo; si < hi; si++ {
		p.start[si-lo] = len(ents)
		w, dw := ix.weight(si)
		if w == 0 && dw == 0 {
			continue
		}
		residual := false
		locs := ix.samples[si].Location
		for k := len(locs) - 1; k >= 0; k-- {
			loc := ix.locs.get(locs[k])
			if loc < 0 {
				continue
			}
			e := lk.ents[loc]
			switch {
			case e == locDropped:
				residual = true
				continue
			case e&entResidual != 0:
				m := &lk.multi[e&^entResidual]
				e = lk.multiEnts[m.lo]
				if residual {
					e |= entResidual
				}
				ents = append(ents, e)
				ents = append(ents, lk.multiEnts[m.lo+1:m.hi]...)
				residual = m.dropped
			default:
				if residual {
					e |= entResidual
				}
				ents = append(ents, e)
				residual = false
			}
		}
		// The leaf is kept if no dropped node comes after the last entry.
		p.leafKept[si-lo] = len(ents) > p.start[si-lo] && !residual
	}
	p.start[hi-lo] = len(ents)
	p.ents = ents
	return p
}

// edges computes the edges between the nodes in kept, which must all be
// in the stacks, as computeEdges does on the samples (every node needed),
// one goroutine per part.
func (ks keptStacks) edges(ix *index, kept []bool) *edgeList {
	if edges := ks.matrixEdges(ix, kept); edges != nil {
		return edges
	}
	lists := make([]*edgeList, len(ks))
	tabs := make([]*edgeTable, len(ks))
	parts := make([][2]int, len(ks))
	for i, p := range ks {
		parts[i] = [2]int{p.lo, p.hi}
	}
	parallel.Run(parts, func(k, _, _ int) {
		lists[k], tabs[k] = ks[k].edges(ix, kept)
	})
	return mergeEdges(lists, tabs)
}

func (p *keptPart) edges(ix *index, kept []bool) (*edgeList, *edgeTable) {
	edges := &edgeList{}
	tab := newEdgeTable(len(ix.infos))
	for si := p.lo; si < p.hi; si++ {
		ents := p.ents[p.start[si-p.lo]:p.start[si-p.lo+1]]
		if len(ents) == 0 {
			continue
		}
		w, dw := ix.weight(si)
		mark := int32(si + 1)
		parent := int32(-1)
		residual := false
		for _, en := range ents {
			n := int32(en & entNode)
			if !kept[n] {
				residual = true
				continue
			}
			if en&entResidual != 0 {
				residual = true
			}
			if parent >= 0 && n != parent {
				edges.addSample(tab, parent, n, en&entInline != 0, residual, mark, w, dw)
			}
			parent = n
			residual = false
		}
	}
	return edges, tab
}
