package shell_test

import (
	"os"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/shell"
)

// A shell on a profile, fed commands through a pipe as a script would:
// an option assignment, then a report.
func Example() {
	fn := &profile.Function{ID: 1, Name: "main.work"}
	loc := &profile.Location{ID: 1, Line: []profile.Line{{Function: fn}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		Function:   []*profile.Function{fn}, Location: []*profile.Location{loc},
		Sample: []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{2_500_000}}},
	}
	var discard strings.Builder // the greeting and messages
	sh := shell.New(p, report.DefaultOptions(), os.Stdout, &discard)
	sh.Run(strings.NewReader("unit=ms\ntop\n"))
	// Output:
	// (pprof) (pprof) Showing nodes accounting for 2.50ms, 100% of 2.50ms total
	//       flat  flat%   sum%        cum   cum%
	//     2.50ms   100%   100%     2.50ms   100%  main.work
	// (pprof)
}
