package storebench

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/perflab/perflab/internal/clickhousetest"
	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/clickhouse"
)

// Database is the database of the ClickHouse stores this package
// builds, and ClusterName the remote_servers entry of those of several
// shards.
const (
	Database    = "perflab"
	ClusterName = "perflab_bench"
)

// chWriters is the number of goroutines that write a ClickHouse store
// BuildClickHouse fills: the store's writer sends what they queued
// meanwhile in one batch, as it does for a server's concurrent pushes.
const chWriters = 8

// CachedClickHouse is Cached for store/clickhouse: the directory of the
// data of shards ClickHouse servers (a cluster when shards > 1) whose
// database holds days of profiles, and its manifest, loaded first if the
// cache lacks it. Serve starts servers on it.
func CachedClickHouse(ctx context.Context, cache string, days, shards int, progress io.Writer) (string, *Manifest, error) {
	dir := filepath.Join(cache, fmt.Sprintf("v%d-%ddays-clickhouse-%dshards", Version, days, shards))
	return cached(dir, func(tmp string) (*Manifest, error) { return BuildClickHouse(ctx, tmp, days, shards, progress) })
}

// Serve starts shards ClickHouse servers on loopback with their data in
// dir (see clickhousetest.Launch), creates Database on each if it is
// missing, and returns them and the store's clickhouse:// URL. The caller
// stops them.
func Serve(dir string, shards int) (*clickhousetest.Cluster, string, error) {
	name := ""
	if shards > 1 {
		name = ClusterName
	}
	c, err := clickhousetest.Launch(dir, name, shards)
	if err != nil {
		return nil, "", err
	}
	var hosts []string
	for _, s := range c.Shards {
		if _, err := s.Query("", "CREATE DATABASE IF NOT EXISTS "+Database); err != nil {
			c.Stop()
			return nil, "", fmt.Errorf("clickhouse %s: %w", s.HTTPAddr, err)
		}
		hosts = append(hosts, s.HTTPAddr)
	}
	url := "clickhouse://" + strings.Join(hosts, ",") + "/" + Database
	if name != "" {
		url += "?cluster=" + name
	}
	return c, url, nil
}

// ServerCPU returns the CPU time c's servers have used, 0 when c is nil.
func ServerCPU(c *clickhousetest.Cluster) time.Duration {
	var sum time.Duration
	if c == nil {
		return 0
	}
	for _, s := range c.Shards {
		cpu, _ := s.CPU()
		sum += cpu
	}
	return sum
}

// ServerEvents returns the counters of system.events (InsertQuery,
// Merge, ...) summed over c's servers: an insert counts once on the
// server it is sent to, and again on each shard a Distributed table
// passes its rows to. Nil when c is nil or a server does not answer.
func ServerEvents(c *clickhousetest.Cluster) map[string]int64 {
	if c == nil {
		return nil
	}
	sum := map[string]int64{}
	for _, s := range c.Shards {
		out, err := s.Query("", "SELECT event, value FROM system.events")
		if err != nil {
			return nil
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			name, value, _ := strings.Cut(line, "\t")
			n, _ := strconv.ParseInt(value, 10, 64)
			sum[name] += n
		}
	}
	return sum
}

// BuildClickHouse is Build for store/clickhouse: it starts shards servers
// with their data in dir, writes days of profiles through the store,
// has ClickHouse merge each table's parts (OPTIMIZE FINAL, what its
// background merges come to), measures the tables and stops the servers.
func BuildClickHouse(ctx context.Context, dir string, days, shards int, progress io.Writer) (*Manifest, error) {
	f, err := Fleet()
	if err != nil {
		return nil, err
	}
	c, url, err := Serve(dir, shards)
	if err != nil {
		return nil, err
	}
	defer c.Stop()
	st, err := clickhouse.Open(ctx, url, store.Limits{})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	m := newManifest(f, days)
	m.Backend, m.Shards = "clickhouse", shards
	start, cpu, server := time.Now(), cputime.Self(), ServerCPU(c)
	if m.GzipBytes, err = write(ctx, st, f, m.Profiles, chWriters, progress); err != nil {
		return nil, err
	}
	m.BuildSeconds, m.BuildCPUSeconds = time.Since(start).Seconds(), (cputime.Self() - cpu).Seconds()
	m.ServerSeconds = (ServerCPU(c) - server).Seconds()
	if err := optimize(c); err != nil {
		return nil, err
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		return nil, err
	}
	m.TotalBytes = stats.Bytes
	var first []string
	for d := range min(days, SizeDays) {
		first = append(first, "'"+strconv.FormatInt(m.Start.Unix()/86400+int64(d), 10)+"'")
	}
	for _, s := range c.Shards {
		n, err := queryInt(s, "SELECT sum(bytes_on_disk) FROM system.parts WHERE database = '"+Database+"' AND active AND table != 'schema_version' AND partition IN ("+strings.Join(first, ", ")+")")
		if err != nil {
			return nil, err
		}
		m.StoreBytes += n
	}
	return m, m.write(dir)
}

// optimize merges the parts of every partition of Database's tables on
// each server of c into one, a partition at a time (a statement must end
// within Query's minute).
func optimize(c *clickhousetest.Cluster) error {
	for _, s := range c.Shards {
		out, err := s.Query("", "SELECT DISTINCT table, partition FROM system.parts WHERE database = '"+Database+"' AND active AND table != 'schema_version'")
		if err != nil {
			return fmt.Errorf("clickhouse %s: %w", s.HTTPAddr, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			table, partition, ok := strings.Cut(line, "\t")
			if !ok {
				continue
			}
			if _, err := s.Query(Database, "OPTIMIZE TABLE "+table+" PARTITION "+partition+" FINAL"); err != nil {
				return fmt.Errorf("clickhouse %s: OPTIMIZE TABLE %s: %w", s.HTTPAddr, table, err)
			}
		}
	}
	return nil
}

// queryInt runs a query of one number on s.
func queryInt(s *clickhousetest.Server, sql string) (int64, error) {
	out, err := s.Query("", sql)
	if err != nil {
		return 0, fmt.Errorf("clickhouse %s: %w", s.HTTPAddr, err)
	}
	return strconv.ParseInt(strings.TrimSpace(out), 10, 64)
}
