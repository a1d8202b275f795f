package godebug

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// A SchedSummary is what a schedtrace says about a program's scheduler.
// Its JSON form is documented in docs/godebug.md.
//
// A trace of several processes (see SchedAnalyzer) is summarised process
// by process, as GCSummary is.
type SchedSummary struct {
	Processes int `json:"processes"` // processes in the trace; set on the top summary
	Process   int `json:"process"`   // 1-based number of the process summarised

	Samples          int     `json:"samples"`
	DurationSeconds  float64 `json:"duration_seconds"`
	GOMAXPROCS       int     `json:"gomaxprocs"` // at the last sample
	GOMAXPROCSMin    int     `json:"gomaxprocs_min"`
	GOMAXPROCSMax    int     `json:"gomaxprocs_max"`
	IdleProcsPercent float64 `json:"idle_procs_percent"`
	ThreadsMax       int     `json:"threads_max"`
	ThreadsLast      int     `json:"threads_last"`
	SpinningMax      int     `json:"spinning_threads_max"`
	SpinningMean     float64 `json:"spinning_threads_mean"`

	RunQueue      QueueStats `json:"runqueue"`       // global run queue
	LocalRunQueue QueueStats `json:"local_runqueue"` // per-P run queues, every P of every sample

	SaturatedPercent  float64 `json:"saturated_percent"`
	IdleQueuedPercent float64 `json:"idle_while_queued_percent"`
	ImbalancedPercent float64 `json:"imbalanced_percent"`
	Saturation        string  `json:"saturation"` // "saturated", "busy", "headroom" or "idle"
	Imbalance         string  `json:"imbalance"`  // "imbalanced", "balanced" or "unknown"
	Verdict           string  `json:"verdict"`

	OverTime []SchedWindow `json:"over_time"`

	// WaitReasons counts goroutines by wait reason in the last
	// scheddetail=1 block; nil without scheddetail.
	WaitReasons    map[string]int `json:"wait_reasons,omitempty"`
	MalformedLines int            `json:"malformed_lines"` // in the whole trace; on the top summary

	// EarlierProcesses are the summaries of the processes before the
	// last, in order (at most 100; EarlierProcessesOmitted counts the rest).
	EarlierProcesses        []*SchedSummary `json:"earlier_processes,omitempty"`
	EarlierProcessesOmitted int             `json:"earlier_processes_omitted,omitempty"`
}

// A SchedWindow summarises the samples in one quarter of the trace.
type SchedWindow struct {
	EndSeconds       float64 `json:"end_seconds"`
	Samples          int     `json:"samples"`
	IdleProcsPercent float64 `json:"idle_procs_percent"`
	RunQueueMax      int     `json:"runqueue_max"`
	LocalRunQueueMax int     `json:"local_runqueue_max"`
	ThreadsMax       int     `json:"threads_max"`
}

// QueueStats summarise run-queue lengths.
type QueueStats struct {
	Max  int     `json:"max"`
	P99  int     `json:"p99"`
	Mean float64 `json:"mean"`
}

// Verdict thresholds, as shares of samples.
const (
	saturatedShare  = 50 // % of samples with no idle P and a queue at least GOMAXPROCS long
	imbalancedShare = 20 // % of samples with goroutines queued on a P while another P idled
)

// Summary summarises the samples seen so far: those of the last process,
// with the summaries of the processes before it in EarlierProcesses.
func (a *SchedAnalyzer) Summary() *SchedSummary {
	s := a.cur.summary()
	s.Processes, s.Process = a.processes, a.processes
	s.MalformedLines = a.malformed
	s.EarlierProcesses = slices.Clone(a.earlier)
	s.EarlierProcessesOmitted = a.omitted
	return s
}

// summary summarises the samples of one process.
func (a *schedProcess) summary() *SchedSummary {
	a.flush()
	s := &SchedSummary{Samples: a.n, WaitReasons: a.waits}
	if a.n == 0 {
		s.Saturation, s.Imbalance = "unknown", "unknown"
		s.Verdict = "no schedtrace lines: run the program with GODEBUG=schedtrace=1000"
		return s
	}
	n := float64(a.n)
	last := a.points[len(a.points)-1]
	s.DurationSeconds = (a.lastAt - a.first).Seconds()
	s.GOMAXPROCS, s.GOMAXPROCSMin, s.GOMAXPROCSMax = last.GOMAXPROCS, a.sum.procsMin, a.sum.procsMax
	s.IdleProcsPercent = 100 * a.sum.idleShare / n
	s.ThreadsMax, s.ThreadsLast = a.sum.threadsMax, last.Threads
	s.SpinningMax, s.SpinningMean = a.sum.spinningMax, float64(a.sum.spinningSum)/n
	s.RunQueue = QueueStats{Max: a.globalQ.max(), P99: a.globalQ.percentile(99), Mean: a.globalQ.mean()}
	s.LocalRunQueue = QueueStats{Max: a.localQ.max(), P99: a.localQ.percentile(99), Mean: a.localQ.mean()}
	s.SaturatedPercent = 100 * float64(a.sum.saturated) / n
	s.IdleQueuedPercent = 100 * float64(a.sum.idleQueued) / n
	if a.sum.localSamples > 0 {
		s.ImbalancedPercent = 100 * float64(a.sum.imbalanced) / float64(a.sum.localSamples)
	}
	s.Saturation, s.Imbalance, s.Verdict = a.verdict(s)
	s.OverTime = schedWindows(a.points, 4)
	return s
}

// schedWindows splits the samples into k spans of equal time and
// summarises each span that holds a sample.
func schedWindows(ps []SchedPoint, k int) []SchedWindow {
	var out []SchedWindow
	for _, span := range timeSpans(ps, k, func(p SchedPoint) time.Duration { return p.At }) {
		var win SchedWindow
		var idle float64
		for _, p := range span {
			win.Samples++
			if p.GOMAXPROCS > 0 {
				idle += float64(p.IdleProcs) / float64(p.GOMAXPROCS)
			}
			win.RunQueueMax = max(win.RunQueueMax, p.RunQueue)
			win.LocalRunQueueMax = max(win.LocalRunQueueMax, p.LocalMax)
			win.ThreadsMax = max(win.ThreadsMax, p.Threads)
		}
		win.EndSeconds = span[len(span)-1].At.Seconds()
		win.IdleProcsPercent = 100 * idle / float64(win.Samples)
		out = append(out, win)
	}
	return out
}

func (a *schedProcess) verdict(s *SchedSummary) (saturation, imbalance, text string) {
	switch {
	case s.SaturatedPercent >= saturatedShare:
		saturation = "saturated"
		text = fmt.Sprintf("saturated: in %.0f%% of samples every P was busy and at least GOMAXPROCS (%d) goroutines waited to run (global queue p99 %d, per-P p99 %d)",
			s.SaturatedPercent, s.GOMAXPROCS, s.RunQueue.P99, s.LocalRunQueue.P99)
	case s.IdleProcsPercent < 10:
		saturation = "busy"
		text = fmt.Sprintf("busy: Ps were idle only %.0f%% of the time, but run queues stayed short", s.IdleProcsPercent)
	case s.IdleProcsPercent > 75:
		saturation = "idle"
		text = fmt.Sprintf("idle: %.0f%% of Ps were idle on average", s.IdleProcsPercent)
	default:
		saturation = "headroom"
		text = fmt.Sprintf("headroom: %.0f%% of Ps were idle on average", s.IdleProcsPercent)
	}
	switch {
	case a.sum.localSamples == 0 || s.GOMAXPROCSMax < 2:
		imbalance = "unknown"
	case s.ImbalancedPercent >= imbalancedShare && a.sum.imbalanced >= 2:
		imbalance = "imbalanced"
		text += fmt.Sprintf("; imbalanced: in %.0f%% of samples goroutines waited in one P's run queue while another P was idle", s.ImbalancedPercent)
	default:
		imbalance = "balanced"
		text += "; run queues balanced across Ps"
	}
	return saturation, imbalance, text
}

// TopWaitReasons returns up to n wait reasons of s, most goroutines first.
func (s *SchedSummary) TopWaitReasons(n int) []string {
	keys := slices.Collect(maps.Keys(s.WaitReasons))
	slices.SortFunc(keys, func(x, y string) int {
		return cmp.Or(cmp.Compare(s.WaitReasons[y], s.WaitReasons[x]), strings.Compare(x, y))
	})
	return keys[:min(n, len(keys))]
}
