package exectrace

import (
	"strings"
	"time"

	"golang.org/x/exp/trace"
)

// An Analyzer sums up a trace event by event, keeping aggregates only:
// per live goroutine its state, per stack and kind the time, per task and
// region type a histogram, and the course over time in a fixed number of
// buckets. Feed it with Read or call Event for each event in order, then
// Finish.
type Analyzer struct {
	stacks   *stackTable
	gs       goMap[goState]
	started  bool
	start    trace.Time
	last     trace.Time
	events   int64
	syncs    int
	procs    int   // GOMAXPROCS, the largest seen
	goEvents int64 // goroutine transitions
	running  int   // goroutines running now
	alive    int
	created  int64
	maxAlive int
	busyNs   float64
	change   trace.Time // when running or alive last changed
	stateNs  [numStates]int64
	blocked  [numStates]costTable // time by stack, for the top stacks
	profiles [numProfiles]costTable
	sched    *latencyHist // runnable intervals
	gc       gcState
	tasks    map[trace.TaskID]openSpan
	taskLat  latencies
	regLat   latencies
	tl       *timeline
	finished *Summary
}

// A goState is what the Analyzer keeps of a live goroutine.
type goState struct {
	state      trace.GoState
	cat        State
	counted    bool // cat applies: the goroutine is in a counted state
	since      trace.Time
	stack      stackID // that entered a blocking state
	assist     bool
	markWorker bool // running as a mark worker that is not idle
	ran        bool
	firstRun   trace.Time
	tracking   ProfileKind // -1 if none
	trackFrom  trace.Time
	trackStack stackID
	pending    []sample
	regions    []openSpan
	named      bool // system is known
	system     bool // a runtime goroutine: left out of the states
}

// An openSpan is a task or region that has begun.
type openSpan struct {
	name  string
	start trace.Time
}

// maxOpenTasks and maxOpenRegions bound the tasks and regions (per
// goroutine) waiting for their end.
const (
	maxOpenTasks   = 1 << 20
	maxOpenRegions = 64
)

// NewAnalyzer returns an empty Analyzer.
func NewAnalyzer() *Analyzer {
	a := &Analyzer{stacks: newStackTable(),
		sched: newHist(), tasks: make(map[trace.TaskID]openSpan)}
	a.gc.init()
	return a
}

var _ Sink = (*Analyzer)(nil)

// Event adds one event; events must come in the order the reader gives.
func (a *Analyzer) Event(ev *trace.Event) {
	var e event
	e.fromReader(ev)
	a.apply(&e)
}

// apply adds one event.
func (a *Analyzer) apply(e *event) {
	t := e.time
	if !a.started {
		a.started, a.start, a.change = true, t, t
		a.tl = newTimeline(int64(t))
		a.gc.share.charge(t) // the Ps' time counts from the first event
	}
	if t > a.last {
		a.last = t
	}
	a.events++
	switch e.kind {
	case trace.EventSync:
		a.syncs++
		a.stacks.newGeneration()
	case trace.EventMetric:
		a.metric(e)
	case trace.EventStateTransition:
		if e.goTransition {
			a.goEvents++
			a.goTransition(e)
		}
	case trace.EventRangeBegin, trace.EventRangeActive, trace.EventRangeEnd:
		a.rangeEvent(e)
	case trace.EventTaskBegin:
		if len(a.tasks) < maxOpenTasks {
			a.tasks[trace.TaskID(e.value)] = openSpan{name: e.str, start: t}
		}
	case trace.EventTaskEnd:
		if sp, ok := a.tasks[trace.TaskID(e.value)]; ok {
			delete(a.tasks, trace.TaskID(e.value))
			a.taskLat.record(spanName(sp.name), int64(t-sp.start))
		}
	case trace.EventRegionBegin, trace.EventRegionEnd:
		a.region(e)
	case trace.EventLabel:
		a.label(e)
	}
	a.gc.util.event(e)
}

func spanName(s string) string {
	if s == "" {
		return "(unnamed)"
	}
	return s
}

// metric reads GOMAXPROCS and the heap size.
func (a *Analyzer) metric(e *event) {
	switch e.str {
	case "/sched/gomaxprocs:threads":
		n := int(min(e.value, 1<<20))
		a.procs = max(a.procs, n)
		a.gc.share.setProcs(e.time, n)
	case "/memory/classes/heap/objects:bytes":
		a.tl.at(int64(e.time)).heap = e.value
	}
}

// levels charges the running and alive counts up to t.
func (a *Analyzer) levels(t trace.Time) {
	if t <= a.change {
		return
	}
	from, to := int64(a.change), int64(t)
	a.busyNs += float64(a.running) * float64(to-from)
	a.tl.level(from, to, float64(a.running), busyField)
	a.tl.level(from, to, float64(a.alive), aliveField)
	a.change = t
}

// goTransition follows a goroutine from one state to the next.
func (a *Analyzer) goTransition(e *event) {
	t, id, from, to := e.time, e.goID, e.from, e.to
	g := a.gs.get(id)
	if g == nil {
		if to == trace.GoNotExist {
			return
		}
		a.levels(t) // before the counts change
		g = &goState{tracking: -1, state: trace.GoNotExist}
		a.gs.put(id, g)
		a.alive++
		a.maxAlive = max(a.maxAlive, a.alive)
		a.tl.at(int64(t)).aliveMax = max(a.tl.at(int64(t)).aliveMax, a.alive)
		if from == trace.GoNotExist {
			a.created++
		}
	}
	if !g.named {
		g.system, g.named = a.stacks.transSystem(e)
	}
	a.charge(g, t, true)
	a.track(g, e)
	gcBusy := g.gcBusy()
	if (g.state == trace.GoRunning) != (to == trace.GoRunning) || to == trace.GoNotExist {
		a.levels(t) // before the counts change
	}
	running := a.running
	if g.state == trace.GoRunning {
		a.running--
	}
	if to == trace.GoRunning {
		a.running++
		if !g.ran {
			g.ran, g.firstRun = true, t
			g.pending = nil // go tool trace finds no overlap for them
		}
	}
	if a.running != running {
		a.gc.share.setRunning(t, a.running)
	}
	if to != trace.GoRunning {
		g.markWorker = false
	}
	if to == trace.GoNotExist {
		a.alive--
		a.settle(g)
		a.gc.share.work(t, b2i(false)-b2i(gcBusy))
		a.gs.delete(id)
		return
	}
	if to == trace.GoWaiting && e.str == "forever" {
		a.settle(g)
	}
	g.state = to
	a.gc.share.work(t, b2i(g.gcBusy())-b2i(gcBusy))
	a.enter(g, e)
}

// gcBusy reports whether g takes its P for GC work: running a mark assist,
// or running as a mark worker that is not idle.
func (g *goState) gcBusy() bool { return g.state == trace.GoRunning && (g.assist || g.markWorker) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// label follows the label the runtime gives a mark worker each time it
// starts: "GC (dedicated)", "GC (fractional)" or "GC (idle)".
func (a *Analyzer) label(e *event) {
	if !strings.HasPrefix(e.str, "GC ") {
		return
	}
	g := a.gs.get(e.g)
	if g == nil {
		return
	}
	busy := g.gcBusy()
	g.markWorker = e.str != "GC (idle)"
	a.gc.share.work(e.time, b2i(g.gcBusy())-b2i(busy))
}

// charge adds the time since g entered its state to that state; closing
// says the goroutine leaves the state.
func (a *Analyzer) charge(g *goState, t trace.Time, closing bool) {
	if !g.counted || t < g.since || g.system {
		return
	}
	d := int64(t - g.since)
	a.stateNs[g.cat] += d
	if g.cat.blocking() {
		a.blocked[g.cat].addTime(g.stack, d)
	}
	if closing && g.cat == Runnable {
		a.sched.record(d)
	}
	g.since = t
}

// enter starts counting g's time in its new state.
func (a *Analyzer) enter(g *goState, e *event) {
	g.cat, g.counted = stateOf(e.to, e.str, g.assist)
	g.since = e.time
	if g.counted && !g.system && g.cat.blocking() {
		g.stack = a.stacks.canon[a.stacks.eventStack(e)]
		a.blocked[g.cat].addCount(g.stack)
	}
}

// setAssist marks goroutine id as in or out of a GC mark assist.
func (a *Analyzer) setAssist(id trace.GoID, on bool, t trace.Time) {
	g := a.gs.get(id)
	if g == nil || g.assist == on {
		return
	}
	if g.state == trace.GoRunning {
		a.charge(g, t, false)
		g.cat = Running
		if on {
			g.cat = GCAssist
		}
	}
	busy := g.gcBusy()
	g.assist = on
	a.gc.share.work(t, b2i(g.gcBusy())-b2i(busy))
}

// region records a region's begin or end on its goroutine.
func (a *Analyzer) region(e *event) {
	g := a.gs.get(e.g)
	if g == nil {
		return
	}
	if e.kind == trace.EventRegionBegin {
		if len(g.regions) < maxOpenRegions {
			g.regions = append(g.regions, openSpan{name: e.str, start: e.time})
		}
		return
	}
	for i := len(g.regions) - 1; i >= 0; i-- {
		if g.regions[i].name == e.str {
			a.regLat.record(spanName(e.str), int64(e.time-g.regions[i].start))
			g.regions = g.regions[:i]
			return
		}
	}
}

// rangeEvent follows GC phases, stop-the-world pauses, sweeps and assists.
func (a *Analyzer) rangeEvent(e *event) {
	if e.kind == trace.EventRangeActive && a.syncs > 1 {
		return // known since the first generation
	}
	begin := e.kind != trace.EventRangeEnd
	switch {
	case e.str == "GC concurrent mark phase":
		if e.kind == trace.EventRangeBegin {
			a.gc.cycles++
		}
	case strings.HasPrefix(e.str, "stop-the-world"):
		a.gc.stopTheWorld(e.str, e.scope, begin, e.time)
	case e.str == "GC mark assist":
		if e.scope.Kind == trace.ResourceGoroutine {
			a.setAssist(e.scope.Goroutine(), begin, e.time)
		}
	}
}

// durationNs converts a count of nanoseconds.
func durationNs(ns int64) time.Duration { return time.Duration(ns) }
