// Package clickhousetest runs real clickhouse-server processes for the
// tests of perflab's ClickHouse store: one node, or a cluster of shards
// whose remote_servers section names them all (no ZooKeeper).
//
// Each server runs from a configuration generated in a temporary
// directory (the <yandex> root that Debian's ClickHouse 18.16 reads and
// current releases still accept), listens on free loopback ports for HTTP
// and the native protocol, and holds its data in that directory, on
// Linux's /dev/shm when it can. Start
// waits until the server answers /ping; the server is killed with its
// process group when the test ends, and on Linux also when the test
// binary dies (a timeout's panic, a kill), so that no server is left
// behind.
//
// A start costs about a quarter of a second and 70 MB of memory on two
// cores (BenchmarkStart), and more as the server works, so a test binary
// shares one node and one cluster between its tests: its TestMain calls
// Main, tests call Node or TwoShards, which start the shared servers on
// first use, and Database, which gives each test a database of its own,
// dropped when the test ends.
//
//	func TestMain(m *testing.M) { os.Exit(clickhousetest.Main(m)) }
//
//	func TestSomething(t *testing.T) {
//		node := clickhousetest.Node(t)
//		db := clickhousetest.Database(t, node)
//		...
//	}
//
// When clickhouse-server is not installed the tests that ask for a server
// are skipped, or fail when PERFLAB_REQUIRE_ORACLES is 1 (see
// testprog.Oracle).
package clickhousetest
