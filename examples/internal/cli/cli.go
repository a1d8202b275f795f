// Package cli is what the examples' commands share to turn the error their
// run function returns into an exit status, as STYLE's rule 4 asks:
// run(ctx, stdout, stderr, args) error, and main prints and exits; and
// Serve, which serves their HTTP service until the context ends.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// FlagError is a command line the flag package rejected; the flag package
// has already printed the error with the usage text.
type FlagError struct{ Err error }

func (e FlagError) Error() string { return e.Err.Error() }
func (e FlagError) Unwrap() error { return e.Err }

// UsageError is any other bad command line.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

// ExitStatus returns main's exit status for run's error: 0 for none or for
// -h, 2 for a bad command line and 1 for any other failure. It prints
// "prog: err" on stderr unless the flag package has printed it already.
func ExitStatus(prog string, err error, stderr io.Writer) int {
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(FlagError)):
		return 2
	}
	fmt.Fprintf(stderr, "%s: %v\n", prog, err)
	if errors.As(err, new(UsageError)) {
		return 2
	}
	return 1
}
