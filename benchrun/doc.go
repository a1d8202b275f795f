// Package benchrun runs Go benchmarks to produce the results that package
// bench compares, and compares the profiles those runs record.
//
// It is the "run" half of perflab's compare step ("perflab bench run").
// Run compiles the test binaries of the packages on the working tree and,
// with a base git revision, on that revision checked out in a temporary
// worktree, then runs each binary once at a time, alternating the old and
// the new side, so that drift in the machine's speed hits both alike:
//
//	Config ─► Run ─► Result{Old, New *Side} ─► result files for bench.Builder.Read
//	                                      └──► profiles ─► FlatShares ─► CompareShares ─► WriteShareChanges
//
// FlatShares turns a profile into each function's share of its flat value,
// and CompareShares lists the functions whose share changed most between
// the two sides: where a regression went, beside bench's verdict on how
// large it is.
//
// Package bench holds the parsing, statistics, comparison and CI gates;
// benchrun only produces their inputs.
package benchrun
