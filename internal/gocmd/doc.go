// Package gocmd runs the go command: every go list, go build, go test -c
// and go env that perflab starts goes through Cmd.
//
// A run has an Origin. Builds the user asked for on the command line
// (perflab gc -- go test ./pkg, perflab bench run) are User runs: the go
// command gets the user's environment, GOFLAGS, proxy and toolchain
// settings, as if the user had typed it.
//
// Builds that input triggers are Input runs: perflab escapes, list
// -compiler and the viewer's compiler notes build the packages that hold
// the source files a profile names, and a profile can come from anyone.
// The go command then runs with
//
//   - GOFLAGS=-mod=readonly -buildvcs=false (-mod=vendor in a module with
//     vendor/modules.txt): go.mod is never rewritten and no version control
//     command runs, so git hooks such as core.fsmonitor configured in the
//     named directory's repository do not run;
//   - GOTOOLCHAIN=local: a go or toolchain line in go.mod never makes the
//     go command download and run another toolchain;
//   - GOPROXY=off: import paths the profile names are never looked up on a
//     module proxy;
//   - an environment reduced to the variables in KeptEnv (the search path,
//     home and temporary directories, the go command's own settings): no
//     PERFLAB_TOKEN, cloud credentials or other secrets reach it or the
//     programs it starts;
//   - at most MaxInputRuns such go commands at once in the process; others
//     wait for a slot (or for their context to end).
package gocmd
