// Command distinct writes dumpgen.Distinct's dump of N goroutines to
// standard output, every -every-th one in one large group, for
// scripts/hostile/goroutines:
//
//	go run ./internal/dumpgen/distinct 1000000 > dump.txt
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/perflab/perflab/internal/dumpgen"
)

func main() {
	every := flag.Int("every", 100, "put every `k`-th goroutine in one large group (0: none)")
	flag.Usage = func() { fmt.Fprintln(os.Stderr, "usage: distinct [-every k] N") }
	flag.Parse()
	n, err := strconv.Atoi(flag.Arg(0))
	if flag.NArg() != 1 || err != nil || n < 0 {
		flag.Usage()
		os.Exit(2)
	}
	if _, err := dumpgen.Distinct(os.Stdout, n, *every); err != nil {
		fmt.Fprintln(os.Stderr, "distinct:", err)
		os.Exit(1)
	}
}
