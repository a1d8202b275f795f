// Package stores opens a store from the one string every fleet command
// takes as -store (or $PERFLAB_STORE): the one place that knows every
// kind of store.
//
//   - a directory: the embedded store (store/dirstore), the default of
//     perflab server (./perflab-data);
//   - clickhouse://HOST:PORT[,HOST:PORT...]/DATABASE[?cluster=NAME&...]:
//     a ClickHouse server or cluster (store/clickhouse);
//   - http://HOST:PORT or https://...: a running perflab server, read
//     through its read API (package remote), with the answers of the
//     store behind it; it can be read, not written to.
//
// Open opens a store to write to (perflab server); OpenReader opens any
// of them to read (perflab query, pgo, and the reports given a
// selection).
package stores
