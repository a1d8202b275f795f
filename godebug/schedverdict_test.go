package godebug

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// schedTrace makes n schedtrace lines from a function of the sample index
// that returns idle Ps, the global queue and the per-P queues.
func schedTrace(n, procs int, f func(i int) (idle, global int, local []int)) string {
	var b strings.Builder
	for i := range n {
		idle, global, local := f(i)
		fmt.Fprintf(&b, "SCHED %dms: gomaxprocs=%d idleprocs=%d threads=6 spinningthreads=0 needspinning=0 idlethreads=1 runqueue=%d %v\n",
			i*1000, procs, idle, global, local)
	}
	return b.String()
}

func TestSchedVerdicts(t *testing.T) {
	tests := []struct {
		name                  string
		trace                 string
		saturation, imbalance string
	}{
		{"saturated", schedTrace(20, 4, func(i int) (int, int, []int) { return 0, 50 + i, []int{3, 4, 2, 5} }), "saturated", "balanced"},
		{"busy", schedTrace(20, 4, func(i int) (int, int, []int) { return 0, 0, []int{0, 1, 0, 0} }), "busy", "balanced"},
		{"idle", schedTrace(20, 4, func(int) (int, int, []int) { return 4, 0, []int{0, 0, 0, 0} }), "idle", "balanced"},
		{"headroom", schedTrace(20, 4, func(i int) (int, int, []int) { return 2, 0, []int{0, 0, 0, 0} }), "headroom", "balanced"},
		{"imbalanced", schedTrace(20, 4, func(i int) (int, int, []int) { return 2, 0, []int{30, 0, 0, 0} }), "headroom", "imbalanced"},
		{"one P", schedTrace(20, 1, func(i int) (int, int, []int) { return 0, 32, []int{62} }), "saturated", "unknown"},
	}
	for _, tt := range tests {
		var a SchedAnalyzer
		s := NewScanner(strings.NewReader(tt.trace))
		for s.Scan() {
			a.Add(s.Result())
		}
		sum := a.Summary()
		if sum.Samples != 20 || sum.Saturation != tt.saturation || sum.Imbalance != tt.imbalance {
			t.Errorf("%s: %d samples, saturation %q, imbalance %q; want 20, %q, %q (%s)",
				tt.name, sum.Samples, sum.Saturation, sum.Imbalance, tt.saturation, tt.imbalance, sum.Verdict)
		}
	}
}

func TestTopWaitReasons(t *testing.T) {
	s := &SchedSummary{WaitReasons: map[string]int{"select": 2, "": 5, "chan receive": 2, "sleep": 1, "IO wait": 9}}
	if got, want := s.TopWaitReasons(4), []string{"IO wait", "", "chan receive", "select"}; !slices.Equal(got, want) {
		t.Errorf("TopWaitReasons(4) = %q, want %q (most first, ties by name)", got, want)
	}
	if got := s.TopWaitReasons(10); len(got) != 5 {
		t.Errorf("TopWaitReasons(10) = %q, want all 5", got)
	}
}
