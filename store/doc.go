// Package store is where perflab server keeps a fleet's profiles, and how
// every command asks for them back: the Store interface that both backends
// implement (store/dirstore, a directory; store/clickhouse, a ClickHouse
// server or cluster), and the Selection every query takes.
//
// # The model
//
// A series is a stream of profiles from one source, named by its Labels:
// __name__ is the profile's kind as Grafana Pyroscope names it
// (process_cpu, memory, goroutines, mutex, block, wall), service_name the
// service, and any others (instance, version, region, ...) what the
// scraper or the pushing program adds. Each profile of a series is a whole
// pprof profile, with every sample type it has (a CPU profile's samples and
// nanoseconds, a heap profile's four), its symbols, and the pprof labels of
// its samples.
//
// A Selection picks profiles: a ProfileType (Pyroscope's profile type ID,
// such as process_cpu:cpu:nanoseconds:cpu:nanoseconds, or a short kind such
// as cpu, allocs or heap), a label Selector in Prometheus syntax
// ({service_name="api", version=~"1\\.4.*"}) and a time range [Start, End).
// Its answer is the merge of the selected profiles (Reader.Merge), with the
// semantics of google/pprof's profile.Merge: samples with the same stack
// and pprof labels are summed, every sample type is kept, and so are
// functions, file names, lines, start lines, inlined frames, mappings and
// build IDs. From there the rest of perflab (reports, the viewer, PGO) sees
// an ordinary profile: the store never re-implements a report.
//
// # One answer, two backends
//
// Both backends split a profile into content-addressed symbols and stacks
// and samples that refer to them, and build the answer of a query back
// from aggregated samples with the same code of this package, so that the
// same writes give byte-identical answers on both; store/storetest is the
// one suite both pass.
package store
