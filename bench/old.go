package bench

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"
)

// oldBlocks are benchcmp's tables, in its order: the unit benchfmt tidies
// to, the header, and how values and changes are printed.
var oldBlocks = []struct {
	unit, header string
	value        func(float64) string
	change       func(old, new float64) string
}{
	{"sec/op", "benchmark\told ns/op\tnew ns/op\tdelta", func(v float64) string { return formatNs(v * 1e9) }, percent},
	{"B/s", "benchmark\told MB/s\tnew MB/s\tspeedup", func(v float64) string { return fmt.Sprintf("%.2f", v/1e6) }, speedup},
	{"allocs/op", "benchmark\told allocs\tnew allocs\tdelta", formatCount, percent},
	{"B/op", "benchmark\told bytes\tnew bytes\tdelta", formatCount, percent},
}

// WriteOld writes the comparison as the retired benchcmp tool printed it:
// for ns/op, MB/s, allocs/op and B/op, a table "benchmark old new delta",
// aligned with spaces. Where benchcmp compared single runs, each side's
// value here is the median of its runs. Configuration lines that change
// head each group of tables, as in the text format. The format compares
// exactly two columns.
func (ts *Tables) WriteOld(w io.Writer) error {
	cs := ts.configs()
	groups := make([]map[string]*Table, len(cs.first))
	for i, t := range ts.Tables {
		if len(t.Cols) > 2 {
			return errors.New("-format old compares exactly two columns; use -col to choose them")
		}
		c := cs.id[i]
		if groups[c] == nil {
			groups[c] = map[string]*Table{}
		}
		groups[c][t.Unit] = t
	}
	for g, i := range cs.first {
		if g > 0 {
			fmt.Fprintln(w)
		}
		for _, f := range cs.fields {
			v := ts.Keys[i].Get(f)
			if g == 0 || ts.Keys[cs.first[g-1]].Get(f) != v {
				fmt.Fprintf(w, "%s: %s\n", f.Name, v)
			}
		}
		if err := writeOldGroup(w, groups[g]); err != nil {
			return err
		}
	}
	return nil
}

func writeOldGroup(w io.Writer, byUnit map[string]*Table) error {
	tw := tabwriter.NewWriter(w, 0, 0, 5, ' ', 0)
	blocks := 0
	for _, b := range oldBlocks {
		t := byUnit[b.unit]
		if t == nil || len(t.Cols) < 2 {
			continue
		}
		header := false
		for _, row := range t.Rows {
			old, ok1 := t.Cells[CellKey{row, t.Cols[0]}]
			new, ok2 := t.Cells[CellKey{row, t.Cols[1]}]
			if !ok1 || !ok2 {
				continue
			}
			if !header {
				if blocks > 0 {
					fmt.Fprintln(tw)
				}
				fmt.Fprintln(tw, b.header)
				header = true
				blocks++
			}
			o, n := old.Summary.Center, new.Summary.Center
			fmt.Fprintf(tw, "Benchmark%s\t%s\t%s\t%s\n", row.StringValues(), b.value(o), b.value(n), b.change(o, n))
		}
	}
	return tw.Flush()
}

// ratio is new/old, 1 when both are 0 and +Inf when only old is.
func ratio(old, new float64) float64 {
	switch {
	case old != 0:
		return new / old
	case new == 0:
		return 1
	}
	return math.Inf(1)
}

func percent(old, new float64) string { return fmt.Sprintf("%+.2f%%", 100*ratio(old, new)-100) }
func speedup(old, new float64) string { return fmt.Sprintf("%.2fx", ratio(old, new)) }

// formatNs prints nanoseconds with the precision the testing package uses.
func formatNs(ns float64) string {
	prec := 0
	switch {
	case ns < 10:
		prec = 2
	case ns < 100:
		prec = 1
	}
	return strconv.FormatFloat(ns, 'f', prec, 64)
}

func formatCount(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
