package shapes

import (
	"fmt"
	"os"
	"testing"
)

var slow = os.Getenv("BENCH_SLOW") == "1"

var sink []byte

func sum(xs []byte) int {
	n := 0
	for _, x := range xs {
		n += int(x)
	}
	if slow {
		// About ten times slower: a slowdown that noise on a loaded
		// machine cannot hide from benchstat in six runs (with one extra
		// pass, twice slower, it did once: TestBenchCompare/FailOn).
		for range 9 {
			for _, x := range xs {
				n ^= int(x) * 3
			}
		}
	}
	return n
}

func BenchmarkSum(b *testing.B) {
	for _, n := range []int{64, 4096} {
		xs := make([]byte, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for i := 0; i < b.N; i++ {
				sum(xs)
			}
		})
	}
}

func BenchmarkAlloc(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sink = make([]byte, 100)
		if slow {
			sink = make([]byte, 300)
		}
	}
}

func BenchmarkCustom(b *testing.B) {
	items := 0
	for i := 0; i < b.N; i++ {
		items += 3
	}
	b.ReportMetric(float64(items)/float64(b.N), "widgets/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(items), "ns/item")
}
