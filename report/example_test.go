package report_test

import (
	"fmt"
	"os"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/report"
)

// A CPU profile of main.main calling main.work, which spends most of its
// time in the inlined main.helper.
func cpuProfile() *profile.Profile {
	mainFn := &profile.Function{ID: 1, Name: "main.main", Filename: "main.go"}
	work := &profile.Function{ID: 2, Name: "main.work", Filename: "main.go"}
	helper := &profile.Function{ID: 3, Name: "main.helper", Filename: "main.go"}
	l1 := &profile.Location{ID: 1, Line: []profile.Line{{Function: mainFn, Line: 10}}}
	l2 := &profile.Location{ID: 2, Line: []profile.Line{{Function: helper, Line: 30}, {Function: work, Line: 20}}}
	l3 := &profile.Location{ID: 3, Line: []profile.Line{{Function: work, Line: 21}}}
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		Function:   []*profile.Function{mainFn, work, helper},
		Location:   []*profile.Location{l1, l2, l3},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{l2, l1}, Value: []int64{7, 70e6}},
			{Location: []*profile.Location{l3, l1}, Value: []int64{2, 20e6}},
			{Location: []*profile.Location{l1}, Value: []int64{1, 10e6}},
		},
	}
}

func ExampleGenerate() {
	o := report.DefaultOptions()
	o.Cum = true
	if err := report.Generate(os.Stdout, cpuProfile(), report.Top, o); err != nil {
		panic(err)
	}
	// Output:
	// Type: cpu
	// Showing nodes accounting for 100ms, 100% of 100ms total
	//       flat  flat%   sum%        cum   cum%
	//       10ms 10.00% 10.00%      100ms   100%  main.main
	//       20ms 20.00% 30.00%       90ms 90.00%  main.work
	//       70ms 70.00%   100%       70ms 70.00%  main.helper (inline)
}

func ExampleSummarize() {
	p := cpuProfile()
	p.PeriodType, p.Period = &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, 10e6
	s, err := report.Summarize(p)
	if err != nil {
		panic(err)
	}
	fmt.Printf("Type: %s, Total samples = %s: %d samples of %s in %d records\n", s.Type, s.Total, s.Samples, s.Period, len(p.Sample))
	// Output:
	// Type: cpu, Total samples = 100ms: 10 samples of 10ms in 3 records
}
