package godebug

import (
	"slices"
	"time"
)

// A GCSummary is what a gctrace says about a program's collector. Its JSON
// form is documented in docs/godebug.md.
//
// A trace of several processes (see GCAnalyzer) is summarised process by
// process: the summary's own figures are those of the last process, and
// EarlierProcesses holds the summaries of the ones before it.
type GCSummary struct {
	Processes int `json:"processes"` // processes in the trace; set on the top summary
	Process   int `json:"process"`   // 1-based number of the process summarised

	GCs             int     `json:"gcs"`
	ForcedGCs       int     `json:"forced_gcs"`
	DurationSeconds float64 `json:"duration_seconds"`
	GCsPerSecond    float64 `json:"gcs_per_second"`
	Procs           int     `json:"procs"`

	// GCCPUPercent is the runtime's own figure from the last line: the
	// share of available CPU spent in GC since the program started.
	GCCPUPercent    int       `json:"gc_cpu_percent"`
	GCCPUSeconds    float64   `json:"gc_cpu_seconds"`
	AssistPercent   float64   `json:"assist_percent"`
	STWPause        Quantiles `json:"stw_pause_seconds"`
	STWPauseTotal   float64   `json:"stw_pause_total_seconds"`
	PausesOver100us int       `json:"pauses_over_100us"`
	MarkSeconds     float64   `json:"mark_seconds"`
	MarkMaxSeconds  float64   `json:"mark_max_seconds"`

	HeapLive Range `json:"heap_live_bytes"`
	HeapGoal Range `json:"heap_goal_bytes"`

	LiveHeapTrend float64 `json:"live_heap_trend_bytes_per_second"`
	TrendR2       float64 `json:"live_heap_trend_r2"`
	LeakSuspected bool    `json:"leak_suspected"`
	Verdict       string  `json:"verdict"`

	OverTime       []GCWindow `json:"over_time"`
	MalformedLines int        `json:"malformed_lines"` // in the whole trace; on the top summary

	// EarlierProcesses are the summaries of the processes before the
	// last, in order (at most 100; EarlierProcessesOmitted counts the rest).
	EarlierProcesses        []*GCSummary `json:"earlier_processes,omitempty"`
	EarlierProcessesOmitted int          `json:"earlier_processes_omitted,omitempty"`
}

// Quantiles summarise a distribution.
type Quantiles struct {
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// A Range is the first, last, smallest and largest value of a series.
type Range struct {
	First int64 `json:"first"`
	Last  int64 `json:"last"`
	Min   int64 `json:"min"`
	Max   int64 `json:"max"`
}

// A GCWindow summarises the collections in one quarter of the run.
type GCWindow struct {
	EndSeconds   float64 `json:"end_seconds"`
	GCs          int     `json:"gcs"`
	GCCPUPercent int     `json:"gc_cpu_percent"` // runtime's figure at the window's last GC
	PauseMax     float64 `json:"stw_pause_max_seconds"`
	HeapStart    int64   `json:"heap_start_bytes"` // at the window's last GC
	HeapEnd      int64   `json:"heap_end_bytes"`
	HeapLive     int64   `json:"heap_live_bytes"`
	HeapGoal     int64   `json:"heap_goal_bytes"`
}

// Summary summarises the collections seen so far. elapsed is how long the
// program ran, when the caller knows it (it ran the program); otherwise 0,
// and the span of the trace is used. With several processes in the trace
// elapsed is not used: it is not any one process's run time.
func (a *GCAnalyzer) Summary(elapsed time.Duration) *GCSummary {
	if a.processes > 1 {
		elapsed = 0
	}
	s := a.cur.summary(elapsed)
	s.Processes, s.Process = a.processes, a.processes
	s.MalformedLines = a.malformed
	s.EarlierProcesses = slices.Clone(a.earlier)
	s.EarlierProcessesOmitted = a.omitted
	return s
}

// summary summarises the collections of one process.
func (a *gcProcess) summary(elapsed time.Duration) *GCSummary {
	s := &GCSummary{GCs: a.n, ForcedGCs: a.forced}
	if a.n == 0 {
		s.Verdict = "no GC trace lines: run the program with GODEBUG=gctrace=1"
		return s
	}
	span, count := a.last.Start, a.n
	if a.first.N != 1 { // the trace starts mid-run: rate between first and last
		span, count = a.last.Start-a.first.Start, a.n-1
	}
	if elapsed > 0 {
		span, count = elapsed, a.n
	}
	s.DurationSeconds = span.Seconds()
	if span > 0 {
		s.GCsPerSecond = float64(count) / span.Seconds()
	}
	s.Procs = a.last.Procs
	s.GCCPUPercent = a.last.CPUPercent
	s.GCCPUSeconds = a.cpuSum.Seconds()
	if a.cpuSum > 0 {
		s.AssistPercent = 100 * a.assistSum.Seconds() / a.cpuSum.Seconds()
	}
	pauses := make([]float64, len(a.points))
	for i, p := range a.points {
		pauses[i] = p.Pause.Seconds()
	}
	s.STWPause = Quantiles{
		P50: percentile(pauses, 50), P90: percentile(pauses, 90),
		P99: percentile(pauses, 99), Max: a.pauseMax.Seconds(),
	}
	s.STWPauseTotal = a.pauseSum.Seconds()
	s.PausesOver100us = a.over100
	s.MarkSeconds = a.markSum.Seconds()
	s.MarkMaxSeconds = a.markMax.Seconds()
	s.HeapLive = rangeOf(a.points, func(p GCPoint) int64 { return p.HeapLive })
	s.HeapGoal = rangeOf(a.points, func(p GCPoint) int64 { return p.HeapGoal })
	t := tooShort(LiveHeapTrend(a.points), a.n, max(elapsed, a.last.Start))
	s.LiveHeapTrend, s.TrendR2, s.LeakSuspected, s.Verdict = t.BytesPerSecond, t.R2, t.Leak, t.Verdict
	s.OverTime = windows(a.points, 4)
	return s
}

func rangeOf(ps []GCPoint, f func(GCPoint) int64) Range {
	if len(ps) == 0 {
		return Range{}
	}
	r := Range{First: f(ps[0]), Last: f(ps[len(ps)-1]), Min: f(ps[0]), Max: f(ps[0])}
	for _, p := range ps {
		r.Min, r.Max = min(r.Min, f(p)), max(r.Max, f(p))
	}
	return r
}

// timeSpans splits points, in time order, into k spans of equal time by
// at, and returns the spans that hold a point. The last span takes
// everything left, so no point is lost to rounding.
func timeSpans[P any](ps []P, k int, at func(P) time.Duration) [][]P {
	if len(ps) == 0 {
		return nil
	}
	t0, t1 := at(ps[0]), at(ps[len(ps)-1])
	var out [][]P
	i := 0
	for w := 1; w <= k; w++ {
		end := t0 + (t1-t0)*time.Duration(w)/time.Duration(k)
		j := i
		for j < len(ps) && (at(ps[j]) <= end || w == k) {
			j++
		}
		if j > i {
			out = append(out, ps[i:j])
		}
		i = j
	}
	return out
}

// windows splits the points into k spans of equal time and summarises
// each span that holds a collection.
func windows(ps []GCPoint, k int) []GCWindow {
	var out []GCWindow
	for _, span := range timeSpans(ps, k, func(p GCPoint) time.Duration { return p.Start }) {
		var win GCWindow
		for _, p := range span {
			win.GCs++
			win.PauseMax = max(win.PauseMax, p.Pause.Seconds())
		}
		last := span[len(span)-1]
		win.EndSeconds = last.Start.Seconds()
		win.GCCPUPercent = last.CPUPercent
		win.HeapStart, win.HeapEnd, win.HeapLive, win.HeapGoal = last.HeapStart, last.HeapEnd, last.HeapLive, last.HeapGoal
		out = append(out, win)
	}
	return out
}
