package clickhouse

import (
	"context"
	"testing"
	"time"

	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// backend is the store on one node (cluster false) or on the two-shard
// cluster, for storetest.Run.
func backend(cluster bool) storetest.Backend {
	return storetest.Backend{
		Open: func(t *testing.T, limits store.Limits) store.Store {
			rawURL := nodeURL
			if cluster {
				rawURL = clusterURL
			}
			st, err := Open(context.Background(), rawURL(t), limits)
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
		Reopen: func(t *testing.T, s store.Store) store.Store {
			old := s.(*Store)
			if err := old.Close(); err != nil {
				t.Fatal(err)
			}
			st, err := OpenConfig(context.Background(), old.cfg, old.limits)
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
		Partition: 24 * time.Hour,
	}
}

// TestStoreNode runs the shared suite on one node: every answer
// byte-identical to storetest.Reference's. The tests that take seconds
// (waiting for ClickHouse, mostly) run in parallel.
func TestStoreNode(t *testing.T) {
	t.Parallel()
	storetest.Run(t, backend(false))
}

// TestStoreCluster runs the shared suite on the two-shard cluster.
func TestStoreCluster(t *testing.T) {
	t.Parallel()
	storetest.Run(t, backend(true))
}
