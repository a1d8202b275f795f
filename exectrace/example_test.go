package exectrace_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/perflab/perflab/exectrace"
)

// Read a trace in one pass and print parts of its summary. The trace is
// tracefreq's findNumCPUTasks searching 3 documents on 2 Ps.
func Example() {
	f, err := os.Open("testdata/small.trace")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	a := exectrace.NewAnalyzer()
	if _, err := exectrace.Read(f, a); err != nil {
		log.Fatal(err)
	}
	s := a.Finish()
	fmt.Println("GOMAXPROCS:", s.GOMAXPROCS)
	for _, r := range s.Regions {
		fmt.Printf("region %s: %d\n", r.Name, r.Count)
	}
	for _, t := range s.Tasks {
		fmt.Printf("task %s: %d\n", t.Name, t.Count)
	}
	// Output:
	// GOMAXPROCS: 2
	// region searchDocument: 3
	// task worker: 2
	// task findNumCPU: 1
}

// Analyze a trace file: a generation per worker from
// exectrace.ParallelWorkers on, else in one pass, with the same summary.
func ExampleAnalyze() {
	f, err := os.Open("testdata/small.trace")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		log.Fatal(err)
	}
	a, info, err := exectrace.Analyze(context.Background(), f, st.Size(), exectrace.ParallelWorkers)
	if err != nil {
		log.Fatal(err)
	}
	s := a.Finish()
	fmt.Printf("a Go 1.%d trace, lacking %d things\n", info.GoVersion, len(s.Lacks))
	fmt.Println("GOMAXPROCS:", s.GOMAXPROCS)
	// Output:
	// a Go 1.26 trace, lacking 0 things
	// GOMAXPROCS: 2
}
