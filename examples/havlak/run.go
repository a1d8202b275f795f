package havlak

import "fmt"

// A Variant selects one of the two loop finders.
type Variant int

// The variants.
const (
	Naive Variant = iota // the original's maps and per-call allocations
	Tuned                // slices, reused storage, reused loop graph
)

// String returns the variant's name as -variant takes it.
func (v Variant) String() string {
	switch v {
	case Naive:
		return "naive"
	case Tuned:
		return "tuned"
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// ParseVariant returns the variant named s: "naive" or "tuned".
func ParseVariant(s string) (Variant, error) {
	switch s {
	case "naive":
		return Naive, nil
	case "tuned":
		return Tuned, nil
	}
	return 0, fmt.Errorf("unknown variant %q (want naive or tuned)", s)
}

// Repetitions is how many times the benchmark repeats loop finding after
// the first run.
const Repetitions = 50

// Run performs Hundt's benchmark with the given loop finder: 15,000 calls
// on a 3-block graph, then the big graph is built, loops are found once
// and then reps more times. It returns the number of loops the first run
// found (Loops, for the benchmark graph). progress, if not nil, is called
// after each run with the number done so far and the total (reps+1).
func Run(v Variant, reps int, progress func(done, total int)) int {
	if progress == nil {
		progress = func(int, int) {}
	}
	find := finder(v)
	cfg := newWarmupCFG()
	for range warmupGraphRun {
		find(cfg, false)
	}
	addLoopTrees(cfg)
	n := find(cfg, true)
	progress(1, reps+1)
	for i := range reps {
		find(cfg, false)
		progress(i+2, reps+1)
	}
	return n
}

// finder returns a function that finds the loops of a graph with variant
// v; with keep, the loop graph is kept alive until the benchmark ends, as
// the original keeps its first run's.
func finder(v Variant) func(cfg *CFG, keep bool) int {
	if v == Tuned {
		f, g := NewLoopFinder(), NewLoopGraph()
		return func(cfg *CFG, keep bool) int {
			n := f.FindHavlakLoops(cfg, g)
			if keep {
				g.CalculateNestingLevel()
			}
			return n
		}
	}
	var kept *LSG
	return func(cfg *CFG, keep bool) int {
		lsg := NewLSG()
		n := FindHavlakLoops(cfg, lsg)
		if keep {
			kept = lsg
			kept.CalculateNestingLevel()
		}
		return n
	}
}
