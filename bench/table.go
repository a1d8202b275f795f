package bench

import (
	"errors"
	"math"

	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchproc"
	"golang.org/x/perf/benchunit"
)

// Tables is the result of a comparison: one Table per distinct table key,
// which always ends with the unit.
type Tables struct {
	// Tables holds the tables in benchproc's key order.
	Tables []*Table
	// Keys holds the key of each table, 1:1 with Tables.
	Keys []benchproc.Key
}

// A Table holds the cells of one unit for one table key: a row per
// benchmark, a column per compared configuration (by default, per file).
type Table struct {
	// Unit is the unit of every value in the table, e.g. "sec/op".
	Unit string
	// Assumption is the unit's distributional assumption (median and
	// U-test unless the input's Unit metadata says otherwise).
	Assumption benchmath.Assumption
	// Better is +1 when higher values are better, -1 when lower values
	// are better, and 0 when the input does not say.
	Better int
	// Rows and Cols are the row and column keys, in display order.
	Rows, Cols []benchproc.Key
	// Cells maps a (row, column) pair to its cell; some pairs are absent.
	Cells map[CellKey]*Cell
	// Summary holds the geomean row, by column.
	Summary map[benchproc.Key]*ColumnSummary
}

// A CellKey locates a cell in a Table.
type CellKey struct {
	Row, Col benchproc.Key
}

// A Cell summarizes the values of one benchmark in one column.
type Cell struct {
	// Sample holds the values, sorted, with the sample's warnings.
	Sample *benchmath.Sample
	// Summary is the center (median) and its confidence interval.
	Summary benchmath.Summary
	// Baseline is the cell in the first column of the same row, or nil
	// when this cell is in the first column or that cell is absent.
	Baseline *Cell
	// Comparison tests this cell against Baseline; meaningless when
	// Baseline is nil.
	Comparison benchmath.Comparison
}

// Significant reports whether the cell differs from its baseline at the
// table's significance level: the cases where benchstat prints a
// percentage instead of "~".
func (c *Cell) Significant() bool {
	return c.Baseline != nil && c.Comparison.P <= c.Comparison.Alpha
}

// Delta returns the relative change of the cell's center from its
// baseline's center, e.g. 0.05 for +5%. It is 0 when both are equal and
// NaN when the baseline is 0 and the cell is not.
func (c *Cell) Delta() float64 {
	old, new := c.Baseline.Summary.Center, c.Summary.Center
	switch {
	case old == new:
		return 0
	case old == 0:
		return math.NaN()
	}
	return new/old - 1
}

// A ColumnSummary is a column's cell in the geomean row.
type ColumnSummary struct {
	// HasCenter reports whether Center is valid: every center was > 0.
	HasCenter bool
	// Center is the geometric mean of the column's centers.
	Center float64
	// HasRatio reports whether Ratio is valid.
	HasRatio bool
	// Ratio is the geometric mean of the column's ratios to the baseline.
	Ratio float64
	// Warnings explains a missing Center or Ratio, or a benchmark set
	// that differs from the baseline's.
	Warnings []error
}

// summarizeColumns computes the geomean row. Like benchstat, it takes the
// geomean of the per-benchmark ratios rather than the ratio of geomeans,
// which stays meaningful when a column lacks some benchmarks.
func (t *Table) summarizeColumns() {
	t.Summary = make(map[benchproc.Key]*ColumnSummary, len(t.Cols))
	nBase := 0
	for _, row := range t.Rows {
		if _, ok := t.Cells[CellKey{row, t.Cols[0]}]; ok {
			nBase++
		}
	}
	for i, col := range t.Cols {
		t.Summary[col] = t.summarizeColumn(col, i == 0, nBase)
	}
}

func (t *Table) summarizeColumn(col benchproc.Key, isBase bool, nBase int) *ColumnSummary {
	s := new(ColumnSummary)
	var centers, ratios []float64
	badRatio := false
	for _, row := range t.Rows {
		c, ok := t.Cells[CellKey{row, col}]
		if !ok {
			continue
		}
		centers = append(centers, c.Summary.Center)
		if c.Baseline == nil {
			continue
		}
		a, b := c.Summary.Center, c.Baseline.Summary.Center
		switch {
		case a == b:
			ratios = append(ratios, 1) // 0/0 counts as no change
		case b == 0:
			badRatio = true
			ratios = append(ratios, 0) // keeps the count for the check below
		default:
			ratios = append(ratios, a/b)
		}
	}
	if !isBase && nBase != len(ratios) {
		s.Warnings = append(s.Warnings, errors.New("benchmark set differs from baseline; geomeans may not be comparable"))
	}
	if gm := geomean(centers); math.IsNaN(gm) {
		s.Warnings = append(s.Warnings, errors.New("summaries must be >0 to compute geomean"))
	} else {
		s.HasCenter, s.Center = true, gm
	}
	if !isBase && !badRatio {
		if gm := geomean(ratios); math.IsNaN(gm) {
			s.Warnings = append(s.Warnings, errors.New("ratios must be >0 to compute geomean"))
		} else {
			s.HasRatio, s.Ratio = true, gm
		}
	}
	return s
}

// geomean returns the geometric mean of xs, or NaN if xs is empty or holds
// a value <= 0. It accumulates the mean of the logarithms incrementally,
// the way benchstat's statistics library does, so results match to the bit.
func geomean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	m := 0.0
	for i, x := range xs {
		if x <= 0 {
			return math.NaN()
		}
		m += (math.Log(x) - m) / float64(i+1)
	}
	return math.Exp(m)
}

// rowScaler returns the scale shared by every center in row, so that the
// row's figures line up with the same SI or binary prefix.
func (t *Table) rowScaler(row benchproc.Key) benchunit.Scaler {
	var vals []float64
	for _, col := range t.Cols {
		if c, ok := t.Cells[CellKey{row, col}]; ok {
			vals = append(vals, c.Summary.Center)
		}
	}
	return benchunit.CommonScale(vals, benchunit.ClassOf(t.Unit))
}
