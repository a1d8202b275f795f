package exectrace

import (
	"fmt"
	"time"

	"github.com/perflab/perflab/internal/units"
)

// Thresholds of the verdicts.
const (
	// oneAtATime: fewer Ps than this busy on average, with more available,
	// means the work is serial.
	oneAtATime = 1.5
	// idleBusy: fewer Ps than this busy means the program mostly waits.
	idleBusy = 0.5
	// gcBound: a larger share of the CPU in GC is GC-bound.
	gcBound = 0.25
	// waitRatio: more time in a wait state than this times the running
	// time makes that wait a finding, if it is also over minWait.
	waitRatio = 0.5
	minWait   = 10 * time.Millisecond
	// schedP99: scheduler latency is a finding only if the 99th
	// percentile wait is at least this long.
	schedP99 = time.Millisecond
)

// verdicts says in plain words what the summary shows, each with its figure.
func verdicts(s *Summary) []string {
	var v []string
	if s.Duration <= 0 {
		return nil
	}
	if p := s.GOMAXPROCS; p > 1 {
		busy := s.ProcsBusyAvg
		head := fmt.Sprintf("%.1f of %d Ps busy on average", busy, p)
		switch {
		case busy < idleBusy:
			v = append(v, head+": the program mostly waits; few goroutines have work to run")
		case busy < oneAtATime:
			v = append(v, head+": the work runs one goroutine at a time")
		case busy >= 0.8*float64(p):
			v = append(v, head+": the work keeps the Ps busy")
		default:
			v = append(v, fmt.Sprintf("%s: %.0f%% of the Ps idle", head, 100*(1-busy/float64(p))))
		}
	}
	if f := s.GC.CPUFraction; f > gcBound {
		v = append(v, fmt.Sprintf("GC takes %.0f%% of the Ps (minimum mutator utilization at 10ms %s): GC-bound; allocate less or raise GOGC",
			100*f, mmuText(s, 10*time.Millisecond)))
	}
	running := s.States[Running] + s.States[GCAssist]
	wait := func(st State, what string) {
		d := s.States[st]
		if d > minWait && float64(d) > waitRatio*float64(running) {
			v = append(v, fmt.Sprintf("goroutines spent %s %s against %s running: %s",
				units.Duration(d), stateInfo[st].words, units.Duration(running), what))
		}
	}
	if d := s.LockWait; d > minWait && float64(d) > waitRatio*float64(running) {
		v = append(v, fmt.Sprintf("goroutines spent %s waiting for mutexes against %s running: lock contention (see the top sync stacks)",
			units.Duration(d), units.Duration(running)))
	}
	wait(Syscall, "syscall-bound")
	if d := s.States[Runnable]; d > minWait && float64(d) > waitRatio*float64(running) && s.SchedLatency.P99 >= schedP99 {
		v = append(v, fmt.Sprintf("goroutines waited %s runnable for a P against %s running (p99 wait %s): scheduler latency; more runnable goroutines than Ps",
			units.Duration(d), units.Duration(running), units.Duration(s.SchedLatency.P99)))
	}
	return v
}

func mmuText(s *Summary, w time.Duration) string {
	for _, m := range s.MMU {
		if m.Window == w {
			return fmt.Sprintf("%.0f%%", 100*m.Util)
		}
	}
	return "unknown"
}
