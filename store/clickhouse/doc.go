// Package clickhouse is perflab server's scale-out store: it keeps a
// fleet's profiles in ClickHouse, one node or a cluster of shards, and
// answers the same selections as the embedded store with the same bytes.
//
// A store is named by a URL (see Config):
//
//	clickhouse://HOST:PORT[,HOST:PORT...]/DATABASE[?cluster=NAME&user=USER&password=PASSWORD&timeout=60s]
//
// It speaks ClickHouse's HTTP interface with net/http: rows go in and
// come out in RowBinary, request bodies compressed with gzip. It runs on
// Debian's ClickHouse 18.16 and on current releases, and uses only the SQL
// and settings both understand (docs/server.md says what it avoids).
//
// # Tables
//
// Open creates the tables in the database on first use, and records
// their schema version; a database of another version is refused. A
// profile is split into package store's canonical form: content-addressed
// parts (functions, mappings, locations, stacks, pprof label sets), each a
// row keyed by its 64-bit hash in a ReplacingMergeTree table, and samples,
// one row per sample and sample type, holding the hashes of its stack and
// label set, in a MergeTree table partitioned by day and ordered by
// service, profile type, series, time and stack. Materialized views sum
// the samples by day and by hour into SummingMergeTree rollups, so that a
// long range reads days and hours, not profiles. The profiles table holds
// each profile's header and totals; the series table each series'
// labels. Retention drops whole days of every table: series and parts are
// written again on each day that uses them.
//
// # Writes and queries
//
// Write returns once ClickHouse has acknowledged its rows; concurrent
// Writes share inserts, and while ClickHouse is down they wait within the
// memory budget, beyond which Write returns store.ErrBusy. Queries
// aggregate in ClickHouse (GROUP BY stack, label set and type) and ship
// back only the sums and the parts they use; store.Compose builds the
// answer, as the embedded store does.
//
// On a cluster (cluster=NAME, every shard's address in the URL, the
// cluster in each server's remote_servers), each shard holds the tables
// as name_local, created by connecting to each shard, and Distributed
// tables over them take the writes and queries: series' rows are sharded
// by series, parts by their hash.
package clickhouse
