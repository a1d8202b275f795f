package bench

import (
	"fmt"
	"strings"

	"golang.org/x/perf/benchproc"
)

// UnitGaps describes benchmarks that report a unit in some columns but not
// in others of the same configuration: B/op measured with -benchmem on one
// side only, or a benchmark missing from a file. Such rows have empty
// cells, or whole tables lack a column; the descriptions say why. There is
// one description per benchmark and set of columns, listing the units.
func (ts *Tables) UnitGaps() []string {
	type gap struct{ row, have, miss string }
	var order []gap
	units := map[gap][]string{}
	cs := ts.configs()
	byConfig := make([][]*Table, len(cs.first))
	for i, t := range ts.Tables {
		byConfig[cs.id[i]] = append(byConfig[cs.id[i]], t)
	}
	for _, tables := range byConfig {
		cols := unionCols(tables)
		if len(cols) < 2 {
			continue
		}
		for _, t := range tables {
			for _, row := range t.Rows {
				have, miss := t.rowColumns(row, cols)
				if len(miss) == 0 {
					continue
				}
				g := gap{keyLabel(row), strings.Join(have, ", "), strings.Join(miss, ", ")}
				if units[g] == nil {
					order = append(order, g)
				}
				units[g] = append(units[g], t.Unit)
			}
		}
	}
	out := make([]string, len(order))
	for i, g := range order {
		out[i] = fmt.Sprintf("%s: %s measured in %s but not in %s", g.row, strings.Join(units[g], ", "), g.have, g.miss)
	}
	return out
}

// unionCols returns the labels of all columns of tables, in order of
// first appearance.
func unionCols(tables []*Table) []string {
	var cols []string
	seen := map[string]bool{}
	for _, t := range tables {
		for _, c := range t.Cols {
			if s := keyLabel(c); !seen[s] {
				seen[s] = true
				cols = append(cols, s)
			}
		}
	}
	return cols
}

// keyLabel names a row or column in messages: its values ("old.txt",
// "64"), or, for the benchmarks that have none of its fields (those
// without a /n sub-name, with -col /n), "(benchmarks without /n)".
func keyLabel(c benchproc.Key) string {
	if s := c.StringValues(); s != "" {
		return s
	}
	var names []string
	for _, f := range c.Projection().FlattenedFields() {
		names = append(names, f.Name)
	}
	return "(benchmarks without " + strings.Join(names, ", ") + ")"
}

// rowColumns splits the column labels cols into those where row has a
// cell in t and those where it has none.
func (t *Table) rowColumns(row benchproc.Key, cols []string) (have, miss []string) {
	present := map[string]bool{}
	for _, c := range t.Cols {
		if _, ok := t.Cells[CellKey{row, c}]; ok {
			present[keyLabel(c)] = true
		}
	}
	for _, c := range cols {
		if present[c] {
			have = append(have, c)
		} else {
			miss = append(miss, c)
		}
	}
	return have, miss
}
