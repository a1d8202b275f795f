package clickhouse

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/clickhousetest"
	"github.com/perflab/perflab/store"
)

// shardServers returns the servers of st's shards, from the shared node
// or cluster.
func shardServers(t *testing.T, st *Store) []*clickhousetest.Server {
	t.Helper()
	var servers []*clickhousetest.Server
	if st.cfg.Cluster == "" {
		servers = []*clickhousetest.Server{clickhousetest.Node(t)}
	} else {
		servers = clickhousetest.TwoShards(t).Shards
	}
	for i, s := range servers {
		if s.HTTPAddr != st.cfg.Shards[i] {
			t.Fatalf("shard %d is %s, the server %s", i, st.cfg.Shards[i], s.HTTPAddr)
		}
	}
	return servers
}

// TestSchemaCreated checks that Open creates every table and view with
// its engine, on one node and on each shard of a cluster with Distributed
// tables over them, records the schema version once, and opens the same
// database again.
func TestSchemaCreated(t *testing.T) {
	topologies(t, func(t *testing.T, rawURL string) {
		st := open(t, rawURL)
		db := st.cfg.Database
		var want []string
		want = append(want, "schema_version\tMergeTree")
		for _, tb := range tables {
			engine, _, _ := strings.Cut(tb.engine, " ")
			engine, _, _ = strings.Cut(engine, "(")
			if st.cfg.Cluster == "" {
				want = append(want, tb.name+"\t"+engine)
			} else {
				want = append(want, tb.name+"_local\t"+engine, tb.name+"\tDistributed")
			}
		}
		for _, v := range views {
			want = append(want, v.name+"\tMaterializedView")
		}
		slices.Sort(want)
		open(t, rawURL) // a second Open finds the tables
		for _, s := range shardServers(t, st) {
			got := strings.Split(strings.TrimSpace(s.MustQuery(t, db, "SELECT name, engine FROM system.tables WHERE database = currentDatabase() ORDER BY name")), "\n")
			if !slices.Equal(got, want) {
				t.Errorf("%s: tables\n%s\nwant\n%s", s.HTTPAddr, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if got := s.MustQuery(t, db, "SELECT version FROM schema_version"); got != fmt.Sprintf("%d\n", schemaVersion) {
				t.Errorf("%s: schema_version holds %q, want one row of %d", s.HTTPAddr, got, schemaVersion)
			}
		}
	})
}

// TestSchemaNewerRefused checks that Open refuses a database whose
// schema version is newer than the one it knows, with one line naming it.
func TestSchemaNewerRefused(t *testing.T) {
	rawURL := nodeURL(t)
	st := open(t, rawURL)
	newer := schemaVersion + 1
	clickhousetest.Node(t).MustQuery(t, st.cfg.Database, fmt.Sprintf("INSERT INTO schema_version VALUES (%d)", newer))
	_, err := Open(context.Background(), rawURL, store.Limits{})
	if err == nil {
		t.Fatal("Open succeeded on a database of a newer schema")
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.Contains(msg, fmt.Sprintf("schema version %d, newer than version %d", newer, schemaVersion)) || !strings.Contains(msg, st.cfg.Database) {
		t.Errorf("Open: %q, want one line naming the database and version %d", msg, newer)
	}
}

// testSample is a row of the samples table.
type testSample struct {
	series        uint64
	time          int64
	stack, labels uint64
	value         int64
}

func writeSamples(t *testing.T, st *Store, rows []testSample) {
	t.Helper()
	var w rowWriter
	for _, r := range rows {
		w.string("svc")
		w.string("process_cpu:cpu:nanoseconds:cpu:nanoseconds")
		w.uint64(r.series)
		w.int64(r.time)
		w.uint64(1) // profile
		w.uint64(7) // layout
		w.uint64(r.stack)
		w.uint64(r.labels)
		w.int64(r.value)
		w.endRow()
	}
	if err := st.c.insert(context.Background(), anyShard, "writing samples", st.cfg.Database+".samples", "(service, type, series, time, profile, layout, stack, labels, value)", &w); err != nil {
		t.Fatal(err)
	}
}

// TestRollup checks the rollups on 18.16: the materialized views fill them
// on the shard that holds the samples, one series on one shard; a read
// that groups and sums gives the samples' sums by bucket before and after
// SummingMergeTree merges, and a key whose values sum to zero stays.
func TestRollup(t *testing.T) {
	t.Parallel()
	topologies(t, func(t *testing.T, rawURL string) {
		st := open(t, rawURL)
		var rows []testSample
		want := map[int64]map[string]int64{}
		for _, r := range rollups {
			want[r.width] = map[string]int64{}
		}
		add := func(r testSample) {
			for w, sums := range want {
				sums[fmt.Sprintf("%d\t%d\t%d\t%d", r.series, r.time/w*w, r.stack, r.labels)] += r.value
			}
		}
		base := int64(1_800_000_000) * 1e9
		for series := uint64(1); series <= 6; series++ {
			for i := range int64(40) {
				r := testSample{series: series, time: base + i*47*60e9, stack: uint64(i % 3), labels: uint64(i % 2), value: i - 20}
				rows = append(rows, r)
				add(r)
			}
		}
		// Two writes, so that the rollups have parts to merge; the last
		// row cancels one of the first's.
		cancel := testSample{series: 1, time: base, stack: 0, labels: 0, value: 20}
		writeSamples(t, st, rows[:len(rows)/2])
		writeSamples(t, st, append(rows[len(rows)/2:], cancel))
		add(cancel)
		servers := shardServers(t, st)
		for _, r := range rollups {
			read := func() map[string]int64 {
				got := map[string]int64{}
				out := servers[0].MustQuery(t, st.cfg.Database, "SELECT series, bucket, stack, labels, sum(value) FROM "+r.table+" GROUP BY series, bucket, stack, labels")
				for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
					i := strings.LastIndexByte(line, '\t')
					var v int64
					fmt.Sscan(line[i+1:], &v)
					got[line[:i]] = v
				}
				return got
			}
			checkSums(t, r.table+" before merges", read(), want[r.width])
			for _, s := range servers {
				s.MustQuery(t, st.cfg.Database, "OPTIMIZE TABLE "+strings.TrimPrefix(schema{st.cfg.Database, st.cfg.Cluster}.local(r.table), st.cfg.Database+".")+" FINAL")
			}
			checkSums(t, r.table+" after merges", read(), want[r.width])
		}
		if st.cfg.Cluster != "" {
			checkSeriesApart(t, servers, st.cfg.Database)
		}
	})
}

func checkSums(t *testing.T, when string, got, want map[string]int64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d keys in the rollup, want %d", when, len(got), len(want))
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s: key %q sums to %d (present: %v), want %d", when, k, g, ok, v)
		}
	}
}

// checkSeriesApart checks that each series' samples and rollup rows are
// on one shard, and that both shards hold some.
func checkSeriesApart(t *testing.T, servers []*clickhousetest.Server, db string) {
	t.Helper()
	seen := map[string]string{}
	for _, s := range servers {
		samples := s.MustQuery(t, db, "SELECT DISTINCT series FROM samples_local ORDER BY series")
		rollup := s.MustQuery(t, db, "SELECT DISTINCT series FROM samples_hourly_local ORDER BY series")
		if samples != rollup || samples == "" {
			t.Errorf("%s holds the samples of series %q and the rollup of %q, want the same, not none", s.HTTPAddr, samples, rollup)
		}
		for series := range strings.FieldsSeq(samples) {
			if other, ok := seen[series]; ok {
				t.Errorf("series %s is on %s and %s", series, other, s.HTTPAddr)
			}
			seen[series] = s.HTTPAddr
		}
	}
}

// TestSymbolsReadBeforeMerge checks that a symbol written twice reads as
// one, before and after ReplacingMergeTree merges its copies.
func TestSymbolsReadBeforeMerge(t *testing.T) {
	topologies(t, func(t *testing.T, rawURL string) {
		st := open(t, rawURL)
		const n = 8
		var hashes, seconds uint64
		for hash := uint64(1); hash <= n; hash++ {
			hashes += hash
			seconds += hash * 10
		}
		for range 2 {
			var w rowWriter
			for hash := uint64(1); hash <= n; hash++ {
				w.uint32(20000)
				w.uint64(hash)
				w.uint64s([]uint64{hash, hash * 10})
				w.endRow()
			}
			if err := st.c.insert(context.Background(), anyShard, "writing stacks", st.cfg.Database+".stacks", "(day, hash, locations)", &w); err != nil {
				t.Fatal(err)
			}
		}
		servers := shardServers(t, st)
		want := fmt.Sprintf("%d\t%d\t%d\n", n, hashes, seconds)
		read := "SELECT count(), sum(hash), sum(locations[2]) FROM (SELECT hash, any(locations) AS locations FROM stacks GROUP BY hash)"
		if got := servers[0].MustQuery(t, st.cfg.Database, read); got != want {
			t.Errorf("before merges: %q, want %q", got, want)
		}
		for _, s := range servers {
			s.MustQuery(t, st.cfg.Database, "OPTIMIZE TABLE "+strings.TrimPrefix(schema{st.cfg.Database, st.cfg.Cluster}.local("stacks"), st.cfg.Database+".")+" FINAL")
		}
		if got := servers[0].MustQuery(t, st.cfg.Database, read); got != want {
			t.Errorf("after merges: %q, want %q", got, want)
		}
	})
}
