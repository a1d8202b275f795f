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
	Start      time.Duration // since program start
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
//
// One stream may hold the traces of several processes one after another:
// a go command and the compiler, linker and program it runs, or traces
// joined end to end. A new process starts where the GC numbering goes back
// (to "gc 1") or the @ time goes back; each process is summarised on its
// own, so that one program's pauses and heap never mix with another's.
type GCAnalyzer struct {
	cur       gcProcess
	earlier   []*GCSummary // finished processes, at most maxProcesses
	omitted   int          // finished processes past maxProcesses
	processes int
	malformed int
}

// maxProcesses bounds the summaries of finished processes a GCAnalyzer or
// SchedAnalyzer keeps; later ones are counted, not summarised.
const maxProcesses = 100

// gcProcess accumulates the collections of one process.
type gcProcess struct {
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
	if a.cur.n > 0 && (g.N <= a.cur.last.N || g.Start < a.cur.last.Start) {
		a.finish()
	}
	if a.cur.n == 0 {
		a.processes++
	}
	a.cur.add(g)
}

// finish summarises the current process and starts afresh.
func (a *GCAnalyzer) finish() {
	if len(a.earlier) < maxProcesses {
		s := a.cur.summary(0)
		s.Process = a.processes
		a.earlier = append(a.earlier, s)
	} else {
		a.omitted++
	}
	a.cur = gcProcess{}
}

func (p *gcProcess) add(g *GC) {
	if p.n == 0 {
		p.first = *g
	}
	p.last = *g
	p.n++
	if g.Forced {
		p.forced++
	}
	pause := g.Pause()
	p.pauseSum += pause
	p.pauseMax = max(p.pauseMax, pause)
	if pause > 100*time.Microsecond {
		p.over100++
	}
	p.markSum += g.Mark
	p.markMax = max(p.markMax, g.Mark)
	p.cpuSum += g.CPU()
	p.assistSum += g.AssistCPU
	p.points = thin(&p.dec, p.points, GCPoint{
		N: g.N, Start: g.Start, CPUPercent: g.CPUPercent,
		Pause: pause, Mark: g.Mark,
		HeapStart: g.HeapStart, HeapEnd: g.HeapEnd, HeapLive: g.HeapLive, HeapGoal: g.HeapGoal,
		Forced: g.Forced,
	})
}

// GCs returns the number of collections of the current (last) process
// seen so far.
func (a *GCAnalyzer) GCs() int { return a.cur.n }

// Processes returns the number of processes seen so far.
func (a *GCAnalyzer) Processes() int { return a.processes }

// Last returns the last collection seen.
func (a *GCAnalyzer) Last() GC { return a.cur.last }

// Points returns the collections of the current (last) process kept for
// charts: all of them, or an evenly thinned sample of very long traces.
func (a *GCAnalyzer) Points() []GCPoint { return a.cur.points }
