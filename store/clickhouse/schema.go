package clickhouse

import (
	"context"
	"fmt"
	"strings"
)

// schemaVersion is the version of the tables this perflab creates and
// reads, kept in each shard's schema_version table. Version 1 is the
// first: a database of any other version is refused, and a later version
// brings the migration from the ones before it.
const schemaVersion = 1

// dayNanos is one day in nanoseconds: times are Unix nanoseconds in Int64
// columns (DateTime64 is missing from 18.16), and every table is
// partitioned by their day number, so that retention drops whole days.
const dayNanos = 86_400_000_000_000

// hourNanos is an hour in nanoseconds.
const hourNanos = 3_600_000_000_000

// A rollup is a table that sums the samples by time bucket: its rows are
// those of the samples with the same series, type, layout, stack and
// label set in one bucket (whose start, in Unix nanoseconds, is the
// column bucket), added up. A materialized view fills it from each insert
// into the samples.
type rollup struct {
	table string
	width int64 // the buckets' width in nanoseconds
}

// rollups are the store's rollups, the widest first: a range reads its
// whole days from the first, its whole hours left from the second, the
// rest from the samples.
var rollups = []rollup{{"samples_daily", dayNanos}, {"samples_hourly", hourNanos}}

// A table is one of the store's tables. On one node it is a MergeTree
// table of that name; on a cluster each shard holds a MergeTree table
// name_local, and name is a Distributed table over them, sharded by
// shardBy.
type table struct {
	name    string
	columns string
	engine  string
	shardBy string
}

// tables are the store's tables, in the order they are created.
//
// series, profiles, samples and the rollups are sharded by series,
// so that a series' rows stay on one shard; the symbol tables (functions,
// mappings, locations, stacks, label_sets), keyed by the 64-bit hash of
// their content, are sharded by that hash, so that a symbol's copies meet
// on one shard, where ReplacingMergeTree keeps one of them. Until it has
// merged, a read sees several identical copies, and takes any of them.
//
// Every table is partitioned by day: series and symbols are written again
// on each day that uses them (the writer forgets what it wrote at each
// day's turn), so that dropping a day's partitions drops what no later day
// needs.
var tables = []table{
	{
		name:    "series",
		columns: "(day Int32, series UInt64, service String, name String, label_names Array(String), label_values Array(String))",
		engine:  "ReplacingMergeTree PARTITION BY day ORDER BY (service, name, series)",
		shardBy: "series",
	},
	{
		// profiles holds each profile's header (see store.Header), its
		// types (profile type IDs), its totals in their order, its
		// layout, the hash of its types, and mapfiles, the hash of the
		// files of its mappings by key, which its samples carry too.
		// insert_id tells apart the writes of one profile, and which rows
		// a write that failed half way left.
		name: "profiles",
		columns: "(service String, name String, series UInt64, time Int64, profile UInt64, insert_id UInt64, layout UInt64, mapfiles UInt64, " +
			"types Array(String), sample_types Array(String), sample_units Array(String), totals Array(Int64), " +
			"default_sample_type String, period_type String, period_unit String, period Int64, " +
			"time_nanos Int64, duration_nanos Int64, comments Array(String), " +
			"drop_frames String, keep_frames String, doc_url String, mappings Array(UInt64))",
		engine:  fmt.Sprintf("MergeTree PARTITION BY intDiv(time, %d) ORDER BY (service, name, series, time)", dayNanos),
		shardBy: "series",
	},
	{
		// samples holds one row for each sample and sample type whose
		// value is not zero; type is the profile type ID.
		name:    "samples",
		columns: "(service String, type String, series UInt64, time Int64, profile UInt64, insert_id UInt64, layout UInt64, mapfiles UInt64, stack UInt64, labels UInt64, value Int64)",
		engine:  fmt.Sprintf("MergeTree PARTITION BY intDiv(time, %d) ORDER BY (service, type, series, time, stack)", dayNanos),
		shardBy: "series",
	},
	{
		name:    "functions",
		columns: "(day Int32, hash UInt64, name String, system_name String, filename String, start_line Int64)",
		engine:  "ReplacingMergeTree PARTITION BY day ORDER BY hash",
		shardBy: "hash",
	},
	{
		name: "mappings",
		columns: "(day Int32, hash UInt64, memory_start UInt64, memory_limit UInt64, file_offset UInt64, filename String, build_id String, " +
			"kernel_relocation_symbol String, has_functions UInt8, has_filenames UInt8, has_line_numbers UInt8, has_inline_frames UInt8)",
		engine:  "ReplacingMergeTree PARTITION BY day ORDER BY hash",
		shardBy: "hash",
	},
	{
		// locations: mapping is the key of the location's mapping (see
		// store.Mapping.Key), address relative to the mapping's start.
		name:    "locations",
		columns: "(day Int32, hash UInt64, mapping UInt64, address UInt64, is_folded UInt8, line_functions Array(UInt64), line_numbers Array(Int64), line_columns Array(Int64))",
		engine:  "ReplacingMergeTree PARTITION BY day ORDER BY hash",
		shardBy: "hash",
	},
	{
		name:    "stacks",
		columns: "(day Int32, hash UInt64, locations Array(UInt64))",
		engine:  "ReplacingMergeTree PARTITION BY day ORDER BY hash",
		shardBy: "hash",
	},
	{
		name:    "label_sets",
		columns: "(day Int32, hash UInt64, str_keys Array(String), str_values Array(Array(String)), num_keys Array(String), num_values Array(Array(Int64)), num_units Array(Array(String)))",
		engine:  "ReplacingMergeTree PARTITION BY day ORDER BY hash",
		shardBy: "hash",
	},
}

func init() {
	for _, r := range rollups {
		tables = append(tables, table{
			// SummingMergeTree sums rows with the same key when it merges,
			// so reads still GROUP BY and sum; sample_rows, the rows
			// summed, keeps a row whose values sum to zero, which
			// SummingMergeTree would otherwise delete.
			name:    r.table,
			columns: "(service String, type String, series UInt64, bucket Int64, layout UInt64, stack UInt64, labels UInt64, value Int64, sample_rows UInt64)",
			engine:  fmt.Sprintf("SummingMergeTree((value, sample_rows)) PARTITION BY intDiv(bucket, %d) ORDER BY (service, type, series, bucket, layout, stack, labels)", dayNanos),
			shardBy: "series",
		})
		views = append(views, view{
			name: r.table + "_mv", from: "samples", to: r.table,
			query: fmt.Sprintf("SELECT service, type, series, intDiv(time, %[1]d) * %[1]d AS bucket, layout, stack, labels, value, toUInt64(1) AS sample_rows FROM {from}", r.width),
		})
	}
}

// A view is a materialized view that fills a rollup from the rows
// inserted into a table, on the shard that holds them. (ClickHouse 18.16
// does not pass a view's inserts on to the views of its table, so each
// rollup reads the samples.)
type view struct {
	name, from, to string
	// query is the view's SELECT, with {from} for the table it reads.
	query string
}

var views []view

// schema writes the statements that create the store's tables in a
// database, on one node or on each shard of a cluster.
type schema struct {
	db, cluster string
}

// local returns the name of the table that holds name's rows on a shard.
func (s schema) local(name string) string {
	if s.cluster == "" {
		return s.db + "." + name
	}
	return s.db + "." + name + "_local"
}

// create returns the statements that create every table and view, as
// each shard runs them; they do nothing where the tables exist.
func (s schema) create() []string {
	stmts := []string{"CREATE TABLE IF NOT EXISTS " + s.db + ".schema_version (version UInt32) ENGINE = MergeTree ORDER BY version"}
	for _, t := range tables {
		stmts = append(stmts, fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s %s ENGINE = %s", s.local(t.name), t.columns, t.engine))
		if s.cluster != "" {
			stmts = append(stmts, fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s.%s AS %s ENGINE = Distributed(%s, %s, %s, %s)",
				s.db, t.name, s.local(t.name), s.cluster, s.db, strings.TrimPrefix(s.local(t.name), s.db+"."), t.shardBy))
		}
	}
	for _, v := range views {
		stmts = append(stmts, fmt.Sprintf("CREATE MATERIALIZED VIEW IF NOT EXISTS %s.%s TO %s AS %s",
			s.db, v.name, s.local(v.to), strings.ReplaceAll(v.query, "{from}", s.local(v.from))))
	}
	return stmts
}

// ensureSchema makes sure every shard holds the tables of schemaVersion:
// it creates them where the database has no schema_version table, and
// refuses another version.
func (st *Store) ensureSchema(ctx context.Context) error {
	sc := schema{db: st.cfg.Database, cluster: st.cfg.Cluster}
	for shard, addr := range st.cfg.Shards {
		v, err := st.readVersion(ctx, shard)
		if err != nil {
			return err
		}
		switch {
		case v > schemaVersion:
			return fmt.Errorf("clickhouse %s: database %s has perflab's schema version %d, newer than version %d, the one this perflab reads: use a newer perflab", addr, st.cfg.Database, v, schemaVersion)
		case v == schemaVersion:
			continue
		case v > 0:
			return fmt.Errorf("clickhouse %s: database %s has perflab's schema version %d, which this perflab (version %d) cannot migrate", addr, st.cfg.Database, v, schemaVersion)
		}
		for _, stmt := range sc.create() {
			if err := st.c.exec(ctx, shard, "creating perflab's tables", stmt); err != nil {
				return err
			}
		}
		if err := st.writeVersion(ctx, shard, schemaVersion); err != nil {
			return err
		}
	}
	return nil
}

// readVersion returns the schema version of the database on shard, or 0
// when it has no schema_version table.
func (st *Store) readVersion(ctx context.Context, shard int) (int, error) {
	const purpose = "reading perflab's schema version"
	var tables uint64
	err := st.c.query(ctx, shard, purpose, "SELECT count() FROM system.tables WHERE database = currentDatabase() AND name = 'schema_version'", func(r *rowReader) error {
		for r.more() {
			tables = r.uint64()
		}
		return nil
	})
	if err != nil || tables == 0 {
		return 0, err
	}
	var version uint32
	err = st.c.query(ctx, shard, purpose, "SELECT max(version) FROM "+st.cfg.Database+".schema_version", func(r *rowReader) error {
		for r.more() {
			version = r.uint32()
		}
		return nil
	})
	return int(version), err
}

func (st *Store) writeVersion(ctx context.Context, shard, v int) error {
	return st.c.exec(ctx, shard, "writing perflab's schema version",
		fmt.Sprintf("INSERT INTO %s.schema_version (version) VALUES (%d)", st.cfg.Database, v))
}

// quote returns s as a ClickHouse string literal.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case 0:
			b.WriteString(`\0`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}
