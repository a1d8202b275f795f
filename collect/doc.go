// Package collect writes profiles of the running Go program: the first step
// of perflab's pipeline, before package profiles loads what it wrote.
//
// A standalone program collects any set of profiles at once, each into its
// own file in one directory:
//
//	defer collect.Start(collect.Profiles(collect.CPU, collect.Heap, collect.Wall), collect.Dir("prof")).Stop()
//
// The kinds are the runtime's own (cpu, heap, allocs, goroutine, block,
// mutex, threadcreate), the execution trace, and a wall-clock profile that
// samples every goroutine about 100 times a second whether it runs or
// waits, so time spent blocked in I/O, locks or sleeps shows next to CPU
// time. Files are written to a temporary name and renamed when complete, so
// a file under its final name is always a whole profile; SIGINT and SIGTERM
// flush the files before the process dies of the signal.
//
// Flags registers go test's -cpuprofile, -memprofile, -memprofilerate,
// -blockprofile, -mutexprofile and -trace flags on a FlagSet, and
// PERFLAB_PROFILE / PERFLAB_PROFILE_DIR switch collection on in a program
// that can only be relaunched, not edited:
//
//	PERFLAB_PROFILE=cpu,heap PERFLAB_PROFILE_DIR=out ./server
//
// Handler serves the /debug/pprof/ tree of net/http/pprof, /debug/vars,
// runtime/metrics as JSON and a flight-recorder snapshot of the last seconds
// of execution trace; ListenAndServe puts it on its own listener bound to
// 127.0.0.1, optionally behind a bearer token.
package collect
