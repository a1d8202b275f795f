// Command elvis copies standard input to standard output with every
// lower-case "elvis" capitalised.
//
//	elvis [-alg=reader|scan] < in > out
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/perflab/perflab/examples/elvis"
)

func main() {
	alg := flag.String("alg", "scan", "algorithm: reader (buffered reader) or scan (zero-allocation scan)")
	flag.Parse()
	if err := run(*alg, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "elvis: %v\n", err)
		os.Exit(1)
	}
}

func run(alg string, in io.Reader, out io.Writer) error {
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
