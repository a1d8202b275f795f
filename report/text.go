package report

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// An item is one row of top: a node and its values.
type item struct {
	node      int32
	name      string
	inline    string // "", "(inline)" or "(partial-inline)"
	flat, cum int64
}

// items returns top's rows: every shown node, marked "(inline)" when all
// the calls reaching it were inlined and "(partial-inline)" when some were.
func (g *trimmed) items() []item {
	out := make([]item, 0, len(g.nodes))
	for _, n := range g.nodes {
		var inl, notInl bool
		for _, ei := range g.in[n] {
			if g.edges.at(ei).inline {
				inl = true
			} else {
				notInl = true
			}
		}
		it := item{node: n, name: g.ix.names[n], flat: g.st.flatValue(n), cum: g.st.cumValue(n)}
		switch {
		case inl && notInl:
			it.inline = "(partial-inline)"
		case inl:
			it.inline = "(inline)"
		}
		out = append(out, it)
	}
	return out
}

func (r *run) top(w io.Writer) error {
	g := r.buildGraph(nil)
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintln(bw, strings.Join(r.graphLabels(g), "\n"))
	fmt.Fprintf(bw, "%10s %5s%% %5s%% %10s %5s%%\n", "flat", "flat", "sum", "cum", "cum")
	var sum int64
	for _, it := range g.items() {
		inl := it.inline
		if inl != "" {
			inl = " " + inl
		}
		sum += it.flat
		fmt.Fprintf(bw, "%10s %s %s %10s %s  %s%s\n", r.format(it.flat), percentage(it.flat, r.total),
			percentage(sum, r.total), r.format(it.cum), percentage(it.cum, r.total), it.name, inl)
	}
	return bw.Flush()
}

// sortedEdges orders a node's edges by weight, then by caller and callee name.
func (g *trimmed) sortedEdges(list []int32) []*edge {
	es := make([]*edge, len(list))
	for i, ei := range list {
		es[i] = g.edges.at(ei)
	}
	names := g.ix.names
	sort.Slice(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if wa, wb := abs64(a.w), abs64(b.w); wa != wb {
			return wa > wb
		}
		if names[a.src] != names[b.src] {
			return names[a.src] < names[b.src]
		}
		if names[a.dst] != names[b.dst] {
			return names[a.dst] < names[b.dst]
		}
		// pprof leaves these ties (opposite signs, same names) in random
		// order; fix one.
		if a.w != b.w {
			return a.w > b.w
		}
		return a.src < b.src || (a.src == b.src && a.dst < b.dst)
	})
	return es
}

const (
	treeSeparator = "----------------------------------------------------------+-------------"
	treeLegend    = "      flat  flat%   sum%        cum   cum%   calls calls% + context 	 	 "
)

// tree writes tree, or peek when a symbol regexp is set: each node with
// its callers above and its callees below.
func (r *run) tree(w io.Writer) error {
	var rx *regexp.Regexp
	if r.kind == Peek {
		var err error
		if rx, err = r.symbolRegexp(); err != nil {
			return err
		}
	}
	g := r.buildGraph(rx)
	bw := bufio.NewWriterSize(w, 64<<10)
	defer bw.Flush()
	fmt.Fprintln(bw, strings.Join(r.graphLabels(g), "\n"))
	fmt.Fprintln(bw, treeSeparator)
	fmt.Fprintln(bw, treeLegend)
	names := g.ix.names
	var sum int64
	matched := 0
	for _, n := range g.nodes {
		flat, cum := g.st.flatValue(n), g.st.cumValue(n)
		if rx != nil && !rx.MatchString(names[n]) {
			continue
		}
		matched++
		fmt.Fprintln(bw, treeSeparator)
		for _, e := range g.sortedEdges(g.in[n]) {
			fmt.Fprintf(bw, "%50s %s |   %s%s\n", r.format(e.w), percentage(e.w, cum), names[e.src], inlineMark(e.inline))
		}
		sum += flat
		fmt.Fprintf(bw, "%10s %s %s %10s %s                | %s\n", r.format(flat), percentage(flat, r.total),
			percentage(sum, r.total), r.format(cum), percentage(cum, r.total), names[n])
		for _, e := range g.sortedEdges(g.out[n]) {
			fmt.Fprintf(bw, "%50s %s |   %s%s\n", r.format(e.w), percentage(e.w, cum), names[e.dst], inlineMark(e.inline))
		}
	}
	if len(g.nodes) > 0 {
		fmt.Fprintln(bw, treeSeparator)
	}
	if rx != nil && matched == 0 {
		bw.Flush()
		return fmt.Errorf("no matches found for regexp: %s", rx)
	}
	return nil
}

func inlineMark(inline bool) string {
	if inline {
		return " (inline)"
	}
	return ""
}
