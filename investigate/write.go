package investigate

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/perflab/perflab/internal/atomicfile"
	"github.com/perflab/perflab/internal/units"
)

// write saves report.json, report.txt, report.html and rounds.txt.
func (r *runner) write() error {
	rep := r.rep
	for _, name := range []string{"rounds.txt", "report.json", "report.txt", "report.html"} {
		rep.artefact(name)
	}
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"rounds.txt", rep.writeRounds},
		{"report.json", rep.WriteJSON},
		{"report.txt", rep.WriteText},
		{"report.html", func(w io.Writer) error { return rep.WriteHTML(w, r.flame()) }},
	}
	for _, f := range files {
		if err := atomicfile.Write(filepath.Join(r.o.Dir, f.name), f.write); err != nil {
			return err
		}
	}
	return nil
}

// WriteJSON writes the report as report.json holds it.
func (rep *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// writeRounds writes the rounds in the Go benchmark format, for -base
// (package bench reads them).
func (rep *Report) writeRounds(w io.Writer) error {
	fmt.Fprintf(w, "# perflab investigate rounds: %s\n", strings.Join(rep.Program, " "))
	for _, rd := range rep.Rounds {
		idx := 1
		for i, u := range rep.URLs {
			if u.URL == rd.URL {
				idx = i + 1
			}
		}
		if rd.Responses == 0 {
			continue
		}
		if _, err := fmt.Fprintf(w, "BenchmarkRun/url=%d 1 %.0f ns/op %.2f req/s\n", idx, rd.MeanLatency*1e9, rd.RPS); err != nil {
			return err
		}
	}
	return nil
}

// WriteText writes the report for a terminal or report.txt.
func (rep *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "perflab investigate: %s\n%s\n", strings.Join(rep.Program, " "), rep.Headline)
	fmt.Fprintf(w, "\nFindings, biggest estimated effect first:\n")
	for i, f := range rep.Findings {
		fmt.Fprintf(w, "%2d. %s\n    %s\n", i+1, f.Title, f.Evidence)
		if f.Where != "" {
			fmt.Fprintf(w, "    look at: %s\n", f.Where)
		}
	}
	if len(rep.Findings) == 0 {
		fmt.Fprintf(w, "    none\n")
	}
	rep.writeLoadText(w)
	rep.writeProfilesText(w)
	rep.writeRuntimeText(w)
	if rep.Base != nil {
		rep.Base.writeText(w)
	}
	if len(rep.Problems) > 0 {
		fmt.Fprintf(w, "\nProblems:\n")
		for _, p := range rep.Problems {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
	_, err := fmt.Fprintf(w, "\nFiles in %s: %s\n", rep.Dir, strings.Join(rep.Artefacts, " "))
	return err
}

func (rep *Report) writeLoadText(w io.Writer) {
	fmt.Fprintf(w, "\nLoad (%.1f s measured after a warm-up at %.0f req/s):\n", rep.WindowSeconds, rep.WarmupRPS)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "  url\tresponses\terrors\treq/s\tp50\tp90\tp99\tmax\n")
	for _, u := range rep.URLs {
		fmt.Fprintf(tw, "  %s %s\t%d\t%d\t%.0f\t%s\t%s\t%s\t%s\n", u.Method, u.URL, u.Responses, u.Errors+u.Non2xx, u.RPS,
			units.Seconds(u.Latency.P50), units.Seconds(u.Latency.P90), units.Seconds(u.Latency.P99), units.Seconds(u.Latency.Max))
	}
	tw.Flush()
	fmt.Fprintf(w, "  latency histogram%s:\n", rep.histogramNote())
	var most int64
	for _, b := range rep.Histogram {
		most = max(most, b.Count)
	}
	for _, b := range rep.Histogram {
		fmt.Fprintf(w, "  %10s [%d]\t|%s\n", units.Seconds(b.Le), b.Count, strings.Repeat("■", int(40*b.Count/max(most, 1))))
	}
	for i, rds := range rep.roundsByURL() {
		fmt.Fprintf(w, "  rounds of %s %s (req/s):", rep.URLs[i].Method, rep.URLs[i].URL)
		for _, rd := range rds {
			fmt.Fprintf(w, " %.0f", rd.RPS)
		}
		fmt.Fprintln(w)
	}
}

// histogramNote says how the latencies were measured: from each request's
// intended send time at a fixed rate (coordinated omission corrected), or
// from its send time in a closed loop, where there is nothing to correct.
func (rep *Report) histogramNote() string {
	if rep.Rate > 0 {
		return fmt.Sprintf(" (at a fixed rate of %s req/s: from each request's intended send time, corrected for coordinated omission)", trim(rep.Rate))
	}
	return fmt.Sprintf(" (closed loop, %d workers each sending its next request when the last one answered: from each request's send time, no coordinated-omission correction)", rep.Workers)
}

// histogramMode is histogramNote in short, for the chart's title.
func (rep *Report) histogramMode() string {
	if rep.Rate > 0 {
		return " (fixed rate: corrected for coordinated omission)"
	}
	return " (closed loop: no coordinated-omission correction)"
}

// roundsByURL returns the rounds of each of rep.URLs, in order.
func (rep *Report) roundsByURL() [][]Round {
	out := make([][]Round, len(rep.URLs))
	for _, rd := range rep.Rounds {
		for i, u := range rep.URLs {
			if u.URL == rd.URL {
				out[i] = append(out[i], rd)
				break
			}
		}
	}
	return out
}

func (rep *Report) writeProfilesText(w io.Writer) {
	c := rep.CPU
	fmt.Fprintf(w, "\nCPU (%.1f s profile): %.2f cores busy, %s of CPU per request; %.0f%% in GC, %.0f%% in malloc\n",
		c.ProfileSeconds, c.Utilization, units.Seconds(c.SecondsPerRequest), 100*c.GCShare, 100*c.MallocShare)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "flat\tflat%%\tcum\tcum%%\t  \n")
	for _, f := range rep.CPUTop {
		fmt.Fprintf(tw, "%s\t%.1f%%\t%s\t%.1f%%\t  %s\n", f.FlatText, 100*f.FlatPct, f.CumText, 100*f.CumPct, f.Func)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nAllocations: %s and %.1f objects per request (%s in the window); in-use heap grew %s\n",
		units.Bytes(int64(rep.AllocBytesPerRequest)), rep.AllocsPerRequest, units.Bytes(rep.AllocBytes), units.Bytes(rep.HeapInuseGrowth))
	for _, s := range rep.AllocTop {
		callee := ""
		if s.Callee != "" {
			callee = " → " + s.Callee
		}
		fmt.Fprintf(w, "  %5.1f%% %10s/req  %s (%s:%d)%s\n", 100*s.BytesShare, units.Bytes(int64(s.BytesPerReq)), s.Func, filepath.Base(s.File), s.Line, callee)
		for _, why := range s.Reasons {
			fmt.Fprintf(w, "           %s\n", why)
		}
		if s.CategoryTitle != "" {
			fmt.Fprintf(w, "           %s: %s\n", s.CategoryTitle, s.Hint)
		}
	}
	for _, t := range []struct {
		name string
		top  []FuncShare
	}{{"Blocking", rep.BlockTop}, {"Mutex contention", rep.MutexTop}} {
		if len(t.top) > 0 {
			fmt.Fprintf(w, "\n%s in the window:\n", t.name)
			for _, f := range t.top {
				fmt.Fprintf(w, "  %10s %5.1f%%  %s\n", f.CumText, 100*f.CumPct, f.Func)
			}
		}
	}
}

func (rep *Report) writeRuntimeText(w io.Writer) {
	g := rep.GC
	fmt.Fprintf(w, "\nGC (gctrace): %d cycles in the window, %s per 1000 requests, %.1f%% of %d Ps' CPU; pause p99 %s, max %s\n",
		g.Cycles, trim(g.CyclesPer1000), g.CPUPercent, g.Procs, units.Seconds(g.PauseP99), units.Seconds(g.PauseMax))
	fmt.Fprintf(w, "  live heap %s → %s (max %s); %s\n", units.Bytes(g.HeapLiveFirst), units.Bytes(g.HeapLiveLast), units.Bytes(g.HeapLiveMax), g.Verdict)
	gr := rep.Goroutines
	fmt.Fprintf(w, "\nGoroutines: %d at the start, %d at the end\n", gr.Start, gr.End)
	for _, x := range gr.Groups[:min(8, len(gr.Groups))] {
		by := ""
		if x.Root != "" {
			by = ", started by " + x.Root
		}
		fmt.Fprintf(w, "  %5d → %-5d %s [%s%s]\n", x.Start, x.End, x.Top, x.State, by)
	}
	for _, l := range gr.Leaks {
		fmt.Fprintf(w, "  %s\n", l)
	}
	if t := rep.Trace; t.File != "" {
		fmt.Fprintf(w, "\nExecution trace (%s, %s): %.2f of %d Ps busy on average, scheduling latency p99 %s, %s waiting for locks\n",
			t.File, units.Seconds(t.Seconds), t.BusyPs, t.GOMAXPROCS, units.Seconds(t.SchedLatencyP99), units.Seconds(t.LockWait))
		for _, l := range t.Summary {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
}
