package main

var loadCmd = &command{
	name:    "load",
	summary: "put HTTP load on a server (hey's flags, honest latencies)",
	usage:   "usage: perflab load (not yet implemented)\n",
	run:     notImplemented,
}
