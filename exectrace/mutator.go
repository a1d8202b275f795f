package exectrace

import (
	"math"
	"strings"

	"golang.org/x/exp/trace"
)

// A mutatorUtil computes the mutator utilization the way go tool trace's
// MMU page does by default (internal/trace's MutatorUtilizationV2 with
// UtilSTW, UtilBackground and UtilAssist, the "system" view), event by
// event, and feeds it to an mmuTracker. Its quirks are go tool trace's
// own, kept so that the figures agree:
//
//   - GC work is counted per P: a GC stop-the-world stops every P, a
//     goroutine in a mark assist or a background mark worker takes its P
//     while it runs; sweeping does not count.
//   - The label the runtime gives a mark worker each time it starts adds
//     one more piece of GC work to its P on top of the start itself, and
//     only the stop takes one away (a P that ran a mark worker twice stays
//     counted as doing GC work).
//   - The utilization is 1 - (Ps with GC work) / GOMAXPROCS after each
//     event, from the first GOMAXPROCS metric on; at one time the lowest
//     value wins. It ends with a step to 0 at the trace's last event, a
//     step that is no step if it is 0 already: then it ends where it
//     last changed, and no window reaches past that.
//   - A mark assist or sweep already under way when the trace starts
//     takes 1/GOMAXPROCS off everything before it in the first
//     generation, which is why that generation's steps are held until it
//     ends.
type mutatorUtil struct {
	ps    []int   // GC work on each P, as go tool trace counts it
	stw   int     // GC stop-the-world ranges open
	gs    goBytes // per goroutine: its state, and the utilGC bits
	nSync int
	// first: in the first generation, whose fix-ups need the goroutines'
	// states and the changes of GOMAXPROCS (procs).
	first bool
	procs []procsAt
	held  []utilPoint // the first generation's steps, before the tracker
	last  utilPoint   // the latest step, not final until time moves on
	have  bool
	mmu   *mmuTracker
}

type utilPoint struct {
	t int64
	u float64
}

type procsAt struct {
	t int64
	n int
}

// maxHeldSteps bounds the steps held for the first generation's fix-ups.
const maxHeldSteps = 1 << 20

// The bits of a goroutine's goBytes entry beside its state: in a mark
// assist, a background mark worker.
const (
	utilInGC   = 1 << 3
	utilBgMark = 1 << 4
	utilState  = utilInGC - 1
)

func newMutatorUtil(windows []int64) *mutatorUtil {
	return &mutatorUtil{first: true, mmu: newMMUTracker(windows)}
}

// event follows one event, in order.
func (m *mutatorUtil) event(e *event) {
	switch e.kind {
	case trace.EventSync:
		m.nSync = int(e.value)
		if m.nSync > 1 && m.first { // the first generation is over
			m.first, m.procs = false, nil
			m.flushHeld()
		}
	case trace.EventMetric:
		if e.str == "/sched/gomaxprocs:threads" {
			m.setProcs(int64(e.time), int(min(e.value, 1<<20)))
		}
	}
	if len(m.ps) == 0 {
		return // nothing is known before GOMAXPROCS
	}
	switch e.kind {
	case trace.EventRangeActive, trace.EventRangeBegin, trace.EventRangeEnd:
		m.rangeEvent(e)
	case trace.EventStateTransition:
		if e.goTransition {
			m.transition(e)
		}
	case trace.EventLabel:
		if strings.HasPrefix(e.str, "GC ") && e.str != "GC (idle)" {
			m.gs.set(e.g, m.gs.get(e.g)|utilBgMark)
			m.procGC(e.p, 1)
		}
	}
	gcPs := len(m.ps)
	if m.stw == 0 {
		gcPs = 0
		for _, n := range m.ps {
			if n > 0 {
				gcPs++
			}
		}
	}
	m.add(int64(e.time), 1-float64(gcPs)/float64(len(m.ps)))
}

// setProcs follows a change of GOMAXPROCS to n at t.
func (m *mutatorUtil) setProcs(t int64, n int) {
	if len(m.ps) == 0 && !m.have {
		m.last, m.have = utilPoint{t, 1}, true
	}
	if len(m.ps) > n {
		m.ps = m.ps[:n]
	}
	for len(m.ps) < n {
		m.ps = append(m.ps, 0)
	}
	if m.first && (len(m.procs) == 0 || m.procs[len(m.procs)-1].n != n) {
		m.procs = append(m.procs, procsAt{t, n})
	}
}

// procGC adds d pieces of GC work to P p.
func (m *mutatorUtil) procGC(p trace.ProcID, d int) {
	if p >= 0 && int(p) < len(m.ps) { // go tool trace fails on other Ps
		m.ps[p] += d
	}
}

// rangeEvent follows the GC stop-the-world and mark assist ranges.
func (m *mutatorUtil) rangeEvent(e *event) {
	isSTW := strings.HasPrefix(e.str, "stop-the-world") && strings.Contains(e.str, "GC")
	isAssist := e.str == "GC mark assist"
	d := 1
	switch e.kind {
	case trace.EventRangeActive:
		if m.nSync > 1 {
			return // known since the first generation
		}
		if isAssist && trace.GoState(m.gs.get(e.g)&utilState).Executing() {
			m.retract()
		}
	case trace.EventRangeEnd:
		d = -1
	}
	switch {
	case isSTW:
		m.stw += d
	case isAssist:
		m.procGC(e.p, d)
		if e.scope.Kind == trace.ResourceGoroutine && e.scope.Goroutine() != trace.NoGoroutine {
			g := e.scope.Goroutine()
			if d > 0 {
				m.gs.set(g, m.gs.get(g)|utilInGC)
			} else {
				m.gs.set(g, m.gs.get(g)&^utilInGC)
			}
		}
	}
}

// retract takes 1/GOMAXPROCS off every step so far, for a P found doing
// GC work since the start of the trace.
func (m *mutatorUtil) retract() {
	pts := m.held
	if m.have {
		pts = append(pts, m.last)
	}
	pi := 0
	for i := 0; i < len(pts); {
		if pi < len(m.procs)-1 && m.procs[pi+1].t < pts[i].t {
			pi++
			continue
		}
		pts[i].u = max(0, pts[i].u-1/float64(m.procs[pi].n))
		i++
	}
	if m.have {
		m.last = pts[len(pts)-1]
		m.held = pts[:len(pts)-1]
	}
}

// transition counts a GC goroutine starting or stopping on its P.
func (m *mutatorUtil) transition(e *event) {
	b := m.gs.get(e.goID)
	if b&(utilInGC|utilBgMark) != 0 {
		switch {
		case !e.from.Executing() && e.to.Executing():
			m.procGC(e.p, 1)
		case e.from.Executing() && !e.to.Executing():
			m.procGC(e.p, -1)
		}
	}
	if m.first {
		m.gs.set(e.goID, b&^utilState|byte(e.to)&utilState)
	}
}

// add records that the utilization is u from t on: the same value again
// is no step, and at the time of the latest step the lower value wins.
func (m *mutatorUtil) add(t int64, u float64) {
	if m.have {
		if u == m.last.u {
			return
		}
		if t == m.last.t {
			m.last.u = min(m.last.u, u)
			return
		}
		m.emit(m.last)
	}
	m.last, m.have = utilPoint{t, u}, true
}

// emit gives a final step to the tracker, or holds it during the first
// generation.
func (m *mutatorUtil) emit(p utilPoint) {
	if m.first && len(m.held) < maxHeldSteps {
		m.held = append(m.held, p)
		return
	}
	m.flushHeld()
	m.mmu.step(p.t, p.u)
}

func (m *mutatorUtil) flushHeld() {
	for _, p := range m.held {
		m.mmu.step(p.t, p.u)
	}
	m.held = nil
}

// finish ends the utilization at t, the trace's last event, and returns
// the MMU of each window, nil if GOMAXPROCS was never known.
func (m *mutatorUtil) finish(t int64) []float64 {
	if !m.have {
		return nil
	}
	m.add(t, 0) // no step if the utilization is 0 already: it ends earlier
	m.flushHeld()
	m.mmu.step(m.last.t, m.last.u)
	mmu, _ := m.mmu.finish(m.last.t)
	for i := range mmu {
		if math.IsNaN(mmu[i]) {
			mmu[i] = 0
		}
	}
	return mmu
}
