// Package storebench makes the inputs of the fleet store's benchmarks
// (scripts/bench-store and the store's go test benchmarks): a store
// holding consecutive 10-second CPU profiles of internal/fleetgen's
// realistic service, from midnight for a number of days, built once and
// kept in a cache directory, and the same profiles as gzipped pprof
// files for the rival, go tool pprof. The store is store/dirstore's
// directory (Cached), or the data directories of ClickHouse servers
// holding store/clickhouse's database (CachedClickHouse), which Serve
// starts again on loopback for a run. Nothing it makes is checked in.
package storebench
