package exectrace

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteMMU integrates the step function directly for every window that
// starts or ends at a step, within [t0, end].
func bruteMMU(ts []int64, us []float64, end, w int64) float64 {
	integral := func(a, b int64) float64 {
		var sum float64
		for i := range ts {
			next := end
			if i+1 < len(ts) {
				next = ts[i+1]
			}
			lo, hi := max(a, ts[i]), min(b, next)
			if hi > lo {
				sum += us[i] * float64(hi-lo)
			}
		}
		return sum
	}
	best := math.Inf(1)
	for _, b := range append(append([]int64(nil), ts...), end) {
		for _, s := range []int64{b, b - w} {
			if s >= ts[0] && s+w <= end {
				best = min(best, integral(s, s+w)/float64(w))
			}
		}
	}
	return best
}

func TestMMUIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 50 {
		windows := []int64{3, 40, 500}
		m := newMMUTracker(windows)
		var ts []int64
		var us []float64
		now := int64(1000)
		n := 10 + r.IntN(3000)
		for range n {
			u := float64(r.IntN(5)) / 4
			if len(us) == 0 || us[len(us)-1] != u {
				ts, us = append(ts, now), append(us, u)
			}
			m.step(now, u)
			now += 1 + r.Int64N(20)
		}
		got, mean := m.finish(now)
		for i, w := range windows {
			want := bruteMMU(ts, us, now, w)
			if math.IsInf(want, 1) {
				want = mean
			}
			if math.Abs(got[i]-want) > 1e-9 {
				t.Fatalf("trial %d, window %d: streaming MMU %v, direct %v", trial, w, got[i], want)
			}
		}
	}
}

func TestTimelineKeepsTotals(t *testing.T) {
	tl := newTimeline(0)
	var want float64
	r := rand.New(rand.NewPCG(5, 6))
	at := int64(0)
	for range 10000 {
		d := r.Int64N(int64(5e6))
		v := float64(r.IntN(8))
		tl.level(at, at+d, v, busyField)
		want += v * float64(d)
		at += d
	}
	if len(tl.b) > maxBuckets {
		t.Fatalf("%d buckets, want at most %d", len(tl.b), maxBuckets)
	}
	var got float64
	for _, b := range tl.b {
		got += b.busy
	}
	if math.Abs(got-want) > 1e-6*want {
		t.Fatalf("timeline holds %v, want %v", got, want)
	}
}
