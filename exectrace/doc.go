// Package exectrace reads Go execution traces (Go 1.22 and later) as
// streams and sums them up, in memory bounded by what it keeps, whatever
// the trace's length: the step of perflab's pipeline that perflab trace,
// perflab web's trace views and perflab investigate rest on.
//
// Read gives every event of a trace to Sinks in order, the reader
// decoding in its own goroutine; Analyze reads a file a generation per
// worker at once and gives the events to an Analyzer as one pass does.
// The Analyzer keeps aggregates: the time of goroutines by state and the
// stacks that entered each, scheduler latency, tasks and regions, the GC
// (cycles, pauses, its share of the Ps' time, and the minimum mutator
// utilization as go tool trace's MMU page computes it), and the profiles
// go tool trace -pprof writes. Its Summary prints as text with verdicts
// in plain words, or as JSON, and compares with another (WriteComparison).
//
// For timelines, ScanIndex finds each generation's bytes and times from
// the batch headers alone, so that a window of time is read without the
// rest (Index.ReadWindow); a Tiler aggregates a window into columns, an
// Overview reads the whole trace into them a generation per core, and a
// SpanCollector or SpanIndex keeps tasks and regions. Perfetto converts a
// trace for ui.perfetto.dev.
package exectrace
