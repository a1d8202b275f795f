// Package report computes pprof's text reports — top, peek, tree, traces,
// tags, raw and list — from a loaded profile, byte for byte as
// `go tool pprof` prints them, and a JSON form of top, peek and tree.
// Package shell runs them interactively.
//
// A report starts from the *profile.Profile that package profiles loads.
// Sample filters (-focus, -ignore, -hide, -show, -show_from, -tagfocus,
// -tagignore) are applied to that profile first; then it is turned once
// into a compact index: every distinct frame at the chosen granularity
// becomes an integer node ID and every location a short run of node IDs.
// Flat and cumulative values come from one pass over the samples' stacks
// (split between CPUs on large profiles), with a per-node stamp instead of
// a set per sample; call edges from a second pass that keeps only the
// edges the report can print, in an open-addressing table keyed by node
// pairs. No string is built or looked up per sample.
//
// Options mirrors pprof's flags and their defaults; Generate writes one
// report. Package settings is the one table of those settings — names,
// URL parameters, help, choices and shortcuts — from which flags, the
// shell's options and a web UI's URLs fill in an Options, as pprof keeps
// internal/driver apart from internal/report.
// Units (seconds, bytes, ...) are scaled and rounded as pprof does
// (internal/units). docs/compat.md lists the few intended differences.
//
// Disasm, pprof's -disasm, needs the profiled binary too: GenerateDisasm
// writes it byte for byte as pprof, decoding the machine code with package
// disasm. Disassemble returns the same report as data for other views: an
// Assembly holds each matching function (AsmFunc) with its instructions
// (AsmInst: address, text, file:line, its own flat and cum values and, with
// DisasmOptions.Inlines, the inlined call chain from the binary's DWARF);
// AsmFunc.Lines groups them by source line, with each line's sums, which is
// what a source view (pprof's weblist) expands a line into.
//
// ListSource is list as data for the web source view: the same functions,
// files, line ranges and per-line values, each function's values counting
// a sample once however deep it recurses (pprof's list and weblist add up
// lines or instructions instead), with the calls inlined on each line;
// Source.AddAssembly puts an Assembly's instructions under the lines they
// were generated for, through their inlined call chains.
package report
