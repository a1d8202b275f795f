package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/perflab/perflab/store"
)

// A Store keeps a fleet's profiles in a ClickHouse database, on one node
// or on the shards of a cluster. Its methods may be called concurrently.
type Store struct {
	cfg    Config
	c      *client
	limits store.Limits
	// version is ClickHouse's version on the first shard.
	version string

	w          *writer
	cache      writtenCache // what was written, by day
	partsCache partsCache   // parts read or written

	seriesMu sync.Mutex
	known    map[uint64]bool // the series of the stored profiles
}

var _ store.Store = (*Store)(nil)

// Open connects to the ClickHouse a clickhouse:// URL names (see Config),
// checks that every shard answers with these credentials and holds the
// database, and that the cluster, if any, lists as many shards as the
// URL; then it creates the store's tables on first use, or checks their
// schema version. Zero fields of limits take store.DefaultLimits'.
func Open(ctx context.Context, rawURL string, limits store.Limits) (*Store, error) {
	cfg, err := ParseURL(rawURL)
	if err != nil {
		return nil, err
	}
	return OpenConfig(ctx, cfg, limits)
}

// OpenConfig is Open with a parsed URL.
func OpenConfig(ctx context.Context, cfg Config, limits store.Limits) (*Store, error) {
	if len(cfg.Shards) == 0 || !identifier(cfg.Database) || cfg.Cluster != "" && !identifier(cfg.Cluster) {
		return nil, fmt.Errorf("clickhouse store %s: want hosts, a database name and maybe a cluster name", cfg)
	}
	st := &Store{cfg: cfg, c: newClient(cfg), limits: limits.WithDefaults()}
	if err := st.open(ctx); err != nil {
		st.c.close()
		return nil, err
	}
	st.w = newWriter(st, st.limits.MemoryBudget)
	return st, nil
}

func (st *Store) open(ctx context.Context) error {
	for shard := range st.cfg.Shards {
		if err := st.checkShard(ctx, shard); err != nil {
			return err
		}
	}
	if err := st.ensureSchema(ctx); err != nil {
		return err
	}
	return st.loadSeries(ctx)
}

// checkShard checks that shard answers, knows the user, holds the
// database and, on a cluster, lists the cluster with one shard per host
// of the URL.
func (st *Store) checkShard(ctx context.Context, shard int) error {
	var version string
	purpose := fmt.Sprintf("connecting to database %s as user %s", st.cfg.Database, st.user())
	err := st.c.query(ctx, shard, purpose, "SELECT version()", func(r *rowReader) error {
		for r.more() {
			version = r.string()
		}
		return nil
	})
	if chErr := (*Error)(nil); errors.As(err, &chErr) && chErr.Code == codeUnknownDatabase {
		return fmt.Errorf("%w (perflab creates its tables, not the database: CREATE DATABASE %s)", err, st.cfg.Database)
	}
	if err != nil {
		return err
	}
	if shard == 0 {
		st.version = version
	}
	if st.cfg.Cluster == "" {
		return nil
	}
	var shards uint64
	err = st.c.query(ctx, shard, "reading the cluster's shards", "SELECT uniqExact(shard_num) FROM system.clusters WHERE cluster = '"+st.cfg.Cluster+"'", func(r *rowReader) error {
		for r.more() {
			shards = r.uint64()
		}
		return nil
	})
	if err != nil {
		return err
	}
	if int(shards) != len(st.cfg.Shards) {
		return fmt.Errorf("clickhouse %s: cluster %s has %d shards in the server's remote_servers; the store URL must list one host for each, not %d", st.cfg.Shards[shard], st.cfg.Cluster, shards, len(st.cfg.Shards))
	}
	return nil
}

func (st *Store) user() string {
	if st.cfg.User == "" {
		return "default"
	}
	return st.cfg.User
}

// Health is the state of a store's writes, for a server's status page.
type Health struct {
	// Pending is the bytes of rows waiting to be written, queued or being
	// sent, which the memory budget bounds.
	Pending int64
	// Err is why the last insert failed, or nil when it succeeded:
	// ClickHouse is down, restarting or refusing the rows.
	Err error
}

// Health returns the state of the store's writes.
func (st *Store) Health() Health {
	st.w.mu.Lock()
	defer st.w.mu.Unlock()
	return Health{Pending: st.w.pending, Err: st.w.lastErr}
}

// Version returns the version of ClickHouse on the first shard.
func (st *Store) Version() string { return st.version }

// Close waits for the writes under way (up to the store's timeout), then
// releases the store's connections.
func (st *Store) Close() error {
	st.w.close(st.c.timeout)
	st.c.close()
	return nil
}
