// Package profgen generates large, realistic Go CPU profiles for
// benchmarks, so that no big profile is ever checked in.
//
// A generated profile looks like what runtime/pprof writes for a busy Go
// server: sample types samples/count and cpu/nanoseconds, a 10 ms period,
// stacks rooted at runtime.goexit that descend through application
// packages (github.com/acme/...) into the standard library, inlined frames
// (locations with several lines), and pprof labels on some samples. Every
// figure (samples, locations, functions, maximum depth) is set by a Config,
// and the output is a deterministic function of the Config: the same seed
// gives the same bytes.
//
// Function file names are absolute paths under Config.SourceRoot, and
// WriteSources writes matching Go source files there, so that
// "go tool pprof -list" and "perflab list" find real source lines for every
// generated function.
package profgen
