package godebug

import (
	"time"
)

// maxPoints bounds the per-cycle and per-sample points an analyzer keeps;
// past it they are thinned evenly (see decimator).
const maxPoints = 1 << 17

// A GCPoint is one collection as summaries and charts use it.
type GCPoint struct {
	N          int
	Start      time.Duration // since program start (made monotonic across restarts)
	CPUPercent int
	Pause      time.Duration
	Mark       time.Duration
	HeapStart  int64
	HeapEnd    int64
	HeapLive   int64
	HeapGoal   int64
	Forced     bool
}

// Retained estimates the heap that was live when the cycle started: the
// live (marked) heap less what was allocated during the cycle, which the
// runtime marks live whether or not it survives. It keeps a starved or
// allocation-heavy cycle (39->250->228 MB) from reading as growth.
func (p GCPoint) Retained() int64 {
	return max(0, p.HeapLive-max(0, p.HeapEnd-p.HeapStart))
}

// A GCAnalyzer accumulates gctrace records. Its zero value is ready to use.
type GCAnalyzer struct {
	points    []GCPoint
	dec       decimator
	n         int
	forced    int
	over100   int
	pauseMax  time.Duration
	pauseSum  time.Duration
	markSum   time.Duration
	markMax   time.Duration
	cpuSum    time.Duration
	assistSum time.Duration
	first     GC
	last      GC
	offset    time.Duration // added to Start after the trace's clock went back
	malformed int
}

// Add takes one record; records other than *GC and *SyntaxError are ignored.
func (a *GCAnalyzer) Add(rec Record) {
	switch r := rec.(type) {
	case *GC:
		a.addGC(r)
	case *SyntaxError:
		if r.Kind == "gc" || r.Kind == "scan" || r.Kind == "pacer" {
			a.malformed++
		}
	}
}

func (a *GCAnalyzer) addGC(g *GC) {
	if a.n > 0 && g.Start+a.offset < a.last.Start {
		a.offset = a.last.Start // a new run of the program, or a reset clock
	}
	gc := *g
	gc.Start += a.offset
	if a.n == 0 {
		a.first = gc
	}
	a.last = gc
	a.n++
	if gc.Forced {
		a.forced++
	}
	pause := gc.Pause()
	a.pauseSum += pause
	a.pauseMax = max(a.pauseMax, pause)
	if pause > 100*time.Microsecond {
		a.over100++
	}
	a.markSum += gc.Mark
	a.markMax = max(a.markMax, gc.Mark)
	a.cpuSum += gc.CPU()
	a.assistSum += gc.AssistCPU
	a.points = thin(&a.dec, a.points, GCPoint{
		N: gc.N, Start: gc.Start, CPUPercent: gc.CPUPercent,
		Pause: pause, Mark: gc.Mark,
		HeapStart: gc.HeapStart, HeapEnd: gc.HeapEnd, HeapLive: gc.HeapLive, HeapGoal: gc.HeapGoal,
		Forced: gc.Forced,
	})
}

// GCs returns the number of collections seen so far.
func (a *GCAnalyzer) GCs() int { return a.n }

// Last returns the last collection seen (made monotonic like GCPoint).
func (a *GCAnalyzer) Last() GC { return a.last }

// Points returns the collections kept for charts: all of them, or an
// evenly thinned sample of very long traces.
func (a *GCAnalyzer) Points() []GCPoint { return a.points }
