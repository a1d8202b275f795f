// Package compilenotes reads the Go compiler's decisions — escape
// analysis, inlining, bounds checks, large copies — and joins them to
// heap profiles.
//
// Build compiles packages with `go build -gcflags='-json=0,DIR -m'`, all
// output in a temporary directory, and indexes the notes by file and
// line (Notes.At). The notes come from two outputs of the compiler:
// the JSON diagnostics of cmd/compile/internal/logopt (ParseJSON: one
// file per source file, a version-0 header line, then one LSP diagnostic a
// line), which give each escape with its flow, the reasons functions
// cannot be inlined, bounds checks kept and large copies; and the -m text
// (ParseText), which alone says "moved to heap: x" and "inlining call
// to F". Each note keeps the compiler's own wording.
//
// Analyze charges each sample of a heap or allocs profile to the
// innermost frame in the user's code, builds those lines' packages, and
// gives every allocation site its line's reasons and one of the
// Categories (address taken, interface, unknown size, too large, closure,
// append, conversion, allocated by a callee, other), each with a hint.
// perflab escapes prints the result; perflab list -compiler shows the
// notes beside the source.
package compilenotes
