// Package profiles loads Go profiles from files and URLs, the first step
// of perflab's analysis pipeline: every report perflab prints starts from
// the *profile.Profile that Load returns, and that profile is the one
// "go tool pprof" would report on for the same command line.
//
// # Sources
//
// A source is a file, "-" for standard input, a URL such as
// http://host:port/debug/pprof/heap, or a bare host:port meaning
// http://host:port/debug/pprof/profile (ReadSource, SourceURL). Files and
// responses may hold profile.proto, gzipped or not, or a legacy format:
// Go's debug=1 text for heap, allocs, block, mutex, goroutine and
// threadcreate profiles, the Go compiler's -memprofile output, and the
// legacy binary CPU format. A source may also be whatever Options.Resolve
// claims: perflab's commands resolve selections of a store that way.
//
// # Steps
//
// ParseData reads a source in three steps, each bounded or replaceable on
// its own: the raw bytes are read once (at most Options.MaxBytes), gzip is
// inflated (at most Options.MaxBytes, so a gzip bomb is an error), and the
// uncompressed bytes are decoded. Load then follows pprof's driver: a
// profile without mappings gets an empty one; an executable given first
// symbolizes the others (Symbolize); sources are merged (Merge); a base is
// subtracted (ApplyBase, for -base and -diff_base); addresses are
// symbolized from local binaries; function names are simplified as pprof
// displays them (demangleNames); and frames the profile marks as
// uninteresting are pruned.
//
// # Errors
//
// Every error is one line that names the source and the cause: "heap.txt:
// not a profile: ...", "http://host/debug/pprof/profile: server returned
// 500 Internal Server Error: ...". Hostile input (truncated, corrupt,
// inconsistent, oversized) yields such an error, never a panic.
package profiles
