package clickhouse

import (
	"context"
	"fmt"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/clickhousetest"
	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/store"
)

// benchStores holds the stores of BenchmarkMerge, filled once per test
// binary: b.Run calls a benchmark's function several times.
var benchStores sync.Map // name → *benchStore

type benchStore struct {
	once   sync.Once
	st     *Store
	ingest time.Duration
	err    error
}

// filled returns a store of its own on the shared node (or cluster)
// holding n consecutive 10-second CPU profiles of fleetgen's default
// service, written in batches of 500 as a busy server would.
func filled(b *testing.B, name string, cluster bool, n int) *benchStore {
	v, _ := benchStores.LoadOrStore(name, &benchStore{})
	bs := v.(*benchStore)
	bs.once.Do(func() {
		servers := []*clickhousetest.Server{clickhousetest.Node(b)}
		rawURL := "clickhouse://" + servers[0].HTTPAddr + "/"
		if cluster {
			c := clickhousetest.TwoShards(b)
			servers = c.Shards
			rawURL = "clickhouse://" + c.Shards[0].HTTPAddr + "," + c.Shards[1].HTTPAddr + "/"
		}
		db := databaseFor(b, servers)
		if cluster {
			db += "?cluster=" + clickhousetest.ClusterName
		}
		if bs.st, bs.err = Open(context.Background(), rawURL+db, store.Limits{}); bs.err != nil {
			return
		}
		start := time.Now()
		bs.err = writeFleet(bs.st, n)
		bs.ingest = time.Since(start)
	})
	if bs.err != nil {
		b.Fatal(bs.err)
	}
	return bs
}

// databaseFor creates a database for the benchmarks' stores, which live
// as long as the test binary (dropped with its servers).
func databaseFor(b *testing.B, servers []*clickhousetest.Server) string {
	name := fmt.Sprintf("bench%d", time.Now().UnixNano())
	for _, s := range servers {
		if _, err := s.Query("", "CREATE DATABASE "+name); err != nil {
			b.Fatal(err)
		}
	}
	return name
}

func writeFleet(st *Store, n int) error {
	f, err := fleetgen.New(fleetgen.Config{})
	if err != nil {
		return err
	}
	var batch []store.Profile
	flush := func() error {
		err := st.Write(context.Background(), batch...)
		batch = batch[:0]
		return err
	}
	err = f.Each("cpu", n, func(p store.Profile) error {
		if batch = append(batch, p); len(batch) == 500 {
			return flush()
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	return err
}

// BenchmarkMerge merges 8 hours (2,880 profiles) and a week (60,480) of
// one service's 10-second CPU profiles, on one node and on the two-shard
// cluster: the time of the query (ns/op), ingest's rate when the store was
// filled, and the bytes ClickHouse keeps per profile.
func BenchmarkMerge(b *testing.B) {
	cpu, _ := store.LookupKind("cpu")
	for _, bc := range []struct {
		name    string
		cluster bool
		n       int
	}{
		{"node/8h", false, 2880},
		{"node/week", false, 60480},
		{"cluster/8h", true, 2880},
		{"cluster/week", true, 60480},
	} {
		b.Run(bc.name, func(b *testing.B) {
			bs := filled(b, bc.name, bc.cluster, bc.n)
			stats, err := bs.st.Stats(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			var samples int
			for b.Loop() {
				p, err := bs.st.Merge(context.Background(), store.Selection{Type: cpu.Type})
				if err != nil {
					b.Fatal(err)
				}
				samples = len(p.Sample)
			}
			b.ReportMetric(float64(samples), "samples")
			b.ReportMetric(float64(stats.Bytes)/float64(stats.Profiles), "disk-bytes/profile")
			b.ReportMetric(float64(bc.n)/bs.ingest.Seconds(), "ingest-profiles/s")
		})
	}
}

// BenchmarkTotals asks for the totals of 8 hours of one service's
// 10-second CPU profiles (2,880 of them, BenchmarkMerge's store) by
// hour and by minute, with and without a Focus: with one, ClickHouse
// lists the range's stacks, perflab matches their frames, and ClickHouse
// adds up those that match, from the hourly rollup where an hour is whole.
func BenchmarkTotals(b *testing.B) {
	cpu, _ := store.LookupKind("cpu")
	for _, bc := range []struct {
		name  string
		step  time.Duration
		focus string
	}{
		{"hour", time.Hour, ""},
		{"hour/focus", time.Hour, `runtime\.`},
		{"minute", time.Minute, ""},
		{"minute/focus", time.Minute, `runtime\.`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			bs := filled(b, "node/8h", false, 2880)
			q := store.TotalsQuery{Selection: store.Selection{Type: cpu.Type}, Step: bc.step}
			if bc.focus != "" {
				q.Focus = regexp.MustCompile(bc.focus)
			}
			var points int
			for b.Loop() {
				ts, err := bs.st.Totals(context.Background(), q)
				if err != nil {
					b.Fatal(err)
				}
				points = 0
				for _, s := range ts {
					points += len(s.Points)
				}
			}
			b.ReportMetric(float64(points), "points")
		})
	}
}

// BenchmarkWrite writes a fleet's 10-second CPU profiles, 100 instances
// at a time, one Write for each interval as an ingest server batches
// them: profiles/s is the ingest rate, profile generation left out; the
// CPU time a profile of ClickHouse (its merges meanwhile included) and of
// the test process (generation included).
func BenchmarkWrite(b *testing.B) {
	f, err := fleetgen.New(fleetgen.Config{Instances: 100})
	if err != nil {
		b.Fatal(err)
	}
	node := clickhousetest.Node(b)
	st, err := Open(context.Background(), "clickhouse://"+node.HTTPAddr+"/"+databaseFor(b, []*clickhousetest.Server{node}), store.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	index, written := 0, 0
	cpu, server := cputime.Self(), serverCPU(node)
	for b.Loop() {
		b.StopTimer()
		var batch []store.Profile
		for instance := range 100 {
			p, err := f.Profile("cpu", instance, index)
			if err != nil {
				b.Fatal(err)
			}
			batch = append(batch, p)
		}
		index++
		b.StartTimer()
		if err := st.Write(context.Background(), batch...); err != nil {
			b.Fatal(err)
		}
		written += len(batch)
	}
	cpu, server = cputime.Self()-cpu, serverCPU(node)-server
	b.ReportMetric(float64(written)/b.Elapsed().Seconds(), "profiles/s")
	b.ReportMetric(float64(server)/1e6/float64(written), "clickhouse-cpu-ms/profile")
	b.ReportMetric(float64(cpu)/1e6/float64(written), "perflab-cpu-ms/profile")
}

// serverCPU returns the CPU time s has used, 0 where it cannot be told.
func serverCPU(s *clickhousetest.Server) time.Duration {
	cpu, _ := s.CPU()
	return cpu
}
