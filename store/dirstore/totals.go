package dirstore

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"time"

	"github.com/perflab/perflab/store"
)

// A totals adds up the points of a Totals query.
type totals struct {
	q      store.TotalsQuery
	groups map[*series]string // by series, the key of its group
	labels map[string]store.Labels
	sums   map[string]map[int64]int64 // by group, by bucket
}

func newTotals(q store.TotalsQuery) *totals {
	return &totals{q: q, groups: map[*series]string{}, labels: map[string]store.Labels{}, sums: map[string]map[int64]int64{}}
}

// add adds v, of a profile or rollup of ser at time t.
func (tt *totals) add(ser *series, t, v int64) {
	key, ok := tt.groups[ser]
	if !ok {
		var g store.Labels
		for _, name := range tt.q.GroupBy {
			g = g.With(name, ser.labels.Get(name))
		}
		key = g.String()
		tt.groups[ser] = key
		tt.labels[key] = g
		if tt.sums[key] == nil {
			tt.sums[key] = map[int64]int64{}
		}
	}
	tt.sums[key][store.BucketStart(time.Unix(0, t), tt.q.Step).UnixNano()] += v
}

func (tt *totals) series() []store.TimeSeries {
	var out []store.TimeSeries
	for key, g := range tt.labels {
		ts := store.TimeSeries{Labels: g}
		for _, b := range sortedKeys(tt.sums[key]) {
			ts.Points = append(ts.Points, store.Point{Time: time.Unix(0, b).UTC(), Value: tt.sums[key][b]})
		}
		out = append(out, ts)
	}
	slices.SortFunc(out, func(a, b store.TimeSeries) int { return a.Labels.Compare(b.Labels) })
	return out
}

// Totals returns tq's time series. Without a Focus, it adds up the totals
// the profile indexes keep; with one, it reads samples, from the rollups
// that fit in a bucket and from the profiles elsewhere.
func (s *Store) Totals(ctx context.Context, tq store.TotalsQuery) ([]store.TimeSeries, error) {
	if tq.Type == (store.ProfileType{}) || tq.Step <= 0 {
		return nil, fmt.Errorf("totals of %s: need a profile type and a positive step: %w", tq.Selector, store.ErrInvalid)
	}
	q := s.newQuery(tq.Selection)
	sn, err := s.snapshot(q.w)
	if err != nil {
		return nil, err
	}
	defer sn.release()
	tt := newTotals(tq)
	if tq.Focus == nil {
		err = q.plainTotals(sn, tt)
	} else {
		err = q.focusTotals(ctx, sn, tt, tq.Focus)
	}
	if err != nil {
		return nil, s.errorf(err)
	}
	return tt.series(), nil
}

// plainTotals adds the totals of the profiles' indexes.
func (q *query) plainTotals(sn *snapshot, tt *totals) error {
	add := func(ser *series, l layout, e *entry) {
		if col := l.column(q.sel.Type); col >= 0 && col < len(e.totals) {
			tt.add(ser, e.time, e.totals[col])
		}
	}
	for _, b := range sn.blocks {
		for slot, bs := range b.slots {
			if !q.picks(b.series[slot]) || !q.w.overlaps(bs.minT, bs.maxT) {
				continue
			}
			ser := b.series[slot]
			if err := q.blockEntries(b, slot, func(l layout, e *entry) { add(ser, l, e) }); err != nil {
				return err
			}
		}
	}
	return q.headEntries(sn, add)
}

// focusTotals adds the totals of the samples whose stacks match re,
// bucket by bucket.
func (q *query) focusTotals(ctx context.Context, sn *snapshot, tt *totals, re *regexp.Regexp) error {
	fm := newFocusMatcher(q, re)
	add := func(u *unit) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		v, err := fm.total(u)
		if err == nil {
			tt.add(u.series, u.time, v)
		}
		return err
	}
	step := int64(tt.q.Step)
	for _, b := range sn.blocks {
		for slot, bs := range b.slots {
			if !q.picks(b.series[slot]) || !q.w.overlaps(bs.minT, bs.maxT) {
				continue
			}
			if step < rollupHour { // no rollup fits in a bucket
				if err := q.raw(b, slot, q.w, func(*entry) bool { return false }, add); err != nil {
					return err
				}
				continue
			}
			// A block's series spans a day at most: a few buckets.
			first := store.BucketStart(time.Unix(0, max(q.w.lo, bs.minT)), tt.q.Step).UnixNano()
			for start := first; start <= min(q.w.hi, bs.maxT); start += step {
				bw := window{max(q.w.lo, start), min(q.w.hi, start+step-1)}
				if err := q.cover(b, slot, bw, add); err != nil {
					return err
				}
				if start > math.MaxInt64-step {
					break
				}
			}
		}
	}
	return q.head(sn, q.w, add)
}

// A focusMatcher tells which stacks match a Focus, remembering the
// answers for each source.
type focusMatcher struct {
	q       *query
	re      *regexp.Regexp
	files   map[headerKey]map[store.Hash]string // the files of a template's mappings, by Key
	frames  map[frameKey]bool
	stacks  map[stackKey]bool
	funcs   map[funcKey]store.Function
	lastErr error
}

type frameKey struct {
	src  source
	loc  store.Hash
	file string
}

type stackKey struct {
	src   source
	tmpl  uint32
	stack uint32
}

type funcKey struct {
	src source
	fn  store.Hash
}

func newFocusMatcher(q *query, re *regexp.Regexp) *focusMatcher {
	return &focusMatcher{q: q, re: re, files: map[headerKey]map[store.Hash]string{}, frames: map[frameKey]bool{}, stacks: map[stackKey]bool{}, funcs: map[funcKey]store.Function{}}
}

// total returns the sum of u's values of the query's type over the
// samples whose stack matches.
func (fm *focusMatcher) total(u *unit) (int64, error) {
	col := u.l.column(fm.q.sel.Type)
	if col < 0 {
		return 0, nil
	}
	files, err := fm.mappingFiles(u.src, u.tmpl)
	if err != nil {
		return 0, err
	}
	var sum int64
	for i := range u.rows.len() {
		key := stackKey{u.src, u.tmpl, u.rows.stacks[i]}
		m, ok := fm.stacks[key]
		if !ok {
			if m, err = fm.matches(u.src, u.rows.stacks[i], files); err != nil {
				return 0, err
			}
			fm.stacks[key] = m
		}
		if m {
			sum += u.rows.row(i)[col]
		}
	}
	return sum, nil
}

// mappingFiles returns the files of the mappings of template tmpl of
// src by Key, the first of each Key, as storetest.Reference keeps them.
func (fm *focusMatcher) mappingFiles(src source, tmpl uint32) (map[store.Hash]string, error) {
	key := headerKey{src, tmpl}
	if f, ok := fm.files[key]; ok {
		return f, nil
	}
	h, err := fm.q.header(src, tmpl)
	if err != nil {
		return nil, err
	}
	files := map[store.Hash]string{}
	for _, mh := range h.Mappings {
		p, ok, err := src.part(kindMapping, mh)
		if err != nil || !ok {
			return nil, fmt.Errorf("mapping %s: %w", mh, cmpErr(err, ErrCorrupt))
		}
		m := p.(store.Mapping)
		if _, ok := files[m.Key()]; !ok {
			files[m.Key()] = m.File
		}
	}
	fm.files[key] = files
	return files, nil
}

func cmpErr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// matches reports whether stack number ord of src has a frame that
// matches.
func (fm *focusMatcher) matches(src source, ord uint32, files map[store.Hash]string) (bool, error) {
	hashes, err := src.hashes(kindStack)
	if err != nil {
		return false, err
	}
	if int(ord) >= len(hashes) {
		return false, fmt.Errorf("stack %d of %d: %w", ord, len(hashes), ErrCorrupt)
	}
	p, ok, err := src.part(kindStack, hashes[ord])
	if err != nil || !ok {
		return false, fmt.Errorf("stack %s: %w", hashes[ord], cmpErr(err, ErrCorrupt))
	}
	for _, l := range p.(store.Stack) {
		lp, ok, err := src.part(kindLocation, l)
		if err != nil || !ok {
			return false, fmt.Errorf("location %s: %w", l, cmpErr(err, ErrCorrupt))
		}
		loc := lp.(store.Location)
		key := frameKey{src, l, files[loc.Mapping]}
		m, seen := fm.frames[key]
		if !seen {
			m = loc.MatchesFocus(fm.re, func(h store.Hash) store.Function { return fm.function(src, h) }, key.file)
			fm.frames[key] = m
		}
		if m {
			return true, fm.lastErr
		}
	}
	return false, fm.lastErr
}

// function returns function h of src, remembering an error for later.
func (fm *focusMatcher) function(src source, h store.Hash) store.Function {
	key := funcKey{src, h}
	if f, ok := fm.funcs[key]; ok {
		return f
	}
	p, ok, err := src.part(kindFunction, h)
	if err != nil || !ok {
		fm.lastErr = fmt.Errorf("function %s: %w", h, cmpErr(err, ErrCorrupt))
		return store.Function{}
	}
	fm.funcs[key] = p.(store.Function)
	return fm.funcs[key]
}
