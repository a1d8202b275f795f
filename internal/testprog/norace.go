//go:build !race

package testprog

// Race reports whether the test binary runs under the race detector, whose
// runtime allocates more: allocation-count checks skip themselves then.
const Race = false
