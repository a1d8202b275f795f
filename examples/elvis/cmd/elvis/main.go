// Command elvis copies standard input to standard output with every
// lower-case "elvis" capitalised.
//
//	elvis [-alg=reader|scan] < in > out
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/perflab/perflab/examples/elvis"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command; it returns the exit status: 2 for a bad
// command line, 1 if the copy fails.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("elvis", flag.ContinueOnError)
	fs.SetOutput(stderr)
	alg := fs.String("alg", "scan", "algorithm: reader (buffered reader) or scan (zero-allocation scan)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if err := replace(*alg, stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "elvis: %v\n", err)
		return 1
	}
	return 0
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
