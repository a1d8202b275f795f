// Package querier answers Grafana Pyroscope's query API
// (querier.v1.QuerierService) from a store.Reader: the read half of the
// fleet's wire APIs, beside package ingest's write half, so that Grafana's
// Pyroscope data source and Pyroscope's own clients read a perflab server
// as they read Pyroscope.
//
// Service implements the API's methods over the connect, gRPC and
// gRPC-Web protocols (Handler), with the types and handlers of the
// Apache-2.0 module github.com/grafana/pyroscope/api:
//
//   - ProfileTypes, LabelNames, LabelValues and Series list what the store
//     holds; the matchers of a request are label selectors in Prometheus
//     syntax, and a series is listed when any of them picks it.
//   - SelectMergeStacktraces merges the selection's profiles (one
//     Reader.Merge) and answers with a flame graph, Pyroscope's tree
//     format, or the pprof profile. SelectMergeProfile answers with the
//     pprof profile, whole: every sample type, lines, inlined frames,
//     mappings and labels. Diff answers with the flame graphs of two
//     selections aligned node by node.
//   - SelectSeries answers with the selection's total over time, from
//     Reader.Totals (or, to average, from Reader.Profiles).
//   - GetProfileStats tells whether the store holds profiles, and their
//     range of times.
//
// Every series has, besides its own labels, the label Pyroscope gives it:
// __profile_type__, the ID of a profile type (LabelProfileType). perflab's
// store keeps types apart from labels, so the querier makes it up: a
// matcher on it selects profile types in every method, Series lists a
// series for each of a series' types, and LabelNames and LabelValues list
// it, as Grafana's profiles apps expect.
//
// # Flame graphs
//
// A flame graph is built as Pyroscope builds it: the samples of the
// selection's sample type are merged by function name, stack by stack
// (an inlined call is a frame of its own), into a tree whose children are
// sorted by name; the nodes whose total is below the max_nodes-th largest
// total are folded into a node named "other" under their parent (8,192
// nodes by default, as Pyroscope's default max_flamegraph_nodes_default);
// and the tree is laid out in levels of four values per node (x offset,
// total, self, name index), the x offsets delta-encoded, the names listed
// once with "total", the root's, first. Grafana's flame graph panel draws
// that format.
//
// # Differences from Pyroscope
//
// A time of 0 (start or end) is no bound, rather than an error. The
// points of SelectSeries are at the start of buckets aligned to the step
// since the epoch, where Pyroscope puts them at the end of steps counted
// from the request's start. Profile, trace and span selectors, Go PGO
// stack trace selectors, asynchronous queries, the DOT format, heatmaps
// and query analysis are answered with the code Unimplemented: perflab's
// store keeps no span or trace IDs, and perflab pgo writes PGO profiles.
package querier
