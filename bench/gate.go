package bench

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchunit"
)

// A Gate is a set of limits on benchmark changes, for CI: a change crosses
// a limit only when it is statistically significant.
type Gate struct {
	Limits []Limit
}

// A Limit bounds the change of one unit. "sec/op>+5%" is crossed when the
// median grows by more than 5%; "allocs/op>0" when it grows by more than 0
// allocations; "B/s<-10%" when it falls by more than 10%.
type Limit struct {
	// Unit is the unit as tidied by benchfmt ("ns/op" becomes "sec/op").
	Unit string
	// Above is true for ">" limits (crossed by larger changes) and false
	// for "<" limits (crossed by smaller ones).
	Above bool
	// Relative is true for percentages: Value is then a fraction (0.05
	// for 5%); otherwise Value is an absolute difference in Unit.
	Relative bool
	Value    float64
	// Text is the limit as written.
	Text string
}

// ParseGate parses a comma-separated list of limits, each UNIT>CHANGE or
// UNIT<CHANGE, where CHANGE is a signed number, optionally a percentage.
// Units with a scaled prefix that benchfmt tidies ("ns/op", "MB/s") are
// accepted and converted.
func ParseGate(expr string) (*Gate, error) {
	g := new(Gate)
	for _, term := range strings.Split(expr, ",") {
		term = strings.TrimSpace(term)
		if term == "" {
			return nil, fmt.Errorf("empty limit in %q", expr)
		}
		l, err := parseLimit(term)
		if err != nil {
			return nil, err
		}
		g.Limits = append(g.Limits, l)
	}
	return g, nil
}

func parseLimit(term string) (Limit, error) {
	i := strings.IndexAny(term, "<>")
	if i < 0 {
		return Limit{}, fmt.Errorf("limit %q: want UNIT>CHANGE or UNIT<CHANGE", term)
	}
	unit, num := strings.TrimSpace(term[:i]), strings.TrimSpace(term[i+1:])
	l := Limit{Above: term[i] == '>', Text: term}
	if unit == "" || strings.ContainsAny(unit, " \t<>") {
		return Limit{}, fmt.Errorf("limit %q: bad unit %q", term, unit)
	}
	if rest, ok := strings.CutSuffix(num, "%"); ok {
		l.Relative, num = true, strings.TrimSpace(rest)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || strings.ContainsAny(num, "xXpP_") {
		return Limit{}, fmt.Errorf("limit %q: bad number %q", term, num)
	}
	if l.Relative {
		l.Value = v / 100
		l.Unit = tidyUnit(unit)
	} else {
		l.Value, l.Unit = benchunit.Tidy(v, unit)
	}
	return l, nil
}

func tidyUnit(unit string) string {
	_, u := benchunit.Tidy(1, unit)
	return u
}

// A UnitError is a limit on a unit that none of the compared results
// measure: the limit could never be crossed, so a gate holding it would
// pass whatever the results.
type UnitError struct {
	// Limit is the limit at fault.
	Limit Limit
	// Filtered is true when the input has the unit but the filter drops
	// every value of it.
	Filtered bool
	// Present lists the units of the compared results.
	Present []string
}

func (e *UnitError) Error() string {
	where := "the input"
	if e.Filtered {
		where = "the results -filter keeps"
	}
	present := strings.Join(e.Present, ", ")
	if present == "" {
		present = "none"
	}
	return fmt.Sprintf("unit %q is not in %s; units present: %s", e.Limit.written(), where, present)
}

// written returns the limit's unit as the user wrote it, which may be an
// alias of Unit such as "ns/op" or "MB/s".
func (l Limit) written() string {
	if i := strings.IndexAny(l.Text, "<>"); i >= 0 {
		return strings.TrimSpace(l.Text[:i])
	}
	return l.Unit
}

// CheckUnits returns a *UnitError for the first limit whose unit no table
// of ts has. input lists the units of the input before filtering (see
// Builder.InputUnits), to tell a unit the input lacks from one the filter
// dropped. Units compare as benchfmt tidies them, so "ns/op>+5%" checks
// results in sec/op and "MB/s<-10%" results in B/s.
func (g *Gate) CheckUnits(ts *Tables, input []string) error {
	present := ts.Units()
	for _, l := range g.Limits {
		if slices.Contains(present, l.Unit) {
			continue
		}
		return &UnitError{Limit: l, Filtered: slices.Contains(input, l.Unit), Present: present}
	}
	return nil
}

// Units returns the units of the tables in order of first appearance.
func (ts *Tables) Units() []string {
	var units []string
	for _, t := range ts.Tables {
		if !slices.Contains(units, t.Unit) {
			units = append(units, t.Unit)
		}
	}
	return units
}

// A Violation is a significant change that crosses a limit.
type Violation struct {
	Limit Limit
	// Table is the key of the table without its unit and without the
	// keys it has no value for, e.g. "pkg:x goos:linux".
	Table string
	// Row and Col name the benchmark and the column; Base is the baseline
	// column.
	Row, Col, Base string
	// Old and New are the baseline's and the column's medians.
	Old, New float64
	// P and N are the comparison's p-value and its "n=" text.
	P float64
	N string
}

// String describes the violation in one line.
func (v Violation) String() string {
	class := benchunit.ClassOf(v.Limit.Unit)
	s := benchunit.CommonScale([]float64{v.Old, v.New}, class)
	change := "?"
	if v.Old != 0 {
		change = fmt.Sprintf("%+.2f%%", (v.New/v.Old-1)*100)
	}
	return fmt.Sprintf("%s: %s %s (%s -> %s, p=%.3f %s, %s vs %s) crosses -fail-on %s",
		v.Row, v.Limit.Unit, change, s.Format(v.Old), s.Format(v.New),
		v.P, v.N, v.Col, v.Base, v.Limit.Text)
}

// crossed reports whether the change from old to new crosses l.
func (l Limit) crossed(old, new float64) bool {
	d := new - old
	if l.Relative {
		if old == 0 {
			// Any growth from zero is infinitely large.
			d = math.Copysign(math.Inf(1), d)
			if new == old {
				d = 0
			}
		} else {
			d = new/old - 1
		}
	}
	// Ignore differences below float64 rounding, so that 100 -> 105 does
	// not cross +5%.
	const eps = 1e-12
	if l.Above {
		return d > l.Value+eps*math.Max(1, math.Abs(l.Value))
	}
	return d < l.Value-eps*math.Max(1, math.Abs(l.Value))
}

// Check returns every significant change in ts that crosses one of the
// gate's limits, in table, row and column order.
func (g *Gate) Check(ts *Tables) []Violation {
	var out []Violation
	var cs *configSet
	for i, t := range ts.Tables {
		for _, l := range g.Limits {
			if l.Unit != t.Unit {
				continue
			}
			vs := t.violations(l)
			if len(vs) > 0 && cs == nil {
				cs = ts.configs()
			}
			for j := range vs {
				vs[j].Table = cs.name(ts.Keys[i])
			}
			out = append(out, vs...)
		}
	}
	return out
}

func (t *Table) violations(l Limit) []Violation {
	var out []Violation
	for _, row := range t.Rows {
		for _, col := range t.Cols[1:] {
			c, ok := t.Cells[CellKey{row, col}]
			if !ok || !c.Significant() {
				continue
			}
			old, new := c.Baseline.Summary.Center, c.Summary.Center
			if !l.crossed(old, new) {
				continue
			}
			out = append(out, Violation{
				Limit: l,
				Row:   row.StringValues(), Col: col.StringValues(), Base: t.Cols[0].StringValues(),
				Old: old, New: new, P: c.Comparison.P, N: nText(c),
			})
		}
	}
	return out
}

// nText is the "n=" part of a comparison's summary.
func nText(c *Cell) string {
	if c.Comparison.N1 == c.Comparison.N2 {
		return fmt.Sprintf("n=%d", c.Comparison.N1)
	}
	return fmt.Sprintf("n=%d+%d", c.Comparison.N1, c.Comparison.N2)
}
