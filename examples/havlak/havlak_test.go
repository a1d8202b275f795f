package havlak

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A loopSummary is what both finders must agree on about one loop, with
// blocks named by their CFG names.
type loopSummary struct {
	header    int
	parent    int // header of the enclosing loop; -1 for the root
	depth     int
	nesting   int
	reducible bool
	blocks    string // the body outside inner loops, sorted
}

func (s loopSummary) String() string {
	return fmt.Sprintf("{header %d parent %d depth %d nesting %d reducible %v blocks %s}",
		s.header, s.parent, s.depth, s.nesting, s.reducible, s.blocks)
}

func blockNames(bbs []*BasicBlock) string {
	var names []int
	for _, bb := range bbs {
		names = append(names, bb.Name)
	}
	slices.Sort(names)
	return fmt.Sprint(names)
}

func sortSummaries(s []loopSummary) []loopSummary {
	slices.SortFunc(s, func(a, b loopSummary) int { return a.header - b.header })
	return s
}

// findNaive runs the naive finder and summarises the loop forest.
func findNaive(cfg *CFG) []loopSummary {
	lsg := NewLSG()
	FindHavlakLoops(cfg, lsg)
	lsg.CalculateNestingLevel()
	var out []loopSummary
	for _, l := range lsg.Loops() {
		parent := -1
		if !l.Parent.IsRoot {
			parent = l.Parent.Header().Name
		}
		var bbs []*BasicBlock
		for bb := range l.basicBlocks {
			bbs = append(bbs, bb)
		}
		out = append(out, loopSummary{l.Header().Name, parent, l.DepthLevel, l.NestingLevel, l.IsReducible, blockNames(bbs)})
	}
	return sortSummaries(out)
}

// findTuned runs the tuned finder (twice, to exercise reuse) and
// summarises the loop forest.
func findTuned(cfg *CFG) []loopSummary {
	f, g := NewLoopFinder(), NewLoopGraph()
	f.FindHavlakLoops(cfg, g)
	f.FindHavlakLoops(cfg, g)
	g.CalculateNestingLevel()
	return tunedSummaries(g)
}

// tunedSummaries summarises the loop forest in g.
func tunedSummaries(g *LoopGraph) []loopSummary {
	var out []loopSummary
	for _, l := range g.Loops() {
		parent := -1
		if !l.Parent.IsRoot {
			parent = l.Parent.Header.Name
		}
		out = append(out, loopSummary{l.Header.Name, parent, l.DepthLevel, l.NestingLevel, l.IsReducible, blockNames(l.Blocks)})
	}
	return sortSummaries(out)
}

// graph builds a CFG of n blocks from "a->b" edges.
func graph(n int, edges string) *CFG {
	cfg := NewCFG()
	for i := range n {
		cfg.CreateNode(i)
	}
	for _, e := range strings.Fields(edges) {
		var from, to int
		if _, err := fmt.Sscanf(e, "%d->%d", &from, &to); err != nil {
			panic(e)
		}
		NewBasicBlockEdge(cfg, from, to)
	}
	return cfg
}

// TestHandWorked checks both finders on small graphs whose loop forests
// were worked out by hand.
func TestHandWorked(t *testing.T) {
	tests := []struct {
		name  string
		cfg   *CFG
		want  []loopSummary
		depth int // the root's nesting level: the forest's height
	}{
		{"straight line", graph(3, "0->1 1->2"), nil, 0},
		{"self loop", graph(3, "0->1 1->1 1->2"),
			[]loopSummary{{1, -1, 1, 0, true, "[1]"}}, 1},
		{"simple loop", graph(4, "0->1 1->2 2->1 2->3"),
			[]loopSummary{{1, -1, 1, 0, true, "[1 2]"}}, 1},
		{"nested loops", graph(6, "0->1 1->2 2->3 3->2 3->4 4->1 4->5"),
			[]loopSummary{{1, -1, 1, 1, true, "[1 4]"}, {2, 1, 2, 0, true, "[2 3]"}}, 2},
		{"two loops in sequence", graph(6, "0->1 1->2 2->1 2->3 3->4 4->3 4->5"),
			[]loopSummary{{1, -1, 1, 0, true, "[1 2]"}, {3, -1, 1, 0, true, "[3 4]"}}, 1},
		// 1 and 2 form a cycle entered at both 1 and 2: irreducible.
		{"irreducible", graph(3, "0->1 0->2 1->2 2->1"),
			[]loopSummary{{1, -1, 1, 0, false, "[1 2]"}}, 1},
		// Block 3 is unreachable; its edge into the loop is ignored.
		{"dead block", graph(4, "0->1 1->2 2->1 3->1"),
			[]loopSummary{{1, -1, 1, 0, true, "[1 2]"}}, 1},
		// A diamond inside a loop: the loop body holds all four blocks.
		{"diamond loop", graph(6, "0->1 1->2 1->3 2->4 3->4 4->1 4->5"),
			[]loopSummary{{1, -1, 1, 0, true, "[1 2 3 4]"}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			naive, tuned := findNaive(tt.cfg), findTuned(tt.cfg)
			if fmt.Sprint(naive) != fmt.Sprint(tt.want) {
				t.Errorf("naive:\ngot  %v\nwant %v", naive, tt.want)
			}
			if fmt.Sprint(tuned) != fmt.Sprint(tt.want) {
				t.Errorf("tuned:\ngot  %v\nwant %v", tuned, tt.want)
			}
			lsg, g := NewLSG(), NewLoopGraph()
			FindHavlakLoops(tt.cfg, lsg)
			lsg.CalculateNestingLevel()
			NewLoopFinder().FindHavlakLoops(tt.cfg, g)
			g.CalculateNestingLevel()
			if lsg.Root().NestingLevel != tt.depth || g.Root().NestingLevel != tt.depth {
				t.Errorf("root nesting level: naive %d, tuned %d, want %d",
					lsg.Root().NestingLevel, g.Root().NestingLevel, tt.depth)
			}
		})
	}
}

// TestBenchmarkGraph checks the benchmark graph's shape and loop forest:
// 10 x 100 outer loops, each holding 25 base loops of one loop around two
// diamond loops, so 1,000 loops at depth 1, 25,000 at depth 2 and 50,000
// at depth 3; both finders must find exactly the same forest.
func TestBenchmarkGraph(t *testing.T) {
	cfg := BuildBenchmarkCFG()
	// 3 warm-up blocks; per tree 1 entry block, per outer loop 2 blocks
	// and 10 per base loop.
	if want := 3 + parLoopTrees*(1+outerLoops*(2+baseLoops*10)); cfg.NumNodes() != want {
		t.Errorf("%d blocks, want %d", cfg.NumNodes(), want)
	}
	tuned := findTuned(cfg)
	if len(tuned) != Loops || Loops != 76000 {
		t.Fatalf("tuned finder: %d loops, want %d (Loops = %d)", len(tuned), 76000, Loops)
	}
	depths := map[int]int{}
	for _, l := range tuned {
		depths[l.depth]++
		if !l.reducible || l.nesting != 3-l.depth {
			t.Fatalf("loop %v: want reducible, nesting level %d", l, 3-l.depth)
		}
	}
	if want := map[int]int{1: 1000, 2: 25000, 3: 50000}; fmt.Sprint(depths) != fmt.Sprint(want) {
		t.Errorf("loops by depth: %v, want %v", depths, want)
	}
	if testing.Short() {
		return
	}
	naive := findNaive(cfg)
	if !slices.Equal(naive, tuned) {
		for i := range min(len(naive), len(tuned)) {
			if naive[i] != tuned[i] {
				t.Fatalf("first difference: naive %v, tuned %v", naive[i], tuned[i])
			}
		}
		t.Fatalf("naive found %d loops, tuned %d", len(naive), len(tuned))
	}
}

func TestRun(t *testing.T) {
	for _, v := range []Variant{Tuned, Naive} {
		var calls []int
		n := Run(v, 2, func(done, total int) {
			if total != 3 {
				t.Errorf("%v: progress total %d, want 3", v, total)
			}
			calls = append(calls, done)
		})
		if n != Loops {
			t.Errorf("Run(%v) = %d loops, want %d", v, n, Loops)
		}
		if fmt.Sprint(calls) != "[1 2 3]" {
			t.Errorf("Run(%v): progress calls %v, want [1 2 3]", v, calls)
		}
	}
}

func TestParseVariant(t *testing.T) {
	for _, v := range []Variant{Naive, Tuned} {
		if got, err := ParseVariant(v.String()); got != v || err != nil {
			t.Errorf("ParseVariant(%q) = %v, %v", v.String(), got, err)
		}
	}
	if _, err := ParseVariant("fast"); err == nil || !strings.Contains(err.Error(), `"fast"`) {
		t.Errorf("ParseVariant(fast): got %v, want an error naming it", err)
	}
}

// TestTunedReusesMemory checks the tuned finder's claim: after the first
// call on a graph, finding loops again allocates nothing.
func TestTunedReusesMemory(t *testing.T) {
	cfg := graph(6, "0->1 1->2 2->3 3->2 3->4 4->1 4->5 0->0")
	f, g := NewLoopFinder(), NewLoopGraph()
	f.FindHavlakLoops(cfg, g)
	if allocs := testing.AllocsPerRun(100, func() { f.FindHavlakLoops(cfg, g) }); allocs != 0 {
		t.Errorf("tuned FindHavlakLoops: %v allocs per call after the first, want 0", allocs)
	}
}

// TestCalculateNestingLevelTwice checks that computing the levels again
// on the same loop graph gives the same forest, for both finders.
func TestCalculateNestingLevelTwice(t *testing.T) {
	cfg := graph(6, "0->1 1->2 2->3 3->2 3->4 4->1 4->5")
	want := []loopSummary{{1, -1, 1, 1, true, "[1 4]"}, {2, 1, 2, 0, true, "[2 3]"}}
	lsg, g := NewLSG(), NewLoopGraph()
	FindHavlakLoops(cfg, lsg)
	NewLoopFinder().FindHavlakLoops(cfg, g)
	for range 2 {
		lsg.CalculateNestingLevel()
		g.CalculateNestingLevel()
	}
	if got := tunedSummaries(g); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("tuned after two calls:\ngot  %v\nwant %v", got, want)
	}
	if n := len(g.Root().Children); n != 1 || lsg.Root().NestingLevel != 2 || g.Root().NestingLevel != 2 {
		t.Errorf("root: tuned %d children, nesting levels naive %d, tuned %d; want 1 child, 2, 2",
			n, lsg.Root().NestingLevel, g.Root().NestingLevel)
	}
}
