package flame

// SetParallelMin sets the number of samples from which scans run in
// parallel and returns a function restoring it, so that tests of small
// profiles cover the parallel paths.
func SetParallelMin(n int) (restore func()) {
	old := parallelMin
	parallelMin = n
	return func() { parallelMin = old }
}
