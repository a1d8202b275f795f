package main

var shellCmd = &command{
	name:    "shell",
	summary: "pprof's interactive shell on a profile",
	usage:   "usage: perflab shell (not yet implemented)\n",
	run:     notImplemented,
}
