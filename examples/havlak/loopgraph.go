package havlak

import "slices"

// A Loop is a loop found by a LoopFinder.
type Loop struct {
	Header      *BasicBlock
	Blocks      []*BasicBlock // body outside inner loops, header first
	Children    []*Loop       // inner loops; set by CalculateNestingLevel
	Parent      *Loop         // enclosing loop; the root's set by CalculateNestingLevel
	IsRoot      bool
	IsReducible bool

	NestingLevel int // height: 0 for an innermost loop
	DepthLevel   int // distance from the root: 1 for an outermost loop

	nkids int // number of children, while CalculateNestingLevel counts them
}

// A LoopGraph is the forest of loops a LoopFinder found, under an
// artificial root. Each FindLoops call replaces its contents and reuses
// the Loops and storage of the previous call, so pointers into it are
// valid only until the next call.
type LoopGraph struct {
	root     Loop
	loops    []*Loop
	spare    []*Loop       // every Loop allocated so far; loops is a prefix
	blocks   []*BasicBlock // every loop's Blocks, one after the other
	children []*Loop       // every loop's Children, one after the other
	open     int           // where the Blocks of the loop being built start
}

// NewLoopGraph returns an empty loop graph.
func NewLoopGraph() *LoopGraph {
	return &LoopGraph{root: Loop{IsRoot: true}}
}

// reset empties g for a graph of n blocks, keeping its storage. Every
// block is in the Blocks of one loop at most, so n is room enough.
func (g *LoopGraph) reset(n int) {
	g.root = Loop{IsRoot: true}
	g.blocks = slices.Grow(g.blocks[:0], n)
	// Every loop has its own header, so there are at most n loops; room
	// for them up front spares copying as the lists grow (pages never
	// touched cost nothing).
	g.loops = slices.Grow(g.loops[:0], n)
	g.spare = slices.Grow(g.spare, max(n-len(g.spare), 0))
}

// newLoop starts a loop headed by header; addBlock adds the rest of its
// body and closeLoop ends it.
func (g *LoopGraph) newLoop(header *BasicBlock, reducible bool) *Loop {
	n := len(g.loops)
	if n == len(g.spare) {
		// Allocate Loops in batches: fewer, larger objects for the GC.
		batch := make([]Loop, max(n/4, 64))
		for i := range batch {
			g.spare = append(g.spare, &batch[i])
		}
	}
	loop := g.spare[n]
	*loop = Loop{Header: header, IsReducible: reducible}
	g.loops = append(g.loops, loop)
	g.open = len(g.blocks)
	g.blocks = append(g.blocks, header)
	return loop
}

func (g *LoopGraph) addBlock(bb *BasicBlock) { g.blocks = append(g.blocks, bb) }

func (g *LoopGraph) closeLoop(loop *Loop) {
	loop.Blocks = g.blocks[g.open:len(g.blocks):len(g.blocks)]
}

// NumLoops returns the number of loops found, not counting the root.
func (g *LoopGraph) NumLoops() int { return len(g.loops) }

// Root returns the artificial root loop.
func (g *LoopGraph) Root() *Loop { return &g.root }

// Loops returns the loops found, innermost headers first.
func (g *LoopGraph) Loops() []*Loop { return g.loops }

// CalculateNestingLevel hangs the outermost loops under the root, fills
// every loop's Children and sets its DepthLevel and NestingLevel.
func (g *LoopGraph) CalculateNestingLevel() {
	// Count every loop's children afresh, so that a second call finds
	// the same forest instead of counting them twice.
	g.root.nkids = 0
	for _, l := range g.loops {
		l.nkids = 0
	}
	for _, l := range g.loops {
		if l.Parent == nil {
			l.Parent = &g.root
		}
		l.Parent.nkids++
	}
	// Give each loop a window of the children array, then fill them.
	g.children = slices.Grow(g.children[:0], len(g.loops))[:len(g.loops)]
	off := 0
	window := func(l *Loop) {
		l.Children = g.children[off:off:(off + l.nkids)]
		off += l.nkids
	}
	window(&g.root)
	for _, l := range g.loops {
		window(l)
	}
	for _, l := range g.loops {
		l.Parent.Children = append(l.Parent.Children, l)
	}
	g.calculateNestingLevel(&g.root, 0)
}

func (g *LoopGraph) calculateNestingLevel(loop *Loop, depth int) {
	loop.DepthLevel = depth
	loop.NestingLevel = 0
	for _, child := range loop.Children {
		g.calculateNestingLevel(child, depth+1)
		loop.NestingLevel = max(loop.NestingLevel, child.NestingLevel+1)
	}
}
