package godebug_test

import (
	"fmt"
	"strings"

	"github.com/perflab/perflab/godebug"
)

// A program's standard error, with gctrace=1 lines among its own output.
const stderr = `starting server
gc 1 @0.011s 2%: 0.012+0.51+0.018 ms clock, 0.024+0.10/0.40/0+0.036 ms cpu, 4->4->1 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P
gc 2 @0.020s 3%: 0.011+0.62+0.150 ms clock, 0.022+0.20/0.50/0+0.30 ms cpu, 4->5->2 MB, 5 MB goal, 0 MB stacks, 0 MB globals, 2 P
request served
gc 3 @0.031s 3%: 0.010+0.70+0.020 ms clock, 0.020+0/0.60/0.10+0.040 ms cpu, 4->4->1 MB, 5 MB goal, 0 MB stacks, 0 MB globals, 2 P (forced)
`

func Example() {
	var a godebug.GCAnalyzer
	s := godebug.NewScanner(strings.NewReader(stderr))
	for s.Scan() {
		switch rec := s.Result().(type) {
		case *godebug.Text:
			fmt.Printf("program: %s", s.Bytes())
		case *godebug.GC:
			fmt.Printf("gc %d paused %v\n", rec.N, rec.Pause())
		}
		a.Add(s.Result())
	}
	sum := a.Summary(0)
	fmt.Printf("%d GCs, %d forced, %d over 100µs, max pause %.0fµs\n",
		sum.GCs, sum.ForcedGCs, sum.PausesOver100us, sum.STWPause.Max*1e6)
	fmt.Println(sum.Verdict)
	// Output:
	// program: starting server
	// gc 1 paused 30µs
	// gc 2 paused 161µs
	// program: request served
	// gc 3 paused 30µs
	// 3 GCs, 1 forced, 1 over 100µs, max pause 161µs
	// not enough GCs to judge the live heap (3; need 5)
}
