package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"

	"github.com/google/pprof/profile"
)

// JSONReport is the JSON form of top, peek and tree; docs/json.md
// describes each field.
type JSONReport struct {
	Report      Kind       `json:"report"`
	Labels      []string   `json:"labels"`
	SampleType  string     `json:"sample_type"`
	SampleUnit  string     `json:"sample_unit"`
	OutputUnit  string     `json:"output_unit"`
	Total       int64      `json:"total"`
	TotalText   string     `json:"total_text"`
	ShownTotal  int64      `json:"shown_total"`
	Dropped     int        `json:"dropped_nodes"`
	NodesBefore int        `json:"nodes_before_limit"`
	Nodes       []JSONNode `json:"nodes"`
}

// JSONNode is one row of top, or one node of tree and peek.
type JSONNode struct {
	Name     string     `json:"name"`
	Function string     `json:"function,omitempty"`
	File     string     `json:"file,omitempty"`
	Line     int        `json:"line,omitempty"`
	Address  string     `json:"address,omitempty"`
	Flat     int64      `json:"flat"`
	Cum      int64      `json:"cum"`
	FlatText string     `json:"flat_text"`
	CumText  string     `json:"cum_text"`
	FlatPct  float64    `json:"flat_pct"`
	SumPct   float64    `json:"sum_pct"`
	CumPct   float64    `json:"cum_pct"`
	Inline   string     `json:"inline,omitempty"`
	Callers  []JSONEdge `json:"callers,omitempty"`
	Callees  []JSONEdge `json:"callees,omitempty"`
}

// JSONEdge is a call into or out of a tree or peek node.
type JSONEdge struct {
	Name       string  `json:"name"`
	Weight     int64   `json:"weight"`
	WeightText string  `json:"weight_text"`
	Pct        float64 `json:"pct"` // of the node's cumulative value
	Inline     bool    `json:"inline,omitempty"`
}

// GenerateJSON writes report k (top, peek or tree) of p to w as JSON. Like
// Generate, it leaves p as it is.
func GenerateJSON(w io.Writer, p *profile.Profile, k Kind, o Options) error {
	if k != Top && k != Peek && k != Tree {
		return fmt.Errorf("%s has no JSON form", k)
	}
	r, err := prepare(p, k, o)
	if err != nil {
		return err
	}
	var rx *regexp.Regexp
	if k == Peek {
		if rx, err = r.symbolRegexp(); err != nil {
			return err
		}
	}
	g := r.buildGraph(rx)
	out := JSONReport{
		Report: k, Labels: r.graphLabels(g), SampleType: r.sampleType, SampleUnit: r.sampleUnit,
		OutputUnit: r.o.Unit, Total: r.total, TotalText: r.format(r.total), ShownTotal: g.shownTotal(),
		Dropped: g.dropped, NodesBefore: g.origCount, Nodes: []JSONNode{},
	}
	var sum int64
	for _, it := range g.items() {
		sum += it.flat
		if rx != nil && !rx.MatchString(it.name) {
			continue
		}
		out.Nodes = append(out.Nodes, r.jsonNode(g, it, sum, k != Top))
	}
	if rx != nil && len(out.Nodes) == 0 {
		return fmt.Errorf("no matches found for regexp: %s", rx)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func (r *run) jsonNode(g *trimmed, it item, sum int64, edges bool) JSONNode {
	info := &g.ix.infos[it.node]
	n := JSONNode{
		Name: it.name, Function: info.Name, File: info.File, Line: info.Lineno,
		Flat: it.flat, Cum: it.cum, FlatText: r.format(it.flat), CumText: r.format(it.cum),
		FlatPct: pct(it.flat, r.total), SumPct: pct(sum, r.total), CumPct: pct(it.cum, r.total),
	}
	if it.inline != "" {
		n.Inline = it.inline[1 : len(it.inline)-1]
	}
	if info.Address != 0 {
		n.Address = fmt.Sprintf("%#x", info.Address)
	}
	if !edges {
		return n
	}
	for _, e := range g.sortedEdges(g.in[it.node]) {
		n.Callers = append(n.Callers, r.jsonEdge(g.ix.names[e.src], e, it.cum))
	}
	for _, e := range g.sortedEdges(g.out[it.node]) {
		n.Callees = append(n.Callees, r.jsonEdge(g.ix.names[e.dst], e, it.cum))
	}
	return n
}

func (r *run) jsonEdge(name string, e *edge, cum int64) JSONEdge {
	return JSONEdge{Name: name, Weight: e.w, WeightText: r.format(e.w), Pct: pct(e.w, cum), Inline: e.inline}
}

// pct is value's share of total in percent, rounded to 0.01.
func pct(value, total int64) float64 {
	if total == 0 {
		return 0
	}
	return math.Round(math.Abs(float64(value)/float64(total))*10000) / 100
}
