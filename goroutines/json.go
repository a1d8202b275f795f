package goroutines

import (
	"encoding/json"
	"io"
)

// The JSON form of a dump, as documented in docs/goroutines.md.
type (
	jsonDump struct {
		Total     int         `json:"total"`
		Panic     *jsonPanic  `json:"panic,omitempty"`
		Groups    []jsonGroup `json:"groups"`
		Races     []jsonRace  `json:"races,omitempty"`
		Snapshots []jsonDump  `json:"snapshots,omitempty"`
	}
	jsonRace struct {
		Count      int        `json:"count"`
		Location   string     `json:"location,omitempty"`
		Access     jsonAccess `json:"access"`
		Previous   jsonAccess `json:"previous"`
		Goroutines []int64    `json:"goroutines"`
	}
	jsonAccess struct {
		Op        string      `json:"op"`
		Addr      string      `json:"addr"`
		Goroutine int64       `json:"goroutine"`
		State     string      `json:"state,omitempty"`
		Frames    []jsonFrame `json:"frames"`
		CreatedAt []jsonFrame `json:"created_at,omitempty"`
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
		Elided      *jsonElided       `json:"elided,omitempty"`
		Folded      int               `json:"folded_groups,omitempty"`
	}
	jsonElided struct {
		Frames int `json:"frames"`
		At     int `json:"at"`
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
// "line"}], "elided": {"frames", "at"}, "folded_groups" (the group
// "other" only)}], "races": [{"count", "location", "access" and
// "previous": {"op", "addr", "goroutine", "state", "frames",
// "created_at"}, "goroutines"}], "snapshots": [the input's further dumps,
// in the same form]}, groups in the order of Sort (docs/goroutines.md).
func (d *Dump) WriteJSON(w io.Writer) error {
	out := d.jsonDump()
	for _, sn := range d.Snapshots {
		out.Snapshots = append(out.Snapshots, sn.jsonDump())
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func (d *Dump) jsonDump() jsonDump {
	out := jsonDump{Total: d.Total, Groups: make([]jsonGroup, 0, len(d.Groups))}
	if d.Panic != "" {
		out.Panic = &jsonPanic{Value: d.Panic, Goroutine: d.PanicGoroutine}
	}
	for _, g := range d.Groups {
		jg := jsonGroup{Count: g.Count, State: g.State, WaitMinutes: jsonWait{g.WaitMin, g.WaitMax},
			Frames: jsonFrames(g.Frames), Folded: g.Folded}
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
		if g.Elided > 0 {
			jg.Elided = &jsonElided{g.Elided, g.ElidedAt}
		}
		out.Groups = append(out.Groups, jg)
	}
	for _, g := range d.Races {
		r := g.Example
		out.Races = append(out.Races, jsonRace{Count: g.Count, Location: r.Location,
			Access: jsonAccessOf(&r.Access), Previous: jsonAccessOf(&r.Previous), Goroutines: g.Goroutines})
	}
	return out
}

func jsonAccessOf(a *Access) jsonAccess {
	ja := jsonAccess{Op: a.Op, Addr: a.Addr, Goroutine: a.Goroutine, State: a.State, Frames: jsonFrames(a.Frames)}
	if len(a.CreatedAt) > 0 {
		ja.CreatedAt = jsonFrames(a.CreatedAt)
	}
	return ja
}

func jsonFrames(fs []Frame) []jsonFrame {
	out := make([]jsonFrame, len(fs))
	for i, f := range fs {
		out[i] = jsonFrame{f.Func, f.File, f.Line}
	}
	return out
}
