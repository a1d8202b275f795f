// Command havlak runs Hundt's loop-recognition benchmark, as profiled in
// the Go blog's "Profiling Go Programs":
//
//	havlak [-variant=naive|tuned] [-reps=50] [-cpuprofile=havlak.prof] [-memprofile=havlak.mprof]
//
// It prints the number of loops found in the benchmark graph. The
// profiling flags are go test's, registered by collect.Flags.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/perflab/perflab/collect"
	"github.com/perflab/perflab/examples/havlak"
	"github.com/perflab/perflab/examples/internal/cli"
)

func main() {
	err := run(context.Background(), os.Stdout, os.Stderr, os.Args[1:])
	os.Exit(cli.ExitStatus("havlak", err, os.Stderr))
}

// run is the whole command. A bad command line is a cli.FlagError or a
// cli.UsageError.
func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("havlak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	variant := fs.String("variant", "naive", "loop finder: naive (the original's maps) or tuned (slices, reused memory)")
	reps := fs.Int("reps", havlak.Repetitions, "repetitions of loop finding after the first run")
	prof := collect.Flags(fs)
	if err := fs.Parse(args); err != nil {
		return cli.FlagError{Err: err}
	}
	v, err := havlak.ParseVariant(*variant)
	if err != nil {
		return cli.UsageError{Err: fmt.Errorf("-variant: %w", err)}
	}
	if *reps < 0 {
		return cli.UsageError{Err: fmt.Errorf("-reps=%d: must not be negative", *reps)}
	}
	session := prof.Start(collect.Log(stderr))
	n := havlak.Run(v, *reps, nil)
	fmt.Fprintf(stdout, "# of loops: %d (including 1 artificial root node)\n", n)
	return session.Stop()
}
