package exectrace

import "io"

// ReadInline is Read with the sinks in the reading goroutine, for the fuzz
// targets: a pipeline's goroutines and channels cost more than a small
// input's events, and are the same whatever the input.
func ReadInline(r io.Reader, sinks ...Sink) (Info, error) { return read(r, false, sinks) }

// ReadGenerationsInline is ReadGenerations with the sinks in the reading
// goroutine.
func (ix *Index) ReadGenerationsInline(r io.ReaderAt, from, to int, sinks ...Sink) (int64, error) {
	return ix.readGenerations(r, from, to, false, sinks)
}

// NearOneP is how near one P the program's busy Ps must be for the
// verdict "one goroutine at a time".
const NearOneP = nearOneP
