package report

import (
	"slices"
	"sort"
	"strings"
)

// A dotGraph is the graph of pprof's -dot output: pprof builds it as the
// graph of tree, but orders nodes by an entropy score, counts tag
// nodelets against -nodecount, keeps the label tags of each node and
// removes residual edges that another path already implies.
type dotGraph struct {
	ix    *index
	nodes []*dotNode
	// dropped and droppedEdges count what -nodefraction and
	// -edgefraction removed; origCount the nodes before -nodecount.
	dropped, droppedEdges, origCount int
}

// A dotNode is one node of a dotGraph.
type dotNode struct {
	id                         int32 // node ID in the index
	flat, flatDiv, cum, cumDiv int64
	labelTags                  map[string]*dotTag
	numTags                    map[string]map[string]*dotTag // by joined labels, then formatted value
	in, out                    map[*dotNode]*dotEdge
	score                      int64 // entropy score (scoreNodes)
}

func (n *dotNode) flatValue() int64 { return divide(n.flat, n.flatDiv) }
func (n *dotNode) cumValue() int64  { return divide(n.cum, n.cumDiv) }

// A dotTag is a label value (or a numeric label's value) of a node's
// samples, with its share of the node's value.
type dotTag struct {
	name                       string
	unit                       string
	value                      int64
	flat, flatDiv, cum, cumDiv int64
}

func (t *dotTag) flatValue() int64 { return divide(t.flat, t.flatDiv) }
func (t *dotTag) cumValue() int64  { return divide(t.cum, t.cumDiv) }

// A dotEdge is a call between two nodes of a dotGraph.
type dotEdge struct {
	src, dst         *dotNode
	w, wdiv          int64
	residual, inline bool
}

func (e *dotEdge) value() int64 { return divide(e.w, e.wdiv) }

// buildDot computes the graph -dot draws, step by step as pprof's
// newTrimmedGraph does in visual mode: every rebuild starts again from the
// samples, keeping only the chosen nodes.
func (r *run) buildDot() *dotGraph {
	ix := newIndex(r.p, newGranularity(&r.o, false, true), r.val)
	tagUnit := r.o.Unit // tags are formatted before the unit is chosen
	dg := &dotGraph{ix: ix}
	st := ix.stats
	var all []int32
	var total int64
	for id := range ix.infos {
		if st.cum[id] != 0 || st.flat[id] != 0 {
			all = append(all, int32(id))
			total += st.flat[id]
		}
	}
	nodeCut := abs64(int64(float64(total) * r.o.NodeFraction))
	edgeCut := abs64(int64(float64(total) * r.o.EdgeFraction))
	// The whole graph's edges and tags only matter if no node is dropped:
	// build the graph once, of the nodes kept.
	keep := all
	if nodeCut > 0 {
		keep = filterNodes(slices.Clone(all), func(id int32) bool { return abs64(st.cum[id]) >= nodeCut })
		dg.dropped = len(all) - len(keep)
	}
	if len(keep) == len(all) {
		keep = nil
	}
	// Each rebuild sorts by entropy on all its edges, then drops those
	// under edgeCut (pprof's trimEdges after sortEntropy): rebuild leaves
	// them out of the maps from the start and counts them.
	b := dotBuild{r: r, tagUnit: tagUnit, nodeCut: nodeCut, edgeCut: edgeCut}
	g, byID, dropped := b.rebuild(dg, keep, nil)
	dg.origCount = len(g)
	dg.sortEntropy(g)
	b.addTags(dg, g, byID)
	if c := r.o.NodeCount; c > 0 {
		trimTags(g, nodeCut)
		dropped = 0 // a second trim of the same graph drops nothing
		if top := selectTop(g, c); len(top) != len(g) {
			// The top nodes' tags are those of the graph above,
			// already cut at nodeCut: reuse them, not a pass over
			// every sample.
			g, _, dropped = b.rebuild(dg, dotIDs(top), byID)
			dg.sortEntropy(g)
		}
	}
	trimTags(g, nodeCut)
	dg.droppedEdges = dropped
	removeRedundantEdges(g, ix.names)
	dg.nodes = g
	return dg
}

// dotBuild holds what buildDot's rebuilds share: the settings and the
// first rebuild's kept stacks, which the second reads in place of the
// samples' frames.
type dotBuild struct {
	r       *run
	tagUnit string
	// nodeCut and edgeCut are -nodefraction's and -edgefraction's.
	nodeCut, edgeCut int64
	stacks           keptStacks
	kept             []bool // the first rebuild's nodes (nil: all)
}

// rebuild makes the graph of the nodes in keep (all nodes if nil): their
// values, the edges between them (residual across the others) and, when
// tagsOf is not nil, their tags, taken from tagsOf (a larger graph's nodes
// by ID, which give them up): a node's tags depend only on the samples
// through it and, for flat tags, on its being their leaf, whichever other
// nodes are kept. Without tagsOf, the first rebuild, addTags adds them
// later. Each node's entropy score is computed on all its edges; the
// edges into graph nodes under b.edgeCut are then left out (as pprof's
// trimEdges does) and counted in dropped. It returns the graph and its
// nodes by ID.
func (b *dotBuild) rebuild(dg *dotGraph, keep []int32, tagsOf []*dotNode) (g, byID []*dotNode, dropped int) {
	ix := dg.ix
	st := ix.stats
	var kept []bool
	if keep != nil {
		kept = make([]bool, len(ix.infos))
		for _, id := range keep {
			kept[id] = true
		}
	}
	byID = make([]*dotNode, len(ix.infos))
	count := len(ix.infos)
	if kept != nil {
		count = 0
		for _, k := range kept {
			if k {
				count++
			}
		}
	}
	nodes := make([]dotNode, 0, count) // never grown: byID points into it
	for id := range ix.infos {
		if kept != nil && !kept[id] {
			continue
		}
		nodes = append(nodes, dotNode{id: int32(id), flat: st.flat[id], flatDiv: st.flatDiv[id], cum: st.cum[id], cumDiv: st.cumDiv[id]})
		n := &nodes[len(nodes)-1]
		byID[id] = n
		// A node whose values cancel out (in a diff) is left out of the
		// graph but, as in pprof, keeps its edges: the nodes it calls or
		// is called by count them, and -dot prints them to "N0".
		if st.cum[id] != 0 || st.flat[id] != 0 {
			g = append(g, n)
		}
	}
	edges := b.edges(dg, kept, tagsOf == nil)
	scoreNodes(g, byID, edges)
	dropped = linkNodes(byID, edges, b.edgeCut)
	for id, n := range byID {
		switch {
		case n == nil:
		case tagsOf != nil && tagsOf[id] != nil:
			n.labelTags, n.numTags = tagsOf[id].labelTags, tagsOf[id].numTags
		default:
			n.labelTags, n.numTags = map[string]*dotTag{}, map[string]map[string]*dotTag{}
		}
	}
	return g, byID, dropped
}

// edges computes the edges between the kept nodes: from the kept stacks
// when a first rebuild (first) of fewer than all nodes records them, or
// has recorded them, else from the samples' frames.
func (b *dotBuild) edges(dg *dotGraph, kept []bool, first bool) *edgeList {
	ix := dg.ix
	if first {
		b.kept = kept
		if kept != nil {
			b.stacks = ix.keptStacksOf(kept)
		}
	}
	if kept != nil && b.stacks != nil {
		return b.stacks.edges(ix, kept)
	}
	role := make([]uint8, len(ix.infos))
	for i := range role {
		role[i] = needed
	}
	return ix.computeKeptEdges(kept, role)
}

// linkNodes adds the edges between nodes of byID to their in and out
// maps, but for those into a node of the graph (with a value) whose weight
// is under cut, and returns how many it left out.
func linkNodes(byID []*dotNode, edges *edgeList, cut int64) (dropped int) {
	// linked says whether e goes in the maps, and whether cut drops it.
	linked := func(e *edge) (ok, cutOff bool) {
		src, dst := byID[e.src], byID[e.dst]
		if src == nil || dst == nil {
			return false, false
		}
		if abs64(e.w) < cut && (dst.cum != 0 || dst.flat != 0) {
			return false, true
		}
		return true, false
	}
	in := make([]int32, len(byID))
	out := make([]int32, len(byID))
	n := 0
	for i := range edges.n {
		e := edges.at(i)
		ok, cutOff := linked(e)
		if cutOff {
			dropped++
		}
		if ok {
			in[e.dst]++
			out[e.src]++
			n++
		}
	}
	for id, nd := range byID {
		if nd != nil {
			nd.in = make(map[*dotNode]*dotEdge, in[id])
			nd.out = make(map[*dotNode]*dotEdge, out[id])
		}
	}
	des := make([]dotEdge, 0, n) // never grown: the maps point into it
	for i := range edges.n {
		e := edges.at(i)
		if ok, _ := linked(e); !ok {
			continue
		}
		src, dst := byID[e.src], byID[e.dst]
		des = append(des, dotEdge{src: src, dst: dst, w: e.w, wdiv: e.wdiv, residual: e.residual, inline: e.inline})
		de := &des[len(des)-1]
		src.out[dst] = de
		dst.in[src] = de
	}
	return dropped
}

// addTags adds the tags of the first rebuild's graph g (in entropy order)
// to the nodes -nodecount may show: the first NodeCount, as selectTop
// reads no further and the nodes it keeps are among them (all with no
// -nodecount).
func (b *dotBuild) addTags(dg *dotGraph, g, byID []*dotNode) {
	var want []bool
	if c := b.r.o.NodeCount; c > 0 && c < len(g) {
		want = make([]bool, len(byID))
		for _, n := range g[:c] {
			want[n.id] = true
		}
	}
	if b.stacks != nil {
		dg.addTagsFrom(b.r, b.stacks, byID, want, b.tagUnit, b.nodeCut)
	} else {
		dg.addTags(b.r, byID, b.kept, want, b.tagUnit)
	}
}

// addTags adds every sample's labels and "bytes" numeric labels to the
// tags of the kept nodes on its stack (those in want, if not nil), as
// pprof's graph does: to each node's cumulative tags once per sample, and
// to the leaf's flat tags.
func (dg *dotGraph) addTags(r *run, byID []*dotNode, kept, want []bool, unit string) {
	ix := dg.ix
	numUnit := r.numUnits["bytes"]
	stamp := make([]int32, len(ix.infos))
	for si, s := range ix.samples {
		w, dw := ix.weight(si)
		if w == 0 && dw == 0 {
			continue
		}
		labels := joinLabels(s.Label)
		bytes := s.NumLabel["bytes"]
		if labels == "" && len(bytes) == 0 {
			continue
		}
		mark := int32(si + 1)
		var leaf *dotNode
		leafSet := false
		for k := len(s.Location) - 1; k >= 0; k-- {
			loc := ix.locs.get(s.Location[k])
			if loc < 0 {
				continue
			}
			for j := ix.locStart[loc+1] - 1; j >= ix.locStart[loc]; j-- {
				id := ix.locNodes[j]
				n := byID[id]
				if (kept != nil && !kept[id]) || n == nil {
					leaf, leafSet = nil, true
					continue
				}
				leaf, leafSet = n, true
				if want != nil && !want[id] {
					continue
				}
				if stamp[id] != mark {
					stamp[id] = mark
					n.addTags(labels, bytes, numUnit, unit, w, dw, false)
				}
			}
		}
		if leafSet && leaf != nil && (want == nil || want[leaf.id]) {
			leaf.addTags(labels, bytes, numUnit, unit, w, dw, true)
		}
	}
}

// addTags adds a sample's labels and byte sizes to n's tags.
func (n *dotNode) addTags(labels string, bytes []int64, numUnit, outUnit string, w, dw int64, flat bool) {
	add := func(t *dotTag) {
		if flat {
			t.flat += w
			t.flatDiv += dw
		} else {
			t.cum += w
			t.cumDiv += dw
		}
	}
	if labels != "" {
		add(findTag(n.labelTags, labels, "", 0))
	}
	nt := n.numTags[labels]
	if nt == nil {
		nt = map[string]*dotTag{}
		n.numTags[labels] = nt
	}
	for _, v := range bytes {
		add(findTag(nt, scaledLabel(v, numUnit, outUnit), numUnit, v))
	}
}

func findTag(m map[string]*dotTag, name, unit string, value int64) *dotTag {
	t := m[name]
	if t == nil {
		t = &dotTag{name: name, unit: unit, value: value}
		m[name] = t
	}
	return t
}

// joinLabels is the text of a sample's string labels as a tag shows
// them, "key:value" lines in order; the label marking -diff_base samples
// is left out.
func joinLabels(labels map[string][]string) string {
	var out []string
	for k, vs := range labels {
		if k == "pprof::base" {
			continue
		}
		for _, v := range vs {
			out = append(out, k+":"+v)
		}
	}
	sort.Strings(out)
	return strings.Join(out, `\n`)
}

// trimTags drops the tags under cut.
func trimTags(g []*dotNode, cut int64) {
	trim := func(m map[string]*dotTag) {
		for k, t := range m {
			if abs64(t.flat) < cut && abs64(t.cum) < cut {
				delete(m, k)
			}
		}
	}
	for _, n := range g {
		trim(n.labelTags)
		for _, m := range n.numTags {
			trim(m)
		}
	}
}

// selectTop returns the first nodes of g up to count, each counting with
// its flat tags (at most maxNodelets).
func selectTop(g []*dotNode, count int) []*dotNode {
	seen := 0
	for i, n := range g {
		if seen += min(countFlatTags(n), maxNodelets) + 1; seen >= count {
			count = i + 1
			break
		}
	}
	return g[:min(count, len(g))]
}

func countFlatTags(n *dotNode) int {
	c := 0
	for _, t := range n.labelTags {
		if t.flat != 0 {
			c++
		}
	}
	for _, m := range n.numTags {
		for _, t := range m {
			if t.flat != 0 {
				c++
			}
		}
	}
	return c
}

// removeRedundantEdges removes residual edges whose destination another
// path from their source reaches, lightest first.
func removeRedundantEdges(g []*dotNode, names []string) {
	for i := len(g) - 1; i >= 0; i-- {
		in := make([]*dotEdge, 0, len(g[i].in))
		for _, e := range g[i].in {
			in = append(in, e)
		}
		sortEdgeList(in, names)
		for j := len(in) - 1; j >= 0; j-- {
			e := in[j]
			if !e.residual {
				break
			}
			if reachable(e) {
				delete(e.src.out, e.dst)
				delete(e.dst.in, e.src)
			}
		}
	}
}

// reachable says whether e.src reaches e.dst without e.
func reachable(e *dotEdge) bool {
	seen := map[*dotNode]bool{e.dst: true}
	queue := []*dotNode{e.dst}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, ie := range n.in {
			if ie == e || seen[ie.src] {
				continue
			}
			if ie.src == e.src {
				return true
			}
			seen[ie.src] = true
			queue = append(queue, ie.src)
		}
	}
	return false
}
