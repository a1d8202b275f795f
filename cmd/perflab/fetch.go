package main

var fetchCmd = &command{
	name:    "fetch",
	summary: "fetch a profile from a URL and save it",
	usage:   "usage: perflab fetch (not yet implemented)\n",
	run:     notImplemented,
}
