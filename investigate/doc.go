// Package investigate is perflab's "investigate" step, the one command
// behind perflab investigate: it does the whole manual loop of profiling a server
// at once and reports it in one place.
//
// Run starts the program with GODEBUG=gctrace=1 in its own process group
// (its output goes to program.log), waits until the first URL answers,
// warms it up, then loads each URL in turn with package loadgen. While the
// measured load runs it takes from the program's /debug/pprof/ a CPU
// profile of the window, allocs, heap, block and mutex profiles at the
// start and the end (their deltas are the window's), goroutines at both
// ends and a short execution trace, and reads the gctrace lines of its
// standard error with package godebug. Then it stops the program (SIGTERM,
// SIGKILL after a grace period) and writes every artefact as it came,
// report.json, report.txt and a self-contained report.html.
//
// The report joins the steps' numbers: throughput and latency (one HDR
// histogram over all responses, from each request's intended send time at
// a fixed rate, -q, from its send time in a closed loop), each URL's
// rounds, CPU top (package report's, as go tool pprof prints it),
// allocation sites (the first frame of the program's own code on each
// allocating stack, with the library function it called), bytes and
// objects allocated per request, GC cycles per 1000 requests and their
// CPU, pauses, the live heap's trend, goroutine groups, and findings
// ranked by the share of the program's cost they stand for.
//
// With a base run, the measured load's rounds are compared with package
// bench's statistics, so a change in throughput or latency comes with its
// p-value, beside the changes in allocations and GC.
//
// The report page embeds package flame's flame graph of the CPU profile
// and, with a base run, the differential flame graph of the two, and the
// execution trace's timeline drawn by package timeline's timeline.js.
package investigate
