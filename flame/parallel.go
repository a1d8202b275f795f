package flame

import "github.com/perflab/perflab/internal/parallel"

// parallelMin is the number of samples from which scans run in parallel.
var parallelMin = 50_000

// split divides n samples into ranges for parallel scans (parallel.Split).
func split(n int) [][2]int { return parallel.Split(n, parallelMin) }
