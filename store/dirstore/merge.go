package dirstore

import (
	"context"
	"fmt"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/store"
)

// A gather adds up the units of a merge: their merged headers, and their
// samples by stack and label set hash, for each layout apart (a merge of
// profiles with other sample types keeps the selection's alone).
type gather struct {
	header store.MergedHeader
	aggs   []*layoutAgg
	parts  *partFinder
}

type layoutAgg struct {
	l       layout
	index   map[sampleKey]int
	samples []store.Sample
}

type sampleKey struct{ stack, labels store.Hash }

func newGather() *gather { return &gather{parts: newPartFinder()} }

// add adds u.
func (g *gather) add(u *unit) error {
	g.header.Add(&u.header)
	for _, m := range u.header.Mappings {
		g.parts.hint(kindMapping, m.Hash, u.src)
	}
	var la *layoutAgg
	for _, a := range g.aggs {
		if a.l.equal(u.l) {
			la = a
		}
	}
	if la == nil {
		la = &layoutAgg{l: u.l, index: map[sampleKey]int{}}
		g.aggs = append(g.aggs, la)
	}
	stacks, err := u.src.hashes(kindStack)
	if err != nil {
		return err
	}
	labels, err := u.src.hashes(kindLabelSet)
	if err != nil {
		return err
	}
	rs := u.rows
	if rs.ncol != len(u.l.SampleTypes) {
		return fmt.Errorf("samples of %d values for %d sample types: %w", rs.ncol, len(u.l.SampleTypes), ErrCorrupt)
	}
	for i := range rs.len() {
		so, lo := rs.stacks[i], rs.labels[i]
		if int(so) >= len(stacks) || int(lo) > len(labels) {
			return fmt.Errorf("samples numbered beyond the parts of their file: %w", ErrCorrupt)
		}
		key := sampleKey{stack: stacks[so]}
		if lo > 0 {
			key.labels = labels[lo-1]
		}
		if j, ok := la.index[key]; ok {
			addTo(la.samples[j].Values, rs.row(i))
			continue
		}
		la.index[key] = len(la.samples)
		la.samples = append(la.samples, store.Sample{Stack: key.stack, Labels: key.labels, Values: append([]int64(nil), rs.row(i)...)})
		g.parts.hint(kindStack, key.stack, u.src)
		if key.labels != 0 {
			g.parts.hint(kindLabelSet, key.labels, u.src)
		}
	}
	return nil
}

func addTo(dst, src []int64) {
	for i, v := range src {
		dst[i] += v
	}
}

// compose builds the merge of what g gathered as a selection of type t
// (zero for a stored profile alone).
func (g *gather) compose(ctx context.Context, t store.ProfileType) (*profile.Profile, error) {
	var samples []store.Sample
	for _, a := range g.aggs {
		col := -1
		if g.header.Mixed && t != (store.ProfileType{}) {
			col = a.l.column(t)
		}
		for _, s := range a.samples {
			if col >= 0 {
				s.Values = s.Values[col : col+1]
			}
			samples = append(samples, s)
		}
	}
	return store.Compose(ctx, &g.header, t, samples, g.parts)
}

// Merge returns the merge of the profiles sel picks: rollups where the
// range holds whole hours (or a whole block) of a series, the profiles
// themselves at the edges and in the WAL.
func (s *Store) Merge(ctx context.Context, sel store.Selection) (*profile.Profile, error) {
	if sel.Type == (store.ProfileType{}) {
		return nil, fmt.Errorf("merge of %s: no profile type: %w", sel.Selector, store.ErrInvalid)
	}
	q := s.newQuery(sel)
	sn, err := s.snapshot(q.w)
	if err != nil {
		return nil, err
	}
	defer sn.release()
	g := newGather()
	err = q.each(sn, q.w, func(u *unit) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return g.add(u)
	})
	if err != nil {
		return nil, s.errorf(err)
	}
	if g.header.Profiles == 0 {
		return nil, fmt.Errorf("%s %s: no profile in range: %w", sel.Type, sel.Selector, store.ErrNotFound)
	}
	p, err := g.compose(ctx, sel.Type)
	if err != nil {
		return nil, s.errorf(err)
	}
	return p, nil
}

// Profile returns the stored profile id names, composed alone.
func (s *Store) Profile(ctx context.Context, id string) (*profile.Profile, error) {
	h, err := store.ParseHash(id)
	if err != nil {
		return nil, fmt.Errorf("profile %q: %w", id, store.ErrNotFound)
	}
	q := s.newQuery(store.Selection{})
	sn, err := s.snapshot(q.w)
	if err != nil {
		return nil, err
	}
	defer sn.release()
	u, err := q.find(sn, h)
	if err != nil {
		return nil, s.errorf(err)
	}
	if u == nil {
		return nil, fmt.Errorf("profile %q: %w", id, store.ErrNotFound)
	}
	g := newGather()
	if err := g.add(u); err != nil {
		return nil, s.errorf(err)
	}
	p, err := g.compose(ctx, store.ProfileType{})
	if err != nil {
		return nil, s.errorf(err)
	}
	return p, nil
}

// find returns the unit of the profile of ID id, or nil.
func (q *query) find(sn *snapshot, id store.Hash) (*unit, error) {
	for i, g := range sn.segments {
		for _, e := range sn.entries[i] {
			if e.id != id {
				continue
			}
			h, err := q.header(g, e.header)
			if err != nil {
				return nil, err
			}
			var rs rows
			if err := g.readRows(&e.entry, &rs); err != nil {
				return nil, err
			}
			return rawUnit(g, h, &e.entry, &rs, e.series), nil
		}
	}
	for _, b := range sn.blocks {
		found, err := b.findID(id)
		if err != nil || len(found) == 0 {
			if err != nil {
				return nil, err
			}
			continue
		}
		slot := int(found[0].slot)
		x, err := b.seriesIndex(b.slots[slot])
		if err != nil {
			return nil, err
		}
		e := &x.entries[found[0].pos]
		src := q.source(b, b.sections[slot])
		h, err := q.header(src, e.header)
		if err != nil {
			return nil, err
		}
		var rs rows
		if err := newPageReader(b, slot, x).rows(e, &rs); err != nil {
			return nil, err
		}
		return rawUnit(src, h, e, &rs, b.series[slot]), nil
	}
	return nil, nil
}

// A partFinder finds the parts Compose asks for in the sources of a
// query: first where the stack, location or sample that refers to the
// part was found, then in every source.
type partFinder struct {
	hints   [numKinds]map[store.Hash]source
	sources []source
	known   map[source]bool
}

func newPartFinder() *partFinder {
	f := &partFinder{known: map[source]bool{}}
	for k := range numKinds {
		f.hints[k] = map[store.Hash]source{}
	}
	return f
}

var _ store.PartReader = (*partFinder)(nil)

// hint tells that src has the part of kind k with hash h.
func (f *partFinder) hint(k kind, h store.Hash, src source) {
	if _, ok := f.hints[k][h]; !ok {
		f.hints[k][h] = src
	}
	if !f.known[src] {
		f.known[src] = true
		f.sources = append(f.sources, src)
	}
}

// lookup returns the part of kind k with hash h and where it was.
func (f *partFinder) lookup(k kind, h store.Hash) (any, source, error) {
	if src := f.hints[k][h]; src != nil {
		p, ok, err := src.part(k, h)
		if err != nil || ok {
			return p, src, err
		}
	}
	for _, src := range f.sources {
		p, ok, err := src.part(k, h)
		if err != nil || ok {
			return p, src, err
		}
	}
	return nil, nil, fmt.Errorf("%s %s: %w", k, h, store.ErrMissingPart)
}

func find[T any](f *partFinder, k kind, hashes []store.Hash, then func(T, source)) (map[store.Hash]T, error) {
	out := make(map[store.Hash]T, len(hashes))
	for _, h := range hashes {
		p, src, err := f.lookup(k, h)
		if err != nil {
			return nil, err
		}
		v, ok := p.(T)
		if !ok {
			return nil, fmt.Errorf("%s %s: %w", k, h, ErrCorrupt)
		}
		out[h] = v
		if then != nil {
			then(v, src)
		}
	}
	return out, nil
}

// ReadStacks returns the stacks of hashes.
func (f *partFinder) ReadStacks(_ context.Context, hashes []store.Hash) (map[store.Hash]store.Stack, error) {
	return find(f, kindStack, hashes, func(st store.Stack, src source) {
		for _, l := range st {
			f.hint(kindLocation, l, src)
		}
	})
}

// ReadLocations returns the locations of hashes.
func (f *partFinder) ReadLocations(_ context.Context, hashes []store.Hash) (map[store.Hash]store.Location, error) {
	return find(f, kindLocation, hashes, func(l store.Location, src source) {
		for _, ln := range l.Lines {
			if ln.Function != 0 {
				f.hint(kindFunction, ln.Function, src)
			}
		}
	})
}

// ReadFunctions returns the functions of hashes.
func (f *partFinder) ReadFunctions(_ context.Context, hashes []store.Hash) (map[store.Hash]store.Function, error) {
	return find[store.Function](f, kindFunction, hashes, nil)
}

// ReadMappings returns the mappings of hashes.
func (f *partFinder) ReadMappings(_ context.Context, hashes []store.Hash) (map[store.Hash]store.Mapping, error) {
	return find[store.Mapping](f, kindMapping, hashes, nil)
}

// ReadLabelSets returns the label sets of hashes.
func (f *partFinder) ReadLabelSets(_ context.Context, hashes []store.Hash) (map[store.Hash]store.LabelSet, error) {
	return find[store.LabelSet](f, kindLabelSet, hashes, nil)
}
