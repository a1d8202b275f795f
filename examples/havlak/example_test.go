package havlak_test

import (
	"fmt"

	"github.com/perflab/perflab/examples/havlak"
)

// A loop 1 -> 2 -> 3 -> 1 around an inner loop 2 <-> 3.
func ExampleLoopFinder() {
	cfg := havlak.NewCFG()
	for i := range 5 {
		cfg.CreateNode(i)
	}
	for _, e := range [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 2}, {3, 1}, {3, 4}} {
		havlak.NewBasicBlockEdge(cfg, e[0], e[1])
	}
	f, g := havlak.NewLoopFinder(), havlak.NewLoopGraph()
	fmt.Println(f.FindHavlakLoops(cfg, g), "loops")
	g.CalculateNestingLevel()
	for _, l := range g.Loops() {
		fmt.Printf("header %d: depth %d, nesting level %d, %d blocks of its own\n",
			l.Header.Name, l.DepthLevel, l.NestingLevel, len(l.Blocks))
	}
	// Output:
	// 2 loops
	// header 2: depth 2, nesting level 0, 2 blocks of its own
	// header 1: depth 1, nesting level 1, 1 blocks of its own
}

func ExampleRun() {
	fmt.Printf("# of loops: %d (including 1 artificial root node)\n", havlak.Run(havlak.Tuned, 0, nil))
	// Output: # of loops: 76000 (including 1 artificial root node)
}
