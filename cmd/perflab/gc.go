package main

var gcCmd = &command{
	name:    "gc",
	summary: "summarise GODEBUG=gctrace output, or run a program under it",
	usage:   "usage: perflab gc (not yet implemented)\n",
	run:     notImplemented,
}
