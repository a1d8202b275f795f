package exectrace

import (
	"strings"
	"time"

	"golang.org/x/exp/trace"
)

// mmuWindows are the windows the summary gives the minimum mutator
// utilization for.
var mmuWindows = []time.Duration{time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond}

// A gcState follows the GC: cycles, stop-the-world pauses, the share of
// the Ps' time it took, and the mutator utilization as go tool trace
// computes it.
type gcState struct {
	cycles   int
	stwCount int
	stwTotal int64
	stwMax   int64
	openSTW  map[trace.ResourceID]trace.Time
	util     *mutatorUtil
	share    gcShare
}

func (s *gcState) init() {
	s.openSTW = make(map[trace.ResourceID]trace.Time)
	ws := make([]int64, len(mmuWindows))
	for i, w := range mmuWindows {
		ws[i] = int64(w)
	}
	s.util = newMutatorUtil(ws)
}

// stopTheWorld follows a stop-the-world range.
func (s *gcState) stopTheWorld(name string, scope trace.ResourceID, begin bool, t trace.Time) {
	isGC := strings.Contains(name, "GC")
	if begin {
		s.openSTW[scope] = t
		if isGC {
			s.share.stopTheWorld(t, 1)
		}
		return
	}
	if isGC {
		s.share.stopTheWorld(t, -1)
	}
	start, ok := s.openSTW[scope]
	if !ok {
		return
	}
	delete(s.openSTW, scope)
	d := int64(t - start)
	s.stwCount++
	s.stwTotal += d
	s.stwMax = max(s.stwMax, d)
}

// A gcShare integrates the Ps' time spent on GC work, as the runtime's own
// CPU accounting does (runtime/metrics' /cpu/classes/gc/, gctrace's "ms
// cpu"): one P for each goroutine running a mark assist or a mark worker
// that is not idle, and every P during a GC stop-the-world once the world
// has stopped, that is once at most one goroutine (the one that stops it)
// still runs; the Ps' time in all is GOMAXPROCS over the trace's duration.
type gcShare struct {
	since   trace.Time
	started bool
	procs   int  // GOMAXPROCS, 0 until the trace tells it
	stw     int  // GC stop-the-world ranges open
	stopped bool // within them, the world has stopped
	running int  // goroutines running
	working int  // goroutines running GC work
	gcNs    float64
	procNs  float64
	// Before the trace tells GOMAXPROCS, time counts at the GOMAXPROCS it
	// tells first: unknownNs in all, stoppedNs of it with the world stopped.
	unknownNs, stoppedNs float64
}

// charge adds the time up to t at the current levels.
func (s *gcShare) charge(t trace.Time) {
	if !s.started {
		s.started, s.since = true, t
		return
	}
	if t <= s.since {
		return
	}
	d := float64(t - s.since)
	s.since = t
	switch {
	case s.procs == 0 && s.stopped:
		s.unknownNs += d
		s.stoppedNs += d
	case s.procs == 0:
		s.unknownNs += d
		s.gcNs += d * float64(s.working)
	case s.stopped:
		s.procNs += d * float64(s.procs)
		s.gcNs += d * float64(s.procs)
	default:
		s.procNs += d * float64(s.procs)
		s.gcNs += d * float64(min(s.working, s.procs))
	}
}

// setProcs follows a change of GOMAXPROCS to n at t.
func (s *gcShare) setProcs(t trace.Time, n int) {
	s.charge(t)
	if s.procs == 0 {
		s.procNs += s.unknownNs * float64(n)
		s.gcNs += s.stoppedNs * float64(n)
		s.unknownNs, s.stoppedNs = 0, 0
	}
	s.procs = n
}

func (s *gcShare) work(t trace.Time, d int) { s.charge(t); s.working = max(0, s.working+d) }

// setRunning follows the number of goroutines running.
func (s *gcShare) setRunning(t trace.Time, n int) {
	s.charge(t)
	s.running = n
	s.stopped = s.stopped || s.stw > 0 && n <= 1
}

// stopTheWorld follows a GC stop-the-world range's begin (d = 1) or end.
func (s *gcShare) stopTheWorld(t trace.Time, d int) {
	s.charge(t)
	s.stw = max(0, s.stw+d)
	s.stopped = s.stw > 0 && (s.stopped || s.running <= 1)
}

// fraction returns the share of the Ps' time the GC took up to t.
func (s *gcShare) fraction(t trace.Time) float64 {
	s.charge(t)
	if s.procNs <= 0 {
		return 0
	}
	return s.gcNs / s.procNs
}
