package godebug

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/perflab/perflab/internal/units"
)

// WriteText writes the summary for a person to read; a trace of several
// processes gets a section for each.
func (s *GCSummary) WriteText(w io.Writer) error {
	if s.GCs == 0 {
		_, err := fmt.Fprintf(w, "GC: %s\n", s.Verdict)
		return err
	}
	return writeProcesses(w, s.Processes, s.EarlierProcessesOmitted, s.MalformedLines, s.EarlierProcesses, s)
}

// A processText is the summary of one process, as WriteText prints it.
type processText interface {
	processNumber() int
	writeText(b *strings.Builder)
}

func (s *GCSummary) processNumber() int    { return s.Process }
func (s *SchedSummary) processNumber() int { return s.Process }

// writeProcesses writes the summaries of the earlier processes of a trace
// and of the last, each in its own section when there are several, then
// the count of malformed lines.
func writeProcesses[S processText](w io.Writer, processes, omitted, malformed int, earlier []S, last S) error {
	b := new(strings.Builder)
	multi := processesHeader(b, processes, omitted)
	for _, e := range earlier {
		fmt.Fprintf(b, "== Process %d of %d\n\n", e.processNumber(), processes)
		e.writeText(b)
		b.WriteString("\n")
	}
	if multi {
		fmt.Fprintf(b, "== Process %d of %d\n\n", last.processNumber(), processes)
	}
	last.writeText(b)
	if malformed > 0 {
		fmt.Fprintf(b, "\nMalformed:      %d trace lines could not be parsed\n", malformed)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// processesHeader says how many processes a trace holds when there are
// several, and reports whether there are.
func processesHeader(b *strings.Builder, processes, omitted int) bool {
	if processes < 2 {
		return false
	}
	fmt.Fprintf(b, "%d processes in this trace; summarised separately", processes)
	if omitted > 0 {
		fmt.Fprintf(b, " (the %d after the first %d and before the last are counted only)", omitted, maxProcesses)
	}
	b.WriteString(".\n\n")
	return true
}

// writeText writes the figures of one process.
func (s *GCSummary) writeText(b *strings.Builder) {
	fmt.Fprintf(b, "GCs:            %d over %s (%.2f/s), %d forced, %d P\n",
		s.GCs, units.Seconds(s.DurationSeconds), s.GCsPerSecond, s.ForcedGCs, s.Procs)
	fmt.Fprintf(b, "GC CPU:         %d%% of CPU since start (runtime's figure); %s of GC CPU time, %.0f%% of it assists\n",
		s.GCCPUPercent, units.Seconds(s.GCCPUSeconds), s.AssistPercent)
	p := s.STWPause
	fmt.Fprintf(b, "STW pause:      p50 %s  p90 %s  p99 %s  max %s  (%d over 100µs, total %s)\n",
		units.Seconds(p.P50), units.Seconds(p.P90), units.Seconds(p.P99), units.Seconds(p.Max), s.PausesOver100us, units.Seconds(s.STWPauseTotal))
	fmt.Fprintf(b, "Concurrent mark: %s in total, %s mean, %s max per cycle\n",
		units.Seconds(s.MarkSeconds), units.Seconds(s.MarkSeconds/float64(s.GCs)), units.Seconds(s.MarkMaxSeconds))
	fmt.Fprintf(b, "Live heap:      %s → %s (min %s, max %s); goal %s → %s\n",
		units.MB(s.HeapLive.First), units.MB(s.HeapLive.Last), units.MB(s.HeapLive.Min), units.MB(s.HeapLive.Max),
		units.MB(s.HeapGoal.First), units.MB(s.HeapGoal.Last))
	fmt.Fprintf(b, "Verdict:        %s\n", s.Verdict)
	b.WriteString("\nOver time (last GC of each quarter of the run):\n")
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "at\tGCs\tGC CPU\tmax pause\theap start\tend\tlive\tgoal\t")
	for _, o := range s.OverTime {
		fmt.Fprintf(tw, "%s\t%d\t%d%%\t%s\t%s\t%s\t%s\t%s\t\n", units.Seconds(o.EndSeconds), o.GCs, o.GCCPUPercent,
			units.Seconds(o.PauseMax), units.MB(o.HeapStart), units.MB(o.HeapEnd), units.MB(o.HeapLive), units.MB(o.HeapGoal))
	}
	tw.Flush()
}

// WriteText writes the summary for a person to read; a trace of several
// processes gets a section for each.
func (s *SchedSummary) WriteText(w io.Writer) error {
	if s.Samples == 0 {
		_, err := fmt.Fprintf(w, "Scheduler: %s\n", s.Verdict)
		return err
	}
	return writeProcesses(w, s.Processes, s.EarlierProcessesOmitted, s.MalformedLines, s.EarlierProcesses, s)
}

// writeText writes the figures of one process.
func (s *SchedSummary) writeText(b *strings.Builder) {
	procs := fmt.Sprint(s.GOMAXPROCS)
	if s.GOMAXPROCSMin != s.GOMAXPROCSMax {
		procs += fmt.Sprintf(" (varied %d-%d)", s.GOMAXPROCSMin, s.GOMAXPROCSMax)
	}
	fmt.Fprintf(b, "Samples:        %d over %s\n", s.Samples, units.Seconds(s.DurationSeconds))
	fmt.Fprintf(b, "GOMAXPROCS:     %s; idle Ps %.1f%% on average\n", procs, s.IdleProcsPercent)
	fmt.Fprintf(b, "Threads:        max %d, last %d; spinning max %d, mean %.2f\n",
		s.ThreadsMax, s.ThreadsLast, s.SpinningMax, s.SpinningMean)
	fmt.Fprintf(b, "Global queue:   max %d, p99 %d, mean %.1f\n", s.RunQueue.Max, s.RunQueue.P99, s.RunQueue.Mean)
	fmt.Fprintf(b, "Per-P queues:   max %d, p99 %d, mean %.1f\n", s.LocalRunQueue.Max, s.LocalRunQueue.P99, s.LocalRunQueue.Mean)
	fmt.Fprintf(b, "Share:          %.0f%% of samples saturated, %.0f%% with idle Ps while goroutines waited, %.0f%% imbalanced\n",
		s.SaturatedPercent, s.IdleQueuedPercent, s.ImbalancedPercent)
	if len(s.WaitReasons) > 0 {
		var parts []string
		for _, r := range s.TopWaitReasons(5) {
			name := r
			if name == "" {
				name = "running/runnable"
			}
			parts = append(parts, fmt.Sprintf("%s %d", name, s.WaitReasons[r]))
		}
		fmt.Fprintf(b, "Goroutines:     %s (last detailed sample)\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(b, "Verdict:        %s\n", s.Verdict)
	b.WriteString("\nOver time (each quarter of the trace):\n")
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "until\tsamples\tidle Ps\tglobal queue max\tper-P queue max\tthreads max\t")
	for _, o := range s.OverTime {
		fmt.Fprintf(tw, "%s\t%d\t%.0f%%\t%d\t%d\t%d\t\n", units.Seconds(o.EndSeconds), o.Samples, o.IdleProcsPercent,
			o.RunQueueMax, o.LocalRunQueueMax, o.ThreadsMax)
	}
	tw.Flush()
}
