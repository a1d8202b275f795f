package bench

import (
	"encoding/csv"
	"fmt"
	"io"
)

// WriteCSV writes the tables as benchstat's -format csv does. Centers are
// printed unscaled, in full precision. Warnings go to warn, each prefixed
// with the spreadsheet cell it belongs to (e.g. "C4: ..."), so that the
// CSV itself stays regular.
func (ts *Tables) WriteCSV(w, warn io.Writer) error {
	o := csv.NewWriter(w)
	line := 1
	err := ts.each(func(h string) error {
		line++
		return o.Write([]string{h})
	}, func(t *Table) error {
		n, err := t.writeCSV(o, line, warn)
		line += n
		return err
	})
	if err != nil {
		return err
	}
	o.Flush()
	return o.Error()
}

// CSV layout: column 0 holds row labels; each logical column has two
// columns (center, range), and every column after the first two more
// (delta, p-value and n).
func csvCol(exp int) int {
	if exp == 0 {
		return 1
	}
	return 3 + (exp-1)*4
}

// csvTable accumulates the records of one table.
type csvTable struct {
	o     *csv.Writer
	row   []string
	first int // spreadsheet row number of the table's first record
	n     int // records written
	warn  io.Writer
	err   error
}

func (c *csvTable) pad(col int) {
	for len(c.row) < col {
		c.row = append(c.row, "")
	}
}

func (c *csvTable) emit() {
	if err := c.o.Write(c.row); err != nil && c.err == nil {
		c.err = err
	}
	c.row = c.row[:0]
	c.n++
}

// warnings prints errs with the reference of the next cell to be written.
func (c *csvTable) warnings(errs []error) {
	name := ""
	for x := len(c.row); x > 0; x /= 26 {
		name = string(rune('A'+x%26)) + name
	}
	if name == "" {
		name = "A"
	}
	for _, e := range errs {
		fmt.Fprintf(c.warn, "%s%d: %s\n", name, c.first+c.n, e)
	}
}

func (t *Table) writeCSV(o *csv.Writer, first int, warn io.Writer) (int, error) {
	c := &csvTable{o: o, first: first, warn: warn}
	t.csvHeader(c)
	for _, rk := range t.Rows {
		c.row = append(c.row, rk.StringValues())
		for exp, ck := range t.Cols {
			cell, ok := t.Cells[CellKey{rk, ck}]
			if !ok {
				continue
			}
			c.pad(csvCol(exp))
			c.warnings(cell.Sample.Warnings)
			c.warnings(cell.Summary.Warnings)
			c.row = append(c.row, fmt.Sprint(cell.Summary.Center), cell.Summary.PctRangeString())
			if exp > 0 && cell.Baseline != nil {
				c.warnings(cell.Comparison.Warnings)
				c.row = append(c.row,
					cell.Comparison.FormatDelta(cell.Baseline.Summary.Center, cell.Summary.Center),
					cell.Comparison.String())
			}
		}
		c.emit()
	}
	c.row = append(c.row, "geomean")
	for exp, key := range t.Cols {
		s, ok := t.Summary[key]
		if !ok {
			continue
		}
		c.pad(csvCol(exp))
		c.warnings(s.Warnings)
		if s.HasCenter {
			c.row = append(c.row, fmt.Sprint(s.Center))
		}
		if exp > 0 {
			c.pad(csvCol(exp) + 2)
			if s.HasRatio {
				c.row = append(c.row, fmt.Sprintf("%+.2f%%", (s.Ratio-1)*100))
			} else {
				c.row = append(c.row, "?")
			}
		}
	}
	c.pad(csvCol(len(t.Cols)))
	c.emit()
	return c.n, c.err
}

// csvHeader writes a record per column key field, then the unit record.
func (t *Table) csvHeader(c *csvTable) {
	for _, f := range t.Cols[0].Projection().FlattenedFields() {
		for exp, key := range t.Cols {
			c.pad(csvCol(exp))
			c.row = append(c.row, key.Get(f))
		}
		c.pad(csvCol(len(t.Cols)))
		c.emit()
	}
	for exp := range t.Cols {
		c.pad(csvCol(exp))
		c.row = append(c.row, t.Unit, "CI")
		if exp > 0 {
			c.row = append(c.row, "vs base", "P")
		}
	}
	c.emit()
}
