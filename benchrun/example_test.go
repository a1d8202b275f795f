package benchrun_test

import (
	"context"
	"fmt"
	"os"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/benchrun"
)

// Run the benchmarks of the working tree and of the previous commit,
// interleaved, ten times each.
func ExampleRun() {
	res, err := benchrun.Run(context.Background(), benchrun.Config{
		Packages: []string{"./examples/elvis"},
		Bench:    ".",
		Count:    10,
		Base:     "HEAD~1",
		Profiles: []string{"cpu"},
		OutDir:   os.TempDir(),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Old.Results, res.New.Results, res.New.Profiles["cpu"])
}

// List the functions whose share of a CPU profile changed most; equal
// changes are listed by name.
func ExampleCompareShares() {
	prof := func(flat map[string]int64) *profile.Profile {
		p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}}}
		for _, name := range []string{"parse", "encode", "hash"} {
			f := &profile.Function{ID: uint64(len(p.Function) + 1), Name: name}
			loc := &profile.Location{ID: f.ID, Line: []profile.Line{{Function: f}}}
			p.Function, p.Location = append(p.Function, f), append(p.Location, loc)
			p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{flat[name]}})
		}
		return p
	}
	old := benchrun.FlatShares(prof(map[string]int64{"parse": 50, "encode": 40, "hash": 10}), "cpu")
	new := benchrun.FlatShares(prof(map[string]int64{"parse": 20, "encode": 40, "hash": 40}), "cpu")
	benchrun.WriteShareChanges(os.Stdout, "CPU profile", benchrun.CompareShares(old, new, 2))
	// Output:
	// CPU profile
	//     old     new    delta  function
	//   10.0%   40.0%   +30.0%  hash
	//   50.0%   20.0%   -30.0%  parse
}
