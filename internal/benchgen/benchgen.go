// Package benchgen writes synthetic inputs in the Go benchmark format for
// package bench's tests and benchmarks and for the hostile-input repros of
// scripts/hostile/bench, so that large inputs are made, not committed.
package benchgen

import (
	"bufio"
	"fmt"
	"io"
)

// ManyKeys writes results in the Go benchmark format to w until it has
// written at least size bytes, and returns how many results it wrote. Each
// result follows a configuration line with a key never seen before
// ("key1234: value"), and configuration keys hold until the end of a
// file, so result i carries i+1 keys and forms a configuration (a table)
// of its own: an input whose key-value pairs grow with the square of its
// size. Each result reports sec/op, B/op and allocs/op, as with -benchmem.
func ManyKeys(w io.Writer, size int) (int, error) {
	return write(w, size, "key%d: value\nBenchmarkX-8 \t 100 \t %d ns/op \t 16 B/op \t 1 allocs/op\n")
}

// ManyNames is like ManyKeys, but each result has a benchmark name key
// never seen before ("BenchmarkX/key1234=v-8") instead of a configuration
// key: a row of its own, in a single configuration.
func ManyNames(w io.Writer, size int) (int, error) {
	return write(w, size, "BenchmarkX/key%d=v-8 \t 100 \t %d ns/op \t 16 B/op \t 1 allocs/op\n")
}

// write writes format, given the result's number and a value in ns/op,
// until it has written size bytes, and returns how many results it wrote.
func write(w io.Writer, size int, format string) (int, error) {
	bw := bufio.NewWriter(w)
	n, written := 0, 0
	for written < size {
		m, err := fmt.Fprintf(bw, format, n, 100+n%7)
		if err != nil {
			return n, err
		}
		written += m
		n++
	}
	return n, bw.Flush()
}
