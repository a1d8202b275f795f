package clickhousetest

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/testprog"
)

func TestMain(m *testing.M) {
	if os.Getenv(orphanEnv) != "" {
		orphanChild() // exits
	}
	os.Exit(Main(m))
}

// TestNode checks that the shared node answers SQL as 18.16 or a later
// release, with a database of the test's own that holds a table.
func TestNode(t *testing.T) {
	node := Node(t)
	if Node(t) != node {
		t.Fatal("Node started a second server")
	}
	db := Database(t, node)
	version, err := node.Query("", "SELECT version()")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("clickhouse-server %s on %s", strings.TrimSpace(version), node.HTTPAddr)
	node.MustQuery(t, db, "CREATE TABLE t (x UInt64) ENGINE = MergeTree ORDER BY x")
	node.MustQuery(t, db, "INSERT INTO t SELECT number FROM system.numbers LIMIT 10")
	if got := node.MustQuery(t, db, "SELECT sum(x) FROM t"); got != "45\n" {
		t.Errorf("sum = %q, want 45", got)
	}
	if _, err := node.Query("nonexistent", "SELECT 1"); err == nil || !strings.Contains(err.Error(), "Code: 81") {
		t.Errorf("query in a missing database: %v, want ClickHouse's code 81", err)
	}
}

// TestCluster checks that the shared cluster's servers name each other:
// rows written through a Distributed table over both shards land on both,
// and a query through it reads them all.
func TestCluster(t *testing.T) {
	c := TwoShards(t)
	if len(c.Shards) != 2 || c.Shards[0].HTTPAddr == c.Shards[1].HTTPAddr {
		t.Fatalf("shards %v", c.Shards)
	}
	db := Database(t, c.Shards...)
	for _, s := range c.Shards {
		got := s.MustQuery(t, db, "SELECT count() FROM system.clusters WHERE cluster = '"+ClusterName+"'")
		if got != "2\n" {
			t.Errorf("%s: %q shards in system.clusters, want 2", s.HTTPAddr, got)
		}
		s.MustQuery(t, db, "CREATE TABLE t_local (x UInt64) ENGINE = MergeTree ORDER BY x")
	}
	c.Shards[0].MustQuery(t, db, fmt.Sprintf("CREATE TABLE t AS t_local ENGINE = Distributed(%s, %s, t_local, x)", ClusterName, db))
	if _, err := c.Shards[0].Query(db, "INSERT INTO t SELECT number FROM system.numbers LIMIT 100", "insert_distributed_sync=1"); err != nil {
		t.Fatal(err)
	}
	var sum int
	for _, s := range c.Shards {
		n, err := strconv.Atoi(strings.TrimSpace(s.MustQuery(t, db, "SELECT count() FROM t_local")))
		if err != nil || n == 0 {
			t.Errorf("%s holds %d rows (%v), want some of the 100", s.HTTPAddr, n, err)
		}
		sum += n
	}
	if got := c.Shards[0].MustQuery(t, db, "SELECT count(), sum(x) FROM t"); sum != 100 || got != "100\t4950\n" {
		t.Errorf("the shards hold %d rows, the Distributed table reads %q; want 100 and 4950", sum, got)
	}
}

// TestRestartAndStop checks that a server restarted keeps its data, and
// that a server a test started is gone when the test ends.
func TestRestartAndStop(t *testing.T) {
	var s *Server
	t.Run("server", func(t *testing.T) {
		s = Start(t)
		s.MustQuery(t, "", "CREATE TABLE kept (x UInt64) ENGINE = MergeTree ORDER BY x")
		s.MustQuery(t, "", "INSERT INTO kept VALUES (7)")
		if err := s.Restart(); err != nil {
			t.Fatal(err)
		}
		if got := s.MustQuery(t, "", "SELECT x FROM kept"); got != "7\n" {
			t.Errorf("after a restart: %q, want 7", got)
		}
		if rss, ok := s.RSS(); ok {
			t.Logf("RSS %d MB", rss>>20)
		}
		if cpu, ok := s.CPU(); runtime.GOOS == "linux" && (!ok || cpu <= 0) {
			t.Errorf("CPU() = %v, %v: want the CPU time a started server has used", cpu, ok)
		}
	})
	select {
	case <-s.exited:
	default:
		t.Errorf("server %d still runs after its test ended", s.PID())
	}
}

// TestLaunch checks that servers Launch started keep their data in the
// directory given, for the next Launch there, and are gone once stopped.
func TestLaunch(t *testing.T) {
	testprog.Oracle(t, OracleName)
	dir := t.TempDir()
	c, err := Launch(dir, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	c.Shards[0].MustQuery(t, "", "CREATE TABLE kept (x UInt64) ENGINE = MergeTree ORDER BY x")
	c.Shards[0].MustQuery(t, "", "INSERT INTO kept VALUES (42)")
	c.Stop()
	if c.Shards[0].ping() == nil {
		t.Fatal("the server answers after Stop")
	}
	again, err := Launch(dir, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Stop()
	if got := again.Shards[0].MustQuery(t, "", "SELECT x FROM kept"); got != "42\n" {
		t.Errorf("after a second Launch on the same directory: %q, want 42", got)
	}
}

// orphanEnv makes the test binary orphanChild (see TestNoOrphan).
const orphanEnv = "CLICKHOUSETEST_ORPHAN"

// orphanChild starts a server, prints its PID and exits at once, as a
// test binary killed by its timeout does: no cleanup runs.
func orphanChild() {
	bin, err := testprog.LookOracle(OracleName)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dir, err := os.MkdirTemp(tempRoot(), "clickhousetest-orphan")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	c, err := launch(bin, dir, "", 1)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(c.Shards[0].PID(), dir)
	os.Exit(0)
}

// BenchmarkStart measures what starting a node costs: the time until it
// answers /ping (ns/op) and its resident memory then.
func BenchmarkStart(b *testing.B) {
	var rss int64
	for range b.N {
		s := Start(b)
		if r, ok := s.RSS(); ok {
			rss = max(rss, r)
		}
		b.StopTimer()
		s.Stop()
		b.StartTimer()
	}
	b.ReportMetric(float64(rss)/(1<<20), "MB-RSS")
}
