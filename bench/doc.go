// Package bench compares Go benchmark results.
//
// It is perflab's "compare" step. Results in the Go benchmark format
// (https://golang.org/design/14313-benchmark-format), such as the output of
// "go test -bench", are read with golang.org/x/perf/benchfmt, grouped into
// tables, rows and columns with golang.org/x/perf/benchproc, and summarized
// with golang.org/x/perf/benchmath: a median with its confidence interval
// per cell and a Mann-Whitney U-test of each column against the first.
//
// The pipeline is:
//
//	Arg (file or label=file) ─► Builder.Read ─► Builder.Tables ─► Tables
//	                                                              │
//	      WriteText (benchstat's text), WriteCSV (benchstat's csv),
//	      WriteOld (benchcmp's tables), WriteJSON,
//	      Gate.CheckUnits and Gate.Check (CI limits)
//
// Read refuses, with a *KeysError, inputs whose configuration keys would
// cost benchproc time and memory beyond a multiple of their size (keys ×
// results, as when each result follows a new "key: value" line).
//
// WriteText and WriteCSV produce the same bytes as benchstat
// (golang.org/x/perf/cmd/benchstat) for the same inputs and options.
//
// Running benchmarks to produce such results, and comparing the profiles
// those runs record, is package benchrun's part.
package bench
