package havlak

// A Loop is a loop found by a LoopFinder.
type Loop struct {
	Header      *BasicBlock
	Blocks      []*BasicBlock // body outside inner loops, header first
	Children    []*Loop
	Parent      *Loop // nil for an outermost loop until CalculateNestingLevel
	IsRoot      bool
	IsReducible bool

	NestingLevel int // height: 0 for an innermost loop
	DepthLevel   int // distance from the root: 1 for an outermost loop
}

func (loop *Loop) setParent(parent *Loop) {
	loop.Parent = parent
	parent.Children = append(parent.Children, loop)
}

// A LoopGraph is the forest of loops a LoopFinder found, under an
// artificial root. Each FindLoops call replaces its contents and reuses
// the Loops of the previous call, so pointers into it are valid only
// until the next call.
type LoopGraph struct {
	root  Loop
	loops []*Loop
	spare []*Loop // every Loop allocated so far; loops is a prefix
}

// NewLoopGraph returns an empty loop graph.
func NewLoopGraph() *LoopGraph {
	return &LoopGraph{root: Loop{IsRoot: true}}
}

// reset empties g, keeping its Loops for reuse.
func (g *LoopGraph) reset() {
	g.root.Children = g.root.Children[:0]
	g.root.NestingLevel, g.root.DepthLevel = 0, 0
	g.loops = g.loops[:0]
}

// newLoop adds a loop headed by header and returns it.
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
	*loop = Loop{
		Header:      header,
		Blocks:      append(loop.Blocks[:0], header),
		Children:    loop.Children[:0],
		IsReducible: reducible,
	}
	g.loops = append(g.loops, loop)
	return loop
}

// NumLoops returns the number of loops found, not counting the root.
func (g *LoopGraph) NumLoops() int { return len(g.loops) }

// Root returns the artificial root loop.
func (g *LoopGraph) Root() *Loop { return &g.root }

// Loops returns the loops found, innermost headers first.
func (g *LoopGraph) Loops() []*Loop { return g.loops }

// CalculateNestingLevel hangs the outermost loops under the root and sets
// every loop's DepthLevel and NestingLevel.
func (g *LoopGraph) CalculateNestingLevel() {
	for _, l := range g.loops {
		if l.Parent == nil {
			l.setParent(&g.root)
		}
	}
	g.calculateNestingLevel(&g.root, 0)
}

func (g *LoopGraph) calculateNestingLevel(loop *Loop, depth int) {
	loop.DepthLevel = depth
	for _, child := range loop.Children {
		g.calculateNestingLevel(child, depth+1)
		loop.NestingLevel = max(loop.NestingLevel, child.NestingLevel+1)
	}
}
