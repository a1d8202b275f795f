package flame

import (
	"runtime"
	"sync"
)

// parallelMin is the number of samples from which scans run in parallel.
var parallelMin = 50_000

// split divides n samples into ranges for parallel scans: one range for
// small profiles, else one per CPU (at most 8).
func split(n int) [][2]int {
	k := min(runtime.GOMAXPROCS(0), 8)
	if n < parallelMin || k < 2 {
		return [][2]int{{0, n}}
	}
	parts := make([][2]int, k)
	for i := range parts {
		parts[i] = [2]int{i * n / k, (i + 1) * n / k}
	}
	return parts
}

// parallel runs f on every range, concurrently when there are several.
func parallel(parts [][2]int, f func(k, lo, hi int)) {
	if len(parts) == 1 {
		f(0, parts[0][0], parts[0][1])
		return
	}
	var wg sync.WaitGroup
	for k, r := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(k, r[0], r[1])
		}()
	}
	wg.Wait()
}
