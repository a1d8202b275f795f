package clickhousetest

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/perflab/perflab/internal/testprog"
)

// ClusterName is the name under which the shared cluster's servers list
// each other in remote_servers.
const ClusterName = "perflab_test"

// shared holds the servers the tests of one binary share.
var shared struct {
	mu      sync.Mutex
	main    bool // Main runs
	dir     string
	node    *Cluster
	cluster *Cluster
	errs    map[string]error // a failed start, not tried again
}

// Main runs m's tests and then stops the shared servers that Node and
// TwoShards started. A test binary that calls Node or TwoShards calls it from
// its TestMain: os.Exit(clickhousetest.Main(m)).
func Main(m *testing.M) int {
	shared.mu.Lock()
	shared.main = true
	shared.mu.Unlock()
	code := m.Run()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	for _, c := range []*Cluster{shared.node, shared.cluster} {
		if c != nil {
			c.Stop()
		}
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	return code
}

// Node returns the test binary's shared node, started on first use.
func Node(t testing.TB) *Server {
	t.Helper()
	return sharedCluster(t, &shared.node, "", 1).Shards[0]
}

// TwoShards returns the test binary's shared two-shard cluster, named
// ClusterName, started on first use.
func TwoShards(t testing.TB) *Cluster {
	t.Helper()
	return sharedCluster(t, &shared.cluster, ClusterName, 2)
}

func sharedCluster(t testing.TB, c **Cluster, name string, n int) *Cluster {
	t.Helper()
	bin := testprog.Oracle(t, OracleName)
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if !shared.main {
		t.Fatal("clickhousetest: the shared servers need TestMain to call clickhousetest.Main")
	}
	key := fmt.Sprint(name, n)
	if err := shared.errs[key]; err != nil {
		t.Fatal(err)
	}
	if *c != nil {
		return *c
	}
	if shared.dir == "" {
		dir, err := os.MkdirTemp(tempRoot(), "clickhousetest")
		if err != nil {
			t.Fatal(err)
		}
		shared.dir = dir
	}
	started, err := launch(bin, shared.dir+"/"+strings.NewReplacer("_", "").Replace("c"+key), name, n)
	if err != nil {
		if shared.errs == nil {
			shared.errs = map[string]error{}
		}
		shared.errs[key] = err
		t.Fatal(err)
	}
	*c = started
	return started
}

var databases atomic.Int64

var notIdent = regexp.MustCompile(`[^a-zA-Z0-9_]+`)

// Database creates a database of its own for t on each of servers, and
// drops it when t ends. Its name is made of t's name and a counter.
func Database(t testing.TB, servers ...*Server) string {
	t.Helper()
	name := strings.ToLower(notIdent.ReplaceAllString(t.Name(), "_"))
	if len(name) > 40 {
		name = name[:40]
	}
	name = fmt.Sprintf("t%d_%s", databases.Add(1), name)
	for _, s := range servers {
		if _, err := s.Query("", "CREATE DATABASE "+name); err != nil {
			t.Fatalf("clickhouse %s: CREATE DATABASE %s: %v", s.HTTPAddr, name, err)
		}
	}
	t.Cleanup(func() {
		for _, s := range servers {
			if _, err := s.Query("", "DROP DATABASE IF EXISTS "+name); err != nil {
				t.Errorf("clickhouse %s: DROP DATABASE %s: %v", s.HTTPAddr, name, err)
			}
		}
	})
	return name
}
