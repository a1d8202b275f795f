// Package parallel splits scans over many samples between goroutines,
// one range of samples per CPU, for package report's indexes and package
// flame's trees.
package parallel

import (
	"runtime"
	"sync"
)

// Split divides n items into ranges for a parallel scan: one range when
// n is below min (a small profile, where goroutines cost more than they
// save) or there is one CPU, else one range per CPU, at most 8.
func Split(n, min int) [][2]int {
	k := runtime.GOMAXPROCS(0)
	if k > 8 {
		k = 8
	}
	if n < min || k < 2 {
		return [][2]int{{0, n}}
	}
	parts := make([][2]int, k)
	for i := range parts {
		parts[i] = [2]int{i * n / k, (i + 1) * n / k}
	}
	return parts
}

// Run calls f on every range, concurrently when there are several, and
// returns when all calls have; k is the range's index in parts.
func Run(parts [][2]int, f func(k, lo, hi int)) {
	if len(parts) == 1 {
		f(0, parts[0][0], parts[0][1])
		return
	}
	var wg sync.WaitGroup
	for k, r := range parts {
		wg.Go(func() { f(k, r[0], r[1]) })
	}
	wg.Wait()
}
