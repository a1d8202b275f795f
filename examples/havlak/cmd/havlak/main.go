// Command havlak runs Hundt's loop-recognition benchmark, as profiled in
// the Go blog's "Profiling Go Programs":
//
//	havlak [-variant=naive|tuned] [-reps=50] [-cpuprofile=havlak.prof] [-memprofile=havlak.mprof]
//
// It prints the number of loops found in the benchmark graph. The
// profiling flags are go test's, registered by collect.Flags.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/perflab/perflab/collect"
	"github.com/perflab/perflab/examples/havlak"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("havlak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	variant := fs.String("variant", "naive", "loop finder: naive (the original's maps) or tuned (slices, reused memory)")
	reps := fs.Int("reps", havlak.Repetitions, "repetitions of loop finding after the first run")
	prof := collect.Flags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	v, err := havlak.ParseVariant(*variant)
	if err != nil {
		fmt.Fprintf(stderr, "havlak: -variant: %v\n", err)
		return 2
	}
	if *reps < 0 {
		fmt.Fprintf(stderr, "havlak: -reps=%d: must not be negative\n", *reps)
		return 2
	}
	session := prof.Start(collect.Log(stderr))
	n := havlak.Run(v, *reps, nil)
	fmt.Fprintf(stdout, "# of loops: %d (including 1 artificial root node)\n", n)
	if err := session.Stop(); err != nil {
		fmt.Fprintf(stderr, "havlak: %v\n", err)
		return 1
	}
	return 0
}
