// Command elvis copies standard input to standard output with every
// lower-case "elvis" capitalised.
//
//	elvis [-alg=reader|scan] < in > out
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/perflab/perflab/examples/elvis"
)

func main() {
	err := run(context.Background(), os.Stdin, os.Stdout, os.Stderr, os.Args[1:])
	os.Exit(exitStatus(err, os.Stderr))
}

// run is the whole command. A bad command line is a flagError.
func run(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("elvis", flag.ContinueOnError)
	fs.SetOutput(stderr)
	alg := fs.String("alg", "scan", "algorithm: reader (buffered reader) or scan (zero-allocation scan)")
	if err := fs.Parse(args); err != nil {
		return flagError{err}
	}
	return replace(*alg, stdin, stdout)
}

// flagError is a command line the flag package rejected; it has already
// printed the error with the usage text.
type flagError struct{ error }

func (e flagError) Unwrap() error { return e.error }

// exitStatus returns main's exit status for run's error: 0 for none or
// -help, 2 for a bad command line, 1 for a failure, which it prints on
// stderr.
func exitStatus(err error, stderr io.Writer) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if errors.As(err, new(flagError)) {
		return 2
	}
	fmt.Fprintf(stderr, "elvis: %v\n", err)
	return 1
}

// replace copies in to out with the algorithm named alg.
func replace(alg string, in io.Reader, out io.Writer) error {
	switch alg {
	case "reader":
		return elvis.ReplaceReader(in, out, elvis.Find, elvis.Repl)
	case "scan":
		data, err := io.ReadAll(in)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		elvis.ReplaceScan(data, elvis.Find, elvis.Repl, &buf)
		_, err = buf.WriteTo(out)
		return err
	}
	return fmt.Errorf("-alg=%s: unknown algorithm (want reader or scan)", alg)
}
