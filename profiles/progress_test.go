package profiles

import (
	"context"
	"sync"
	"testing"
)

// TestProgress fetches a 2-second CPU profile from a real net/http/pprof
// server and checks what Options.Progress is told: the URL and duration
// at once, a report about every second, and a last one marked Done.
func TestProgress(t *testing.T) {
	srv, _ := pprofServer(t)
	var (
		mu     sync.Mutex
		events []FetchProgress
	)
	progress := func(p FetchProgress) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, p)
	}
	if _, err := Load(context.Background(), []string{srv.URL}, Options{Seconds: 2, Progress: progress}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	u := srv.URL + "/debug/pprof/profile?seconds=2"
	if len(events) < 3 {
		t.Fatalf("Progress was called %d times (%+v); want at start, after a second and at the end", len(events), events)
	}
	for i, e := range events {
		if e.URL != u || e.Seconds != 2 || e.Done != (i == len(events)-1) {
			t.Errorf("event %d = %+v; want URL %s, 2 seconds, Done only last", i, e, u)
		}
		if i > 0 && e.Elapsed < events[i-1].Elapsed {
			t.Errorf("event %d: elapsed %v went back from %v", i, e.Elapsed, events[i-1].Elapsed)
		}
	}
	if last := events[len(events)-1].Elapsed; last < 2e9 {
		t.Errorf("the fetch ended after %v; want the 2 s the server collects", last)
	}
}
