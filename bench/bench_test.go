package bench

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/perflab/perflab/internal/benchgen"
)

// writeSynthetic writes a benchmark file of nbench benchmarks, each run
// count times with four units, with values drawn from a seeded generator:
// a large input for measuring speed (tests use real benchmark runs).
func writeSynthetic(w io.Writer, seed uint64, nbench, count int) {
	r := rand.New(rand.NewPCG(seed, 1))
	fmt.Fprintf(w, "goos: linux\ngoarch: amd64\npkg: example.com/synthetic\n")
	for i := range count {
		for b := range nbench {
			base := float64(100 + b*37%1000)
			fmt.Fprintf(w, "BenchmarkF%d/size=%d-8 \t %d \t %.1f ns/op \t %.2f MB/s \t %d B/op \t %d allocs/op\n",
				b/4, b%4, 1000+i, base*(1+0.05*r.Float64()), 1e4/base, b%7*16, b%3)
		}
	}
}

// BenchmarkCompare measures reading two files of 400 benchmarks x 20 runs
// and printing benchstat's text tables.
func BenchmarkCompare(b *testing.B) {
	var old, new bytes.Buffer
	writeSynthetic(&old, 1, 400, 20)
	writeSynthetic(&new, 2, 400, 20)
	b.SetBytes(int64(old.Len() + new.Len()))
	for b.Loop() {
		bld, err := NewBuilder(DefaultConfig())
		if err != nil {
			b.Fatal(err)
		}
		bld.Read(Arg{Path: "old", Label: "old"}, bytes.NewReader(old.Bytes()), func(error) {})
		bld.Read(Arg{Path: "new", Label: "new"}, bytes.NewReader(new.Bytes()), func(error) {})
		if err := bld.Tables().WriteText(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWriteSyntheticFiles writes the synthetic inputs of BenchmarkCompare
// to $BENCH_SYNTHETIC_DIR, for timing perflab against benchstat by hand
// (see the report in docs/bench.md). It does nothing otherwise.
func TestWriteSyntheticFiles(t *testing.T) {
	dir := os.Getenv("BENCH_SYNTHETIC_DIR")
	if dir == "" {
		t.Skip("BENCH_SYNTHETIC_DIR not set")
	}
	for i, name := range []string{"old.txt", "new.txt"} {
		var buf bytes.Buffer
		writeSynthetic(&buf, uint64(i+1), 400, 20)
		if err := os.WriteFile(dir+"/"+name, buf.Bytes(), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkCompareManyKeys measures bench compare's whole pipeline on
// inputs of sizes that double, with a key never seen before in every
// result: a benchmark name key (benchgen.ManyNames), which costs linear
// time and memory, and a configuration key (benchgen.ManyKeys), which
// costs x/perf's benchproc time and memory in keys × results, the square
// of the size, until the key budget refuses the input (past about 70 KB):
// from there the cost per byte stops growing, and the time stays flat,
// since reading stops at the limit. Before the budget and the fix of
// tableName, the 160 KB configuration input took 2 s and 2 GB.
func BenchmarkCompareManyKeys(b *testing.B) {
	shapes := []struct {
		name string
		gen  func(io.Writer, int) (int, error)
	}{{"names", benchgen.ManyNames}, {"config", benchgen.ManyKeys}}
	for _, shape := range shapes {
		for _, size := range []int{20_000, 40_000, 80_000, 160_000, 320_000, 640_000} {
			var in bytes.Buffer
			if _, err := shape.gen(&in, size); err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/bytes=%d", shape.name, size), func(b *testing.B) {
				b.SetBytes(int64(in.Len()))
				b.ReportAllocs()
				for b.Loop() {
					compareAll(b, in.Bytes())
				}
			})
		}
	}
}

// compareAll runs what bench compare does on one input: read it, compute
// the tables, write them as text and look for unit gaps.
func compareAll(b *testing.B, in []byte) {
	bld, err := NewBuilder(DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	if err := bld.Read(Arg{Path: "many", Label: "many"}, bytes.NewReader(in), func(error) {}); err != nil {
		return
	}
	ts := bld.Tables()
	if err := ts.WriteText(io.Discard); err != nil {
		b.Fatal(err)
	}
	ts.UnitGaps()
}
