package flame

import (
	"encoding/json"
	"strconv"
)

// MarshalJSON writes the view in the columnar form flame.js reads: the
// view's fields, a table of the distinct strings, and one array per frame
// field under "frames", strings as indexes into the table:
//
//	{"sampleType": "cpu", "unit": "nanoseconds", "total": 123, "diff": false,
//	 "reverse": false, "mean": false, "baseScale": 1, "path": [], "sandwich": "",
//	 "rootValue": 123, "rootBase": 0, "search": "", "searchValue": 0,
//	 "minValue": 1, "dropped": 0,
//	 "strings": ["root", "main.main", "main", ...],
//	 "frames": {"name": [0, 1], "file": [...], "line": [...], "pkg": [...],
//	   "parent": [-1, 0], "depth": [0, 1], "offset": [0, 0], "width": [...],
//	   "cum": [...], "self": [...], "base": [...], "baseSelf": [...],
//	   "matched": [indexes of matched frames]}}
//
// base and baseSelf are present only in a diff. encoding/json's escaping
// of <, > and & keeps the output safe inside an HTML script element.
func (v *View) MarshalJSON() ([]byte, error) {
	strs := map[string]int{}
	var table []string
	intern := func(s string) int {
		i, ok := strs[s]
		if !ok {
			i = len(table)
			strs[s] = i
			table = append(table, s)
		}
		return i
	}
	b, err := json.Marshal(v.header())
	if err != nil {
		return nil, err
	}
	b = b[:len(b)-1] // reopen the object
	fr := v.Frames
	col := func(name string, get func(f *Frame) int64) {
		b = append(b, `,"`+name+`":[`...)
		for i := range fr {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, get(&fr[i]), 10)
		}
		b = append(b, ']')
	}
	b = append(b, `,"frames":{"n":`...)
	b = strconv.AppendInt(b, int64(len(fr)), 10)
	col("name", func(f *Frame) int64 { return int64(intern(f.Name)) })
	col("file", func(f *Frame) int64 { return int64(intern(f.File)) })
	col("line", func(f *Frame) int64 { return int64(f.Line) })
	col("pkg", func(f *Frame) int64 { return int64(intern(f.Package)) })
	col("parent", func(f *Frame) int64 { return int64(f.Parent) })
	col("depth", func(f *Frame) int64 { return int64(f.Depth) })
	col("offset", func(f *Frame) int64 { return f.Offset })
	col("width", func(f *Frame) int64 { return f.Width })
	col("cum", func(f *Frame) int64 { return f.Cum })
	col("self", func(f *Frame) int64 { return f.Self })
	if v.Diff {
		col("base", func(f *Frame) int64 { return f.Base })
		col("baseSelf", func(f *Frame) int64 { return f.BaseSelf })
	}
	b = append(b, `,"matched":[`...)
	n := 0
	for i := range fr {
		if fr[i].Matched {
			if n > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(i), 10)
			n++
		}
	}
	b = append(b, "]}"...)
	if table == nil {
		table = []string{}
	}
	st, err := json.Marshal(table)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"strings":`...)
	b = append(b, st...)
	return append(b, '}'), nil
}

// viewHeader holds a View's fields but its frames, as MarshalJSON writes them.
type viewHeader struct {
	SampleType  string   `json:"sampleType"`
	Unit        string   `json:"unit"`
	Total       int64    `json:"total"`
	Diff        bool     `json:"diff"`
	Reverse     bool     `json:"reverse"`
	Mean        bool     `json:"mean"`
	BaseScale   float64  `json:"baseScale"`
	Path        []string `json:"path"`
	Sandwich    string   `json:"sandwich"`
	RootValue   int64    `json:"rootValue"`
	RootBase    int64    `json:"rootBase"`
	Search      string   `json:"search"`
	SearchValue int64    `json:"searchValue"`
	MinValue    int64    `json:"minValue"`
	Dropped     int      `json:"dropped"`
}

func (v *View) header() viewHeader {
	h := viewHeader{v.SampleType, v.Unit, v.Total, v.Diff, v.Reverse, v.Mean, v.BaseScale, v.Path, v.Sandwich,
		v.RootValue, v.RootBase, v.Search, v.SearchValue, v.MinValue, v.Dropped}
	if h.Path == nil {
		h.Path = []string{}
	}
	return h
}
