package demo

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/perflab/perflab/internal/units"
)

// verdict says in plain words what the profiles show and what to do.
func verdict(shares []Share, hottest string, sites []Site) string {
	var parts []string
	share := map[string]float64{}
	for _, s := range shares {
		share[s.Category] = s.Fraction
		if s.Fraction >= 0.05 {
			parts = append(parts, s.phrase(len(parts) == 0))
		}
	}
	var b strings.Builder
	if len(parts) > 0 {
		fmt.Fprintf(&b, "The naive loop finder spends %s. ", strings.Join(parts, "; "))
	}
	fmt.Fprintf(&b, "Its hottest function is %s. ", hottest)
	if len(sites) > 0 {
		s := sites[0]
		fmt.Fprintf(&b, "Its biggest allocation site is %s:%d in %s, `%s`, with %.0f%% of the bytes allocated. ",
			s.File, s.Line, shortName(s.Function), sourceLine(s.File, s.Line), 100*s.Fraction)
	}
	var fixes []string
	if share["map operations"] >= 0.2 {
		fixes = append(fixes, "replace the maps used as sets and as block numbering with slices indexed by block number")
	}
	if share["memory allocation"]+share["garbage collection"] >= 0.2 {
		fixes = append(fixes, "allocate the bookkeeping once and reuse it across searches instead of afresh on every call")
	}
	if len(fixes) > 0 {
		fmt.Fprintf(&b, "So: %s. The tuned variant does exactly that.", strings.Join(fixes, ", and "))
	}
	return wrap(strings.TrimSpace(b.String()), 80)
}

// wrap breaks text into lines of at most width columns at spaces.
func wrap(text string, width int) string {
	var b strings.Builder
	col := 0
	for _, word := range strings.Fields(text) {
		if col > 0 && col+1+len(word) > width {
			b.WriteByte('\n')
			col = 0
		} else if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += len(word)
	}
	return b.String()
}

// writeTable writes the before/after comparison.
func writeTable(w io.Writer, naive, tuned *Measurement) {
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\tnaive\ttuned\tnaive/tuned\t\n")
	row := func(name, a, b string, x, y float64) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", name, a, b, times(x, y))
	}
	row("time", units.Duration(naive.Wall), units.Duration(tuned.Wall), naive.Wall.Seconds(), tuned.Wall.Seconds())
	if naive.CPU > 0 && tuned.CPU > 0 {
		row("CPU time", units.Duration(naive.CPU), units.Duration(tuned.CPU), naive.CPU.Seconds(), tuned.CPU.Seconds())
	}
	row("peak memory", units.Bytes(int64(naive.PeakMemory)), units.Bytes(int64(tuned.PeakMemory)), float64(naive.PeakMemory), float64(tuned.PeakMemory))
	row("allocations", countText(naive.Allocs), countText(tuned.Allocs), float64(naive.Allocs), float64(tuned.Allocs))
	row("bytes allocated", units.Bytes(int64(naive.AllocBytes)), units.Bytes(int64(tuned.AllocBytes)), float64(naive.AllocBytes), float64(tuned.AllocBytes))
	tw.Flush()
}

func times(a, b float64) string {
	switch {
	case b == 0:
		return "-"
	case a/b >= 100:
		return fmt.Sprintf("%.0fx", a/b)
	}
	return fmt.Sprintf("%.1fx", a/b)
}

func countText(n uint64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.2fM", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
