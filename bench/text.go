package bench

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/perf/benchproc"
	"golang.org/x/perf/benchunit"
)

// WriteText writes the tables as benchstat's default text output does:
// the configuration lines that change before each table, the boxed table
// of medians ± confidence intervals with "vs base" comparisons and a
// geomean row, and numbered footnotes for the warnings.
func (ts *Tables) WriteText(w io.Writer) error {
	return ts.each(func(line string) error {
		_, err := fmt.Fprintln(w, line)
		return err
	}, func(t *Table) error { return t.writeText(w) })
}

// each calls header for every line that goes before a table: a blank line
// between tables and a "key: value" line for each table key field that
// differs from the previous table's (the unit is shown in the table).
func (ts *Tables) each(header func(string) error, table func(*Table) error) error {
	if len(ts.Tables) == 0 {
		return nil
	}
	fields := configFields(ts.Keys[0])
	var prev benchproc.Key
	for i, t := range ts.Tables {
		if i > 0 {
			if err := header(""); err != nil {
				return err
			}
		}
		key := ts.Keys[i]
		for _, f := range fields {
			if v := key.Get(f); prev.IsZero() || v != prev.Get(f) {
				if err := header(f.Name + ": " + v); err != nil {
					return err
				}
			}
		}
		prev = key
		if err := table(t); err != nil {
			return err
		}
	}
	return nil
}

// Text layout: column 0 holds row labels; each logical column then has
// three grid columns (center, "± range", footnotes), and every column after
// the first three more (delta, "(p=… n=…)", footnotes).
const (
	centerCols = 3
	deltaCols  = 3
)

func textCol(exp int) int {
	if exp == 0 {
		return 1
	}
	return 1 + centerCols + (exp-1)*(centerCols+deltaCols)
}

// footnotes numbers warnings in order of first appearance.
type footnotes struct {
	list []string
	num  map[string]int
}

// marks returns the superscript marks for errs, numbering new ones.
func (f *footnotes) marks(errs ...[]error) string {
	if f.num == nil {
		f.num = make(map[string]int)
	}
	var marks []string
	for _, list := range errs {
		for _, e := range list {
			s := e.Error()
			n, ok := f.num[s]
			if !ok {
				f.list = append(f.list, s)
				n = len(f.list)
				f.num[s] = n
			}
			marks = append(marks, superscript(n))
		}
	}
	return strings.Join(marks, " ")
}

func (t *Table) writeText(w io.Writer) error {
	var g grid
	var notes footnotes
	t.textHeader(&g)
	for _, row := range t.Rows {
		t.textRow(&g, &notes, row)
	}
	if len(t.Rows) > 1 {
		t.textGeomean(&g, &notes)
	}
	if err := g.write(w); err != nil {
		return err
	}
	for i, s := range notes.list {
		if _, err := fmt.Fprintf(w, "%s %s\n", superscript(i+1), s); err != nil {
			return err
		}
	}
	return nil
}

// textHeader adds the column key rows (one per level of the column keys,
// each value centered over the columns it spans) and the unit row.
func (t *Table) textHeader(g *grid) {
	edge := textCol(len(t.Cols) + 1)
	for nodes := benchproc.NewKeyHeader(t.Cols).Top; len(nodes) > 0; {
		var next []*benchproc.KeyHeaderNode
		g.newRow()
		for _, n := range nodes {
			l, r := textCol(n.Start), textCol(n.Start+n.Len)
			g.at(l).put(r-l, n.Value, 'c', " │ ")
			next = append(next, n.Children...)
		}
		g.at(edge).put(1, "", 'l', " │")
		nodes = next
	}
	g.newRow()
	for i := range t.Cols {
		l := textCol(i)
		g.at(l).put(centerCols, t.Unit, 'c', " │ ")
		if i > 0 {
			g.put(deltaCols, "vs base", 'l', "  ")
		}
		for j := l + 1; j < g.col; j++ {
			g.setShrink(j)
		}
	}
	g.at(edge).put(1, "", 'l', " │")
}

func (t *Table) textRow(g *grid, notes *footnotes, row benchproc.Key) {
	g.newRow()
	g.put(1, row.StringValues(), 'l')
	scale := t.rowScaler(row)
	for exp, col := range t.Cols {
		c, ok := t.Cells[CellKey{row, col}]
		if !ok {
			continue
		}
		g.at(textCol(exp))
		g.put(1, scale.Format(c.Summary.Center), 'r')
		g.put(1, c.Summary.PctRangeString(), 'r', " ± ")
		g.put(1, notes.marks(c.Sample.Warnings, c.Summary.Warnings), 'l')
		if exp > 0 && c.Baseline != nil {
			g.put(1, c.Comparison.FormatDelta(c.Baseline.Summary.Center, c.Summary.Center), 'r')
			g.put(1, "("+c.Comparison.String()+")", 'l')
			g.put(1, notes.marks(c.Comparison.Warnings), 'l')
		}
	}
}

func (t *Table) textGeomean(g *grid, notes *footnotes) {
	g.newRow()
	g.put(1, "geomean", 'l')
	class := benchunit.ClassOf(t.Unit)
	for exp, col := range t.Cols {
		s, ok := t.Summary[col]
		if !ok {
			continue
		}
		if s.HasCenter {
			g.at(textCol(exp)).put(1, benchunit.Scale(s.Center, class), 'r')
		}
		if exp > 0 {
			g.at(textCol(exp) + centerCols)
			if s.HasRatio {
				g.put(1, fmt.Sprintf("%+.2f%%", (s.Ratio-1)*100), 'r')
			} else {
				g.put(1, "?", 'l')
			}
		}
		g.at(textCol(exp+1)-1).put(1, notes.marks(s.Warnings), 'l')
	}
}

// superscript writes n in superscript digits, as footnote marks.
func superscript(n int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	d := []rune(digits)
	if n == 0 {
		return string(d[0])
	}
	var out []rune
	for ; n > 0; n /= 10 {
		out = append([]rune{d[n%10]}, out...)
	}
	return string(out)
}
