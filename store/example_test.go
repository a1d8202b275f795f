package store_test

import (
	"context"
	"fmt"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/store"
)

// cpu returns a CPU profile of one process: main.main calls main.work
// (line 20) and main.idle, with the binary loaded at start.
func cpu(start uint64, work, idle int64) *profile.Profile {
	m := &profile.Mapping{ID: 1, Start: start, Limit: start + 0x100000, File: "/bin/api", BuildID: "b1", HasFunctions: true}
	mainFn := &profile.Function{ID: 1, Name: "main.main", Filename: "main.go"}
	workFn := &profile.Function{ID: 2, Name: "main.work", Filename: "main.go"}
	idleFn := &profile.Function{ID: 3, Name: "main.idle", Filename: "main.go"}
	l1 := &profile.Location{ID: 1, Mapping: m, Address: start + 0x100, Line: []profile.Line{{Function: mainFn, Line: 10}}}
	l2 := &profile.Location{ID: 2, Mapping: m, Address: start + 0x200, Line: []profile.Line{{Function: workFn, Line: 20}}}
	l3 := &profile.Location{ID: 3, Mapping: m, Address: start + 0x300, Line: []profile.Line{{Function: idleFn, Line: 30}}}
	return &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        10_000_000,
		DurationNanos: 10e9,
		Mapping:       []*profile.Mapping{m},
		Function:      []*profile.Function{mainFn, workFn, idleFn},
		Location:      []*profile.Location{l1, l2, l3},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{l2, l1}, Value: []int64{work, work * 10_000_000}},
			{Location: []*profile.Location{l3, l1}, Value: []int64{idle, idle * 10_000_000}},
		},
	}
}

// Two instances of a service, their binary loaded at different addresses,
// split into parts as a store keeps them, and merged back: the stacks are
// the same parts, and the merge has one sample per stack (in the order of
// their hashes).
func ExampleCompose() {
	a, b := cpu(0x400000, 7, 1), cpu(0x7f1200000000, 3, 0)
	parts := store.NewParts()
	var header store.MergedHeader
	var samples []store.Sample
	for i, p := range []*profile.Profile{a, b} {
		sp, err := store.Split(p)
		if err != nil {
			panic(err)
		}
		at := time.Unix(1_800_000_000+int64(i)*10, 0)
		labels := store.NewLabels("__name__", "process_cpu", "service_name", "api", "instance", fmt.Sprint("i", i))
		h := store.MergeHeader(&sp.Header, store.OrderOf(at, store.ProfileID(labels, at, sp)))
		header.Add(&h)
		parts.Add(sp.Parts)
		samples = append(samples, sp.Samples...)
	}
	cpuType, _ := store.ParseProfileType("cpu")
	p, err := store.Compose(context.Background(), &header, cpuType, samples, parts)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d stacks stored, %d samples merged, %v of profiling\n", len(parts.Stacks), len(p.Sample), time.Duration(p.DurationNanos))
	fmt.Printf("mapping at %#x\n", p.Mapping[0].Start)
	for _, s := range p.Sample {
		fmt.Println(s.Location[0].Line[0].Function.Name, s.Value)
	}
	// Output:
	// 2 stacks stored, 2 samples merged, 20s of profiling
	// mapping at 0x400000
	// main.idle [1 10000000]
	// main.work [10 100000000]
}
