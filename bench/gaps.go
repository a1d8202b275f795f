package bench

import (
	"fmt"
	"strings"
)

// UnitGaps describes benchmarks that report a unit in some columns but not
// in others, such as B/op measured with -benchmem on one side only. Such
// rows have empty cells in the tables; the descriptions explain why.
func (ts *Tables) UnitGaps() []string {
	var out []string
	for _, t := range ts.Tables {
		if len(t.Cols) < 2 {
			continue
		}
		for _, row := range t.Rows {
			var have, miss []string
			for _, col := range t.Cols {
				if _, ok := t.Cells[CellKey{row, col}]; ok {
					have = append(have, col.StringValues())
				} else {
					miss = append(miss, col.StringValues())
				}
			}
			if len(miss) > 0 {
				out = append(out, fmt.Sprintf("%s: %s measured in %s but not in %s",
					row.StringValues(), t.Unit, strings.Join(have, ", "), strings.Join(miss, ", ")))
			}
		}
	}
	return out
}
