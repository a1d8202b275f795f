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
// # One answer, two backends: the canonical form
//
// Both backends keep profiles in one canonical form, and build the answer
// of a query back from it with the same code of this package, so that the
// same writes give byte-identical answers on both; store/storetest is the
// one suite both pass, and its Reference the executable specification.
//
// Split cuts a profile into content-addressed parts, each named by its
// Hash, a stable 64-bit SHA-256 prefix of a canonical encoding: Functions,
// Mappings, Locations (a mapping's Key and an address relative to the
// mapping's start, and lines), Stacks (location hashes, leaf first) and
// LabelSets; and its samples into a Header and Samples (stack hash, label
// set hash, values). What tells two parts apart is what tells them apart
// in google/pprof's profile.Merge, so consecutive profiles of a service
// share most of their parts, even from processes that loaded the binary at
// other addresses. Each part and Header has one canonical encoding (Encode,
// and DecodeFunction and the like, which refuse anything else), the bytes
// its Hash is computed from, which a store may keep as it is.
//
// A query adds up the MergedHeaders of the profiles it picks (an
// associative, commutative sum, so rollups of time ranges can be kept),
// adds up their samples by stack and label set in the layout that
// MergedHeader.Columns gives, and hands both to Compose with a PartReader
// that finds the parts. Compose numbers everything in an order that
// depends only on content: the answer's bytes depend only on the multiset
// of profiles picked. ProfileID names a stored profile alike on every
// backend; Selection.Picks, BucketStart and Location.MatchesFocus are the
// rules of selections, Totals buckets and Totals' Focus.
package store
