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
// byID holds exactly the nodes the stacks keep. A tag of byte sizes keeps
// the value of its first sample (in order, nodes from the root), as
// there.
func (dg *dotGraph) addTagsFrom(r *run, ks keptStacks, byID []*dotNode, unit string, cut int64) {
	ix := dg.ix
	numUnit := r.numUnits["bytes"]
	var sets []tagSet
	setIDs := map[string]int32{}
	labels, names := newInterner(), newInterner()
	var key []byte
	sumIDs := map[uint64]int32{}
	var sums []tagSum
	sumOf := func(n, set int32) *tagSum {
		k := uint64(uint32(n))<<32 | uint64(uint32(set))
		i, ok := sumIDs[k]
		if !ok {
			i = int32(len(sums))
			sumIDs[k] = i
			sums = append(sums, tagSum{node: n, set: set})
		}
		return &sums[i]
	}
	stamp := make([]int32, len(ix.infos))
	for _, p := range ks {
		for si := p.lo; si < p.hi; si++ {
			ents := p.ents[p.start[si-p.lo]:p.start[si-p.lo+1]]
			if len(ents) == 0 {
				continue
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
			set, ok := setIDs[string(key)]
			if !ok {
				set = int32(len(sets))
				setIDs[string(key)] = set
				ts := tagSet{labels: ls, bytes: bytes, label: labels.id(ls), names: make([]int32, len(bytes))}
				for i, v := range bytes {
					ts.names[i] = names.id(scaledLabel(v, numUnit, unit))
				}
				sets = append(sets, ts)
			}
			w, dw := ix.weight(si)
			mark := int32(si + 1)
			for _, en := range ents {
				if n := int32(en & entNode); stamp[n] != mark {
					stamp[n] = mark
					t := sumOf(n, set)
					t.cum += w
					t.cumDiv += dw
				}
			}
			if p.leafKept[si-p.lo] {
				t := sumOf(int32(ents[len(ents)-1]&entNode), set)
				t.flat += w
				t.flatDiv += dw
			}
		}
	}
	// The tags, each with its first sample's value.
	tagIDs := map[tagKey]int32{}
	var tags []tagSum // node, and set for the value
	value := func(t *tagSum, k tagKey) int64 {
		if k.name < 0 {
			return 0
		}
		ts := &sets[t.set]
		return ts.bytes[slices.Index(ts.names, k.name)]
	}
	addTo := func(k tagKey, t *tagSum) {
		i, ok := tagIDs[k]
		if !ok {
			i = int32(len(tags))
			tagIDs[k] = i
			tags = append(tags, tagSum{node: t.node, set: t.set})
		}
		tags[i].add(t)
	}
	for i := range sums {
		t := &sums[i]
		ts := &sets[t.set]
		if ts.labels != "" {
			addTo(tagKey{t.node, ts.label, -1}, t)
		}
		for _, name := range ts.names {
			addTo(tagKey{t.node, ts.label, name}, t)
		}
	}
	for k, i := range tagIDs {
		t := &tags[i]
		if abs64(t.flat) < cut && abs64(t.cum) < cut {
			continue
		}
		n := byID[k.node]
		ls := labels.names[k.label]
		d := &dotTag{flat: t.flat, flatDiv: t.flatDiv, cum: t.cum, cumDiv: t.cumDiv}
		if k.name < 0 {
			d.name = ls
			n.labelTags[ls] = d
			continue
		}
		d.name, d.unit, d.value = names.names[k.name], numUnit, value(t, k)
		nt := n.numTags[ls]
		if nt == nil {
			nt = map[string]*dotTag{}
			n.numTags[ls] = nt
		}
		nt[d.name] = d
	}
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
