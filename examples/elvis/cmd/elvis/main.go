// Command elvis copies standard input to standard output with every
// lower-case "elvis" capitalised.
//
//	elvis [-alg=reader|scan] < in > out
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/perflab/perflab/examples/elvis"
	"github.com/perflab/perflab/examples/internal/cli"
)

func main() {
	err := run(context.Background(), os.Stdin, os.Stdout, os.Stderr, os.Args[1:])
	os.Exit(cli.ExitStatus("elvis", err, os.Stderr))
}

// run is the whole command. A bad command line is a cli.FlagError.
func run(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("elvis", flag.ContinueOnError)
	fs.SetOutput(stderr)
	alg := fs.String("alg", "scan", "algorithm: reader (buffered reader) or scan (zero-allocation scan)")
	if err := fs.Parse(args); err != nil {
		return cli.FlagError{Err: err}
	}
	return replace(*alg, stdin, stdout)
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
