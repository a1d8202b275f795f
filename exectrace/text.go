package exectrace

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/perflab/perflab/internal/units"
)

// WriteText writes the summary for people to read. What the trace lacks
// is said in place of the figures made of it.
func (s *Summary) WriteText(w io.Writer) error {
	noGoroutines := s.lacks(lackGoroutines)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "duration\t%s\t(%d events)\n", units.Duration(s.Duration), s.Events)
	if !s.lacks(lackProcs) {
		fmt.Fprintf(tw, "GOMAXPROCS\t%d\t\n", s.GOMAXPROCS)
	}
	if !noGoroutines {
		s.writeGoroutineFigures(tw)
	}
	fmt.Fprintf(tw, "GC\t%d cycles\t%d stop-the-world pauses, %s in all, %s at most; GC took %s of the Ps' time\n",
		s.GC.Count, s.GC.STWCount, units.Duration(s.GC.STWTotal), units.Duration(s.GC.STWMax), pctText(s.GC.CPUFraction))
	if len(s.MMU) > 0 {
		var parts []string
		for _, m := range s.MMU {
			parts = append(parts, mmuText(s, m.Window))
		}
		fmt.Fprintf(tw, "MMU\t%s\tminimum mutator utilization, as go tool trace's MMU page\n", strings.Join(parts, ", "))
	}
	if l := s.SchedLatency; l.Count > 0 {
		fmt.Fprintf(tw, "sched latency\t%s p50\t%s p90, %s p99, %s max over %d waits\n",
			units.Duration(l.P50), units.Duration(l.P90), units.Duration(l.P99), units.Duration(l.Max), l.Count)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(s.Lacks) > 0 {
		fmt.Fprintf(w, "\nnot in the trace, so left out: %s\n", strings.Join(s.Lacks, "; "))
	}
	if !noGoroutines {
		if !s.lacks(lackProcs) {
			fmt.Fprintf(w, "\nbusy Ps over time: %s\n", s.sparkline(64))
		}
		s.writeStates(w)
		s.writeBlocking(w)
	}
	writeLatencies(w, "tasks", s.Tasks)
	writeLatencies(w, "regions", s.Regions)
	if len(s.Verdicts) > 0 {
		fmt.Fprintf(w, "\nverdicts:\n")
		for _, v := range s.Verdicts {
			fmt.Fprintf(w, "  - %s\n", v)
		}
	}
	return nil
}

// writeGoroutineFigures writes the rows made of the goroutines' events.
func (s *Summary) writeGoroutineFigures(tw io.Writer) {
	idle := ""
	if !s.lacks(lackProcs) {
		idle = "; " + pctText(s.idleShare()) + " of the Ps idle"
	}
	fmt.Fprintf(tw, "procs busy\t%s\tmean number of Ps running goroutines (%s the program's)%s\n", busyText(s.ProcsBusyAvg), busyText(s.ProgramBusyAvg), idle)
	fmt.Fprintf(tw, "goroutines\t%d created\t%d alive at most\n", s.GoroutinesCreated, s.GoroutinesMax)
}

// sparkline draws busy Ps over time in at most n columns, 0 to GOMAXPROCS.
func (s *Summary) sparkline(n int) string {
	if len(s.Timeline) == 0 {
		return "(empty)"
	}
	bars := []rune("▁▂▃▄▅▆▇█")
	per := (len(s.Timeline) + n - 1) / n
	top := float64(max(s.GOMAXPROCS, 1))
	var b strings.Builder
	for i := 0; i < len(s.Timeline); i += per {
		var busy, width float64
		for _, p := range s.Timeline[i:min(i+per, len(s.Timeline))] {
			busy += p.ProcsBusy * float64(p.Width)
			width += float64(p.Width)
		}
		k := int(busy / width / top * float64(len(bars)-1))
		b.WriteRune(bars[max(0, min(k, len(bars)-1))])
	}
	col := s.Timeline[0].Width * time.Duration(per)
	return fmt.Sprintf("%s  (0 to %d, %s a column)", b.String(), s.GOMAXPROCS, units.Duration(col))
}

func (s *Summary) writeStates(w io.Writer) {
	var total float64
	for _, d := range s.States {
		total += float64(d)
	}
	fmt.Fprintf(w, "\ntime of all goroutines by state (the runtime's own left out):\n")
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	for st := range numStates {
		d := s.States[st]
		if d == 0 {
			continue
		}
		fmt.Fprintf(tw, "  %s\t%.1f%%\t %s\n", units.Duration(d), 100*float64(d)/total, stateInfo[st].words)
		if st == Sync && s.LockWait > 0 {
			fmt.Fprintf(tw, "  %s\t\t   of it waiting for mutexes (not WaitGroup or Cond)\n", units.Duration(s.LockWait))
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "  (each goroutine's time counts: 10 goroutines runnable together for 1s add 10s; -pprof=sched,\n"+
		"  as go tool trace, counts only the waits that end within the trace, and of a goroutine that ran,\n"+
		"  only what follows its first run)\n")
}

func (s *Summary) writeBlocking(w io.Writer) {
	for _, b := range s.Blocking {
		if b.Total == 0 {
			continue
		}
		fmt.Fprintf(w, "\ntop stacks %s (%s in all):\n", stateInfo[b.State].words, units.Duration(b.Total))
		for _, st := range b.Stacks {
			fmt.Fprintf(w, "  %8s %6dx  %s\n", units.Duration(st.Time), st.Count, stackText(st.Frames, 4))
		}
	}
}

// stackText shows up to n frames of a stack, leaf first, skipping the
// runtime's own frames at the leaf.
func stackText(fs []Frame, n int) string {
	i := 0
	for i < len(fs)-1 && strings.HasPrefix(fs[i].Func, "runtime.") {
		i++
	}
	if len(fs) == 0 {
		return "(no stack)"
	}
	var parts []string
	for _, f := range fs[i:min(len(fs), i+n)] {
		parts = append(parts, fmt.Sprintf("%s (%s:%d)", f.Func, shortFile(f.File), f.Line))
	}
	if len(fs) > i+n {
		parts = append(parts, "...")
	}
	return strings.Join(parts, " < ")
}

func shortFile(f string) string {
	if i := strings.LastIndexByte(f, '/'); i >= 0 {
		return f[i+1:]
	}
	return f
}

func writeLatencies(w io.Writer, what string, ls []Latency) {
	if len(ls) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", what)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "  name\tcount\tp50\tp90\tp99\tmax\t\n")
	for _, l := range ls {
		fmt.Fprintf(tw, "  %s\t%d\t%s\t%s\t%s\t%s\t\n", l.Name, l.Count, units.Duration(l.P50), units.Duration(l.P90), units.Duration(l.P99), units.Duration(l.Max))
	}
	tw.Flush()
}
