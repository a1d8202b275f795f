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

// UnitGaps explains the empty cells of a table: here the column of the
// benchmarks without a /n sub-name, with -col /n.
func ExampleTables_UnitGaps() {
	in := "pkg: example.com/p\n" + strings.Repeat("BenchmarkSum/n=10-8 1000 100 ns/op\nBenchmarkSum/n=100-8 1000 1000 ns/op\nBenchmarkLen-8 1000 5 ns/op\n", 2)
	cfg := bench.DefaultConfig()
	cfg.Col = "/n"
	b, err := bench.NewBuilder(cfg)
	if err != nil {
		panic(err)
	}
	b.Read(bench.Arg{Path: "run.txt", Label: "run.txt"}, strings.NewReader(in), func(error) {})
	for _, gap := range b.Tables().UnitGaps() {
		fmt.Println(gap)
	}
	// Output:
	// Sum-8: sec/op measured in 10, 100 but not in (benchmarks without /n)
	// Len-8: sec/op measured in (benchmarks without /n) but not in 10, 100
}
