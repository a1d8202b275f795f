package havlak

// A SimpleLoop is a loop found by the naive finder: a header, the blocks of
// its body that are in no inner loop, its inner loops and its parent. As in
// the original, sets are maps.
type SimpleLoop struct {
	basicBlocks map[*BasicBlock]bool
	Children    map[*SimpleLoop]bool
	Parent      *SimpleLoop
	header      *BasicBlock

	IsRoot       bool
	IsReducible  bool
	Counter      int
	NestingLevel int // height: 0 for an innermost loop
	DepthLevel   int // distance from the root: 1 for an outermost loop
}

// AddNode adds bb to the loop's body.
func (loop *SimpleLoop) AddNode(bb *BasicBlock) { loop.basicBlocks[bb] = true }

// AddChildLoop records child as an inner loop.
func (loop *SimpleLoop) AddChildLoop(child *SimpleLoop) { loop.Children[child] = true }

// SetParent makes parent the loop around loop.
func (loop *SimpleLoop) SetParent(parent *SimpleLoop) {
	loop.Parent = parent
	parent.AddChildLoop(loop)
}

// SetHeader makes bb the loop's header, and part of its body.
func (loop *SimpleLoop) SetHeader(bb *BasicBlock) {
	loop.AddNode(bb)
	loop.header = bb
}

// Header returns the loop's header block.
func (loop *SimpleLoop) Header() *BasicBlock { return loop.header }

// NumBlocks returns the number of blocks in the loop's body outside its
// inner loops, header included.
func (loop *SimpleLoop) NumBlocks() int { return len(loop.basicBlocks) }

// loopCounter numbers loops across all graphs, as in the original.
var loopCounter = 0

// An LSG (loop structure graph) is the forest of loops found in a CFG,
// under an artificial root.
type LSG struct {
	root  *SimpleLoop
	loops []*SimpleLoop
}

// NewLSG returns an empty loop structure graph.
func NewLSG() *LSG {
	lsg := new(LSG)
	lsg.root = lsg.NewLoop()
	lsg.root.IsRoot = true
	return lsg
}

// NewLoop returns a new loop, not yet added to the graph.
func (lsg *LSG) NewLoop() *SimpleLoop {
	loop := &SimpleLoop{
		basicBlocks: make(map[*BasicBlock]bool),
		Children:    make(map[*SimpleLoop]bool),
		Counter:     loopCounter,
	}
	loopCounter++
	return loop
}

// AddLoop adds loop to the graph.
func (lsg *LSG) AddLoop(loop *SimpleLoop) { lsg.loops = append(lsg.loops, loop) }

// NumLoops returns the number of loops found, not counting the root.
func (lsg *LSG) NumLoops() int { return len(lsg.loops) }

// Root returns the artificial root loop.
func (lsg *LSG) Root() *SimpleLoop { return lsg.root }

// Loops returns the loops found, innermost headers first.
func (lsg *LSG) Loops() []*SimpleLoop { return lsg.loops }

// CalculateNestingLevel hangs the outermost loops under the root and sets
// every loop's DepthLevel and NestingLevel. (The original Go port linked
// inner loops to their parent without recording them as children, so its
// levels were wrong below the outermost loops; here they follow the C++
// original.)
func (lsg *LSG) CalculateNestingLevel() {
	for _, sl := range lsg.loops {
		if !sl.IsRoot && sl.Parent == nil {
			sl.SetParent(lsg.root)
		}
	}
	lsg.calculateNestingLevel(lsg.root, 0)
}

func (lsg *LSG) calculateNestingLevel(loop *SimpleLoop, depth int) {
	loop.DepthLevel = depth
	for ll := range loop.Children {
		lsg.calculateNestingLevel(ll, depth+1)
		loop.NestingLevel = max(loop.NestingLevel, ll.NestingLevel+1)
	}
}
