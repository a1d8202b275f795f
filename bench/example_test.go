package bench_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/perflab/perflab/bench"
)

// Compare two runs of a benchmark, print benchstat's table and check a CI
// limit.
func Example() {
	old := "pkg: example.com/p\n" + strings.Repeat("BenchmarkEncode-8 1000 1500 ns/op\nBenchmarkEncode-8 1000 1520 ns/op\n", 3)
	new := "pkg: example.com/p\n" + strings.Repeat("BenchmarkEncode-8 1000 1700 ns/op\nBenchmarkEncode-8 1000 1690 ns/op\n", 3)

	b, err := bench.NewBuilder(bench.DefaultConfig())
	if err != nil {
		panic(err)
	}
	warn := func(err error) { fmt.Println("warning:", err) }
	b.Read(bench.Arg{Path: "old.txt", Label: "old.txt"}, strings.NewReader(old), warn)
	b.Read(bench.Arg{Path: "new.txt", Label: "new.txt"}, strings.NewReader(new), warn)
	tables := b.Tables()
	tables.WriteText(os.Stdout)

	gate, _ := bench.ParseGate("sec/op>+5%")
	for _, v := range gate.Check(tables) {
		fmt.Println(v)
	}
	// Output:
	// pkg: example.com/p
	//          │   old.txt   │              new.txt               │
	//          │   sec/op    │   sec/op     vs base               │
	// Encode-8   1.510µ ± 1%   1.695µ ± 0%  +12.25% (p=0.002 n=6)
	// Encode-8: sec/op +12.25% (1.510µ -> 1.695µ, p=0.002 n=6, new.txt vs old.txt) crosses -fail-on sec/op>+5%
}
