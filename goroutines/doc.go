// Package goroutines reads goroutine stacks as Go programs print them and
// groups them, for "perflab goroutines".
//
// A Scanner streams goroutines out of any text the runtime writes: a
// panic, a fatal error (a deadlock, concurrent map writes), a SIGQUIT
// dump, GOTRACEBACK=all, system or crash output (registers, goroutine 0,
// runtime frames), runtime.Stack and /debug/pprof/goroutine?debug=2 text,
// and debug=1 goroutine profiles, in the formats of Go 1.17 to 1.27
// (argument braces, "?" marks, "...N frames elided...", "created by ... in
// goroutine N", "gp=... m=... mp=..." headers, labels in headers), and the
// race detector's reports (Scanner.Race). Log lines in between are
// skipped. An input may hold several dumps (Scanner.Snapshot). Its memory
// is bounded by a line and a goroutine, whatever the input's size.
//
// Read feeds a source, text or binary goroutine profile, into a Dump,
// which groups goroutines by frames (function, file and line; argument
// values, pointers and ids aside), state and creator, race reports by the
// locations of their two accesses, and keeps each further dump of the
// input apart (Dump.Snapshots). Dump.Compare
// compares it with an earlier dump, Dump.Leaks reports the groups that
// grew or have waited long, Dump.MarkLeaked applies the runtime's
// goroutineleak profile. WriteText, WriteJSON and WriteHTML render it;
// DecodeArgs reads a frame's argument words given the function's
// parameters (ParamsFromBinary, ParamsFromSource).
package goroutines
