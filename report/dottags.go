package report

import (
	"encoding/binary"
	"slices"
)

// A tagSet is what a sample adds to the tags of the nodes on its stack:
// its joined labels and its "bytes" values, with their names as tags show
// them (labels and names numbered). Samples share few sets (a handler, a
// tenant): the call graph sums each node's samples by set, then each
// node's tags from these sums, and makes the tags above the cut only.
type tagSet struct {
	labels string
	bytes  []int64
	label  int32
	names  []int32
}

// A tagSum is the sum of the samples of one tagSet through a node; flat
// of those whose leaf it is.
type tagSum struct {
	node, set                  int32
	flat, flatDiv, cum, cumDiv int64
}

func (t *tagSum) add(o *tagSum) {
	t.flat += o.flat
	t.flatDiv += o.flatDiv
	t.cum += o.cum
	t.cumDiv += o.cumDiv
}

// A tagKey names a tag of a node: its labels' number and its byte size
// name's, -1 for the labels' own tag.
type tagKey struct{ node, label, name int32 }

// addTagsFrom is addTags reading the kept stacks, then trimTags at cut:
// byID holds exactly the nodes the stacks keep; only those in want (all
// if nil) get tags. A tag of byte sizes keeps
// the value of its first sample (in order, nodes from the root), as
// there.
func (dg *dotGraph) addTagsFrom(r *run, ks keptStacks, byID []*dotNode, want []bool, unit string, cut int64) {
	tb := &tagBuild{ix: dg.ix, numUnit: r.numUnits["bytes"], unit: unit,
		setIDs: map[string]int32{}, labels: newInterner(), names: newInterner()}
	sampleSets := tb.findSets(ks)
	tb.sum(ks, sampleSets, byID, want)
	tb.makeTags(byID, cut)
}

// tagBuild holds addTagsFrom's work.
type tagBuild struct {
	ix            *index
	numUnit, unit string
	sets          []tagSet
	setIDs        map[string]int32 // by labels and byte sizes
	labels, names *interner
	sums          []tagSum // in the order of their first sample
}

// findSets returns the set of each sample that adds tags, -1 for others.
func (tb *tagBuild) findSets(ks keptStacks) []int32 {
	ix := tb.ix
	sampleSets := make([]int32, len(ix.w))
	var key []byte
	for _, p := range ks {
		for si := p.lo; si < p.hi; si++ {
			sampleSets[si] = -1
			if p.start[si-p.lo] == p.start[si-p.lo+1] {
				continue // no kept node
			}
			s := ix.samples[si]
			ls := joinLabels(s.Label)
			bytes := s.NumLabel["bytes"]
			if ls == "" && len(bytes) == 0 {
				continue
			}
			key = binary.AppendUvarint(key[:0], uint64(len(ls)))
			key = append(key, ls...)
			for _, v := range bytes {
				key = binary.AppendVarint(key, v)
			}
			set, ok := tb.setIDs[string(key)]
			if !ok {
				set = int32(len(tb.sets))
				tb.setIDs[string(key)] = set
				ts := tagSet{labels: ls, bytes: bytes, label: tb.labels.id(ls), names: make([]int32, len(bytes))}
				for i, v := range bytes {
					ts.names[i] = tb.names.id(scaledLabel(v, tb.numUnit, tb.unit))
				}
				tb.sets = append(tb.sets, ts)
			}
			sampleSets[si] = set
		}
	}
	return sampleSets
}

// maxTagCells bounds the table of sums by node and set; beyond, a map.
var maxTagCells = 1 << 22

// sum sums the samples of each set through each node (in want, if not
// nil), once per sample, and the flat values of their leaves.
func (tb *tagBuild) sum(ks keptStacks, sampleSets []int32, byID []*dotNode, want []bool) {
	ix := tb.ix
	rank := make([]int32, len(byID))
	k := int32(0)
	for id, n := range byID {
		rank[id] = -1
		if n != nil && (want == nil || want[id]) {
			rank[id] = k
			k++
		}
	}
	nsets := int32(len(tb.sets))
	var dense []int32 // sum index + 1 by node rank and set
	if int64(k)*int64(nsets) <= int64(maxTagCells) {
		dense = make([]int32, k*nsets)
	}
	sparse := map[int64]int32{}
	sumOf := func(n, set int32) *tagSum {
		var i int32
		if dense != nil {
			c := rank[n]*nsets + set
			if i = dense[c] - 1; i < 0 {
				i = int32(len(tb.sums))
				dense[c] = i + 1
				tb.sums = append(tb.sums, tagSum{node: n, set: set})
			}
			return &tb.sums[i]
		}
		c := int64(rank[n])*int64(nsets) + int64(set)
		i, ok := sparse[c]
		if !ok {
			i = int32(len(tb.sums))
			sparse[c] = i
			tb.sums = append(tb.sums, tagSum{node: n, set: set})
		}
		return &tb.sums[i]
	}
	stamp := make([]int32, len(ix.infos))
	for _, p := range ks {
		for si := p.lo; si < p.hi; si++ {
			set := sampleSets[si]
			if set < 0 {
				continue
			}
			ents := p.ents[p.start[si-p.lo]:p.start[si-p.lo+1]]
			w, dw := ix.weight(si)
			mark := int32(si + 1)
			for _, en := range ents {
				if n := int32(en & entNode); rank[n] >= 0 && stamp[n] != mark {
					stamp[n] = mark
					t := sumOf(n, set)
					t.cum += w
					t.cumDiv += dw
				}
			}
			if leaf := int32(ents[len(ents)-1] & entNode); p.leafKept[si-p.lo] && rank[leaf] >= 0 {
				t := sumOf(leaf, set)
				t.flat += w
				t.flatDiv += dw
			}
		}
	}
}

// makeTags adds to the nodes the tags the sums make, but those trimTags
// would drop at cut.
func (tb *tagBuild) makeTags(byID []*dotNode, cut int64) {
	keep := func(t *tagSum) bool { return abs64(t.flat) >= cut || abs64(t.cum) >= cut }
	noBytes := true
	for i := range tb.sets {
		noBytes = noBytes && len(tb.sets[i].bytes) == 0
	}
	if noBytes { // a set is its labels, a sum a tag
		for i := range tb.sums {
			if t := &tb.sums[i]; keep(t) {
				tb.addTag(byID, t, tagKey{t.node, tb.sets[t.set].label, -1})
			}
		}
		return
	}
	// A tag sums the sets of its labels (and byte size's name).
	ids := map[tagKey]int32{}
	var keys []tagKey
	var tags []tagSum // node, and set for the value: its first sum's
	addTo := func(k tagKey, t *tagSum) {
		i, ok := ids[k]
		if !ok {
			i = int32(len(tags))
			ids[k] = i
			keys = append(keys, k)
			tags = append(tags, tagSum{node: t.node, set: t.set})
		}
		tags[i].add(t)
	}
	for i := range tb.sums {
		t := &tb.sums[i]
		ts := &tb.sets[t.set]
		if ts.labels != "" {
			addTo(tagKey{t.node, ts.label, -1}, t)
		}
		for _, name := range ts.names {
			addTo(tagKey{t.node, ts.label, name}, t)
		}
	}
	for i := range tags {
		if keep(&tags[i]) {
			tb.addTag(byID, &tags[i], keys[i])
		}
	}
}

// addTag adds the tag of key k, of sums t, to its node.
func (tb *tagBuild) addTag(byID []*dotNode, t *tagSum, k tagKey) {
	n := byID[k.node]
	ls := tb.labels.names[k.label]
	d := &dotTag{flat: t.flat, flatDiv: t.flatDiv, cum: t.cum, cumDiv: t.cumDiv}
	if k.name < 0 {
		d.name = ls
		n.labelTags[ls] = d
		return
	}
	ts := &tb.sets[t.set]
	d.name, d.unit, d.value = tb.names.names[k.name], tb.numUnit, ts.bytes[slices.Index(ts.names, k.name)]
	nt := n.numTags[ls]
	if nt == nil {
		nt = map[string]*dotTag{}
		n.numTags[ls] = nt
	}
	nt[d.name] = d
}

// An interner numbers strings.
type interner struct {
	ids   map[string]int32
	names []string
}

func newInterner() *interner { return &interner{ids: map[string]int32{}} }

func (in *interner) id(s string) int32 {
	i, ok := in.ids[s]
	if !ok {
		i = int32(len(in.names))
		in.ids[s] = i
		in.names = append(in.names, s)
	}
	return i
}
