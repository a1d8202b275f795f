package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/perflab/perflab/graph"
)

func sortFunc[T any](s []T, less func(a, b T) bool) {
	sort.Slice(s, func(i, j int) bool { return less(s[i], s[j]) })
}

// edge writes a call edge between the nodes numbered from and to (their
// positions fi and ti in the model).
func (c *dotComposer) edge(e *dotEdge, from, to, fi, ti int, srcHasTags bool, names []string) {
	r := c.r
	var inline string
	if e.inline {
		inline = `\n (inline)`
	}
	wv := e.value()
	w := r.format(wv)
	attr := fmt.Sprintf(`label=" %s%s"`, w, inline)
	pen, color := 1, ""
	if r.total != 0 {
		// Edge weights can exceed the total in a diff.
		if weight := 1 + int(min(abs64(wv*100/r.total), 100)); weight > 1 {
			attr += fmt.Sprintf(" weight=%d", weight)
		}
		if width := 1 + int(min(abs64(wv*5/r.total), 5)); width > 1 {
			attr += fmt.Sprintf(" penwidth=%d", width)
			pen = width
		}
		color = dotColor(float64(wv)/float64(abs64(r.total)), false)
		attr += fmt.Sprintf(` color="%s"`, color)
	}
	arrow := "->"
	if e.residual {
		arrow = "..."
	}
	src, dst := names[e.src.id], names[e.dst.id]
	tooltip := fmt.Sprintf(`"%s %s %s (%s)"`, escapeForDot(src), arrow, escapeForDot(dst), w)
	attr += fmt.Sprintf(` tooltip=%s labeltooltip=%s`, tooltip, tooltip)
	if e.residual {
		attr += ` style="dotted"`
	}
	minLen := 1
	if srcHasTags {
		attr += " minlen=2"
		minLen = 2
	}
	c.printf("N%d -> N%d [%s]\n", from, to, attr)
	if fi < 0 || ti < 0 {
		return
	}
	label := w
	if e.inline {
		label += " (inline)"
	}
	c.g.Edges = append(c.g.Edges, &graph.Edge{
		From: fi, To: ti, Weight: wv, Label: label, Inline: e.inline, Residual: e.residual,
		Dotted: e.residual, PenWidth: pen, Color: color, MinLen: minLen,
		Tooltip: fmt.Sprintf("%s %s %s (%s)", src, arrow, dst, w),
	})
}

// nodelets writes the tag nodelets of node n: its heaviest label values
// and, under each, its byte sizes grouped in at most maxNodelets ranges.
// It reports whether it wrote any.
func (c *dotComposer) nodelets(n *dotNode, nodeID, idx int) bool {
	var ts []*dotTag
	for _, t := range n.labelTags {
		ts = append(ts, t)
	}
	lnts := make(map[string][]*dotTag)
	for l, m := range n.numTags {
		for _, t := range m {
			lnts[l] = append(lnts[l], t)
		}
	}
	// Leaves show cumulative tags, which include dropped callees'; inner
	// nodes their flat ones.
	flatTags := len(n.out) > 0
	sortTags(ts, flatTags)
	if len(ts) > maxNodelets {
		ts = ts[:maxNodelets]
	}
	wrote := false
	for i, t := range ts {
		w := t.cumValue()
		if flatTags {
			w = t.flatValue()
		}
		if w == 0 {
			continue
		}
		id := fmt.Sprintf("N%d_%d", nodeID, i)
		c.tagNode(id, "N"+strconv.Itoa(nodeID), idx, t.name, w, "")
		wrote = true
		if nts := lnts[t.name]; nts != nil {
			c.numericNodelets(nts, flatTags, id, len(c.g.Nodes)-1)
		}
	}
	if nts := lnts[""]; nts != nil {
		if c.numericNodelets(nts, flatTags, "N"+strconv.Itoa(nodeID), idx) {
			wrote = true
		}
	}
	return wrote
}

// numericNodelets writes the byte-size nodelets below the node named
// source (model index idx).
func (c *dotComposer) numericNodelets(nts []*dotTag, flatTags bool, source string, idx int) bool {
	wrote := false
	for j, t := range c.collapsedTags(nts, maxNodelets, flatTags) {
		w, style := t.cumValue(), ` style="dotted"`
		if flatTags || t.flatValue() == t.cumValue() {
			w, style = t.flatValue(), ""
		}
		if w != 0 {
			c.tagNode(fmt.Sprintf("N%s_%d", source, j), source, idx, t.name, w, style)
			wrote = true
		}
	}
	return wrote
}

// tagNode writes a nodelet and its link from its node.
func (c *dotComposer) tagNode(id, source string, parent int, name string, w int64, style string) {
	weight := c.r.format(w)
	c.printf(`%s [label = "%s" id="%s" fontsize=8 shape=box3d tooltip="%s"]`+"\n", id, name, id, weight)
	c.printf(`%s -> %s [label=" %s" weight=100 tooltip="%s" labeltooltip="%s"%s]`+"\n", source, id, weight, weight, weight, style)
	c.g.Nodes = append(c.g.Nodes, &graph.Node{
		ID: id, Kind: graph.Tag, Name: name, Lines: strings.Split(name, `\n`),
		Flat: w, Cum: w, FlatText: weight, FontSize: 8, Tooltip: weight, Parent: parent,
	})
	c.g.Edges = append(c.g.Edges, &graph.Edge{
		From: parent, To: len(c.g.Nodes) - 1, Weight: w, Label: weight,
		Dotted: style != "", PenWidth: 1, MinLen: 1, Tooltip: weight,
	})
}

// sortTags orders tags by cumulative (unless flat) then flat value, then
// name.
func sortTags(ts []*dotTag, flat bool) []*dotTag {
	// As for edges, values of equal magnitude and opposite sign, which
	// pprof leaves in random order, are ordered by name.
	sortFunc(ts, func(a, b *dotTag) bool {
		if ca, cb := abs64(a.cum), abs64(b.cum); !flat && ca != cb {
			return ca > cb
		}
		if fa, fb := abs64(a.flat), abs64(b.flat); fa != fb {
			return fa > fb
		}
		if a.name != b.name {
			return a.name < b.name
		}
		return a.flat > b.flat || (a.flat == b.flat && a.cum > b.cum)
	})
	return ts
}

// collapsedTags sorts numeric tags and, if there are more than count,
// groups each of the others with the nearest of the first count.
func (c *dotComposer) collapsedTags(ts []*dotTag, count int, flat bool) []*dotTag {
	ts = sortTags(ts, flat)
	if len(ts) <= count {
		return ts
	}
	groups := make([][]*dotTag, count)
	for i, t := range ts[:count] {
		groups[i] = []*dotTag{t}
	}
	for _, t := range ts[count:] {
		g, d := 0, tagDistance(t, groups[0][0])
		for i := 1; i < count; i++ {
			if nd := tagDistance(t, groups[i][0]); nd < d {
				g, d = i, nd
			}
		}
		groups[g] = append(groups[g], t)
	}
	var out []*dotTag
	for _, g := range groups {
		out = append(out, groupTag(g))
	}
	return sortTags(out, flat)
}

func tagDistance(t, u *dotTag) float64 {
	v, _ := scale(u.value, u.unit, t.unit)
	if v < float64(t.value) {
		return float64(t.value) - v
	}
	return v - float64(t.value)
}

// groupTag merges a group of numeric tags into one labelled "min..max".
func groupTag(g []*dotTag) *dotTag {
	if len(g) == 1 {
		t := g[0]
		return &dotTag{name: autoLabel(t.value, t.unit), flat: t.flatValue(), cum: t.cumValue()}
	}
	lo, hi := g[0], g[0]
	df, f := lo.flatDiv, lo.flat
	dc, cu := lo.cumDiv, lo.cum
	for _, t := range g[1:] {
		if v, _ := scale(t.value, t.unit, lo.unit); int64(v) < lo.value {
			lo = t
		}
		if v, _ := scale(t.value, t.unit, hi.unit); int64(v) > hi.value {
			hi = t
		}
		f += t.flat
		df += t.flatDiv
		cu += t.cum
		dc += t.cumDiv
	}
	return &dotTag{name: autoLabel(lo.value, lo.unit) + ".." + autoLabel(hi.value, hi.unit), flat: divide(f, df), cum: divide(cu, dc)}
}

// infoString is the default formatting of a node's identity, pprof's last
// tie-breaker between nodes.
func infoString(i *nodeInfo) string { return fmt.Sprint(*i) }
