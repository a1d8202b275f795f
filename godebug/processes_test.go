package godebug

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// gcTrace makes gctrace=1 lines numbered from first, one every step
// seconds after at, with the live heap of each given in MB and a pause of
// pauseMs milliseconds.
func gcTrace(first int, at, step float64, pauseMs float64, live ...int) string {
	var b strings.Builder
	for i, l := range live {
		fmt.Fprintf(&b, "gc %d @%.3fs 2%%: %.3f+1.0+0.010 ms clock, 0.1+0.2/0.3/0+0.02 ms cpu, %d->%d->%d MB, %d MB goal, 0 MB stacks, 0 MB globals, 2 P\n",
			first+i, at+float64(i)*step, pauseMs, l, l+1, l, 2*l)
	}
	return b.String()
}

func analyseGC(trace string, elapsed time.Duration) *GCSummary {
	var a GCAnalyzer
	s := NewScanner(strings.NewReader(trace))
	for s.Scan() {
		a.Add(s.Result())
	}
	return a.Summary(elapsed)
}

// TestGCProcessesSummarisedSeparately joins the traces of three processes
// (the numbering restarts, or the clock goes back) and checks that each is
// summarised on its own: the big pause of the first (a compiler, say) is
// not the last one's.
func TestGCProcessesSummarisedSeparately(t *testing.T) {
	compiler := gcTrace(1, 0.01, 0.05, 232, 4, 8, 12)
	linker := gcTrace(1, 0.5, 0.1, 0.05, 5, 5)        // numbering restarts, clock goes on
	program := gcTrace(7, 0.2, 0.3, 0.02, 9, 9, 9, 9) // clock goes back
	s := analyseGC(compiler+linker+program, 3*time.Second)
	if s.Processes != 3 || s.Process != 3 || len(s.EarlierProcesses) != 2 {
		t.Fatalf("processes %d, process %d, %d earlier; want 3, 3, 2", s.Processes, s.Process, len(s.EarlierProcesses))
	}
	for i, tt := range []struct {
		s        *GCSummary
		gcs      int
		maxPause float64
	}{
		{s.EarlierProcesses[0], 3, 0.232 + 0.00001},
		{s.EarlierProcesses[1], 2, 0.00005 + 0.00001},
		{s, 4, 0.00002 + 0.00001},
	} {
		if tt.s.Process != i+1 || tt.s.GCs != tt.gcs || !approx(tt.s.STWPause.Max, tt.maxPause) {
			t.Errorf("process %d: number %d, %d GCs, max pause %v; want %d GCs, %v", i+1, tt.s.Process, tt.s.GCs, tt.s.STWPause.Max, tt.gcs, tt.maxPause)
		}
	}
	// The run's elapsed time is no one process's: the last one's rate
	// comes from its own trace, mid-run (first GC is gc 7).
	if want := 3 / 0.9; !approx(s.GCsPerSecond, want) {
		t.Errorf("last process: %v GCs/s, want %v", s.GCsPerSecond, want)
	}
	var b strings.Builder
	s.WriteText(&b)
	for _, w := range []string{"3 processes in this trace; summarised separately", "== Process 1 of 3", "== Process 3 of 3", "max 232ms"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("text lacks %q:\n%s", w, b.String())
		}
	}

	one := analyseGC(program, 0)
	b.Reset()
	one.WriteText(&b)
	if one.Processes != 1 || one.EarlierProcesses != nil || strings.Contains(b.String(), "processes") {
		t.Errorf("one process: processes %d, earlier %v, text:\n%s", one.Processes, one.EarlierProcesses, b.String())
	}
}

func approx(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// TestGCProcessesBounded checks that a stream of many short processes
// keeps at most maxProcesses summaries and counts the rest.
func TestGCProcessesBounded(t *testing.T) {
	s := analyseGC(strings.Repeat(gcTrace(1, 0.01, 0.01, 0.01, 4, 4), maxProcesses+20), 0)
	if s.Processes != maxProcesses+20 || len(s.EarlierProcesses) != maxProcesses || s.EarlierProcessesOmitted != 19 {
		t.Errorf("processes %d, earlier %d, omitted %d", s.Processes, len(s.EarlierProcesses), s.EarlierProcessesOmitted)
	}
}

// TestGCTooShortForLeak checks that a heap that grows through a short run
// is not called a leak, and that the same growth over a long enough run is.
func TestGCTooShortForLeak(t *testing.T) {
	live := func(n int) []int {
		var out []int
		for i := range n {
			out = append(out, 10+10*i)
		}
		return out
	}
	for _, tt := range []struct {
		name    string
		trace   string
		elapsed time.Duration
		leak    bool
		says    string
	}{
		{"few GCs", gcTrace(1, 0.1, 1, 0.01, live(minGCsForLeak-1)...), 0, false, "heap growing; too short to call it a leak"},
		{"short time", gcTrace(1, 0.1, 0.2, 0.01, live(20)...), 0, false, "heap growing; too short to call it a leak"},
		{"long enough", gcTrace(1, 0.1, 0.6, 0.01, live(minGCsForLeak)...), 0, true, "possible leak"},
		{"ran long enough", gcTrace(1, 0.1, 0.2, 0.01, live(20)...), 6 * time.Second, true, "possible leak"},
	} {
		s := analyseGC(tt.trace, tt.elapsed)
		if s.LeakSuspected != tt.leak || !strings.HasPrefix(s.Verdict, tt.says) {
			t.Errorf("%s: leak %v, verdict %q; want %v, %q", tt.name, s.LeakSuspected, s.Verdict, tt.leak, tt.says)
		}
	}
}

// TestSchedProcessesSummarisedSeparately joins two schedtraces: the
// second starts again at SCHED 0ms.
func TestSchedProcessesSummarisedSeparately(t *testing.T) {
	busy := schedTrace(6, 4, func(i int) (int, int, []int) { return 0, 50, []int{3, 4, 2, 5} })
	idle := schedTrace(3, 2, func(int) (int, int, []int) { return 2, 0, []int{0, 0} })
	var a SchedAnalyzer
	s := NewScanner(strings.NewReader(busy + idle))
	for s.Scan() {
		a.Add(s.Result())
	}
	sum := a.Summary()
	if sum.Processes != 2 || len(sum.EarlierProcesses) != 1 {
		t.Fatalf("processes %d, earlier %d; want 2, 1", sum.Processes, len(sum.EarlierProcesses))
	}
	first := sum.EarlierProcesses[0]
	if first.Samples != 6 || first.Saturation != "saturated" || first.GOMAXPROCS != 4 {
		t.Errorf("first process: %d samples, %s, gomaxprocs %d", first.Samples, first.Saturation, first.GOMAXPROCS)
	}
	if sum.Samples != 3 || sum.Saturation != "idle" || sum.GOMAXPROCSMax != 2 || sum.DurationSeconds != 2 {
		t.Errorf("last process: %d samples, %s, gomaxprocs max %d, %vs", sum.Samples, sum.Saturation, sum.GOMAXPROCSMax, sum.DurationSeconds)
	}
	var b strings.Builder
	sum.WriteText(&b)
	if !strings.Contains(b.String(), "2 processes in this trace; summarised separately") {
		t.Errorf("text lacks the processes line:\n%s", b.String())
	}
}
