package exectrace

import (
	"strings"
	"time"

	"golang.org/x/exp/trace"
)

// mmuWindows are the windows the summary gives the minimum mutator
// utilization for.
var mmuWindows = []time.Duration{time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond}

// A gcState follows the GC: cycles, stop-the-world pauses, and the mutator
// utilization as go tool trace's MMU computes it (internal/trace/gc.go,
// MutatorUtilizationV2 with STW, background workers, assists and sweeps):
// the share of Ps not doing GC work, 0 during a GC stop-the-world.
type gcState struct {
	cycles   int
	stwCount int
	stwTotal int64
	stwMax   int64
	openSTW  map[trace.ResourceID]trace.Time
	ps       []int // GC work in progress on each P
	gcPs     int   // Ps with GC work
	gcSTW    int   // GC stop-the-world ranges open
	inAssist map[trace.GoID]bool
	bgMark   map[trace.GoID]bool
	mmu      *mmuTracker
}

func (s *gcState) init() {
	s.openSTW = make(map[trace.ResourceID]trace.Time)
	s.inAssist = make(map[trace.GoID]bool)
	s.bgMark = make(map[trace.GoID]bool)
	ws := make([]int64, len(mmuWindows))
	for i, w := range mmuWindows {
		ws[i] = int64(w)
	}
	s.mmu = newMMUTracker(ws)
}

// setProcs follows a change of GOMAXPROCS.
func (s *gcState) setProcs(n int) {
	for len(s.ps) < n {
		s.ps = append(s.ps, 0)
	}
	s.ps = s.ps[:n]
	s.gcPs = 0
	for _, c := range s.ps {
		if c > 0 {
			s.gcPs++
		}
	}
}

// procGC adds or removes one piece of GC work on P p.
func (s *gcState) procGC(p trace.ProcID, on bool) {
	if p < 0 || int(p) >= len(s.ps) {
		return
	}
	switch {
	case on:
		s.ps[p]++
		if s.ps[p] == 1 {
			s.gcPs++
		}
	case s.ps[p] > 0:
		s.ps[p]--
		if s.ps[p] == 0 {
			s.gcPs--
		}
	}
}

func (s *gcState) assist(g trace.GoID, on bool) {
	if on {
		s.inAssist[g] = true
	} else {
		delete(s.inAssist, g)
	}
}

// label marks background mark workers, which the runtime labels "GC (...)".
func (s *gcState) label(ev *trace.Event) {
	l := ev.Label().Label
	g := ev.Goroutine()
	if strings.HasPrefix(l, "GC ") && l != "GC (idle)" && !s.bgMark[g] {
		s.bgMark[g] = true
		s.procGC(ev.Proc(), true)
	}
}

// transition counts a GC goroutine starting or stopping on its P.
func (s *gcState) transition(ev *trace.Event, g trace.GoID, from, to trace.GoState) {
	if !s.inAssist[g] && !s.bgMark[g] {
		return
	}
	switch {
	case !from.Executing() && to.Executing():
		s.procGC(ev.Proc(), true)
	case from.Executing() && !to.Executing():
		s.procGC(ev.Proc(), false)
	}
}

func (s *gcState) exit(g trace.GoID) {
	delete(s.inAssist, g)
	delete(s.bgMark, g)
}

// stopTheWorld follows a stop-the-world range.
func (s *gcState) stopTheWorld(r trace.Range, begin bool, t trace.Time) {
	isGC := strings.Contains(r.Name, "GC")
	if begin {
		s.openSTW[r.Scope] = t
		if isGC {
			s.gcSTW++
		}
		return
	}
	if isGC && s.gcSTW > 0 {
		s.gcSTW--
	}
	start, ok := s.openSTW[r.Scope]
	if !ok {
		return
	}
	delete(s.openSTW, r.Scope)
	d := int64(t - start)
	s.stwCount++
	s.stwTotal += d
	s.stwMax = max(s.stwMax, d)
}

// update gives the mutator utilization from time t on.
func (s *gcState) update(t trace.Time) {
	if len(s.ps) == 0 {
		return
	}
	u := 1 - float64(s.gcPs)/float64(len(s.ps))
	if s.gcSTW > 0 {
		u = 0
	}
	s.mmu.step(int64(t), u)
}
