// Command manykeys writes benchgen.ManyKeys's input (or with -names,
// benchgen.ManyNames's) of at least SIZE bytes to standard output, for
// scripts/hostile/bench:
//
//	go run ./internal/benchgen/manykeys 340000 > many.txt
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/perflab/perflab/internal/benchgen"
)

func main() {
	names := flag.Bool("names", false, "a benchmark name key per result instead of a configuration key")
	flag.Usage = func() { fmt.Fprintln(os.Stderr, "usage: manykeys [-names] SIZE") }
	flag.Parse()
	size, err := strconv.Atoi(flag.Arg(0))
	if flag.NArg() != 1 || err != nil || size < 0 {
		flag.Usage()
		os.Exit(2)
	}
	gen := benchgen.ManyKeys
	if *names {
		gen = benchgen.ManyNames
	}
	if _, err := gen(os.Stdout, size); err != nil {
		fmt.Fprintln(os.Stderr, "manykeys:", err)
		os.Exit(1)
	}
}
