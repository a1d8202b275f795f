package main

var benchCmd = &command{
	name:    "bench",
	summary: "compare Go benchmark results (benchstat) and run benchmarks",
	usage:   "usage: perflab bench (not yet implemented)\n",
	run:     notImplemented,
}
