package fleet_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/perflab/perflab/fleet"
	"github.com/perflab/perflab/internal/clickhousetest"
	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/internal/servertest"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/stores"
)

// TestClickHouseDown serves a store on a real ClickHouse node with a
// memory budget of a few profiles, stops ClickHouse, and pushes one
// profile a request, one after another, each left waiting: the server
// takes pushes until their rows fill the budget, then answers 429 at
// once; /targets shows the bytes waiting and ClickHouse's error. Once
// ClickHouse is back every push that waited is acknowledged, and the
// store holds exactly the acknowledged profiles. About five seconds.
func TestClickHouseDown(t *testing.T) {
	node := clickhousetest.Start(t)
	if _, err := node.Query("", "CREATE DATABASE perflab"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := stores.Open(ctx, "clickhouse://"+node.HTTPAddr+"/perflab", stores.Options{Limits: store.Limits{MemoryBudget: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	health := func() (int64, error) {
		h, _ := stores.HealthOf(st)
		return h.PendingBytes, h.Err
	}
	url := servertest.Serve(t, fleet.Options{Store: st, StoreHealth: health})
	f, err := fleetgen.New(fleetgen.Config{})
	if err != nil {
		t.Fatal(err)
	}
	node.Stop()

	type result struct {
		i   int
		err error
	}
	results := make(chan result)
	waiting, busy := 0, 0
	for i := 0; busy == 0 && i < 40; i++ {
		p, err := f.Profile("cpu", 0, i)
		if err != nil {
			t.Fatal(err)
		}
		before, _ := health()
		go func() { results <- result{i, servertest.Push(context.Background(), url, p)} }()
		// Taken (its rows wait for ClickHouse), or refused.
		deadline := time.After(30 * time.Second)
		for taken := false; !taken; {
			select {
			case <-deadline:
				t.Fatalf("push %d while ClickHouse is down: neither taken nor refused within 30 s", i)
			case r := <-results:
				if connect.CodeOf(r.err) != connect.CodeResourceExhausted {
					t.Fatalf("push %d while ClickHouse is down: %v; want it to wait, or 429 once the budget is full", r.i, r.err)
				}
				busy++
				taken = true
			case <-time.After(10 * time.Millisecond):
				if pending, _ := health(); pending > before {
					waiting++
					taken = true
				}
			}
		}
	}
	if busy == 0 || waiting == 0 {
		t.Fatalf("%d pushes waited and %d got 429 while ClickHouse was down; want some of each", waiting, busy)
	}
	var targets struct {
		Store struct {
			PendingBytes int64  `json:"pendingBytes"`
			Error        string `json:"error"`
		} `json:"store"`
	}
	code, body := get(t, url, "/targets")
	if err := json.Unmarshal([]byte(body), &targets); code != http.StatusOK || err != nil || targets.Store.PendingBytes <= 0 || targets.Store.Error == "" {
		t.Errorf("GET /targets while ClickHouse is down = %d %s; want the bytes waiting and ClickHouse's error", code, body)
	}

	if err := node.Restart(); err != nil {
		t.Fatal(err)
	}
	for range waiting {
		select {
		case r := <-results:
			if r.err != nil {
				t.Errorf("push %d after ClickHouse came back: %v", r.i, r.err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("pushes still waiting 30 s after ClickHouse came back")
		}
	}
	cpu, _ := store.LookupKind("cpu")
	infos, err := st.Profiles(ctx, store.Selection{Type: cpu.Type, Start: f.Config().Start, End: f.Config().Start.Add(time.Hour)}, 0)
	if err != nil || len(infos) != waiting {
		t.Errorf("the store holds %d profiles (%v); %d pushes were acknowledged", len(infos), err, waiting)
	}
	if _, err := health(); err != nil {
		t.Errorf("the store's health after ClickHouse came back: %v", err)
	}
}
