package godebug

import (
	"reflect"
	"testing"
	"time"
)

func TestTimeSpans(t *testing.T) {
	secs := func(ns ...int) []time.Duration {
		var out []time.Duration
		for _, n := range ns {
			out = append(out, time.Duration(n)*time.Second)
		}
		return out
	}
	tests := []struct {
		at   []time.Duration
		k    int
		want [][]time.Duration
	}{
		{nil, 4, nil},
		{secs(5), 4, [][]time.Duration{secs(5)}},
		// Ends at 2.25, 4.5, 6.75 and 9 s.
		{secs(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), 4, [][]time.Duration{secs(0, 1, 2), secs(3, 4), secs(5, 6), secs(7, 8, 9)}},
		// The middle spans are empty and left out.
		{secs(0, 1, 10), 4, [][]time.Duration{secs(0, 1), secs(10)}},
		{secs(0, 0, 0), 2, [][]time.Duration{secs(0, 0, 0)}},
	}
	for _, tt := range tests {
		got := timeSpans(tt.at, tt.k, func(d time.Duration) time.Duration { return d })
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("timeSpans(%v, %d) = %v, want %v", tt.at, tt.k, got, tt.want)
		}
	}
}

func TestWindows(t *testing.T) {
	var ps []GCPoint
	for i := range 8 {
		ps = append(ps, GCPoint{Start: time.Duration(i) * time.Second, CPUPercent: i, HeapLive: int64(i) << 20,
			Pause: time.Duration(8-i) * time.Millisecond})
	}
	got := windows(ps, 2) // 0-3.5 s and the rest
	if len(got) != 2 {
		t.Fatalf("windows: %d, want 2: %+v", len(got), got)
	}
	first, second := got[0], got[1]
	if first.GCs != 4 || first.EndSeconds != 3 || first.GCCPUPercent != 3 || first.HeapLive != 3<<20 || first.PauseMax != 0.008 {
		t.Errorf("first window %+v", first)
	}
	if second.GCs != 4 || second.EndSeconds != 7 || second.GCCPUPercent != 7 || second.HeapLive != 7<<20 || second.PauseMax != 0.004 {
		t.Errorf("second window %+v", second)
	}

	sched := []SchedPoint{
		{At: 0, GOMAXPROCS: 2, IdleProcs: 2, Threads: 3},
		{At: time.Second, GOMAXPROCS: 2, IdleProcs: 0, RunQueue: 5, Threads: 4},
	}
	sw := schedWindows(sched, 1)
	if len(sw) != 1 || sw[0].Samples != 2 || sw[0].IdleProcsPercent != 50 || sw[0].RunQueueMax != 5 || sw[0].ThreadsMax != 4 || sw[0].EndSeconds != 1 {
		t.Errorf("schedWindows: %+v", sw)
	}
}
