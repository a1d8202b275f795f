package report

import (
	"math/bits"

	"github.com/perflab/perflab/internal/parallel"
)

// An edgeMatrix sums the edges between k kept nodes in dense arrays, cell
// src*k+dst by the nodes' ranks: one memory access per call in the kept
// stacks, where a hash table of edges takes three (its key, its value,
// the edge). The call graph's first rebuild keeps about 1,400 nodes of
// the 500k-sample profile, with 440,000 edges between them: a quarter of
// the cells.
type edgeMatrix struct {
	k       int
	w, wdiv []int64 // wdiv only for mean reports
	// has marks the edges seen, residual those that some sample made
	// residual, direct those that some sample's call made other than
	// inlined; seen those of the sample being read.
	has, residual, direct, seen bitset
}

type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (b bitset) has(i int) bool { return b[i>>6]&(1<<(i&63)) != 0 }
func (b bitset) set(i int)      { b[i>>6] |= 1 << (i & 63) }
func (b bitset) clear(i int)    { b[i>>6] &^= 1 << (i & 63) }
func (b bitset) or(o bitset) {
	for i, w := range o {
		b[i] |= w
	}
}

// maxMatrixBytes bounds the weight matrices of all the parts together;
// larger sets of kept nodes use edge tables.
var maxMatrixBytes = 64 << 20

// matrixEdges computes edges as keptStacks.edges does, with one matrix
// per part, or returns nil if the matrices would exceed maxMatrixBytes.
func (ks keptStacks) matrixEdges(ix *index, kept []bool) *edgeList {
	rank := make([]int32, len(kept))
	var ids []int32
	for id, k := range kept {
		rank[id] = -1
		if k {
			rank[id] = int32(len(ids))
			ids = append(ids, int32(id))
		}
	}
	k := len(ids)
	cellBytes := 8
	if ix.dw != nil {
		cellBytes = 16
	}
	if k > 1<<15 || k*k*cellBytes*len(ks) > maxMatrixBytes {
		return nil
	}
	ms := make([]*edgeMatrix, len(ks))
	parts := make([][2]int, len(ks))
	parallel.Run(parts, func(i, _, _ int) {
		ms[i] = ks[i].matrix(ix, rank, k)
	})
	m := ms[0]
	for _, o := range ms[1:] {
		m.add(o)
	}
	return m.list(ids)
}

func newEdgeMatrix(k int, div bool) *edgeMatrix {
	n := k * k
	m := &edgeMatrix{k: k, w: make([]int64, n),
		has: newBitset(n), residual: newBitset(n), direct: newBitset(n), seen: newBitset(n)}
	if div {
		m.wdiv = make([]int64, n)
	}
	return m
}

// matrix sums the edges of part p's samples between the nodes of rank
// not -1: each edge once per sample, at its outermost call, as edgesOf.
func (p *keptPart) matrix(ix *index, rank []int32, k int) *edgeMatrix {
	m := newEdgeMatrix(k, ix.dw != nil)
	var cells []int // this sample's edges, to clear from seen
	for si := p.lo; si < p.hi; si++ {
		ents := p.ents[p.start[si-p.lo]:p.start[si-p.lo+1]]
		if len(ents) == 0 {
			continue
		}
		w, dw := ix.weight(si)
		parent := int32(-1)
		residual := false
		cells = cells[:0]
		for _, en := range ents {
			r := rank[en&entNode]
			if r < 0 {
				residual = true
				continue
			}
			if en&entResidual != 0 {
				residual = true
			}
			if parent >= 0 && r != parent {
				if c := int(parent)*k + int(r); !m.seen.has(c) {
					m.seen.set(c)
					cells = append(cells, c)
					m.has.set(c)
					m.w[c] += w
					if m.wdiv != nil {
						m.wdiv[c] += dw
					}
					if residual {
						m.residual.set(c)
					}
					if en&entInline == 0 {
						m.direct.set(c)
					}
				}
			}
			parent = r
			residual = false
		}
		for _, c := range cells {
			m.seen.clear(c)
		}
	}
	return m
}

// add adds o's edges to m's, as mergeEdges does.
func (m *edgeMatrix) add(o *edgeMatrix) {
	for i, w := range o.w {
		m.w[i] += w
	}
	for i, w := range o.wdiv {
		m.wdiv[i] += w
	}
	m.has.or(o.has)
	m.residual.or(o.residual)
	m.direct.or(o.direct)
}

// list returns m's edges between the nodes ids (by rank).
func (m *edgeMatrix) list(ids []int32) *edgeList {
	edges := &edgeList{}
	for i, word := range m.has {
		for word != 0 {
			c := i*64 + bits.TrailingZeros64(word)
			word &= word - 1
			e := edge{src: ids[c/m.k], dst: ids[c%m.k], w: m.w[c],
				residual: m.residual.has(c), inline: !m.direct.has(c)}
			if m.wdiv != nil {
				e.wdiv = m.wdiv[c]
			}
			edges.add(e)
		}
	}
	return edges
}
