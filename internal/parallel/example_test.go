package parallel_test

import (
	"fmt"

	"github.com/perflab/perflab/internal/parallel"
)

func ExampleRun() {
	values := make([]int, 100_000)
	for i := range values {
		values[i] = i % 10
	}
	parts := parallel.Split(len(values), 50_000)
	sums := make([]int, len(parts))
	parallel.Run(parts, func(k, lo, hi int) {
		for _, v := range values[lo:hi] {
			sums[k] += v
		}
	})
	total := 0
	for _, s := range sums {
		total += s
	}
	fmt.Println(total)
	// Output: 450000
}
