package godebug

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// points makes GC points from (seconds, live MB) pairs.
func points(pairs ...float64) []GCPoint {
	var ps []GCPoint
	for i := 0; i+1 < len(pairs); i += 2 {
		ps = append(ps, GCPoint{N: i/2 + 1, Start: time.Duration(pairs[i] * 1e9), HeapLive: int64(pairs[i+1] * (1 << 20))})
	}
	return ps
}

func TestLiveHeapTrend(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	series := func(n int, f func(i int) float64) []GCPoint {
		var pairs []float64
		for i := range n {
			pairs = append(pairs, float64(i)*0.1, f(i))
		}
		return points(pairs...)
	}
	tests := []struct {
		name string
		ps   []GCPoint
		leak bool
		says string
	}{
		{
			// The map leak of the Ultimate Go article: the live heap drops
			// after each map growth, and GCs grow rarer as the heap doubles.
			name: "article map leak",
			ps: points(0.007, 3, 0.013, 7, 0.029, 15, 0.062, 30, 0.135, 60, 0.302, 42, 0.317, 120,
				0.685, 241, 1.424, 482, 2.592, 317),
			leak: true, says: "possible leak",
		},
		{name: "five GCs, all 0 MB", ps: points(36.750, 0, 36.779, 0, 36.806, 0, 36.834, 0, 36.860, 0), says: "steady"},
		{name: "too few GCs", ps: points(1, 1, 2, 5, 3, 9), says: "not enough GCs"},
		{name: "linear growth", ps: series(40, func(i int) float64 { return 10 + float64(i) }), leak: true, says: "possible leak"},
		{
			name: "cache warm-up then flat",
			ps: series(200, func(i int) float64 {
				return min(float64(i)*4, 120) + float64(rng.IntN(3))
			}),
			says: "steady",
		},
		{name: "noisy constant", ps: series(300, func(int) float64 { return 50 + float64(rng.IntN(20)) }), says: "steady"},
		{name: "sawtooth", ps: series(300, func(i int) float64 { return 20 + float64(i%30) }), says: "steady"},
		{name: "slow leak on a large heap", ps: series(100, func(i int) float64 { return 500 + float64(i) + float64(rng.IntN(3)) }), leak: true, says: "possible leak"},
		{name: "shrinking", ps: series(50, func(i int) float64 { return 200 - 3*float64(i) }), says: "steady"},
	}
	for _, tt := range tests {
		tr := LiveHeapTrend(tt.ps)
		if tr.Leak != tt.leak || !strings.HasPrefix(tr.Verdict, tt.says) {
			t.Errorf("%s: leak=%v verdict %q; want leak=%v, %q", tt.name, tr.Leak, tr.Verdict, tt.leak, tt.says)
		}
	}
}

func TestMergeGODEBUG(t *testing.T) {
	tests := []struct {
		env  []string
		want string
	}{
		{[]string{"PATH=/bin"}, "GODEBUG=gctrace=1"},
		{[]string{"GODEBUG=madvdontneed=1", "HOME=/"}, "GODEBUG=madvdontneed=1,gctrace=1"},
		{[]string{"GODEBUG=gctrace=2,http2client=0"}, "GODEBUG=http2client=0,gctrace=1"},
		{[]string{"GODEBUG="}, "GODEBUG=gctrace=1"},
	}
	for _, tt := range tests {
		got := MergeGODEBUG(tt.env, "gctrace=1")
		if got[len(got)-1] != tt.want || len(got) != len(tt.env)+boolInt(!hasGODEBUG(tt.env)) {
			t.Errorf("MergeGODEBUG(%q) = %q, want ... %q", tt.env, got, tt.want)
		}
	}
}

func hasGODEBUG(env []string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, "GODEBUG=") {
			return true
		}
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestLiveHeapTrendSmallWarmUp(t *testing.T) {
	for _, tt := range []struct {
		name string
		ps   []GCPoint
		leak bool
	}{
		{"cache built by GC 4, then flat", points(0.01, 1, 0.05, 8, 0.1, 16, 0.5, 17, 1.0, 17, 1.5, 17), false},
		{"rounding wobble after warm-up", points(0.01, 1, 0.05, 8, 0.1, 16, 0.5, 16, 1.0, 17, 1.5, 17), false},
		{"five doubling GCs", points(0.01, 3, 0.02, 6, 0.05, 12, 0.1, 23, 0.2, 45), true},
		{"starved last cycle", []GCPoint{
			{Start: 150e6, HeapStart: 3 << 20, HeapEnd: 4 << 20, HeapLive: 3 << 20},
			{Start: 160e6, HeapStart: 7 << 20, HeapEnd: 7 << 20, HeapLive: 7 << 20},
			{Start: 170e6, HeapStart: 14 << 20, HeapEnd: 16 << 20, HeapLive: 16 << 20},
			{Start: 175e6, HeapStart: 31 << 20, HeapEnd: 34 << 20, HeapLive: 21 << 20},
			{Start: 727e6, HeapStart: 39 << 20, HeapEnd: 250 << 20, HeapLive: 228 << 20},
		}, false},
	} {
		if tr := LiveHeapTrend(tt.ps); tr.Leak != tt.leak {
			t.Errorf("%s: leak=%v (%s), want %v", tt.name, tr.Leak, tr.Verdict, tt.leak)
		}
	}
}

func TestLiveHeapTrendStairs(t *testing.T) {
	var pairs []float64
	for i := range 24 {
		pairs = append(pairs, float64(i), 4+float64(i/4)) // a 1 MB step every 4 GCs
	}
	if tr := LiveHeapTrend(points(pairs...)); !tr.Leak {
		t.Errorf("slow stair-step leak on a small heap: %s", tr.Verdict)
	}
	wobble := points(0.01, 1, 0.05, 8, 0.1, 16, 0.5, 16, 1.0, 16, 1.5, 17)
	if tr := LiveHeapTrend(wobble); tr.Leak {
		t.Errorf("warm-up, then a 1 MB rounding wobble: %s", tr.Verdict)
	}
}
