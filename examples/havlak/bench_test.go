package havlak

import (
	"sync"
	"testing"
)

var benchCFG = sync.OnceValue(BuildBenchmarkCFG)

// BenchmarkFindLoops measures one loop-finding run over the benchmark
// graph, the unit the benchmark repeats 50 times.
func BenchmarkFindLoops(b *testing.B) {
	cfg := benchCFG()
	b.Run("naive", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if n := FindHavlakLoops(cfg, NewLSG()); n != Loops {
				b.Fatalf("found %d loops, want %d", n, Loops)
			}
		}
	})
	b.Run("tuned", func(b *testing.B) {
		f, g := NewLoopFinder(), NewLoopGraph()
		b.ReportAllocs()
		for b.Loop() {
			if n := f.FindHavlakLoops(cfg, g); n != Loops {
				b.Fatalf("found %d loops, want %d", n, Loops)
			}
		}
	})
}

// BenchmarkRun measures the whole benchmark with 5 repetitions instead of
// 50, graph construction included.
func BenchmarkRun(b *testing.B) {
	for _, v := range []Variant{Naive, Tuned} {
		b.Run(v.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Run(v, 5, nil)
			}
		})
	}
}
