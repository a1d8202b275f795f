package bench

import (
	"encoding/json"
	"io"
	"math"

	"golang.org/x/perf/benchproc"
)

// JSON is the document WriteJSON prints; docs/bench.md describes it.
type JSON struct {
	Tables []JSONTable `json:"tables"`
}

// JSONTable is one table: its configuration, unit and rows.
type JSONTable struct {
	// Config holds the table key's fields other than the unit that have
	// a value for this table.
	Config map[string]string `json:"config"`
	Unit   string            `json:"unit"`
	// Summary is "median" (the default), "mean" or "exact".
	Summary string `json:"summary"`
	// Columns are the column labels; the first is the baseline.
	Columns []string  `json:"columns"`
	Rows    []JSONRow `json:"rows"`
	// Geomean has one entry per column.
	Geomean []JSONGeomean `json:"geomean"`
}

// JSONRow is one benchmark: a cell per column, null where absent.
type JSONRow struct {
	Name  string      `json:"name"`
	Cells []*JSONCell `json:"cells"`
}

// JSONCell summarizes one benchmark in one column.
type JSONCell struct {
	// Center is the median (or mean, or exact value); null when infinite.
	Center *float64 `json:"center"`
	// Lo and Hi bound the confidence interval; null when infinite.
	Lo         *float64 `json:"lo"`
	Hi         *float64 `json:"hi"`
	Confidence float64  `json:"confidence"`
	N          int      `json:"n"`
	Range      string   `json:"range"`
	// The comparison with the baseline column, absent in the baseline
	// column and where the row has no baseline cell.
	Delta       *float64 `json:"delta,omitempty"`
	DeltaText   string   `json:"delta_text,omitempty"`
	P           *float64 `json:"p,omitempty"`
	BaseN       int      `json:"base_n,omitempty"`
	Significant *bool    `json:"significant,omitempty"`
	Warnings    []string `json:"warnings,omitempty"`
}

// JSONGeomean is a column's entry in the geomean row.
type JSONGeomean struct {
	Center   *float64 `json:"center"`
	Ratio    *float64 `json:"ratio,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// JSON returns the tables as a JSON document.
func (ts *Tables) JSON() *JSON {
	doc := &JSON{Tables: []JSONTable{}}
	var fields []*benchproc.Field
	if len(ts.Keys) > 0 {
		fields = configFields(ts.Keys[0])
	}
	for i, t := range ts.Tables {
		jt := JSONTable{Config: map[string]string{}, Unit: t.Unit, Summary: t.Assumption.SummaryLabel(), Rows: []JSONRow{}}
		for _, f := range fields {
			if v := ts.Keys[i].Get(f); v != "" {
				jt.Config[f.Name] = v
			}
		}
		for _, c := range t.Cols {
			jt.Columns = append(jt.Columns, c.StringValues())
			s := t.Summary[c]
			g := JSONGeomean{Warnings: texts(s.Warnings)}
			if s.HasCenter {
				g.Center = num(s.Center)
			}
			if s.HasRatio {
				g.Ratio = num(s.Ratio)
			}
			jt.Geomean = append(jt.Geomean, g)
		}
		for _, row := range t.Rows {
			jr := JSONRow{Name: row.StringValues()}
			for _, col := range t.Cols {
				jr.Cells = append(jr.Cells, jsonCell(t.Cells[CellKey{row, col}]))
			}
			jt.Rows = append(jt.Rows, jr)
		}
		doc.Tables = append(doc.Tables, jt)
	}
	return doc
}

func jsonCell(c *Cell) *JSONCell {
	if c == nil {
		return nil
	}
	s := c.Summary
	jc := &JSONCell{
		Center: num(s.Center), Lo: num(s.Lo), Hi: num(s.Hi), Confidence: s.Confidence,
		N: len(c.Sample.Values), Range: s.PctRangeString(),
		Warnings: texts(c.Sample.Warnings, s.Warnings),
	}
	if c.Baseline != nil {
		sig := c.Significant()
		jc.Delta = num(c.Delta())
		jc.DeltaText = c.Comparison.FormatDelta(c.Baseline.Summary.Center, s.Center)
		jc.P = num(c.Comparison.P)
		jc.BaseN = c.Comparison.N1
		jc.Significant = &sig
		jc.Warnings = append(jc.Warnings, texts(c.Comparison.Warnings)...)
	}
	return jc
}

// num returns a pointer to v, or nil when JSON cannot hold v.
func num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func texts(lists ...[]error) []string {
	var out []string
	for _, l := range lists {
		for _, e := range l {
			out = append(out, e.Error())
		}
	}
	return out
}

// WriteJSON writes ts.JSON(), indented.
func (ts *Tables) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(ts.JSON())
}
