package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/clickhousetest"
	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/store"
)

// TestRestartDuringIngest kills ClickHouse with SIGKILL while four
// writers write, and starts it again: every profile whose Write returned
// nil is stored, once, and no profile is stored twice. Writes blocked
// while ClickHouse is down complete when it is back, or time out unacknowledged.
func TestRestartDuringIngest(t *testing.T) {
	t.Parallel()
	server := clickhousetest.Start(t)
	db := clickhousetest.Database(t, server)
	st, err := Open(context.Background(), "clickhouse://"+server.HTTPAddr+"/"+db+"?timeout=5s", store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f, err := fleetgen.New(fleetgen.Config{Instances: 4, Stacks: 200, Functions: 60, Samples: 200})
	if err != nil {
		t.Fatal(err)
	}
	const each = 12
	var acked sync.Map // profile ID → true
	var acks, failures atomic.Int64
	var wg sync.WaitGroup
	for instance := range 4 {
		wg.Go(func() {
			for i := range each {
				p, err := f.Profile("cpu", instance, i)
				if err != nil {
					t.Error(err)
					return
				}
				ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
				err = st.Write(ctx, p)
				cancel()
				if err != nil {
					t.Logf("write %d of instance %d: %v", i, instance, err)
					failures.Add(1)
					continue
				}
				sp, _ := store.Split(p.Profile)
				acked.Store(store.ProfileID(p.Labels.Sort(), p.Time.UTC(), sp), true)
				acks.Add(1)
			}
		})
	}
	for acks.Load() < 8 {
		time.Sleep(5 * time.Millisecond)
	}
	server.Stop()
	killedAt := acks.Load()
	time.Sleep(500 * time.Millisecond)
	if err := server.Restart(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	t.Logf("%d writes acknowledged (%d before the kill), %d failed", acks.Load(), killedAt, failures.Load())
	if failures.Load() > 0 || acks.Load() <= killedAt {
		t.Errorf("%d writes failed, %d acknowledged after the restart: want every write acknowledged once ClickHouse is back", failures.Load(), acks.Load()-killedAt)
	}
	infos, err := st.Profiles(context.Background(), store.Selection{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]int{}
	for _, in := range infos {
		stored[in.ID]++
	}
	acked.Range(func(id, _ any) bool {
		if stored[id.(string)] != 1 {
			t.Errorf("acknowledged profile %s is stored %d times, want once", id, stored[id.(string)])
		}
		return true
	})
	for id, n := range stored {
		if n > 1 {
			t.Errorf("profile %s is stored %d times", id, n)
		}
	}
}

// TestBusyWhileDown checks that while ClickHouse is down, Writes wait
// within the memory budget and are refused with ErrBusy beyond it, that
// Health tells why, and that those waiting are stored once it is back.
func TestBusyWhileDown(t *testing.T) {
	t.Parallel()
	server := clickhousetest.Start(t)
	db := clickhousetest.Database(t, server)
	f, err := fleetgen.New(fleetgen.Config{Instances: 2, Stacks: 100, Functions: 40, Samples: 100})
	if err != nil {
		t.Fatal(err)
	}
	first, err := f.Profile("cpu", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A budget that holds one unit of a profile: the first write to a
	// new database carries its parts, and so does the waiting one.
	st, err := Open(context.Background(), "clickhouse://"+server.HTTPAddr+"/"+db, store.Limits{MemoryBudget: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	server.Stop()
	waiting := make(chan error, 1)
	go func() { waiting <- st.Write(context.Background(), first) }()
	// The first attempt can reuse a kept-alive connection that the server
	// closed as it stopped (EOF); the retries dial, and are refused.
	deadline := time.Now().Add(10 * time.Second)
	for h := st.Health(); (h.Err == nil || !strings.Contains(h.Err.Error(), "connection refused")) && time.Now().Before(deadline); h = st.Health() {
		time.Sleep(5 * time.Millisecond)
	}
	if h := st.Health(); h.Pending == 0 || h.Err == nil || !strings.Contains(h.Err.Error(), "connection refused") {
		t.Errorf("Health while ClickHouse is down: %+v, want rows pending and the connection refused", h)
	}
	second, err := f.Profile("cpu", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Write(context.Background(), second); !errors.Is(err, store.ErrBusy) {
		t.Errorf("a Write beyond the budget while ClickHouse is down: %v, want ErrBusy", err)
	}
	select {
	case err := <-waiting:
		t.Fatalf("the first Write returned while ClickHouse was down: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := server.Restart(); err != nil {
		t.Fatal(err)
	}
	if err := <-waiting; err != nil {
		t.Fatalf("the waiting Write, once ClickHouse is back: %v", err)
	}
	if h := st.Health(); h != (Health{}) {
		t.Errorf("Health once the rows are written: %+v, want nothing pending and no error", h)
	}
	infos, err := st.Profiles(context.Background(), store.Selection{}, 0)
	if err != nil || len(infos) != 1 || fmt.Sprint(infos[0].Labels) != fmt.Sprint(first.Labels.Sort()) {
		t.Errorf("stored %v (%v), want the first profile alone", infos, err)
	}
}

// TestMissing checks what the writer asks after a failed insert: which
// series of which writes are not all in ClickHouse, for profiles and for
// samples.
func TestMissing(t *testing.T) {
	st := open(t, nodeURL(t))
	f, err := fleetgen.New(fleetgen.Config{Instances: 2, Stacks: 50, Functions: 30, Samples: 50})
	if err != nil {
		t.Fatal(err)
	}
	var units []*unit
	var sos []seriesOf
	for instance := range 2 {
		p, err := f.Profile("cpu", instance, 0)
		if err != nil {
			t.Fatal(err)
		}
		pp, err := st.prepare(p)
		if err != nil {
			t.Fatal(err)
		}
		u := encode(uint64(100+instance), []*prepared{pp}, func(int32, uint64) bool { return false })
		units = append(units, u)
		sos = append(sos, seriesOf{u, pp.series})
	}
	// The first unit's rows got there; the second's did not.
	sr := units[0].series[sos[0].series]
	for _, tc := range []struct {
		t    int
		rows *rowWriter
	}{{tProfiles, &sr.profiles}, {tSamples, seriesRowsOf(sos[:1], tSamples)}} {
		name := writtenTables[tc.t]
		if err := st.c.insert(context.Background(), anyShard, "writing", name, insertColumns(name), tc.rows); err != nil {
			t.Fatal(err)
		}
		left, err := st.w.missing(sos, tc.t)
		if err != nil {
			t.Fatal(err)
		}
		if len(left) != 1 || left[0] != sos[1] {
			t.Errorf("%s: missing %v, want the second unit's series alone", name, left)
		}
	}
}
