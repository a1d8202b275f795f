package loadgen

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// record feeds latencies into a shard, as workers do.
func record(s *shard, lat ...time.Duration) {
	for _, d := range lat {
		s.recordResponse(&Sample{Latency: d, Uncorrected: d / 2, Status: 200, Bytes: 10}, d/2, d > time.Millisecond)
	}
}

// TestMeanIsExact checks the Average past hey's 1M-result cap: hey's
// mean divides a sum over all results by the count of the first million.
func TestMeanIsExact(t *testing.T) {
	s := newShard(false)
	const n = 1_500_000
	for i := range n {
		record(s, time.Duration(1000+i%1000)) // mean 1499.5 ns
	}
	record(s, 10*time.Second)
	res := result([]*shard{s}, false)
	want := (time.Duration(n)*1499 + time.Duration(n/2) + 10*time.Second) / (n + 1)
	if res.Latency.Mean != want || res.Latency.Count != n+1 || res.Responses != n+1 {
		t.Fatalf("mean %v over %d; want %v over %d", res.Latency.Mean, res.Latency.Count, want, n+1)
	}
	if p := res.Latency.Percentile(99.99); p > 2*time.Microsecond {
		t.Errorf("p99.99 = %v; the one 10 s outlier is past it", p)
	}
	if res.Latency.Max < 9990*time.Millisecond {
		t.Errorf("max = %v, want 10s", res.Latency.Max)
	}
}

func TestBuckets(t *testing.T) {
	s := newShard(false)
	record(s, time.Millisecond, 2*time.Millisecond, 2*time.Millisecond, 5*time.Millisecond, 11*time.Millisecond)
	res := result([]*shard{s}, false)
	b := res.Latency.Buckets(10)
	var total int64
	for _, bk := range b {
		total += bk.Count
	}
	if len(b) != 11 || total != 5 || b[0].Count != 1 || b[1].Count != 2 || b[10].Count != 1 {
		t.Fatalf("buckets %v; want 11 buckets holding 1, 2, ..., 1", b)
	}
	if b[0].Mark != res.Latency.Min || b[10].Mark != res.Latency.Max {
		t.Errorf("marks run from %v to %v; want Min %v to Max %v", b[0].Mark, b[10].Mark, res.Latency.Min, res.Latency.Max)
	}
}

func TestRateReport(t *testing.T) {
	s := newShard(true)
	record(s, 40*time.Microsecond, 3*time.Millisecond, 900*time.Millisecond)
	s.recordResponse(&Sample{Latency: 4 * time.Millisecond, Uncorrected: 2 * time.Millisecond}, 2*time.Millisecond, false)
	s.recordError(errFake{})
	res := result([]*shard{s}, true)
	res.Rate, res.Elapsed = 100, time.Second
	var b bytes.Buffer
	res.WriteText(&b)
	out := b.String()
	for _, want := range []string{
		"  Fastest:\t0.000040 secs",
		"Uncorrected latency distribution (from actual send times):\n  10% in 0.000020 secs",
		"  Late sends:\t3 of 4 responses went out more than 1ms late, 2 of them waiting for a busy worker",
		"Error distribution:\n  [1]\tother error (e.g. fake)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if res.Requests != 5 || res.RPS() != 4 || res.ErrorsPerSecond() != 1 {
		t.Errorf("%d requests, %v responses/s, %v errors/s; want 5, 4 and 1", res.Requests, res.RPS(), res.ErrorsPerSecond())
	}
}

type errFake struct{}

func (errFake) Error() string { return "fake" }

// TestPhasesMerge checks the Details phases over several shards, an empty
// one first: the fastest and slowest of all, the mean over all responses.
func TestPhasesMerge(t *testing.T) {
	shards := []*shard{newShard(false), newShard(false), newShard(false)}
	for i, d := range []time.Duration{2, 3, 1, 6} {
		shards[1+i%2].recordResponse(&Sample{Latency: time.Second, Read: d * time.Millisecond}, 0, false)
	}
	res := result(shards, false)
	if want := (Phase{Mean: 3 * time.Millisecond, Min: time.Millisecond, Max: 6 * time.Millisecond}); res.Read != want || res.Responses != 4 {
		t.Errorf("resp read %+v over %d responses; want %+v over 4", res.Read, res.Responses, want)
	}
	if empty := result(shards[:1], false); empty.Read != (Phase{}) {
		t.Errorf("resp read %+v with no responses; want zero", empty.Read)
	}
}
