package main

var topCmd = &command{
	name:    "top",
	summary: "show the top entries of a profile, as pprof -top",
	usage:   "usage: perflab top (not yet implemented)\n",
	run:     notImplemented,
}

var listCmd = &command{
	name:    "list",
	summary: "annotated source of functions matching a regex, as pprof -list",
	usage:   "usage: perflab list (not yet implemented)\n",
	run:     notImplemented,
}

var peekCmd = &command{
	name:    "peek",
	summary: "callers and callees of matching functions, as pprof -peek",
	usage:   "usage: perflab peek (not yet implemented)\n",
	run:     notImplemented,
}

var treeCmd = &command{
	name:    "tree",
	summary: "call graph as text, as pprof -tree",
	usage:   "usage: perflab tree (not yet implemented)\n",
	run:     notImplemented,
}

var tracesCmd = &command{
	name:    "traces",
	summary: "every sample's stack, as pprof -traces",
	usage:   "usage: perflab traces (not yet implemented)\n",
	run:     notImplemented,
}

var tagsCmd = &command{
	name:    "tags",
	summary: "sample labels and their shares, as pprof -tags",
	usage:   "usage: perflab tags (not yet implemented)\n",
	run:     notImplemented,
}

var rawCmd = &command{
	name:    "raw",
	summary: "the profile's raw contents, as pprof -raw",
	usage:   "usage: perflab raw (not yet implemented)\n",
	run:     notImplemented,
}
