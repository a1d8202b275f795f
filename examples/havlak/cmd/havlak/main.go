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
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/perflab/perflab/collect"
	"github.com/perflab/perflab/examples/havlak"
)

func main() {
	err := run(context.Background(), os.Stdout, os.Stderr, os.Args[1:])
	os.Exit(exitStatus(err, os.Stderr))
}

// run is the whole command. A bad command line is a flagError or a
// usageError.
func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("havlak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	variant := fs.String("variant", "naive", "loop finder: naive (the original's maps) or tuned (slices, reused memory)")
	reps := fs.Int("reps", havlak.Repetitions, "repetitions of loop finding after the first run")
	prof := collect.Flags(fs)
	if err := fs.Parse(args); err != nil {
		return flagError{err}
	}
	v, err := havlak.ParseVariant(*variant)
	if err != nil {
		return usageError{fmt.Errorf("-variant: %w", err)}
	}
	if *reps < 0 {
		return usageError{fmt.Errorf("-reps=%d: must not be negative", *reps)}
	}
	session := prof.Start(collect.Log(stderr))
	n := havlak.Run(v, *reps, nil)
	fmt.Fprintf(stdout, "# of loops: %d (including 1 artificial root node)\n", n)
	return session.Stop()
}

// flagError is a command line the flag package rejected; it has already
// printed the error with the usage text.
type flagError struct{ error }

func (e flagError) Unwrap() error { return e.error }

// usageError is any other bad command line.
type usageError struct{ error }

// exitStatus returns main's exit status for run's error: 0 for none, 2 for
// a bad command line (-help included), 1 for a failure. It prints the error
// on stderr unless the flag package has.
func exitStatus(err error, stderr io.Writer) int {
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(flagError)):
		return 2
	}
	fmt.Fprintf(stderr, "havlak: %v\n", err)
	if errors.As(err, new(usageError)) {
		return 2
	}
	return 1
}
