package clickhouse

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// TestRetention writes profiles over three days, drops what is before the
// middle of the second: the first day's partitions are gone from every
// table on every shard, and what is left answers as a Reference holding
// the last two days does, merges included, whose parts the first day
// wrote too, read from ClickHouse.
func TestRetention(t *testing.T) {
	t.Parallel()
	topologies(t, func(t *testing.T, rawURL string) {
		st := open(t, rawURL)
		ref := storetest.NewReference(store.Limits{})
		fixture := storetest.Fixture()
		ctx := context.Background()
		// A Write for each day: the second and third days' need the parts
		// the first wrote, which the store writes again on each day.
		for day := range 3 {
			var ps []store.Profile
			for i, p := range fixture[:12] {
				p.Time = storetest.Epoch.Add(time.Duration(day)*24*time.Hour + time.Duration(i)*time.Minute)
				ps = append(ps, p)
			}
			for _, s := range []store.Store{st, ref} {
				if err := s.Write(ctx, ps...); err != nil {
					t.Fatal(err)
				}
			}
		}
		second := storetest.Epoch.Add(24 * time.Hour)
		if err := st.DropBefore(ctx, second.Add(5*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := ref.DropBefore(ctx, second); err != nil {
			t.Fatal(err)
		}
		for _, s := range shardServers(t, st) {
			got := s.MustQuery(t, st.cfg.Database, "SELECT DISTINCT table, partition FROM system.parts WHERE database = currentDatabase() AND active AND table != 'schema_version' ORDER BY table, partition")
			for line := range strings.Lines(got) {
				var day int64
				fmt.Sscan(strings.Fields(line)[1], &day)
				if day < second.UnixNano()/dayNanos {
					t.Errorf("%s: partition %s left after DropBefore", s.HTTPAddr, strings.TrimSpace(line))
				}
			}
		}
		// A store of its own, whose cache of parts is empty, reads them
		// from ClickHouse.
		st = open(t, rawURL)
		cpu, _ := store.LookupKind("cpu")
		for _, sel := range []store.Selection{{Type: cpu.Type}, {Type: cpu.Type, Start: second.Add(-time.Hour), End: second.Add(2 * time.Hour)}} {
			if got, want := mergeBytes(t, st, sel), mergeBytes(t, ref, sel); !bytes.Equal(got, want) {
				t.Errorf("merge of %v after DropBefore differs from the reference's", sel)
			}
		}
		got, err := st.Profiles(ctx, store.Selection{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := ref.Profiles(ctx, store.Selection{}, 0)
		if !slices.EqualFunc(got, want, func(a, b store.ProfileInfo) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
			t.Errorf("after DropBefore, %d profiles listed, want the reference's %d", len(got), len(want))
		}
	})
}

func mergeBytes(t *testing.T, r store.Reader, sel store.Selection) []byte {
	t.Helper()
	p, err := r.Merge(context.Background(), sel)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := p.WriteUncompressed(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
