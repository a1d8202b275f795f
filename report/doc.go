// Package report computes pprof's text reports — top, peek, tree, traces,
// tags, raw and list — from a loaded profile, byte for byte as
// `go tool pprof` prints them, and a JSON form of top, peek and tree.
//
// A report starts from the *profile.Profile that package profiles loads.
// Sample filters (-focus, -ignore, -hide, -show, -show_from, -tagfocus,
// -tagignore) are applied to that profile first; then the profile is turned
// once into a compact index: every distinct frame at the chosen granularity
// becomes an integer node ID, every location a short run of node IDs, and
// every sample a run of location indexes. Flat and cumulative values, call
// edges, trimming and sorting are all computed over those integer arrays, so
// the work is proportional to samples x stack depth with no string handling
// per sample.
//
// Options mirrors pprof's flags and their defaults; Generate writes one
// report. Package measurement-style unit scaling (seconds, bytes, ...) is
// implemented in units.go with pprof's rounding and unit choice.
package report
