package havlak

import "slices"

// This file is the tuned loop finder, the end state of the Go blog's
// story: slices indexed by block number instead of maps, bookkeeping kept
// in a LoopFinder and reused by every call, and a LoopGraph whose loops are
// reused too. After the first call on a graph it allocates nothing.

// A LoopFinder finds loops with Havlak's algorithm. It keeps its working
// storage between calls, so one LoopFinder must not be used by two
// goroutines at once; separate LoopFinders may run concurrently.
type LoopFinder struct {
	nodes        []ufNode          // by DFS number
	number       []int32           // DFS number by block name, or unvisited
	last         []int32           // by DFS number: highest number in the subtree
	header       []int32           // by DFS number: header of the enclosing loop
	types        []int8            // by DFS number: bbNonHeader, bbReducible, ...
	backPreds    csr               // by DFS number: sources of back edges
	nonBackPreds csr               // by DFS number: other predecessors
	irreducible  map[int32][]int32 // nonBackPreds added in step e; rare
	inPool       []int32           // by DFS number: w+1 while in the body of w
	name         []int32           // by DFS number: the block's name
	succ, pred   csr               // the graph's edges by block name
	pool         []*ufNode         // the body P of the current header; also the work list
	stack        []dfsFrame
}

// A ufNode is a union/find node, stored by value in LoopFinder.nodes.
type ufNode struct {
	parent    *ufNode
	bb        *BasicBlock
	loop      *Loop
	dfsNumber int32
}

// FindSet returns the representative of u's set and points every node on
// the way straight at it, without allocating.
func (u *ufNode) FindSet() *ufNode {
	root := u
	for root != root.parent {
		root = root.parent
	}
	for u != root {
		u, u.parent = u.parent, root
	}
	return root
}

// A dfsFrame is one level of the iterative depth-first search.
type dfsFrame struct {
	name int32 // the block's name
	edge int32 // index in succ.edges of the next out-edge to follow
}

// A csr holds one direction of a graph's edges as block names, in
// compressed sparse row form: the edges of block i are
// edges[start[i]:start[i+1]]. Walking it touches two flat arrays instead
// of a BasicBlock, its edge slice and each neighbour.
type csr struct {
	start []int32
	edges []int32
}

// of returns the edges of block i.
func (c *csr) of(i int32) []int32 { return c.edges[c.start[i]:c.start[i+1]] }

// reset empties c, keeping its storage.
func (c *csr) reset() { c.start, c.edges = c.start[:0], c.edges[:0] }

// grow makes room for nodes nodes and edges edges without reallocating.
func (c *csr) grow(nodes, edges int) {
	c.start = slices.Grow(c.start, nodes+1)
	c.edges = slices.Grow(c.edges, edges)
}

// index fills succ and pred from the graph, one pass in block order.
func (f *LoopFinder) index(cfg *CFG) {
	f.succ.reset()
	f.pred.reset()
	nout, nin := 0, 0
	for _, bb := range cfg.Blocks {
		nout += len(bb.OutEdges)
		nin += len(bb.InEdges)
	}
	f.succ.grow(len(cfg.Blocks), nout)
	f.pred.grow(len(cfg.Blocks), nin)
	f.backPreds.grow(len(cfg.Blocks), nin)
	f.nonBackPreds.grow(len(cfg.Blocks), nin)
	for _, bb := range cfg.Blocks {
		f.succ.start = append(f.succ.start, int32(len(f.succ.edges)))
		for _, t := range bb.OutEdges {
			f.succ.edges = append(f.succ.edges, int32(t.Name))
		}
		f.pred.start = append(f.pred.start, int32(len(f.pred.edges)))
		for _, t := range bb.InEdges {
			f.pred.edges = append(f.pred.edges, int32(t.Name))
		}
	}
	f.succ.start = append(f.succ.start, int32(len(f.succ.edges)))
	f.pred.start = append(f.pred.start, int32(len(f.pred.edges)))
}

// NewLoopFinder returns a LoopFinder with no storage yet.
func NewLoopFinder() *LoopFinder { return new(LoopFinder) }

// FindHavlakLoops finds the loops of cfg, replacing the contents of g, and
// returns how many there are.
func (f *LoopFinder) FindHavlakLoops(cfg *CFG, g *LoopGraph) int {
	f.FindLoops(cfg, g)
	return g.NumLoops()
}

// reset sizes the storage for size blocks, reusing what earlier calls
// allocated.
func (f *LoopFinder) reset(size int) {
	if cap(f.nodes) < size {
		f.nodes = make([]ufNode, size)
		f.number = make([]int32, size)
		f.last = make([]int32, size)
		f.header = make([]int32, size)
		f.types = make([]int8, size)
		f.inPool = make([]int32, size)
		f.name = make([]int32, size)
	}
	f.nodes = f.nodes[:size]
	f.number = f.number[:size]
	for i := range f.number {
		f.number[i] = unvisited
	}
	f.last, f.header, f.types = f.last[:size], f.header[:size], f.types[:size]
	f.inPool, f.name = f.inPool[:size], f.name[:size]
	clear(f.inPool)
	f.backPreds.reset()
	f.nonBackPreds.reset()
	clear(f.irreducible)
}

// DFS numbers the blocks reachable from start in preorder, as the
// recursive original does, but with an explicit stack (the benchmark
// graph is tens of thousands of blocks deep) over the indexed edges. It
// returns the last number given.
func (f *LoopFinder) DFS(cfg *CFG, start int32) int32 {
	current := int32(0)
	f.visit(cfg, start, current)
	f.stack = append(f.stack[:0], dfsFrame{name: start, edge: f.succ.start[start]})
	for len(f.stack) > 0 {
		top := &f.stack[len(f.stack)-1]
		if top.edge < f.succ.start[top.name+1] {
			target := f.succ.edges[top.edge]
			top.edge++
			if f.number[target] == unvisited {
				current++
				f.visit(cfg, target, current)
				f.stack = append(f.stack, dfsFrame{name: target, edge: f.succ.start[target]})
			}
			continue
		}
		f.last[f.number[top.name]] = current
		f.stack = f.stack[:len(f.stack)-1]
	}
	return current
}

func (f *LoopFinder) visit(cfg *CFG, name, n int32) {
	f.nodes[n] = ufNode{parent: &f.nodes[n], bb: cfg.Blocks[name], dfsNumber: n}
	f.number[name] = n
	f.name[n] = name
}

// isAncestor reports whether w is an ancestor of v in the DFS tree.
func (f *LoopFinder) isAncestor(w, v int32) bool {
	return w <= v && v <= f.last[w]
}

// nonBackPredsOf returns the non-back-edge predecessors of DFS number x:
// those found in step b, then those step e added.
func (f *LoopFinder) nonBackPredsOf(x int32) ([]int32, []int32) {
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

// FindLoops finds the loops of cfg with Havlak's algorithm, replacing the
// contents of g. Step names follow Havlak's paper and the naive FindLoops.
func (f *LoopFinder) FindLoops(cfg *CFG, g *LoopGraph) {
	g.reset()
	if cfg.Start == nil {
		return
	}
	size := cfg.NumNodes()
	f.reset(size)

	// Step a: depth-first numbering; unreached blocks are dead.
	f.index(cfg)
	reached := f.DFS(cfg, int32(cfg.Start.Name)) + 1
	clear(f.nodes[reached:])

	// Step b: split predecessors into back edges and the others.
	for w := range int32(size) {
		f.header[w] = 0
		f.types[w] = bbNonHeader
		back, nonBack := &f.backPreds, &f.nonBackPreds
		back.start = append(back.start, int32(len(back.edges)))
		nonBack.start = append(nonBack.start, int32(len(nonBack.edges)))
		if w >= reached {
			f.types[w] = bbDead
			continue
		}
		for _, nameV := range f.pred.of(f.name[w]) {
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
	f.backPreds.start = append(f.backPreds.start, int32(len(f.backPreds.edges)))
	f.nonBackPreds.start = append(f.nonBackPreds.start, int32(len(f.nonBackPreds.edges)))

	// Step c: headers in reverse preorder, inner loops first.
	for w := int32(size) - 1; w >= 0; w-- {
		nodeW := f.nodes[w].bb
		if nodeW == nil || len(f.backPreds.of(w)) == 0 {
			continue // dead, or not a loop header
		}
		pool := f.findLoopBody(w)
		if len(pool) == 0 && f.types[w] != bbSelf {
			continue
		}
		loop := g.newLoop(nodeW, f.types[w] != bbIrreducible)
		f.nodes[w].loop = loop
		for _, node := range pool {
			f.header[node.dfsNumber] = w
			node.parent = &f.nodes[w]
			if node.loop != nil {
				node.loop.setParent(loop)
			} else {
				loop.Blocks = append(loop.Blocks, node.bb)
			}
		}
	}
}

// findLoopBody is steps d and e for header w; see the naive findLoopBody.
// The body is kept in f.pool, which doubles as the work list, and
// membership is an array lookup instead of a list scan.
func (f *LoopFinder) findLoopBody(w int32) []*ufNode {
	f.pool = f.pool[:0]
	mark := w + 1
	add := func(n *ufNode) {
		if f.inPool[n.dfsNumber] != mark {
			f.inPool[n.dfsNumber] = mark
			f.pool = append(f.pool, n)
		}
	}
	for _, v := range f.backPreds.of(w) {
		if v != w {
			add(f.nodes[v].FindSet())
		} else {
			f.types[w] = bbSelf
		}
	}
	if len(f.pool) != 0 {
		f.types[w] = bbReducible
	}
	for i := 0; i < len(f.pool); i++ {
		x := f.pool[i]
		base, extra := f.nonBackPredsOf(x.dfsNumber)
		if len(base)+len(extra) > maxNonBackPreds {
			return nil // the algorithm has degenerated
		}
		for _, preds := range [2][]int32{base, extra} {
			for _, y := range preds {
				ydash := f.nodes[y].FindSet()
				if !f.isAncestor(w, ydash.dfsNumber) {
					f.types[w] = bbIrreducible
					f.addIrreducible(w, ydash.dfsNumber)
				} else if ydash.dfsNumber != w {
					add(ydash)
				}
			}
		}
	}
	return f.pool
}
