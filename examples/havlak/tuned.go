package havlak

import "slices"

// This file is the tuned loop finder, the end state of the Go blog's
// story: slices indexed by block number instead of maps, bookkeeping kept
// in a LoopFinder and reused by every call, and a LoopGraph whose loops are
// reused too. After the first call on a graph it allocates nothing.

// A LoopFinder finds loops with Havlak's algorithm. It keeps its working
// storage between calls, so one LoopFinder must not be used by two
// goroutines at once; separate LoopFinders may run concurrently.
//
// Blocks are named by their CFG number and by their DFS number; the
// union/find structure is an array of DFS numbers.
type LoopFinder struct {
	number       []int32           // by block name: DFS number, or unvisited
	name         []int32           // by DFS number: block name
	parent       []int32           // by DFS number: union/find parent
	loopOf       []int32           // by DFS number: 1 + index in the LoopGraph of the loop it heads, or 0
	last         []int32           // by DFS number: highest number in the subtree
	types        []int8            // by DFS number: bbNonHeader, bbReducible, ...
	inPool       []uint32          // by DFS number: stamp of the last body it joined
	stamp        uint32            // the stamp of the body being built
	preds        csr               // by DFS number: the block's predecessors' names
	backPreds    csr               // by DFS number: sources of back edges
	nonBackPreds csr               // by DFS number: other predecessors
	irreducible  map[int32][]int32 // nonBackPreds added in step e; rare
	pool         []int32           // the body P of the current header; also the work list
	stack        []dfsFrame
}

// A dfsFrame is one level of the iterative depth-first search.
type dfsFrame struct {
	bb   *BasicBlock
	edge int // the next out-edge to follow
}

// A csr holds a list of numbers per node in compressed sparse row form:
// the list of node i is edges[start[i]:start[i+1]]. Walking it touches two
// flat arrays instead of a slice header and a small array per node.
type csr struct {
	start []int32
	edges []int32
}

// of returns the edges of node i.
func (c *csr) of(i int32) []int32 { return c.edges[c.start[i]:c.start[i+1]] }

// reset empties c, keeping its storage, with room for nodes nodes and
// edges edges.
func (c *csr) reset(nodes, edges int) {
	c.start = slices.Grow(c.start[:0], nodes+1)
	c.edges = slices.Grow(c.edges[:0], edges)
}

// NewLoopFinder returns a LoopFinder with no storage yet.
func NewLoopFinder() *LoopFinder { return new(LoopFinder) }

// FindHavlakLoops finds the loops of cfg, replacing the contents of g, and
// returns how many there are.
func (f *LoopFinder) FindHavlakLoops(cfg *CFG, g *LoopGraph) int {
	f.FindLoops(cfg, g)
	return g.NumLoops()
}

// reset sizes the storage for the graph's blocks, reusing what earlier
// calls allocated.
func (f *LoopFinder) reset(cfg *CFG) {
	n := len(cfg.Blocks)
	if cap(f.number) < n {
		f.number, f.name = make([]int32, n), make([]int32, n)
		f.parent, f.loopOf = make([]int32, n), make([]int32, n)
		f.last = make([]int32, n)
		f.types, f.inPool = make([]int8, n), make([]uint32, n)
		f.stamp = 0
	}
	f.number, f.name = f.number[:n], f.name[:n]
	f.parent, f.loopOf = f.parent[:n], f.loopOf[:n]
	f.last = f.last[:n]
	f.types, f.inPool = f.types[:n], f.inPool[:n]
	if f.stamp > 1<<31 {
		// Stamps are about to wrap around: start again from zero.
		clear(f.inPool)
		f.stamp = 0
	}
	f.irreducible = nil

	// Room for two edges per block covers the common case; append grows
	// the arrays otherwise, and they stay grown.
	f.preds.reset(n, 2*n)
	f.backPreds.reset(n, n)
	f.nonBackPreds.reset(n, 2*n)
	for i := range f.number {
		f.number[i] = unvisited
	}
}

// DFS numbers the blocks reachable from start in preorder, as the
// recursive original does, but with an explicit stack (the benchmark
// graph is tens of thousands of blocks deep). As it numbers a block it
// records the names of its predecessors, so that step b reads them in
// DFS order from one flat array. It returns how many blocks it reached.
func (f *LoopFinder) DFS(start *BasicBlock) int32 {
	current := int32(0)
	f.visit(start, current)
	f.stack = append(f.stack[:0], dfsFrame{bb: start})
	for len(f.stack) > 0 {
		top := &f.stack[len(f.stack)-1]
		if top.edge < len(top.bb.OutEdges) {
			target := top.bb.OutEdges[top.edge]
			top.edge++
			if f.number[target.Name] == unvisited {
				current++
				f.visit(target, current)
				f.stack = append(f.stack, dfsFrame{bb: target})
			}
			continue
		}
		f.last[f.number[top.bb.Name]] = current
		f.stack = f.stack[:len(f.stack)-1]
	}
	f.preds.start = append(f.preds.start, int32(len(f.preds.edges)))
	return current + 1
}

// visit gives bb the DFS number n.
func (f *LoopFinder) visit(bb *BasicBlock, n int32) {
	f.number[bb.Name] = n
	f.name[n] = int32(bb.Name)
	f.parent[n] = n
	f.loopOf[n] = 0
	f.preds.start = append(f.preds.start, int32(len(f.preds.edges)))
	for _, p := range bb.InEdges {
		f.preds.edges = append(f.preds.edges, int32(p.Name))
	}
}

// FindSet returns the representative of x's set and points every node on
// the way straight at it.
func (f *LoopFinder) FindSet(x int32) int32 {
	root := x
	for f.parent[root] != root {
		root = f.parent[root]
	}
	for x != root {
		x, f.parent[x] = f.parent[x], root
	}
	return root
}

// isAncestor reports whether w is an ancestor of v in the DFS tree.
func (f *LoopFinder) isAncestor(w, v int32) bool {
	return w <= v && v <= f.last[w]
}

// FindLoops finds the loops of cfg with Havlak's algorithm, replacing the
// contents of g. Step names follow Havlak's paper and the naive FindLoops.
func (f *LoopFinder) FindLoops(cfg *CFG, g *LoopGraph) {
	g.reset(cfg.NumNodes())
	if cfg.Start == nil {
		return
	}
	f.reset(cfg)

	// Step a: depth-first numbering; unreached blocks are dead.
	reached := f.DFS(cfg.Start)

	// Step b: split predecessors into back edges and the others.
	f.classifyPreds(reached)

	// Step c: headers in reverse preorder, inner loops first.
	for w := reached - 1; w >= 0; w-- {
		if len(f.backPreds.of(w)) == 0 {
			continue // not a loop header
		}
		pool := f.findLoopBody(w)
		if len(pool) == 0 && f.types[w] != bbSelf {
			continue
		}
		loop := g.newLoop(cfg.Blocks[f.name[w]], f.types[w] != bbIrreducible)
		f.loopOf[w] = int32(g.NumLoops())
		for _, x := range pool {
			f.parent[x] = w // union
			if l := f.loopOf[x]; l != 0 {
				g.loops[l-1].Parent = loop // nested loops are linked, not added
			} else {
				g.addBlock(cfg.Blocks[f.name[x]])
			}
		}
		g.closeLoop(loop)
	}
}

// classifyPreds is step b: for every block reached, the predecessors that
// are its descendants in the DFS tree are back edges, the others not.
func (f *LoopFinder) classifyPreds(reached int32) {
	back, nonBack := &f.backPreds, &f.nonBackPreds
	for w := range int32(len(f.number)) {
		f.types[w] = bbNonHeader
		back.start = append(back.start, int32(len(back.edges)))
		nonBack.start = append(nonBack.start, int32(len(nonBack.edges)))
		if w >= reached {
			f.types[w] = bbDead
			continue
		}
		for _, nameV := range f.preds.of(w) {
			v := f.number[nameV]
			if v == unvisited {
				continue
			}
			if f.isAncestor(w, v) {
				back.edges = append(back.edges, v)
			} else if !slices.Contains(nonBack.edges[nonBack.start[w]:], v) {
				nonBack.edges = append(nonBack.edges, v)
			}
		}
	}
	back.start = append(back.start, int32(len(back.edges)))
	nonBack.start = append(nonBack.start, int32(len(nonBack.edges)))
}

// nonBackPredsOf returns the non-back-edge predecessors of DFS number x:
// those found in step b, then those step e added.
func (f *LoopFinder) nonBackPredsOf(x int32) ([]int32, []int32) {
	if f.irreducible == nil {
		return f.nonBackPreds.of(x), nil
	}
	return f.nonBackPreds.of(x), f.irreducible[x]
}

// addIrreducible records y as a non-back-edge predecessor of w in step e.
func (f *LoopFinder) addIrreducible(w, y int32) {
	base, extra := f.nonBackPredsOf(w)
	if slices.Contains(base, y) || slices.Contains(extra, y) {
		return
	}
	if f.irreducible == nil {
		f.irreducible = make(map[int32][]int32)
	}
	f.irreducible[w] = append(extra, y)
}

// addToPool adds x to the body being built unless it is there already.
func (f *LoopFinder) addToPool(x int32) {
	if f.inPool[x] != f.stamp {
		f.inPool[x] = f.stamp
		f.pool = append(f.pool, x)
	}
}

// findLoopBody is steps d and e for header w; see the naive findLoopBody.
// The body is kept in f.pool, which doubles as the work list, and
// membership is an array lookup instead of a list scan.
func (f *LoopFinder) findLoopBody(w int32) []int32 {
	f.pool = f.pool[:0]
	f.stamp++ // a new body: no block is in it
	for _, v := range f.backPreds.of(w) {
		if v != w {
			f.addToPool(f.FindSet(v))
		} else {
			f.types[w] = bbSelf
		}
	}
	if len(f.pool) != 0 {
		f.types[w] = bbReducible
	}
	for i := 0; i < len(f.pool); i++ {
		base, extra := f.nonBackPredsOf(f.pool[i])
		if len(base)+len(extra) > maxNonBackPreds {
			return nil // the algorithm has degenerated
		}
		for _, preds := range [2][]int32{base, extra} {
			for _, y := range preds {
				ydash := f.FindSet(y)
				if !f.isAncestor(w, ydash) {
					f.types[w] = bbIrreducible
					f.addIrreducible(w, ydash)
				} else if ydash != w {
					f.addToPool(ydash)
				}
			}
		}
	}
	return f.pool
}
