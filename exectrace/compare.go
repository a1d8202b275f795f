package exectrace

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/perflab/perflab/internal/units"
)

// WriteComparison writes two summaries side by side, old then new, with
// the change of each figure: which states and regions grew.
func WriteComparison(w io.Writer, old, new *Summary, oldName, newName string) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\t%s\t%s\tchange\t\n", oldName, newName)
	row := func(name string, a, b float64, format func(float64) string) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", name, format(a), format(b), change(a, b))
	}
	secs := func(x float64) string { return units.Duration(time.Duration(x)) }
	num := func(x float64) string { return fmt.Sprintf("%.4g", x) }
	pct := func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
	row("duration", float64(old.Duration), float64(new.Duration), secs)
	row("GOMAXPROCS", float64(old.GOMAXPROCS), float64(new.GOMAXPROCS), num)
	row("procs busy", old.ProcsBusyAvg, new.ProcsBusyAvg, num)
	row("goroutines created", float64(old.GoroutinesCreated), float64(new.GoroutinesCreated), num)
	row("goroutines max", float64(old.GoroutinesMax), float64(new.GoroutinesMax), num)
	for st := range numStates {
		if old.States[st] != 0 || new.States[st] != 0 {
			row("  "+st.String(), float64(old.States[st]), float64(new.States[st]), secs)
		}
	}
	row("GC cycles", float64(old.GC.Count), float64(new.GC.Count), num)
	row("STW total", float64(old.GC.STWTotal), float64(new.GC.STWTotal), secs)
	row("STW max", float64(old.GC.STWMax), float64(new.GC.STWMax), secs)
	row("GC share of Ps", old.GC.CPUFraction, new.GC.CPUFraction, pct)
	for i := range min(len(old.MMU), len(new.MMU)) {
		row("MMU "+old.MMU[i].Window.String(), old.MMU[i].Util, new.MMU[i].Util, pct)
	}
	row("sched latency p99", float64(old.SchedLatency.P99), float64(new.SchedLatency.P99), secs)
	compareLatencies(tw, "task", old.Tasks, new.Tasks, row, secs)
	compareLatencies(tw, "region", old.Regions, new.Regions, row, secs)
	return tw.Flush()
}

func compareLatencies(tw io.Writer, what string, old, new []Latency, row func(string, float64, float64, func(float64) string), secs func(float64) string) {
	byName := make(map[string]Latency)
	for _, l := range old {
		byName[l.Name] = l
	}
	seen := make(map[string]bool)
	for _, l := range new {
		o := byName[l.Name]
		seen[l.Name] = true
		row(what+" "+l.Name+" count", float64(o.Count), float64(l.Count), func(x float64) string { return fmt.Sprintf("%.0f", x) })
		row(what+" "+l.Name+" p50", float64(o.P50), float64(l.P50), secs)
		row(what+" "+l.Name+" p99", float64(o.P99), float64(l.P99), secs)
	}
	for _, o := range old {
		if !seen[o.Name] {
			row(what+" "+o.Name+" count", float64(o.Count), 0, func(x float64) string { return fmt.Sprintf("%.0f", x) })
		}
	}
}

// change formats the relative change from a to b.
func change(a, b float64) string {
	switch {
	case a == b:
		return "~"
	case a == 0:
		return "new"
	}
	return fmt.Sprintf("%+.1f%%", 100*(b-a)/a)
}
