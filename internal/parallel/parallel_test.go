package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

func TestSplitCoversEveryItemOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 99, 100, 1001} {
		parts := Split(n, 100)
		if n < 100 && len(parts) != 1 {
			t.Errorf("Split(%d, 100) = %d ranges, want 1 below the minimum", n, len(parts))
		}
		var seen atomic.Int64
		hits := make([]atomic.Int32, n)
		Run(parts, func(k, lo, hi int) {
			if parts[k] != [2]int{lo, hi} {
				t.Errorf("range %d is %v, called with [%d, %d)", k, parts[k], lo, hi)
			}
			for i := lo; i < hi; i++ {
				hits[i].Add(1)
				seen.Add(1)
			}
		})
		if seen.Load() != int64(n) {
			t.Errorf("n=%d: %d items scanned", n, seen.Load())
		}
		for i := range hits {
			if hits[i].Load() != 1 {
				t.Fatalf("n=%d: item %d scanned %d times", n, i, hits[i].Load())
			}
		}
		if want := min(runtime.GOMAXPROCS(0), 8); n >= 100 && want >= 2 && len(parts) != want {
			t.Errorf("Split(%d, 100) = %d ranges, want %d", n, len(parts), want)
		}
	}
}
