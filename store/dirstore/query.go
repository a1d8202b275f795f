package dirstore

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/perflab/perflab/store"
)

// A window is a range of times, Unix nanoseconds, both ends included;
// empty when lo > hi.
type window struct{ lo, hi int64 }

var (
	minTime = time.Unix(0, math.MinInt64)
	maxTime = time.Unix(0, math.MaxInt64)
)

// windowOf returns the time range of sel.
func windowOf(sel store.Selection) window {
	w := window{math.MinInt64, math.MaxInt64}
	switch {
	case sel.Start.IsZero() || sel.Start.Before(minTime):
	case sel.Start.After(maxTime):
		return window{1, 0}
	default:
		w.lo = sel.Start.UnixNano()
	}
	switch {
	case sel.End.IsZero() || sel.End.After(maxTime):
	case !sel.End.After(minTime):
		return window{1, 0}
	default:
		w.hi = sel.End.UnixNano() - 1
	}
	return w
}

// clampNanos returns t in Unix nanoseconds, clamped to what they can
// count: a zero t is the earliest.
func clampNanos(t time.Time) int64 {
	switch {
	case t.IsZero() || t.Before(minTime):
		return math.MinInt64
	case t.After(maxTime):
		return math.MaxInt64
	}
	return t.UnixNano()
}

func (w window) contains(t int64) bool  { return w.lo <= t && t <= w.hi }
func (w window) covers(a, b int64) bool { return w.lo <= a && b <= w.hi }
func (w window) overlaps(a, b int64) bool {
	return w.lo <= b && a <= w.hi
}

// A source numbers parts, and finds them by hash: a section of a block,
// or a WAL segment.
type source interface {
	hashes(k kind) ([]store.Hash, error)
	part(k kind, h store.Hash) (any, bool, error)
	header(i uint32) (store.Header, error)
}

// A sectionSource is a section of a block, whose dictionary is read when
// first needed.
type sectionSource struct {
	b   *block
	sec *sectionMeta
	c   *dictCache
	d   *dict
}

func (x *sectionSource) dict() (*dict, error) {
	if x.d == nil {
		d, err := x.c.get(x.b, x.sec)
		if err != nil {
			return nil, err
		}
		x.d = d
	}
	return x.d, nil
}

func (x *sectionSource) hashes(k kind) ([]store.Hash, error) {
	d, err := x.dict()
	if err != nil {
		return nil, err
	}
	return d.hashes[k], nil
}

func (x *sectionSource) part(k kind, h store.Hash) (any, bool, error) {
	d, err := x.dict()
	if err != nil {
		return nil, false, err
	}
	p, ok, err := d.part(k, h)
	if err != nil {
		err = x.b.errorf(err)
	}
	return p, ok, err
}

func (x *sectionSource) header(i uint32) (store.Header, error) {
	d, err := x.dict()
	if err != nil {
		return store.Header{}, err
	}
	h, err := d.header(int(i))
	if err != nil {
		err = x.b.errorf(err)
	}
	return h, err
}

func (g *segment) hashes(k kind) ([]store.Hash, error) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.byOrd[k], nil
}

// A snapshot is what a query reads: the blocks of the partitions its
// range overlaps and the head, which stay open until it is released.
type snapshot struct {
	blocks   []*block
	segments []*segment
	entries  [][]*headEntry // of each segment
}

// snapshot takes the store's blocks and head for a query of w.
func (s *Store) snapshot(w window) (*snapshot, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, errClosed
	}
	sn := &snapshot{}
	const day = int64(24 * time.Hour)
	for _, p := range s.sortedPartitions() {
		if lo := p.day * day; w.lo > lo+day-1 || w.hi < lo {
			continue
		}
		for _, b := range p.blocks {
			b.acquire()
			sn.blocks = append(sn.blocks, b)
		}
	}
	for _, g := range s.segments {
		g.acquire()
		sn.segments = append(sn.segments, g)
		sn.entries = append(sn.entries, g.entries)
	}
	return sn, nil
}

func (sn *snapshot) release() {
	for _, b := range sn.blocks {
		b.release()
	}
	for _, g := range sn.segments {
		g.release()
	}
}

// A query is one Reader call's view of a selection.
type query struct {
	s       *Store
	sel     store.Selection
	w       window
	matches map[*series]bool
	sources map[dictKey]*sectionSource
	headers map[headerKey]*store.Header
}

type headerKey struct {
	src source
	i   uint32
}

func (s *Store) newQuery(sel store.Selection) *query {
	return &query{s: s, sel: sel, w: windowOf(sel), matches: map[*series]bool{}, sources: map[dictKey]*sectionSource{}, headers: map[headerKey]*store.Header{}}
}

// picks reports whether sel's selector and type name pick ser.
func (q *query) picks(ser *series) bool {
	m, ok := q.matches[ser]
	if !ok {
		m = q.sel.Selector.Matches(ser.labels) && (q.sel.Type == store.ProfileType{} || ser.labels.Get(store.LabelName) == q.sel.Type.Name)
		q.matches[ser] = m
	}
	return m
}

// typed reports whether a profile of layout l has sel's type.
func (q *query) typed(l layout) bool {
	return q.sel.Type == store.ProfileType{} || l.column(q.sel.Type) >= 0
}

// source returns the source of section sec of b.
func (q *query) source(b *block, sec *sectionMeta) *sectionSource {
	key := dictKey{b, sec}
	x := q.sources[key]
	if x == nil {
		x = &sectionSource{b: b, sec: sec, c: q.s.cache}
		q.sources[key] = x
	}
	return x
}

// header returns header template i of src, decoded once for the query.
func (q *query) header(src source, i uint32) (*store.Header, error) {
	key := headerKey{src, i}
	if h := q.headers[key]; h != nil {
		return h, nil
	}
	h, err := src.header(i)
	if err != nil {
		return nil, err
	}
	q.headers[key] = &h
	return &h, nil
}

// A unit is what a query adds up: the samples of a stored profile, or of
// a rollup of several, numbered as src numbers parts.
type unit struct {
	src    source
	tmpl   uint32 // the header template
	l      layout
	header store.MergedHeader
	rows   *rows
	time   int64 // of the profile, or of a rollup's first
	series *series
}

// rawUnit returns the unit of profile e of template h.
func rawUnit(src source, h *store.Header, e *entry, rs *rows, ser *series) *unit {
	full := *h
	full.TimeNanos, full.DurationNanos = e.timeNanos, e.duration
	return &unit{
		src: src, tmpl: e.header, l: layoutOf(h), rows: rs, time: e.time, series: ser,
		header: store.MergeHeader(&full, store.OrderOf(time.Unix(0, e.time), e.id.String())),
	}
}

// cover calls fn with units that add up to the profiles of the series in
// slot of b in w that the query picks: rollups where w holds all their
// profiles, the profiles themselves elsewhere.
func (q *query) cover(b *block, slot int, w window, fn func(*unit) error) error {
	bs := b.slots[slot]
	if !w.overlaps(bs.minT, bs.maxT) {
		return nil
	}
	r, err := q.rollups(b, slot, w)
	if err != nil {
		return err
	}
	q.s.reads.rollups.Add(int64(len(r.units)))
	for _, u := range r.units {
		if err := fn(u); err != nil {
			return err
		}
	}
	if w.covers(bs.minT, bs.maxT) && r.count == bs.count {
		return nil
	}
	return q.raw(b, slot, w, func(e *entry) bool {
		return r.whole[e.header] || r.hours[rollupKey{e.header, hourOf(e.time)}]
	}, fn)
}

// The rollups a query takes for a series of a block: the templates whose
// whole-block rollup it takes, the hours of the templates whose hourly
// rollups it takes, and how many profiles they hold.
type rolled struct {
	units []*unit
	whole map[uint32]bool
	hours map[rollupKey]bool
	count int
}

type rollupKey struct {
	tmpl uint32
	hour int64
}

// rollups returns the rollups of the series in slot of b whose profiles
// w holds and the query picks, a whole block's rather than its hours'. A
// corrupt rollup file is given up for the block (and rebuilt), and the
// query reads the profiles instead.
func (q *query) rollups(b *block, slot int, w window) (*rolled, error) {
	r := &rolled{whole: map[uint32]bool{}, hours: map[rollupKey]bool{}}
	rf := b.rollups.Load()
	if rf == nil {
		return r, nil
	}
	sec := b.sections[slot]
	src := q.source(b, sec)
	dir, err := b.rollupDir(rf, slot)
	for _, whole := range []bool{true, false} {
		for i := range dir {
			m := &dir[i]
			l := sec.layouts[sec.headerLayout[m.template]]
			if err != nil || m.whole != whole || r.whole[m.template] || !q.typed(l) || !w.covers(m.minT, m.maxT) {
				continue
			}
			var d *rollupData
			if d, err = b.rollup(rf, slot, m); err != nil {
				break
			}
			if d.rows.ncol != len(l.SampleTypes) {
				err = b.errorf(fmt.Errorf("a rollup of %d sample types, its template %d: %w", d.rows.ncol, len(l.SampleTypes), ErrCorrupt))
				break
			}
			if whole {
				r.whole[m.template] = true
			} else {
				r.hours[rollupKey{m.template, hourOf(m.minT)}] = true
			}
			r.count += m.count
			r.units = append(r.units, &unit{src: src, tmpl: m.template, l: l, header: d.header, rows: &d.rows, time: m.minT, series: b.series[slot]})
		}
	}
	if err != nil {
		if !errors.Is(err, ErrCorrupt) {
			return nil, err
		}
		q.s.logf("%v: reading the block's profiles instead, and rebuilding its rollups", err)
		b.giveUpRollups(rf)
		q.s.wakeCompactor()
		return &rolled{whole: map[uint32]bool{}, hours: map[rollupKey]bool{}}, nil
	}
	return r, nil
}

// raw calls fn with the units of the profiles of the series in slot of b
// in w that the query picks, but those skip tells.
func (q *query) raw(b *block, slot int, w window, skip func(*entry) bool, fn func(*unit) error) error {
	x, err := b.seriesIndex(b.slots[slot])
	if err != nil {
		return err
	}
	src := q.source(b, b.sections[slot])
	pr := newPageReader(b, slot, x)
	i, _ := slices.BinarySearchFunc(x.entries, w.lo, func(e entry, t int64) int { return cmp.Compare(e.time, t) })
	var rs rows
	for ; i < len(x.entries) && x.entries[i].time <= w.hi; i++ {
		e := &x.entries[i]
		h, err := q.header(src, e.header)
		if err != nil {
			return err
		}
		if !q.typed(layoutOf(h)) || skip(e) {
			continue
		}
		if err := pr.rows(e, &rs); err != nil {
			return err
		}
		q.s.reads.profiles.Add(1)
		if err := fn(rawUnit(src, h, e, &rs, b.series[slot])); err != nil {
			return err
		}
	}
	return nil
}

// head calls fn with the units of the WAL's profiles in w that the
// query picks.
func (q *query) head(sn *snapshot, w window, fn func(*unit) error) error {
	var rs rows
	for i, g := range sn.segments {
		for _, e := range sn.entries[i] {
			if !w.contains(e.time) || !q.picks(e.series) {
				continue
			}
			h, err := q.header(g, e.header)
			if err != nil {
				return err
			}
			if !q.typed(layoutOf(h)) {
				continue
			}
			if err := g.readRows(&e.entry, &rs); err != nil {
				return err
			}
			q.s.reads.profiles.Add(1)
			if err := fn(rawUnit(g, h, &e.entry, &rs, e.series)); err != nil {
				return err
			}
		}
	}
	return nil
}

// each calls fn with the units of every profile the query picks in w,
// from the blocks and the WAL.
func (q *query) each(sn *snapshot, w window, fn func(*unit) error) error {
	for _, b := range sn.blocks {
		for slot := range b.slots {
			if !q.picks(b.series[slot]) {
				continue
			}
			if err := q.cover(b, slot, w, fn); err != nil {
				return err
			}
		}
	}
	return q.head(sn, w, fn)
}

// errorf wraps err with the store's directory.
func (s *Store) errorf(err error) error { return fmt.Errorf("store %s: %w", s.dir, err) }
