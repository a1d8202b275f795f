package havlak

import "slices"

// A BasicBlock is a node of the control-flow graph. Its Name is its index
// in CFG.Blocks.
type BasicBlock struct {
	Name     int
	InEdges  []*BasicBlock
	OutEdges []*BasicBlock

	// Room for the first two edges each way, so that most blocks need no
	// separate edge arrays.
	in, out [2]*BasicBlock
}

// NumPred returns the number of the block's predecessors.
func (bb *BasicBlock) NumPred() int { return len(bb.InEdges) }

// NumSucc returns the number of the block's successors.
func (bb *BasicBlock) NumSucc() int { return len(bb.OutEdges) }

// AddInEdge records from as a predecessor of bb.
func (bb *BasicBlock) AddInEdge(from *BasicBlock) {
	if bb.InEdges == nil {
		bb.InEdges = bb.in[:0]
	}
	bb.InEdges = append(bb.InEdges, from)
}

// AddOutEdge records to as a successor of bb.
func (bb *BasicBlock) AddOutEdge(to *BasicBlock) {
	if bb.OutEdges == nil {
		bb.OutEdges = bb.out[:0]
	}
	bb.OutEdges = append(bb.OutEdges, to)
}

// A CFG is a control-flow graph. Blocks[0], once created, is its entry.
type CFG struct {
	Blocks []*BasicBlock
	Start  *BasicBlock
	spare  []BasicBlock // blocks allocated in batches, not yet handed out
}

// NewCFG returns an empty graph.
func NewCFG() *CFG { return &CFG{} }

// NumNodes returns the number of blocks.
func (cfg *CFG) NumNodes() int { return len(cfg.Blocks) }

// CreateNode returns block number node, creating it if it is the next one.
// Blocks are numbered densely: asking for a number beyond the next one
// panics, as it would in the original.
func (cfg *CFG) CreateNode(node int) *BasicBlock {
	if node < len(cfg.Blocks) {
		return cfg.Blocks[node]
	}
	if node != len(cfg.Blocks) {
		panic("havlak: CreateNode called out of order")
	}
	if len(cfg.spare) == 0 {
		// Allocate blocks in batches: fewer, larger objects for the GC.
		cfg.spare = make([]BasicBlock, 1024)
	}
	bb := &cfg.spare[0]
	cfg.spare = cfg.spare[1:]
	bb.Name = node
	if len(cfg.Blocks) == cap(cfg.Blocks) {
		// Double the list: append grows big slices by only a quarter,
		// copying the list many times over as the graph grows.
		cfg.Blocks = slices.Grow(cfg.Blocks, len(cfg.Blocks)+1024)
	}
	cfg.Blocks = append(cfg.Blocks, bb)
	if len(cfg.Blocks) == 1 {
		cfg.Start = bb
	}
	return bb
}

// A BasicBlockEdge is an edge of the graph, as the benchmark records it.
type BasicBlockEdge struct {
	Dst *BasicBlock
	Src *BasicBlock
}

// NewBasicBlockEdge adds an edge from block from to block to, creating
// either block if needed.
func NewBasicBlockEdge(cfg *CFG, from, to int) *BasicBlockEdge {
	e := addEdge(cfg, from, to)
	return &e
}

// addEdge is NewBasicBlockEdge for the builders below, which discard the
// edge: it returns it by value, so nothing is allocated for it.
func addEdge(cfg *CFG, from, to int) BasicBlockEdge {
	e := BasicBlockEdge{Src: cfg.CreateNode(from), Dst: cfg.CreateNode(to)}
	e.Src.AddOutEdge(e.Dst)
	e.Dst.AddInEdge(e.Src)
	return e
}

// The benchmark graph's shape, as in Hundt's LoopTesterApp: 10 trees of
// 100 outer loops, each holding 25 base loops of 3 loops apiece.
const (
	parLoopTrees   = 10
	outerLoops     = 100
	baseLoops      = 25
	loopsPerBase   = 3
	warmupGraphRun = 15000 // calls on the 3-block graph before the big one is built

	// Loops is the number of loops Havlak's algorithm finds in the
	// benchmark graph.
	Loops = parLoopTrees * outerLoops * (baseLoops*loopsPerBase + 1)
)

// buildDiamond adds a diamond start -> {start+1, start+2} -> start+3 and
// returns its bottom.
func buildDiamond(cfg *CFG, start int) int {
	addEdge(cfg, start, start+1)
	addEdge(cfg, start, start+2)
	addEdge(cfg, start+1, start+3)
	addEdge(cfg, start+2, start+3)
	return start + 3
}

// buildConnect adds the edge start -> end.
func buildConnect(cfg *CFG, start, end int) {
	addEdge(cfg, start, end)
}

// buildStraight adds a chain of n edges from start and returns its end.
func buildStraight(cfg *CFG, start, n int) int {
	for i := range n {
		buildConnect(cfg, start+i, start+i+1)
	}
	return start + n
}

// buildBaseLoop adds one base loop at from: two diamonds, each closed into
// a loop, inside an outer loop back to from. It returns the exit block.
func buildBaseLoop(cfg *CFG, from int) int {
	header := buildStraight(cfg, from, 1)
	diamond1 := buildDiamond(cfg, header)
	d11 := buildStraight(cfg, diamond1, 1)
	diamond2 := buildDiamond(cfg, d11)
	footer := buildStraight(cfg, diamond2, 1)
	buildConnect(cfg, diamond2, d11)
	buildConnect(cfg, diamond1, header)
	buildConnect(cfg, footer, from)
	return buildStraight(cfg, footer, 1)
}

// newWarmupCFG returns the 3-block graph the benchmark runs the loop
// finder on 15,000 times before building the big one: top (0) and bottom
// (1) blocks and the edge 0 -> 2.
func newWarmupCFG() *CFG {
	cfg := NewCFG()
	cfg.CreateNode(0) // top
	cfg.CreateNode(1) // bottom
	addEdge(cfg, 0, 2)
	return cfg
}

// BuildBenchmarkCFG builds the benchmark's control-flow graph exactly as
// Hundt's program does: on top of the warm-up graph, 10 trees hanging off
// block 2, each a chain of 100 loops that each contain 25 base loops,
// every tree ending at the bottom block 1.
func BuildBenchmarkCFG() *CFG {
	return addLoopTrees(newWarmupCFG())
}

// addLoopTrees adds the benchmark's loop trees to the warm-up graph.
func addLoopTrees(cfg *CFG) *CFG {
	n := 2
	for range parLoopTrees {
		cfg.CreateNode(n + 1)
		buildConnect(cfg, 2, n+1)
		n++
		for range outerLoops {
			top := n
			n = buildStraight(cfg, n, 1)
			for range baseLoops {
				n = buildBaseLoop(cfg, n)
			}
			bottom := buildStraight(cfg, n, 1)
			buildConnect(cfg, n, top)
			n = bottom
		}
		buildConnect(cfg, n, 1)
	}
	return cfg
}
