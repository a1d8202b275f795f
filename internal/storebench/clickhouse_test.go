package storebench

import (
	"context"
	"testing"

	"github.com/perflab/perflab/internal/clickhousetest"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/clickhouse"
)

// TestCachedClickHouse loads a small ClickHouse store (two "days" of 24
// profiles on one server), reuses it, and serves its data again: the
// restarted server holds every profile the manifest counts, and the
// first day's bytes are not more than the whole (one calendar day holds
// both "days" here). About two seconds (two server starts and the load),
// three and a half under -race.
func TestCachedClickHouse(t *testing.T) {
	testprog.Oracle(t, clickhousetest.OracleName)
	perDay = 24
	defer func() { perDay = PerDay }()
	ctx := context.Background()
	cache := t.TempDir()
	dir, m, err := CachedClickHouse(ctx, cache, 2, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again, m2, err := CachedClickHouse(ctx, cache, 2, 1, nil); err != nil || again != dir || *m2 != *m {
		t.Fatalf("a second CachedClickHouse: %s, %+v, %v; want the store loaded, %s", again, m2, err, dir)
	}
	if m.Backend != "clickhouse" || m.Shards != 1 || m.Profiles != 2*perDay || m.StoreBytes <= 0 || m.TotalBytes < m.StoreBytes || m.ServerSeconds <= 0 {
		t.Errorf("manifest %+v: want a ClickHouse store of 1 shard, %d profiles, the first day's bytes not more than the whole, ClickHouse's CPU counted", m, 2*perDay)
	}
	c, url, err := Serve(dir, m.Shards)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	s, err := clickhouse.Open(ctx, url, store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	infos, err := s.Profiles(ctx, store.Selection{Type: m.Last(0).Type, Start: m.Start, End: m.End}, 0)
	if err != nil || len(infos) != m.Profiles {
		t.Errorf("the served store lists %d profiles (%v); the manifest says %d", len(infos), err, m.Profiles)
	}
}
