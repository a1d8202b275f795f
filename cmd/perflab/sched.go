package main

var schedCmd = &command{
	name:    "sched",
	summary: "summarise GODEBUG=schedtrace output, or run a program under it",
	usage:   "usage: perflab sched (not yet implemented)\n",
	run:     notImplemented,
}
