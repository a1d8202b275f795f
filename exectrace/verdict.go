package exectrace

import (
	"fmt"
	"math"
	"time"

	"github.com/perflab/perflab/internal/units"
)

// Thresholds of the verdicts.
const (
	// nearOneP: a mean of Ps running the program's goroutines this close
	// to one, with more Ps available, means the work runs one goroutine at
	// a time.
	nearOneP = 0.25
	// idleBusy: fewer Ps than this busy means the program mostly waits.
	idleBusy = 0.5
	// gcBound: a larger share of the Ps' time in GC is GC-bound.
	gcBound = 0.25
	// waitRatio: more time in a wait state than this times the running
	// time makes that wait a finding, if it is also over minWait.
	waitRatio = 0.5
	minWait   = 10 * time.Millisecond
	// schedP99: scheduler latency is a finding only if the 99th
	// percentile wait is at least this long.
	schedP99 = time.Millisecond
)

// verdicts says in plain words what the summary shows, each with its
// figures as the summary's table prints them.
func verdicts(s *Summary) []string {
	var v []string
	if s.Duration <= 0 {
		return nil
	}
	if p := s.GOMAXPROCS; p > 1 {
		busy := s.ProcsBusyAvg
		head := fmt.Sprintf("%s of %d Ps busy on average", busyText(busy), p)
		switch {
		case busy < idleBusy:
			v = append(v, head+": the program mostly waits; few goroutines have work to run")
		case math.Abs(s.ProgramBusyAvg-1) <= nearOneP:
			v = append(v, fmt.Sprintf("%s, %s with the program's goroutines: the work runs one goroutine at a time", head, busyText(s.ProgramBusyAvg)))
		case busy >= 0.8*float64(p):
			v = append(v, head+": the work keeps the Ps busy")
		default:
			v = append(v, fmt.Sprintf("%s: %s of the Ps idle", head, pctText(s.idleShare())))
		}
	}
	if f := s.GC.CPUFraction; f > gcBound {
		s.gcVerdict = len(v) + 1
		v = append(v, fmt.Sprintf("GC took %s of the Ps' time (MMU %s): GC-bound; allocate less or raise GOGC",
			pctText(f), mmuText(s, 10*time.Millisecond)))
	}
	running := s.States[Running]
	over := func(d time.Duration) bool { return d > minWait && float64(d) > waitRatio*float64(running) }
	if d := s.LockWait; over(d) {
		v = append(v, fmt.Sprintf("goroutines spent %s waiting for mutexes against %s running: lock contention (see the top sync stacks)",
			units.Duration(d), units.Duration(running)))
	}
	if d := s.States[Syscall]; over(d) {
		v = append(v, fmt.Sprintf("goroutines spent %s %s against %s running: syscall-bound",
			units.Duration(d), stateInfo[Syscall].words, units.Duration(running)))
	}
	if d := s.States[Runnable]; over(d) && s.SchedLatency.P99 >= schedP99 {
		v = append(v, fmt.Sprintf("goroutines waited %s runnable for a P against %s running (p99 wait %s): scheduler latency; more runnable goroutines than Ps",
			units.Duration(d), units.Duration(running), units.Duration(s.SchedLatency.P99)))
	}
	return v
}

// idleShare is the share of the Ps not running goroutines, on average.
func (s *Summary) idleShare() float64 {
	return max(0, 1-s.ProcsBusyAvg/float64(max(1, s.GOMAXPROCS)))
}

// DropGCVerdict removes the verdict on the GC's share of the Ps, if there
// is one, for a report that judges the GC by another measure of the same
// run: perflab run's gctrace over the whole load.
func (s *Summary) DropGCVerdict() {
	if i := s.gcVerdict - 1; i >= 0 && i < len(s.Verdicts) {
		s.Verdicts = append(s.Verdicts[:i:i], s.Verdicts[i+1:]...)
	}
	s.gcVerdict = 0
}

// mmuText is the MMU at window w as the table prints it: "12.5% at 10ms".
func mmuText(s *Summary, w time.Duration) string {
	for _, m := range s.MMU {
		if m.Window == w {
			return pctText(m.Util) + " at " + m.Window.String()
		}
	}
	return "unknown at " + w.String()
}

// busyText and pctText format the summary's figures, for its table and
// its verdicts alike: a mean number of Ps, e.g. "1.58"; a share, e.g.
// "21.0%".
func busyText(x float64) string { return fmt.Sprintf("%.2f", x) }
func pctText(x float64) string  { return fmt.Sprintf("%.1f%%", 100*x) }
