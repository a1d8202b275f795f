package exectrace

import (
	"fmt"
	"io"
	"strings"

	"github.com/google/pprof/profile"
	"golang.org/x/exp/trace"
)

// A ProfileKind is one of the pprof-like profiles go tool trace -pprof
// makes: the time goroutines spent in one state, by the stack that entered it.
type ProfileKind int

// The profile kinds, named as go tool trace's -pprof flag names them.
const (
	ProfileNet     ProfileKind = iota // blocked on the network
	ProfileSync                       // blocked on sync, channels or select
	ProfileSyscall                    // in system calls
	ProfileSched                      // runnable, waiting for a P
	numProfiles
)

// profileInfo is the one table of profile kinds: the -pprof name, the
// goroutine state tracked and which reasons count, as in
// cmd/trace/pprof.go.
var profileInfo = [numProfiles]struct {
	name   string
	state  trace.GoState
	reason func(string) bool
}{
	ProfileNet:     {"net", trace.GoWaiting, func(r string) bool { return r == "network" }},
	ProfileSync:    {"sync", trace.GoWaiting, isSyncReason},
	ProfileSyscall: {"syscall", trace.GoSyscall, anyReason},
	ProfileSched:   {"sched", trace.GoRunnable, anyReason},
}

func isSyncReason(r string) bool {
	return strings.Contains(r, "chan") || strings.Contains(r, "sync") || strings.Contains(r, "select")
}

func anyReason(string) bool { return true }

// String returns the kind's -pprof name.
func (k ProfileKind) String() string {
	if k < 0 || k >= numProfiles {
		return "invalid"
	}
	return profileInfo[k].name
}

// ParseProfileKind returns the kind named s: net, sync, syscall or sched.
func ParseProfileKind(s string) (ProfileKind, error) {
	for k := range numProfiles {
		if profileInfo[k].name == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown profile %q (want net, sync, syscall or sched)", s)
}

// A sample is one interval a goroutine spent in a profiled state, waiting
// to learn whether go tool trace would count it (see goState.pending).
type sample struct {
	kind  ProfileKind
	stack stackID
	from  trace.Time
	to    trace.Time
	seq   int64 // the event that ended it, in the trace's order
}

// track follows a goroutine's transitions the way cmd/trace's
// makeComputePprofFunc does, for every kind at once: an interval starts
// when the goroutine enters a kind's state for one of its reasons and ends
// at its next transition to another state.
//
// go tool trace then charges only the overlap of each interval with the
// goroutine's [StartTime, EndTime] in its summary (internal/trace's
// Summarizer): StartTime is when it first ran (0 if never), EndTime when
// it exited or began to wait "forever", else the end of the trace. So an
// interval before the goroutine first ran counts only if it never runs;
// such intervals wait in g.pending until that is known.
func (a *Analyzer) track(g *goState, e *event) {
	if g.tracking >= 0 {
		if e.to == profileInfo[g.tracking].state {
			return
		}
		s := sample{kind: g.tracking, stack: g.trackStack, from: g.trackFrom, to: e.time, seq: a.events}
		g.tracking = -1
		a.profileSample(g, s)
	}
	for k := range numProfiles {
		if e.to == profileInfo[k].state && profileInfo[k].reason(e.str) {
			g.tracking, g.trackFrom = k, e.time
			g.trackStack = a.stacks.eventStack(e)
			return
		}
	}
}

// profileSample charges s, or keeps it until its goroutine decides it.
func (a *Analyzer) profileSample(g *goState, s sample) {
	if !g.ran {
		if len(g.pending) < maxPending {
			g.pending = append(g.pending, s)
		}
		return
	}
	if d := int64(s.to - max(s.from, g.firstRun)); d > 0 {
		a.profiles[s.kind].add(a.stacks.canon[s.stack], s.stack, d, s.seq)
	}
}

// maxPending bounds the samples kept for a goroutine that has not run.
const maxPending = 16

// settle charges the intervals of a goroutine that ends (exits or waits
// forever) without having run.
func (a *Analyzer) settle(g *goState) {
	if !g.ran {
		for _, s := range g.pending {
			if d := int64(s.to - s.from); d > 0 {
				a.profiles[s.kind].add(a.stacks.canon[s.stack], s.stack, d, s.seq)
			}
		}
	}
	g.pending = nil
}

// finishProfiles settles the goroutines alive at the end of the trace.
func (a *Analyzer) finishProfiles() {
	a.gs.each(a.settle)
}

// Profile returns the profile of kind k, as go tool trace -pprof=k makes
// it: sample types contentions/count and delay/nanoseconds, one sample per
// stack. Call it after Finish.
func (a *Analyzer) Profile(k ProfileKind) *profile.Profile {
	p := &profile.Profile{
		PeriodType: &profile.ValueType{Type: "trace", Unit: "count"},
		Period:     1,
		SampleType: []*profile.ValueType{
			{Type: "contentions", Unit: "count"},
			{Type: "delay", Unit: "nanoseconds"},
		},
	}
	locs := make(map[uint64]*profile.Location)
	funcs := make(map[string]*profile.Function)
	a.profiles[k].each(func(_ stackID, c stackCost) {
		var sloc []*profile.Location
		for _, f := range a.stacks.stacks[c.shown] {
			loc := locs[f.PC]
			if loc == nil {
				fn := funcs[f.File+f.Func]
				if fn == nil {
					fn = &profile.Function{ID: uint64(len(p.Function) + 1), Name: f.Func, SystemName: f.Func, Filename: f.File}
					p.Function = append(p.Function, fn)
					funcs[f.File+f.Func] = fn
				}
				loc = &profile.Location{ID: uint64(len(p.Location) + 1), Address: f.PC,
					Line: []profile.Line{{Function: fn, Line: int64(f.Line)}}}
				p.Location = append(p.Location, loc)
				locs[f.PC] = loc
			}
			sloc = append(sloc, loc)
		}
		p.Sample = append(p.Sample, &profile.Sample{Value: []int64{c.Count, c.Time}, Location: sloc})
	})
	return p
}

// WriteProfile writes the profile of kind k to w in pprof's format.
func (a *Analyzer) WriteProfile(w io.Writer, k ProfileKind) error {
	return a.Profile(k).Write(w)
}
