package report

import (
	"fmt"
	"sort"
)

// A valuer picks a sample's value and, for mean reports, its divisor.
type valuer struct {
	index int // sample value index
	div   int // index of the divisor, or -1
}

func (v valuer) get(vals []int64) (w, dw int64) {
	w = vals[v.index]
	if v.div >= 0 {
		dw = vals[v.div]
	}
	return w, dw
}

// stats holds every node's flat and cumulative values (see addSamples).
type stats struct {
	flat, flatDiv, cum, cumDiv []int64
	// negative is set when some sample value or divisor is negative (a
	// -base profile): edge weights can then exceed node values.
	negative bool
}

func (s *stats) flatValue(n int32) int64 { return divide(s.flat[n], s.flatDiv[n]) }
func (s *stats) cumValue(n int32) int64  { return divide(s.cum[n], s.cumDiv[n]) }

func divide(v, d int64) int64 {
	if d == 0 {
		return v
	}
	return v / d
}

// An edge is a call from src to dst seen in the samples' stacks.
type edge struct {
	src, dst int32
	w, wdiv  int64
	residual bool  // some contributing stack skipped dropped nodes in between
	inline   bool  // every contributing call was an inlined one
	mark     int32 // last sample that added to w
}

// Edge roles of nodes, for computeEdges.
const (
	edgeless = iota // no edge of this node can matter
	endpoint        // edges of this node matter if the other end is needed
	needed          // the report prints this node's edges
)

// computeEdges collects the edges between kept nodes (all when kept is
// nil) whose ends have role endpoint or needed, one at least needed. A
// stack that passes through dropped nodes links the kept nodes on either
// side with a residual edge.
// It runs in one goroutine: per-worker edge tables would multiply the
// memory of the largest structure a report builds.
func (ix *index) computeEdges(kept []bool, role []uint8) *edgeList {
	edges, _ := ix.edgesOf(kept, role, 0, len(ix.w))
	return edges
}

// edgesOf collects the edges of samples [lo, hi) as computeEdges does,
// with the table that finds them.
func (ix *index) edgesOf(kept []bool, role []uint8, lo, hi int) (*edgeList, *edgeTable) {
	edges := &edgeList{}
	tab := newEdgeTable(len(ix.infos))
	for si := lo; si < hi; si++ {
		w, dw := ix.weight(si)
		if w == 0 && dw == 0 {
			continue
		}
		mark := int32(si + 1)
		parent := int32(-1)
		residual := false
		locs := ix.samples[si].Location
		var one [1]int32
		for k := len(locs) - 1; k >= 0; k-- {
			loc := ix.locs.get(locs[k])
			if loc < 0 {
				continue
			}
			nodes := one[:]
			if one[0] = ix.locOne[loc]; one[0] < 0 { // several nodes: inlined calls
				nodes = ix.locNodes[ix.locStart[loc]:ix.locStart[loc+1]]
			}
			outer := len(nodes) - 1
			for j := outer; j >= 0; j-- {
				n := nodes[j]
				if kept != nil && !kept[n] {
					residual = true
					continue
				}
				if parent >= 0 && n != parent && role[n]+role[parent] >= endpoint+needed {
					edges.addSample(tab, parent, n, j != outer, residual, mark, w, dw)
				}
				parent = n
				residual = false
			}
		}
	}
	return edges, tab
}

// An edgeList holds edges in fixed-size chunks: growing it copies nothing,
// so a large graph leaves no garbage behind (a slice grown by append
// allocates about five times its final size on the way).
type edgeList struct {
	chunks [][]edge
	n      int32
}

const edgeChunkBits = 13

func (l *edgeList) add(e edge) {
	if l.n&(1<<edgeChunkBits-1) == 0 {
		l.chunks = append(l.chunks, make([]edge, 1<<edgeChunkBits))
	}
	l.chunks[l.n>>edgeChunkBits][l.n&(1<<edgeChunkBits-1)] = e
	l.n++
}

// addSample adds a sample's weight to the edge src→dst, once per sample
// (mark), making the edge if new: residual if the sample skipped a node
// between them, inline while every sample's call is inlined.
func (l *edgeList) addSample(tab *edgeTable, src, dst int32, inline, residual bool, mark int32, w, dw int64) {
	ei, isNew := tab.lookup(src, dst, l.n)
	if isNew {
		l.add(edge{src: src, dst: dst, inline: inline})
	}
	e := l.at(ei)
	if e.mark == mark {
		return
	}
	e.mark = mark
	e.w += w
	e.wdiv += dw
	if residual {
		e.residual = true
	}
	if !inline {
		e.inline = false
	}
}

// at returns edge i.
func (l *edgeList) at(i int32) *edge {
	return &l.chunks[i>>edgeChunkBits][i&(1<<edgeChunkBits-1)]
}

// parallelMin is the number of samples from which scans run in parallel.
var parallelMin = 50_000

// An edgeTable maps (src, dst) node pairs to edge indexes: open addressing
// over uint64 keys, much cheaper than a Go map in the per-frame loop.
type edgeTable struct {
	keys  []uint64
	vals  []int32
	n     int
	shift uint
}

func newEdgeTable(hint int) *edgeTable {
	t := &edgeTable{}
	t.resize(max(hint, 1024))
	return t
}

func (t *edgeTable) resize(size int) {
	bits := uint(10)
	for 1<<bits < size {
		bits++
	}
	oldK, oldV := t.keys, t.vals
	t.keys = make([]uint64, 1<<bits)
	t.vals = make([]int32, 1<<bits)
	t.shift = 64 - bits
	t.n = 0
	for i, k := range oldK {
		if k != 0 {
			t.insert(k, oldV[i])
		}
	}
}

func (t *edgeTable) insert(k uint64, v int32) {
	mask := uint64(len(t.keys) - 1)
	for h := (k * 0x9E3779B97F4A7C15) >> t.shift; ; h = (h + 1) & mask {
		if t.keys[h] == 0 {
			t.keys[h], t.vals[h] = k, v
			t.n++
			return
		}
	}
}

// lookup returns the index of edge (src, dst), registering next for it if
// it is new.
func (t *edgeTable) lookup(src, dst, next int32) (int32, bool) {
	k := uint64(uint32(src))<<32 | uint64(uint32(dst)) | 1<<63
	mask := uint64(len(t.keys) - 1)
	for h := (k * 0x9E3779B97F4A7C15) >> t.shift; ; h = (h + 1) & mask {
		switch t.keys[h] {
		case k:
			return t.vals[h], false
		case 0:
			if 2*(t.n+1) > len(t.keys) {
				t.resize(2 * len(t.keys))
				return t.lookup(src, dst, next)
			}
			t.keys[h], t.vals[h] = k, next
			t.n++
			return next, true
		}
	}
}

// sortNodes orders nodes as pprof does: by flat (or cum) magnitude, then
// by name, then by the other value, then by the full node identity.
func (ix *index) sortNodes(nodes []int32, st *stats, cum bool) {
	primary, secondary := st.flat, st.cum
	if cum {
		primary, secondary = st.cum, st.flat
	}
	sort.Slice(nodes, func(a, b int) bool {
		l, r := nodes[a], nodes[b]
		if lv, rv := abs64(primary[l]), abs64(primary[r]); lv != rv {
			return lv > rv
		}
		if l != r {
			li, ri := &ix.infos[l], &ix.infos[r]
			if li.Address != 0 && ri.Address != 0 && li.Address != ri.Address {
				return li.Address < ri.Address
			}
			if ix.names[l] != ix.names[r] {
				return ix.names[l] < ix.names[r]
			}
		}
		if lv, rv := abs64(secondary[l]), abs64(secondary[r]); lv != rv {
			return lv > rv
		}
		return fmt.Sprint(ix.infos[l]) < fmt.Sprint(ix.infos[r])
	})
}
