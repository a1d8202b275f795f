package dirstore

import (
	"fmt"
	"slices"
	"time"

	"github.com/perflab/perflab/store"
)

// Rollups are the sums of a series' profiles by hour, and over the whole
// block, kept in a file beside the block (ID.rlp). A rollup sums the
// profiles of one header template (the profiles of one version of one
// instance, usually): its merged header (store.MergedHeader, which adds
// up in any order) and its samples summed by stack and label set, in the
// block's numbering. A query takes a rollup whose profiles are all in its
// range instead of those profiles, so that its cost grows with the
// distinct stacks of the range rather than with its profiles. An hour of
// a single profile has no rollup (the profile is as cheap), and a series
// whose profiles of a template are all in one hour has no whole-block
// rollup (the hour's is the same).
//
// Rollups are derived data: a block whose rollup file is missing or
// corrupt has them rebuilt from its profiles, and is read without them
// until then.
//
// The file's index gives, for each series of the block by slot, the
// rollup directory of the series: for each rollup its template, whether
// it is the whole block's, the times of its first and last profile, its
// count of profiles and its data blob (merged header, then rows).

// rollupHour is the time span of an hourly rollup.
const rollupHour = int64(time.Hour)

// hourOf returns the start of the hour of t, Unix nanoseconds.
func hourOf(t int64) int64 {
	h := t - t%rollupHour
	if t%rollupHour < 0 {
		h -= rollupHour
	}
	return h
}

// A rollupMeta describes one rollup in a series' rollup directory.
type rollupMeta struct {
	template   uint32
	whole      bool
	minT, maxT int64
	count      int
	data       blobRef
}

func (b *buf) rollupDir(rs []rollupMeta) {
	b.uint(uint64(len(rs)))
	for _, r := range rs {
		b.uint(uint64(r.template))
		b.bool(r.whole)
		b.int(r.minT)
		b.uint(uint64(r.maxT - r.minT))
		b.uint(uint64(r.count))
		b.blobRef(r.data)
	}
}

// decodeRollupDir reads a series' rollup directory, whose templates
// must be below headers.
func decodeRollupDir(data []byte, headers int) ([]rollupMeta, error) {
	r := reader{b: data}
	rs := make([]rollupMeta, r.count(12))
	for i := range rs {
		x := &rs[i]
		x.template = r.ordinal(headers, "header")
		x.whole = r.bool()
		x.minT = r.int()
		x.maxT = x.minT + int64(r.uint())
		x.count = r.number()
		x.data = r.blobRef()
		if x.maxT < x.minT && r.err == nil {
			r.failf("rollup time span out of range")
		}
	}
	if err := r.done("rollup directory"); err != nil {
		return nil, err
	}
	return rs, nil
}

// A rollupData is a rollup's content.
type rollupData struct {
	header store.MergedHeader
	rows   rows
}

func decodeRollupData(data []byte) (*rollupData, error) {
	r := reader{b: data}
	d := &rollupData{header: r.mergedHeader()}
	r.rows(&d.rows, len(d.header.SampleTypes))
	if err := r.done("rollup"); err != nil {
		return nil, err
	}
	return d, nil
}

func decodeRollupIndex(data []byte) (blockID uint64, slots []blobRef, err error) {
	r := reader{b: data}
	if v := r.uint(); v != formatV1 && r.err == nil {
		return 0, nil, fmt.Errorf("rollup index: format version %d, not %d: %w", v, formatV1, ErrCorrupt)
	}
	blockID = r.uint()
	slots = make([]blobRef, r.count(7))
	for i := range slots {
		slots[i] = r.blobRef()
	}
	return blockID, slots, r.done("rollup index")
}

// An agg is a rollup being summed.
type agg struct {
	header     store.MergedHeader
	index      map[uint64]int // by stack<<32 | label set, the row
	rows       rows
	minT, maxT int64
	count      int
}

func newAgg(ncol int) *agg {
	return &agg{index: map[uint64]int{}, rows: rows{ncol: ncol}}
}

func (a *agg) add(p *profileRec, h *store.Header) {
	full := *h
	full.TimeNanos, full.DurationNanos = p.timeNanos, p.duration
	mh := store.MergeHeader(&full, store.OrderOf(time.Unix(0, p.time), p.id.String()))
	a.header.Add(&mh)
	if a.count == 0 || p.time < a.minT {
		a.minT = p.time
	}
	a.maxT = max(a.maxT, p.time)
	a.count++
	rs := p.rows
	for i := range rs.len() {
		key := uint64(rs.stacks[i])<<32 | uint64(rs.labels[i])
		j, ok := a.index[key]
		if !ok {
			a.index[key] = a.rows.len()
			a.rows.add(rs.stacks[i], rs.labels[i], rs.row(i))
			continue
		}
		row := a.rows.row(j)
		for c, v := range rs.row(i) {
			row[c] += v
		}
	}
}

// A rollupBuilder sums the rollups of one series of a block being
// written, whose profiles come in time order.
type rollupBuilder struct {
	w     *fileWriter
	hour  int64
	hours map[uint32]*agg // of the current hour, by template
	whole map[uint32]*agg
	spans map[uint32]int // by template, the hours seen
	dir   []rollupMeta
}

func newRollupBuilder(w *fileWriter) *rollupBuilder {
	return &rollupBuilder{w: w, hours: map[uint32]*agg{}, whole: map[uint32]*agg{}, spans: map[uint32]int{}}
}

// add adds profile p of header template h to the rollups.
func (b *rollupBuilder) add(p *profileRec, h *store.Header) {
	if hr := hourOf(p.time); hr != b.hour || len(b.hours) == 0 {
		b.flush(b.hours, false)
		b.hour = hr
	}
	for _, m := range []map[uint32]*agg{b.hours, b.whole} {
		a := m[p.header]
		if a == nil {
			a = newAgg(len(h.SampleTypes))
			m[p.header] = a
		}
		a.add(p, h)
	}
}

// flush writes the rollups of aggs worth keeping, and empties aggs.
func (b *rollupBuilder) flush(aggs map[uint32]*agg, whole bool) {
	templates := make([]uint32, 0, len(aggs))
	for t := range aggs {
		templates = append(templates, t)
	}
	slices.Sort(templates)
	for _, t := range templates {
		a := aggs[t]
		if !whole {
			b.spans[t]++
		}
		if a.count < 2 || whole && b.spans[t] < 2 {
			continue
		}
		a.rows.sort()
		var data buf
		data.mergedHeader(&a.header)
		data.rows(&a.rows)
		b.dir = append(b.dir, rollupMeta{template: t, whole: whole, minT: a.minT, maxT: a.maxT, count: a.count, data: b.w.blob(data)})
	}
	clear(aggs)
}

// finish writes the series' rollup directory; a zero blobRef when it has
// no rollup.
func (b *rollupBuilder) finish() blobRef {
	b.flush(b.hours, false)
	b.flush(b.whole, true)
	if len(b.dir) == 0 {
		return blobRef{}
	}
	var d buf
	d.rollupDir(b.dir)
	return b.w.blob(d)
}
