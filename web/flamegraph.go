package web

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"

	"github.com/perflab/perflab/flame"
	"github.com/perflab/perflab/report"
)

// maxFunctionRows bounds the sandwich view's function table; the flame
// graph's search finds the others.
const maxFunctionRows = 1000

// extraAPIs are the endpoints of the views built on other packages.
func (s *Server) extraAPIs() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"/ui/api/graph.svg": s.api("graph", s.graphSVG),
		"/ui/api/flame":     s.api("flame", s.flameView),
		"/ui/api/source":    s.api("source", s.sourceJSON),
		"/ui/api/notes":     s.notes,
	}
}

// tree returns the flame graph tree of o, built once per refinement.
// The caller holds s.compute.
func (s *Server) tree(o report.Options) (*flame.Tree, error) {
	k := "flame?" + key(o)
	if t, ok := s.derived.Get(k); ok {
		return t.(*flame.Tree), nil
	}
	t, err := flame.Build(s.p, o) // reads p; filters never touch it
	if err != nil {
		return nil, err
	}
	s.derived.Put(k, t)
	return t, nil
}

// flameView answers /ui/api/flame: the View of the flame query in q
// (zoom path, search, sandwich, diff options) of the tree of o, as the
// JSON flame.js draws; only frames wide enough to see are in it.
func (s *Server) flameView(o report.Options, q url.Values) (answer, error) {
	fq, err := flame.ParseQuery(q)
	if err != nil {
		return answer{}, err
	}
	return s.cached("flame", o, fq.Encode().Encode(), func(o report.Options) (answer, error) {
		t, err := s.tree(o)
		if err != nil {
			return answer{}, err
		}
		v, err := t.View(fq)
		if err != nil {
			return answer{}, err
		}
		b, err := json.Marshal(v)
		if err != nil {
			return answer{}, err
		}
		var buf bytes.Buffer
		json.HTMLEscape(&buf, b) // safe to inline in a script element
		return answer{body: buf.Bytes(), contentType: "application/json"}, nil
	})
}

// fillFlame inlines the first view in the page, so that the graph draws
// without another round trip; zooms and searches fetch /ui/api/flame.
func (s *Server) fillFlame(o report.Options, q url.Values, d *pageData) error {
	if or := q.Get("orient"); or != "" && or != "flame" && or != "icicle" {
		return fmt.Errorf("URL parameter orient: %q is neither flame nor icicle", or)
	}
	a, err := s.flameView(o, q)
	if err != nil {
		return err
	}
	d.Warnings = append(d.Warnings, a.warnings...)
	d.Legend = append(append(d.Legend, s.describe...), o.ActiveFilters()...)
	d.FlameData = template.JS(a.body) // HTML-escaped JSON
	d.Script = "/ui/assets/flamepage.js"
	return nil
}

// fillSandwich shows the callers (above) and callees (below) of the
// frame named by the sandwich parameter, beside the sortable self/total
// table of every function, from which another can be picked. In a diff
// the table holds what top shows with the same base: each function's
// change (new minus base), largest change first.
func (s *Server) fillSandwich(o report.Options, q url.Values, d *pageData) error {
	d.Symbol = q.Get(flame.ParamSandwich)
	a, err := s.cached("functions", o, "", func(o report.Options) (answer, error) {
		t, err := s.tree(o)
		if err != nil {
			return answer{}, err
		}
		rows := functionRows(t.Functions(), t.Diff)
		if len(rows) > maxFunctionRows {
			rows = rows[:maxFunctionRows]
		}
		b, err := json.Marshal(rows)
		return answer{body: b, contentType: "application/json"}, err
	})
	if err != nil {
		return err
	}
	var rows []functionRow
	if err := json.Unmarshal(a.body, &rows); err != nil {
		return err
	}
	d.Functions = rows
	if d.Symbol == "" && len(rows) > 0 {
		d.Symbol = rows[0].Name
		q.Set(flame.ParamSandwich, d.Symbol)
	}
	return s.fillFlame(o, q, d)
}

// A functionRow is one row of the sandwich view's table.
type functionRow struct {
	Name, File  string
	Line        int
	Self, Total int64 // in a diff, the change since the base
}

// functionRows are the table's rows of fs: in a diff, each function's
// change, largest (in size) first, as top -diff_base orders them.
func functionRows(fs []flame.FuncStat, diff bool) []functionRow {
	rows := make([]functionRow, len(fs))
	for i, f := range fs {
		rows[i] = functionRow{Name: f.Name, File: f.File, Line: f.Line, Self: f.Self, Total: f.Total}
		if diff {
			rows[i].Self, rows[i].Total = f.Self-f.BaseSelf, f.Total-f.BaseTotal
		}
	}
	if diff {
		slices.SortStableFunc(rows, func(a, b functionRow) int {
			return cmp.Or(cmp.Compare(abs(b.Total), abs(a.Total)), cmp.Compare(a.Name, b.Name))
		})
	}
	return rows
}
