// Package elvis is the stream-rewriting case study from Ardan Labs'
// Ultimate Go profiling notes: in a stream of bytes, every lower-case
// "elvis" must become "Elvis".
//
// It is solved two ways so that benchmarks with -benchmem and memory
// profiles have something to compare. [ReplaceReader] is the
// straightforward solution: it reads the stream through a bufio.Reader and
// slides a window the size of the word across it, which costs a few heap
// allocations per call. [ReplaceScan] scans an in-memory slice with
// bytes.Index and copies runs of untouched bytes at once; once its output
// buffer has grown it allocates nothing.
//
// Both replace the leftmost non-overlapping matches, as bytes.ReplaceAll
// does, so "elvielviselvis" becomes "elviElvisElvis".
package elvis
