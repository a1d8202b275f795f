package exectrace

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"time"

	"golang.org/x/exp/trace"
)

// A Summary is what a trace says about a program's execution.
type Summary struct {
	Duration     time.Duration
	GOMAXPROCS   int
	ProcsBusyAvg float64 // mean number of Ps running goroutines
	// ProgramBusyAvg is the mean number of Ps running the program's own
	// goroutines (the running time of States over the duration): the
	// runtime's, such as the GC's workers, left out.
	ProgramBusyAvg    float64
	GoroutinesCreated int64
	GoroutinesMax     int                      // most alive at once
	States            [numStates]time.Duration // all goroutines' time by state
	GC                GCStats
	MMU               []MMU
	SchedLatency      Latency // of runnable goroutines until they run
	// LockWait is the part of the Sync time not spent in
	// sync.WaitGroup.Wait or sync.Cond.Wait: waiting for mutexes.
	LockWait       time.Duration
	Blocking       []Blocking
	Tasks, Regions []Latency
	Timeline       []Point
	Verdicts       []string
	Events         int64
	// Lacks says what the trace does not contain that the summary is
	// made of, such as "GOMAXPROCS (no /sched/gomaxprocs:threads
	// metric)": the figures made of it are left out of the text.
	Lacks     []string
	gcVerdict int // 1 + the index of the verdict on the GC's share, 0 if none
}

// The things a trace can lack, as Summary.Lacks says them.
const (
	lackProcs      = "GOMAXPROCS (no /sched/gomaxprocs:threads metric)"
	lackGoroutines = "goroutine events (no goroutine changes state)"
)

// GCStats sums up garbage collection.
type GCStats struct {
	Count    int           // GC cycles begun
	STWCount int           // stop-the-world pauses, GC's and others
	STWTotal time.Duration // their total
	STWMax   time.Duration
	// CPUFraction is the share of the Ps' time the GC took over the
	// trace: GOMAXPROCS Ps during each GC stop-the-world, else one P for
	// each goroutine running a mark assist or a mark worker that is not
	// idle, over GOMAXPROCS times the duration.
	CPUFraction float64
}

// MMU is the minimum mutator utilization for one window size: the worst
// share of CPU left to the program in any window that long.
type MMU struct {
	Window time.Duration
	Util   float64
}

// Blocking is the time goroutines spent in one state, by stack.
type Blocking struct {
	State  State
	Total  time.Duration
	Stacks []StackTime // the largest first, at most TopStacks
}

// A StackTime is the time and count of intervals charged to one stack: the
// stack of the event that put the goroutine in the state.
type StackTime struct {
	Frames []Frame
	Count  int64
	Time   time.Duration
}

// TopStacks is how many stacks Blocking keeps per state.
const TopStacks = 5

// Finish ends the trace and returns its summary; later calls return the
// same summary.
func (a *Analyzer) Finish() *Summary {
	if a.finished != nil {
		return a.finished
	}
	s := &Summary{Events: a.events}
	a.finished = s
	if !a.started {
		return s
	}
	t := a.last
	a.levels(t)
	a.gs.each(func(g *goState) { a.charge(g, t, false) })
	a.finishProfiles()
	s.Duration = t.Sub(a.start)
	s.GOMAXPROCS = a.procs
	if s.Duration > 0 {
		s.ProcsBusyAvg = a.busyNs / float64(s.Duration)
		s.ProgramBusyAvg = float64(a.stateNs[Running]) / float64(s.Duration)
	}
	s.GoroutinesCreated, s.GoroutinesMax = a.created, a.maxAlive
	for i, ns := range a.stateNs {
		s.States[i] = time.Duration(ns)
	}
	a.finishGC(s, t)
	s.SchedLatency = a.sched.stats("scheduler latency")
	s.Blocking = a.blocking()
	s.LockWait = a.lockWait()
	s.Tasks, s.Regions = a.taskLat.stats(), a.regLat.stats()
	s.Timeline = a.tl.points(int64(t))
	s.Verdicts = verdicts(s)
	if a.procs == 0 {
		s.Lacks = append(s.Lacks, lackProcs)
	}
	if a.goEvents == 0 {
		s.Lacks = append(s.Lacks, lackGoroutines)
	}
	return s
}

// lacks reports whether the trace lacks what.
func (s *Summary) lacks(what string) bool { return slices.Contains(s.Lacks, what) }

// finishGC fills in the GC figures, the trace ending at t.
func (a *Analyzer) finishGC(s *Summary, t trace.Time) {
	g := &a.gc
	s.GC = GCStats{Count: g.cycles, STWCount: g.stwCount, STWTotal: time.Duration(g.stwTotal), STWMax: time.Duration(g.stwMax),
		CPUFraction: g.share.fraction(t)}
	mmu := g.util.finish(int64(t))
	for i, w := range mmuWindows[:len(mmu)] {
		s.MMU = append(s.MMU, MMU{Window: w, Util: mmu[i]})
	}
}

// blocking returns the top stacks of each blocking state.
func (a *Analyzer) blocking() []Blocking {
	var out []Blocking
	for st := range numStates {
		if !st.blocking() || len(a.blocked[st].c) == 0 {
			continue
		}
		b := Blocking{State: st, Total: time.Duration(a.stateNs[st])}
		a.blocked[st].each(func(id stackID, c stackCost) {
			b.Stacks = append(b.Stacks, StackTime{Frames: a.stacks.stacks[id], Count: c.Count, Time: time.Duration(c.Time)})
		})
		slices.SortFunc(b.Stacks, func(x, y StackTime) int { return cmp.Compare(y.Time, x.Time) })
		b.Stacks = b.Stacks[:min(len(b.Stacks), TopStacks)]
		out = append(out, b)
	}
	return out
}

// lockWait sums the Sync time of stacks not waiting for a WaitGroup or a Cond.
func (a *Analyzer) lockWait() time.Duration {
	var ns int64
	a.blocked[Sync].each(func(id stackID, c stackCost) {
		if !slices.ContainsFunc(a.stacks.stacks[id], func(f Frame) bool {
			return f.Func == "sync.(*WaitGroup).Wait" || f.Func == "sync.(*Cond).Wait"
		}) {
			ns += c.Time
		}
	})
	return time.Duration(ns)
}

// jsonLatency is a Latency in the -json schema.
type jsonLatency struct {
	Name  string  `json:"name"`
	Count int64   `json:"count"`
	P50   float64 `json:"p50_seconds"`
	P90   float64 `json:"p90_seconds"`
	P99   float64 `json:"p99_seconds"`
	Max   float64 `json:"max_seconds"`
}

func jsonLatencies(ls []Latency) []jsonLatency {
	out := make([]jsonLatency, 0, len(ls))
	for _, l := range ls {
		out = append(out, jsonLatency{l.Name, l.Count, l.P50.Seconds(), l.P90.Seconds(), l.P99.Seconds(), l.Max.Seconds()})
	}
	return out
}

// MarshalJSON writes the summary in the schema of docs/trace.md.
func (s *Summary) MarshalJSON() ([]byte, error) {
	states := make(map[string]float64)
	for st := range numStates {
		if st != Other {
			states[st.String()] = s.States[st].Seconds()
		}
	}
	mmu := make(map[string]float64)
	for _, m := range s.MMU {
		mmu[m.Window.String()] = round(m.Util, 6)
	}
	verdicts, lacks := s.Verdicts, s.Lacks
	if verdicts == nil {
		verdicts = []string{}
	}
	if lacks == nil {
		lacks = []string{}
	}
	return json.Marshal(struct {
		Duration   float64            `json:"duration_seconds"`
		GOMAXPROCS int                `json:"gomaxprocs"`
		Busy       float64            `json:"procs_busy_avg"`
		Created    int64              `json:"goroutines_created"`
		Max        int                `json:"goroutines_max"`
		States     map[string]float64 `json:"state_seconds"`
		GC         struct {
			Count    int     `json:"count"`
			STWTotal float64 `json:"stw_total_seconds"`
			STWMax   float64 `json:"stw_max_seconds"`
		} `json:"gc"`
		MMU      map[string]float64 `json:"mmu"`
		Tasks    []jsonLatency      `json:"tasks"`
		Regions  []jsonLatency      `json:"regions"`
		Verdicts []string           `json:"verdicts"`
		Lacks    []string           `json:"lacks"`
	}{
		Duration: s.Duration.Seconds(), GOMAXPROCS: s.GOMAXPROCS, Busy: round(s.ProcsBusyAvg, 3),
		Created: s.GoroutinesCreated, Max: s.GoroutinesMax, States: states,
		GC: struct {
			Count    int     `json:"count"`
			STWTotal float64 `json:"stw_total_seconds"`
			STWMax   float64 `json:"stw_max_seconds"`
		}{s.GC.Count, s.GC.STWTotal.Seconds(), s.GC.STWMax.Seconds()},
		MMU: mmu, Tasks: jsonLatencies(s.Tasks), Regions: jsonLatencies(s.Regions), Verdicts: verdicts, Lacks: lacks,
	})
}

func round(x float64, digits int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}
