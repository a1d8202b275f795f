package goroutines

import (
	"encoding/json"
	"io"
)

// The JSON form of a dump, as documented in docs/goroutines.md.
type (
	jsonDump struct {
		Total  int         `json:"total"`
		Panic  *jsonPanic  `json:"panic,omitempty"`
		Groups []jsonGroup `json:"groups"`
	}
	jsonPanic struct {
		Value     string `json:"value"`
		Goroutine int64  `json:"goroutine"`
	}
	jsonGroup struct {
		Count       int               `json:"count"`
		BaseCount   *int              `json:"base_count,omitempty"`
		State       string            `json:"state"`
		WaitMinutes jsonWait          `json:"wait_minutes"`
		Labels      map[string]string `json:"labels,omitempty"`
		CreatedBy   *jsonFrame        `json:"created_by,omitempty"`
		Frames      []jsonFrame       `json:"frames"`
		Folded      int               `json:"folded_groups,omitempty"`
	}
	jsonWait struct {
		Min int `json:"min"`
		Max int `json:"max"`
	}
	jsonFrame struct {
		Func string `json:"func"`
		File string `json:"file"`
		Line int    `json:"line"`
	}
)

// WriteJSON writes the dump as one JSON object: {"total", "panic":
// {"value", "goroutine"}, "groups": [{"count", "base_count" (after
// Compare), "state", "wait_minutes": {"min", "max"}, "labels",
// "created_by": {"func", "file", "line"}, "frames": [{"func", "file",
// "line"}], "folded_groups" (the group "other" only)}]}, groups in the
// order of Sort.
func (d *Dump) WriteJSON(w io.Writer) error {
	out := jsonDump{Total: d.Total, Groups: make([]jsonGroup, 0, len(d.Groups))}
	if d.Panic != "" {
		out.Panic = &jsonPanic{Value: d.Panic, Goroutine: d.PanicGoroutine}
	}
	for _, g := range d.Groups {
		jg := jsonGroup{Count: g.Count, State: g.State, WaitMinutes: jsonWait{g.WaitMin, g.WaitMax},
			Frames: make([]jsonFrame, len(g.Frames)), Folded: g.Folded}
		if g.baseSeen {
			jg.BaseCount = &g.BaseCount
		}
		if len(g.Labels) > 0 {
			jg.Labels = make(map[string]string, len(g.Labels))
			for _, l := range g.Labels {
				jg.Labels[l.Key] = l.Value
			}
		}
		if c := g.CreatedBy; c != nil {
			jg.CreatedBy = &jsonFrame{c.Func, c.File, c.Line}
		}
		for i, f := range g.Frames {
			jg.Frames[i] = jsonFrame{f.Func, f.File, f.Line}
		}
		out.Groups = append(out.Groups, jg)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
