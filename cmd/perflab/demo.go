package main

var demoCmd = &command{
	name:    "demo",
	summary: "profile and fix the Havlak loop finder, end to end",
	usage:   "usage: perflab demo (not yet implemented)\n",
	run:     notImplemented,
}
