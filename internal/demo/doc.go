// Package demo runs the Go blog's "Profiling Go Programs" case study for
// real: it profiles the naive Havlak loop finder of examples/havlak
// in-process, reads the profiles the way a performance engineer would (the
// top functions, the hottest function's annotated source, the biggest
// allocation sites, a verdict naming them), then runs the tuned loop finder
// and compares the two. perflab demo is its command.
//
// The reports are package report's, identical to go tool pprof's. The
// annotated listing needs the workload's source, which is compiled into
// the binary (havlak.Source), so the demo works from an installed perflab
// with no source tree.
package demo
