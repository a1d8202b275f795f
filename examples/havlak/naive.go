package havlak

// This file is the naive loop finder: the data structures of the original
// Go port (havlak1 in the Go blog), kept so that its profile shows what the
// blog's did. Only the nesting-level bookkeeping is fixed (see
// CalculateNestingLevel).

// Block classifications.
const (
	_             = iota
	bbTop         // uninitialized
	bbNonHeader   // a regular BB
	bbReducible   // reducible loop
	bbSelf        // single BB loop
	bbIrreducible // irreducible loop
	bbDead        // a dead BB
)

// unvisited marks a block the depth-first search has not reached.
const unvisited = -1

// maxNonBackPreds guards against pathological inputs, as in the original.
const maxNonBackPreds = 32 * 1024

// UnionFindNode is a node of the union/find structure that collapses each
// loop found into its header.
type UnionFindNode struct {
	parent    *UnionFindNode
	bb        *BasicBlock
	loop      *SimpleLoop
	dfsNumber int
}

// Init makes u a singleton set for bb with the given DFS number.
func (u *UnionFindNode) Init(bb *BasicBlock, dfsNumber int) {
	u.parent = u
	u.bb = bb
	u.dfsNumber = dfsNumber
	u.loop = nil
}

// FindSet returns the representative of u's set, compressing the path to
// it. Like the original it collects the path in a fresh slice.
func (u *UnionFindNode) FindSet() *UnionFindNode {
	var nodeList []*UnionFindNode
	node := u
	for ; node != node.parent; node = node.parent {
		if node.parent != node.parent.parent {
			nodeList = append(nodeList, node)
		}
	}
	for _, ll := range nodeList {
		ll.parent = node.parent
	}
	return node
}

// Union merges u's set into b's.
func (u *UnionFindNode) Union(b *UnionFindNode) { u.parent = b }

// isAncestor reports whether w is an ancestor of v in the DFS tree, using
// the preorder numbering: v lies in [w, last[w]].
func isAncestor(w, v int, last []int) bool {
	return w <= v && v <= last[w]
}

// listContainsNode reports whether l holds u.
func listContainsNode(l []*UnionFindNode, u *UnionFindNode) bool {
	for _, ll := range l {
		if ll == u {
			return true
		}
	}
	return false
}

// DFS numbers the blocks reachable from currentNode in preorder, recording
// in last the highest number in each subtree, and returns the last number
// given.
func DFS(currentNode *BasicBlock, nodes []*UnionFindNode, number map[*BasicBlock]int, last []int, current int) int {
	nodes[current].Init(currentNode, current)
	number[currentNode] = current

	lastid := current
	for _, target := range currentNode.OutEdges {
		if number[target] == unvisited {
			lastid = DFS(target, nodes, number, last, lastid+1)
		}
	}
	last[number[currentNode]] = lastid
	return lastid
}

// FindLoops finds the loops of cfgraph with Havlak's algorithm and adds
// them to lsgraph. Step names follow Havlak's paper.
func FindLoops(cfgraph *CFG, lsgraph *LSG) {
	if cfgraph.Start == nil {
		return
	}
	size := cfgraph.NumNodes()

	nonBackPreds := make([]map[int]bool, size)
	backPreds := make([][]int, size)
	number := make(map[*BasicBlock]int)
	header := make([]int, size)
	types := make([]int, size)
	last := make([]int, size)
	nodes := make([]*UnionFindNode, size)
	for i := range size {
		nodes[i] = new(UnionFindNode)
	}

	// Step a: mark every block unvisited, number them depth-first;
	// blocks left unreached are dead.
	for i, bb := range cfgraph.Blocks {
		number[bb] = unvisited
		nonBackPreds[i] = make(map[int]bool)
	}
	DFS(cfgraph.Start, nodes, number, last, 0)

	// Step b: split each block's predecessors into back edges (from a
	// descendant in the DFS tree) and the others.
	for w := range size {
		header[w] = 0
		types[w] = bbNonHeader
		nodeW := nodes[w].bb
		if nodeW == nil {
			types[w] = bbDead
			continue
		}
		for _, nodeV := range nodeW.InEdges {
			v := number[nodeV]
			if v == unvisited {
				continue // dead predecessor
			}
			if isAncestor(w, v, last) {
				backPreds[w] = append(backPreds[w], v)
			} else {
				nonBackPreds[w][v] = true
			}
		}
	}
	header[0] = 0

	// Step c: visit blocks in reverse preorder, so that inner loop headers
	// come before the headers of the loops around them.
	for w := size - 1; w >= 0; w-- {
		nodeW := nodes[w].bb
		if nodeW == nil {
			continue // dead BB
		}
		nodePool := findLoopBody(w, nodes, backPreds, nonBackPreds, types, last)
		if nodePool == nil && types[w] != bbSelf {
			continue
		}
		collapse(lsgraph, nodes[w], nodePool, header, types[w] != bbIrreducible)
	}
}

// collapse records the loop headed by w with body nodePool in lsgraph and
// merges the body into w: a collapsed loop is one node from then on.
func collapse(lsgraph *LSG, w *UnionFindNode, nodePool []*UnionFindNode, header []int, reducible bool) {
	loop := lsgraph.NewLoop()
	loop.SetHeader(w.bb)
	loop.IsReducible = reducible
	w.loop = loop
	for _, node := range nodePool {
		header[node.dfsNumber] = w.dfsNumber
		node.Union(w)
		if node.loop != nil {
			node.loop.SetParent(loop) // nested loops are linked, not added
		} else {
			loop.AddNode(node.bb)
		}
	}
	lsgraph.AddLoop(loop)
}

// findLoopBody is steps d and e for header w: it chases backwards from the
// sources of w's back edges and returns the body P of the loop headed by w
// (nil if there is none), marking w irreducible if the body can be entered
// other than through w.
func findLoopBody(w int, nodes []*UnionFindNode, backPreds [][]int, nonBackPreds []map[int]bool, types, last []int) []*UnionFindNode {
	var nodePool []*UnionFindNode
	for _, v := range backPreds[w] {
		if v != w {
			nodePool = append(nodePool, nodes[v].FindSet())
		} else {
			types[w] = bbSelf
		}
	}
	workList := append([]*UnionFindNode(nil), nodePool...)
	if len(nodePool) != 0 {
		types[w] = bbReducible
	}
	for len(workList) > 0 {
		x := workList[0]
		workList = workList[1:]
		if len(nonBackPreds[x.dfsNumber]) > maxNonBackPreds {
			return nil // the algorithm has degenerated
		}
		for iter := range nonBackPreds[x.dfsNumber] {
			ydash := nodes[iter].FindSet()
			if !isAncestor(w, ydash.dfsNumber, last) {
				types[w] = bbIrreducible
				nonBackPreds[w][ydash.dfsNumber] = true
			} else if ydash.dfsNumber != w && !listContainsNode(nodePool, ydash) {
				workList = append(workList, ydash)
				nodePool = append(nodePool, ydash)
			}
		}
	}
	return nodePool
}

// FindHavlakLoops finds the loops of cfgraph, adds them to lsgraph and
// returns how many lsgraph holds.
func FindHavlakLoops(cfgraph *CFG, lsgraph *LSG) int {
	FindLoops(cfgraph, lsgraph)
	return lsgraph.NumLoops()
}
