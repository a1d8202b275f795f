// Command manykeys writes benchgen.ManyKeys's input of at least SIZE bytes
// to standard output, for scripts/hostile/bench:
//
//	go run ./bench/internal/benchgen/manykeys 340000 > many.txt
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/perflab/perflab/bench/internal/benchgen"
)

func main() {
	size, err := 0, error(nil)
	if len(os.Args) == 2 {
		size, err = strconv.Atoi(os.Args[1])
	}
	if len(os.Args) != 2 || err != nil || size < 0 {
		fmt.Fprintln(os.Stderr, "usage: manykeys SIZE")
		os.Exit(2)
	}
	if _, err := benchgen.ManyKeys(os.Stdout, size); err != nil {
		fmt.Fprintln(os.Stderr, "manykeys:", err)
		os.Exit(1)
	}
}
