package dirstore

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/perflab/perflab/store"
)

// seriesIn calls fn with each series that has profiles the query picks
// in its range, and the layouts of those profiles; fn may be called
// several times for a series. A series whose profiles in a block are all
// in range is answered from the block's index, without reading its
// profile index.
func (q *query) seriesIn(sn *snapshot, fn func(*series, []layout)) error {
	for _, b := range sn.blocks {
		for slot, bs := range b.slots {
			if !q.picks(b.series[slot]) || !q.w.overlaps(bs.minT, bs.maxT) {
				continue
			}
			sec := b.sections[slot]
			var ls []layout
			if q.w.covers(bs.minT, bs.maxT) {
				for _, i := range bs.layouts {
					if l := sec.layouts[i]; q.typed(l) {
						ls = append(ls, l)
					}
				}
			} else {
				err := q.blockEntries(b, slot, func(l layout, _ *entry) {
					if !slices.ContainsFunc(ls, l.equal) {
						ls = append(ls, l)
					}
				})
				if err != nil {
					return err
				}
			}
			if len(ls) > 0 {
				fn(b.series[slot], ls)
			}
		}
	}
	return q.headEntries(sn, func(ser *series, l layout, _ *entry) { fn(ser, []layout{l}) })
}

// blockEntries calls fn with the profiles of the series in slot of b
// that the query picks in its range.
func (q *query) blockEntries(b *block, slot int, fn func(layout, *entry)) error {
	x, err := b.seriesIndex(b.slots[slot])
	if err != nil {
		return err
	}
	sec := b.sections[slot]
	i, _ := slices.BinarySearchFunc(x.entries, q.w.lo, func(e entry, t int64) int { return cmp.Compare(e.time, t) })
	for ; i < len(x.entries) && x.entries[i].time <= q.w.hi; i++ {
		e := &x.entries[i]
		if l := sec.layouts[sec.headerLayout[e.header]]; q.typed(l) {
			fn(l, e)
		}
	}
	return nil
}

// headEntries calls fn with the WAL's profiles the query picks.
func (q *query) headEntries(sn *snapshot, fn func(*series, layout, *entry)) error {
	for i, g := range sn.segments {
		for _, e := range sn.entries[i] {
			if !q.w.contains(e.time) || !q.picks(e.series) {
				continue
			}
			h, err := q.header(g, e.header)
			if err != nil {
				return err
			}
			if l := layoutOf(h); q.typed(l) {
				fn(e.series, l, &e.entry)
			}
		}
	}
	return nil
}

// eachSeries answers a question about the series sel picks.
func (s *Store) eachSeries(sel store.Selection, fn func(*series, []layout)) error {
	q := s.newQuery(sel)
	sn, err := s.snapshot(q.w)
	if err != nil {
		return err
	}
	defer sn.release()
	if err := q.seriesIn(sn, fn); err != nil {
		return s.errorf(err)
	}
	return nil
}

// ProfileTypes lists the types of the profiles sel picks (sel.Type
// ignored), sorted by ID.
func (s *Store) ProfileTypes(ctx context.Context, sel store.Selection) ([]store.ProfileType, error) {
	sel.Type = store.ProfileType{}
	var types []store.ProfileType
	err := s.eachSeries(sel, func(ser *series, ls []layout) {
		for _, l := range ls {
			h := store.Header{PeriodType: l.PeriodType, SampleTypes: l.SampleTypes}
			for _, t := range h.Types(ser.labels.Get(store.LabelName)) {
				if !slices.Contains(types, t) {
					types = append(types, t)
				}
			}
		}
	})
	slices.SortFunc(types, func(a, b store.ProfileType) int { return strings.Compare(a.ID(), b.ID()) })
	return types, err
}

// LabelNames lists the label names of the series sel picks, sorted.
func (s *Store) LabelNames(ctx context.Context, sel store.Selection) ([]string, error) {
	var names []string
	err := s.eachSeries(sel, func(ser *series, _ []layout) {
		for _, l := range ser.labels {
			names = append(names, l.Name)
		}
	})
	slices.Sort(names)
	return slices.Compact(names), err
}

// LabelValues lists the values of label name in the series sel picks,
// sorted, without "".
func (s *Store) LabelValues(ctx context.Context, sel store.Selection, name string) ([]string, error) {
	var values []string
	err := s.eachSeries(sel, func(ser *series, _ []layout) {
		if v := ser.labels.Get(name); v != "" {
			values = append(values, v)
		}
	})
	slices.Sort(values)
	return slices.Compact(values), err
}

// Series lists the series sel picks, sorted by their labels.
func (s *Store) Series(ctx context.Context, sel store.Selection) ([]store.Labels, error) {
	seen := map[*series]bool{}
	var out []store.Labels
	err := s.eachSeries(sel, func(ser *series, _ []layout) {
		if !seen[ser] {
			seen[ser] = true
			out = append(out, ser.labels)
		}
	})
	slices.SortFunc(out, store.Labels.Compare)
	return slices.CompactFunc(out, func(a, b store.Labels) bool { return a.Compare(b) == 0 }), err
}

// Profiles lists the profiles sel picks, latest first (then by ID), at
// most limit of them (0 means no limit). With a limit, it reads the
// partitions from the latest and stops when the older ones cannot make
// the list.
func (s *Store) Profiles(ctx context.Context, sel store.Selection, limit int) ([]store.ProfileInfo, error) {
	q := s.newQuery(sel)
	sn, err := s.snapshot(q.w)
	if err != nil {
		return nil, err
	}
	defer sn.release()
	var infos []store.ProfileInfo
	add := func(ser *series, l layout, e *entry) {
		in := store.ProfileInfo{ID: e.id.String(), Labels: ser.labels, Time: time.Unix(0, e.time).UTC(), Duration: time.Duration(e.duration)}
		if col := l.column(sel.Type); col >= 0 && col < len(e.totals) {
			in.Total = e.totals[col]
		}
		infos = append(infos, in)
	}
	if err := q.headEntries(sn, add); err != nil {
		return nil, s.errorf(err)
	}
	sortInfos := func() {
		slices.SortFunc(infos, func(a, b store.ProfileInfo) int {
			return cmp.Or(b.Time.Compare(a.Time), strings.Compare(a.ID, b.ID))
		})
	}
	for i := len(sn.blocks) - 1; i >= 0; i-- {
		b := sn.blocks[i]
		if limit > 0 && len(infos) >= limit && (i == len(sn.blocks)-1 || b.meta.day != sn.blocks[i+1].meta.day) {
			sortInfos()
			if infos[limit-1].Time.UnixNano() >= (b.meta.day+1)*int64(24*time.Hour) {
				break
			}
		}
		for slot, bs := range b.slots {
			if !q.picks(b.series[slot]) || !q.w.overlaps(bs.minT, bs.maxT) {
				continue
			}
			ser := b.series[slot]
			if err := q.blockEntries(b, slot, func(l layout, e *entry) { add(ser, l, e) }); err != nil {
				return nil, s.errorf(err)
			}
		}
	}
	sortInfos()
	if limit > 0 && len(infos) > limit {
		infos = infos[:limit]
	}
	return infos, nil
}
