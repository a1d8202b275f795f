package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/perflab/perflab/godebug"
	"github.com/perflab/perflab/internal/testprog"
)

const (
	// busyProg runs 1000 goroutines that compute and yield for a second,
	// far more runnable goroutines than there are Ps.
	busyProg = `package main

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

var sink atomic.Int64

func main() {
	var wg sync.WaitGroup
	start := time.Now()
	for g := 0; g < 1000; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Since(start) < time.Second {
				x := 0
				for j := 0; j < 2000; j++ {
					x += j ^ g
				}
				sink.Add(int64(x))
				runtime.Gosched()
			}
		}()
	}
	wg.Wait()
	fmt.Println("done", sink.Load() != 0)
}
`
	// idleProg mostly sleeps.
	idleProg = `package main

import "time"

func main() {
	for i := 0; i < 8; i++ {
		time.Sleep(100 * time.Millisecond)
	}
}
`
)

// schedLineRE is the test's own reading of schedtrace lines.
var schedLineRE = regexp.MustCompile(`^SCHED (\d+)ms: gomaxprocs=(\d+) idleprocs=(\d+) threads=(\d+) .*runqueue=(\d+) \[([\d ]+)\]`)

type expectedSched struct {
	samples, gomaxprocs int
	idleShare           float64
	global, local       []float64
}

func expectSched(t *testing.T, path string) expectedSched {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var e expectedSched
	for _, line := range strings.Split(string(data), "\n") {
		m := schedLineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
		e.samples++
		e.gomaxprocs = n(2)
		e.idleShare += float64(n(3)) / float64(n(2))
		e.global = append(e.global, float64(n(5)))
		for _, f := range strings.Fields(m[6]) {
			v, _ := strconv.Atoi(f)
			e.local = append(e.local, float64(v))
		}
	}
	slices.Sort(e.global)
	slices.Sort(e.local)
	return e
}

func schedJSON(t *testing.T, out string) godebug.SchedSummary {
	t.Helper()
	var s godebug.SchedSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("perflab sched -json printed invalid JSON: %v\n%s", err, out)
	}
	return s
}

// TestSched runs perflab sched end to end on real programs; the subtests
// share one build of perflab and one trace of the goroutine-heavy program.
func TestSched(t *testing.T) {
	bin := perflab(t)
	busy := testprog.BuildSource(t, busyProg)
	trace := traceOf(t, busy, nil, "schedtrace=20")
	t.Run("SummaryOfRealTrace", func(t *testing.T) { testSchedSummary(t, bin, trace) })
	t.Run("IdleProgram", func(t *testing.T) { testSchedIdle(t, bin) })
	t.Run("DetailRun", func(t *testing.T) { testSchedDetail(t, bin, busy) })
	t.Run("HTML", func(t *testing.T) { testSchedHTML(t, bin, trace) })
	t.Run("BadInput", func(t *testing.T) { testSchedBadInput(t, bin, busy) })
	t.Run("Processes", func(t *testing.T) { testSchedProcesses(t, bin, trace) })
}

func testSchedSummary(t *testing.T, bin, trace string) {
	e := expectSched(t, trace)
	if e.samples < 3 { // schedtrace comes from sysmon, which a loaded machine delays
		t.Fatalf("the goroutine-heavy program gave only %d schedtrace samples", e.samples)
	}
	out, stderr, code := runPerflab(t, bin, "sched", "-json", trace)
	if code != 0 {
		t.Fatalf("perflab sched exited %d: %s", code, stderr)
	}
	s := schedJSON(t, out)
	wantIdle := 100 * e.idleShare / float64(e.samples)
	if s.Samples != e.samples || s.GOMAXPROCS != e.gomaxprocs || math.Abs(s.IdleProcsPercent-wantIdle) > 1e-9 {
		t.Errorf("samples %d gomaxprocs %d idle %.3f%%; want %d %d %.3f%%", s.Samples, s.GOMAXPROCS, s.IdleProcsPercent, e.samples, e.gomaxprocs, wantIdle)
	}
	if s.RunQueue.Max != int(e.global[len(e.global)-1]) || s.RunQueue.P99 != int(nearestRank(e.global, 99)) {
		t.Errorf("runqueue %+v; want max %v p99 %v", s.RunQueue, e.global[len(e.global)-1], nearestRank(e.global, 99))
	}
	if s.LocalRunQueue.Max != int(e.local[len(e.local)-1]) || s.LocalRunQueue.P99 != int(nearestRank(e.local, 99)) {
		t.Errorf("local_runqueue %+v; want max %v p99 %v", s.LocalRunQueue, e.local[len(e.local)-1], nearestRank(e.local, 99))
	}
	if s.Saturation != "saturated" {
		data, _ := os.ReadFile(trace)
		t.Errorf("1000 runnable goroutines on %d Ps: saturation %q, verdict %q\n%s", s.GOMAXPROCS, s.Saturation, s.Verdict, data)
	}
}

func testSchedIdle(t *testing.T, bin string) {
	out, stderr, code := runPerflab(t, bin, "sched", "-json", "-interval", "20ms", "--", testprog.BuildSource(t, idleProg))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if s := schedJSON(t, out); s.Samples < 5 || s.Saturation == "saturated" || s.Saturation == "busy" {
		t.Errorf("sleeping program: %d samples, saturation %q (%s)", s.Samples, s.Saturation, s.Verdict)
	}
}

func testSchedDetail(t *testing.T, bin, busy string) {
	out, stderr, code := runPerflab(t, bin, "sched", "-detail", "-interval", "30ms", "--", busy)
	if code != 0 || strings.Contains(stderr, "  G1:") || !strings.Contains(out, "done true") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	for _, w := range []string{"Per-P queues:", "Goroutines:", "Verdict:        saturated"} {
		if !strings.Contains(out, w) {
			t.Errorf("scheddetail summary lacks %q:\n%s", w, out)
		}
	}
}

// testSchedHTML checks the chart page of a real trace: its verdict and
// its two charts' data; browsertest's TestCommandPagesDraw checks in
// Chromium that such a page draws.
func testSchedHTML(t *testing.T, bin, trace string) {
	page := filepath.Join(t.TempDir(), "sched.html")
	if _, stderr, code := runPerflab(t, bin, "sched", "-html", page, "-o", os.DevNull, trace); code != 0 {
		t.Fatalf("perflab sched -html exited %d: %s", code, stderr)
	}
	checkChartPage(t, page, 2, "saturated")
}

func testSchedBadInput(t *testing.T, bin, busy string) {
	empty := filepath.Join(t.TempDir(), "empty.txt")
	os.WriteFile(empty, nil, 0o644)
	for _, tt := range []struct {
		args []string
		code int
		has  string
	}{
		{[]string{"sched", empty}, 1, "empty.txt: no schedtrace lines"},
		{[]string{"sched", "-interval", "0s", "--", busy}, 2, "-interval"},
	} {
		_, stderr, code := runPerflab(t, bin, tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.has) {
			t.Errorf("perflab %q: exit %d, stderr %q; want %d, %q", tt.args, code, stderr, tt.code, tt.has)
		}
	}
}

// testSchedProcesses joins the schedtraces of two real programs (the
// second starts again at SCHED 0ms) and checks each is summarised alone.
func testSchedProcesses(t *testing.T, bin, busyTrace string) {
	idleTrace := traceOf(t, testprog.BuildSource(t, idleProg), nil, "schedtrace=20")
	joined := joinFiles(t, busyTrace, idleTrace)
	out, stderr, code := runPerflab(t, bin, "sched", "-json", joined)
	if code != 0 {
		t.Fatalf("perflab sched exited %d: %s", code, stderr)
	}
	s := schedJSON(t, out)
	if s.Processes != 2 || len(s.EarlierProcesses) != 1 {
		t.Fatalf("processes %d, %d earlier; want 2, 1", s.Processes, len(s.EarlierProcesses))
	}
	busy, idle := expectSched(t, busyTrace), expectSched(t, idleTrace)
	if first := s.EarlierProcesses[0]; first.Samples != busy.samples || first.Saturation != "saturated" {
		t.Errorf("busy process: %d samples, %s; want %d, saturated", first.Samples, first.Saturation, busy.samples)
	}
	if wantIdle := 100 * idle.idleShare / float64(idle.samples); s.Samples != idle.samples || math.Abs(s.IdleProcsPercent-wantIdle) > 1e-9 {
		t.Errorf("idle process: %d samples, %.3f%% idle; want %d, %.3f%%", s.Samples, s.IdleProcsPercent, idle.samples, wantIdle)
	}
}
