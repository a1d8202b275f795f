// Package fleetgen generates the profiles of a fleet of Go service
// instances, as perflab server receives them, for the store's tests and
// benchmarks (scripts/bench-store): no big profile is ever checked in.
//
// A Fleet is one service: a program of a few hundred functions in the
// packages a Go server has (net/http, the service's own, encoding/json,
// database/sql, sync, runtime, ...), with start lines, call sites on
// lines of their own, inlined frames, and a Go binary's mapping with a
// build ID; a few thousand distinct call stacks through it, deep and
// skewed (a few hot, most rare). Each instance writes a profile of each
// kind every Interval: a 10-second CPU profile samples the stacks with a
// mix that drifts slowly over time, so consecutive profiles share most of
// their stacks, as real ones do; heap (four sample types, with the bytes
// label the runtime puts), goroutine, mutex and block profiles use the
// same stacks. Some samples carry pprof labels. Instances are named by
// the instance label and may load the binary at different addresses
// (PIE); a new version (a version label, another build ID, code moved)
// rolls out every VersionEvery profiles.
//
// Everything is a deterministic function of the Config: the same seed
// gives the same profiles, and their encoding (profile.Write, gzipped as
// the Go runtime writes them) the same bytes.
package fleetgen
