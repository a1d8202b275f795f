package loadgen

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestCoordinatedOmission runs against a server that stalls 1 s on
// every 300th request, loaded at 100 req/s by one worker for 10 s.
// Measured from intended send times, the ~100 requests queued behind each
// stall wait up to a second, so p99 is near 0.9 s; measured from actual
// send times (hey's view) only the 3 stalled requests are slow.
func TestCoordinatedOmission(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 10 s")
	}
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1)%300 == 0 {
			time.Sleep(time.Second)
		}
	}))
	defer srv.Close()
	res := run(t, Config{URL: srv.URL, C: 1, Rate: 100, Duration: 10 * time.Second})
	corrected, uncorrected := res.Latency.Percentile(99), res.Uncorrected.Percentile(99)
	t.Logf("%d requests; p99 corrected %v, uncorrected %v; %d late", res.Requests, corrected, uncorrected, res.Late)
	if corrected < 500*time.Millisecond {
		t.Errorf("corrected p99 = %v, want >= 0.5s", corrected)
	}
	if uncorrected >= 100*time.Millisecond {
		t.Errorf("uncorrected p99 = %v, want < 0.1s", uncorrected)
	}
	// 1000 intended sends in 10 s; the ones behind a stall go out late.
	if res.Requests < 990 || res.Requests > 1000 {
		t.Errorf("%d requests, want ~1000 at 100 req/s for 10 s", res.Requests)
	}
	if res.Late < 200 || res.Lateness.Max < 900*time.Millisecond {
		t.Errorf("%d late, lateness max %v; want ~300 late by up to ~1 s", res.Late, res.Lateness.Max)
	}
}

// TestRateIsTotal checks that -q is the total rate across workers, not
// per worker as in hey.
func TestRateIsTotal(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	res := run(t, Config{URL: srv.URL, C: 8, Rate: 200, N: 100})
	// 100 requests at 200/s total: the last is intended at 0.495 s.
	if res.Elapsed < 450*time.Millisecond || res.Elapsed > 2*time.Second {
		t.Errorf("100 requests at 200 req/s took %v; want about 0.5 s", res.Elapsed)
	}
	if res.Requests != 100 || res.Uncorrected.Count != 100 {
		t.Errorf("%d requests, %d uncorrected latencies; want 100", res.Requests, res.Uncorrected.Count)
	}
}
