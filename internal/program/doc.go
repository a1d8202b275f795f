// Package program owns the program under observation, the "-- PROGRAM
// ARGS" of perflab gc, sched, trace, goroutines and investigate, and the
// test binaries of bench run: one place that reads the command line (a
// binary, or "go test ..."/"go run ..." built first through the one go
// command wrapper, so that the go command's own runtime stays out of the
// traces), sets the environment (GODEBUG merged with the program's own,
// GOTRACEBACK, PERFLAB_PROFILE), starts the program in a process group of
// its own, passes signals on, stops it with one policy and maps its exit
// status one way.
//
// The stop policy covers the whole process group, not only the program
// perflab started: a stop signal (SIGINT on Ctrl-C, SIGTERM at the end of
// an investigation) goes to the group, the group has Config.Grace to end,
// then the group gets SIGKILL. When the program exits by itself while
// children it started are still in its group, they get the same
// treatment, so that nothing is left running: not a child that ignores
// SIGTERM, not a forked sleep. On Linux the program also gets SIGKILL if
// perflab dies first. The exit status is the program's, or 128 plus the
// number of the signal that ended it, as a shell reports it.
//
// Process groups are Unix's: elsewhere (Windows) the program alone is
// stopped, by killing it.
package program
