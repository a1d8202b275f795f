package clickhouse

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/clickhousetest"
	"github.com/perflab/perflab/store"
)

func TestMain(m *testing.M) { os.Exit(clickhousetest.Main(m)) }

// nodeURL returns the store URL of a database of the test's own on the
// shared node.
func nodeURL(t *testing.T) string {
	node := clickhousetest.Node(t)
	return "clickhouse://" + node.HTTPAddr + "/" + clickhousetest.Database(t, node)
}

// clusterURL returns the store URL of a database of the test's own on
// the shared two-shard cluster.
func clusterURL(t *testing.T) string {
	c := clickhousetest.TwoShards(t)
	db := clickhousetest.Database(t, c.Shards...)
	addrs := make([]string, len(c.Shards))
	for i, s := range c.Shards {
		addrs[i] = s.HTTPAddr
	}
	return "clickhouse://" + strings.Join(addrs, ",") + "/" + db + "?cluster=" + c.Name
}

// open opens the store rawURL names, closed when t ends.
func open(t *testing.T, rawURL string) *Store {
	t.Helper()
	st, err := Open(context.Background(), rawURL, store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// topologies runs f on one node and on the two-shard cluster.
func topologies(t *testing.T, f func(t *testing.T, rawURL string)) {
	t.Run("node", func(t *testing.T) { f(t, nodeURL(t)) })
	t.Run("cluster", func(t *testing.T) { f(t, clusterURL(t)) })
}
