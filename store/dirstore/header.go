package dirstore

import (
	"slices"

	"github.com/perflab/perflab/store"
)

// A layout is what tells the columns of a profile's values: its period
// type and sample types. Profiles of one layout can be summed column by
// column.
type layout struct {
	PeriodType  store.ValueType
	SampleTypes []store.ValueType
}

func layoutOf(h *store.Header) layout { return layout{h.PeriodType, h.SampleTypes} }

func (l layout) equal(o layout) bool {
	return l.PeriodType == o.PeriodType && slices.Equal(l.SampleTypes, o.SampleTypes)
}

// column returns the column of type t in l, or -1 when a profile of
// layout l does not have t (see store.Header.Index). A zero t gives -1.
func (l layout) column(t store.ProfileType) int {
	h := store.Header{PeriodType: l.PeriodType, SampleTypes: l.SampleTypes}
	return h.Index(t)
}

func (b *buf) layout(l layout) {
	b.valueType(l.PeriodType)
	b.uint(uint64(len(l.SampleTypes)))
	for _, st := range l.SampleTypes {
		b.valueType(st)
	}
}

func (r *reader) layout() layout {
	l := layout{PeriodType: r.valueType()}
	n := r.count(2)
	l.SampleTypes = make([]store.ValueType, n)
	for i := range l.SampleTypes {
		l.SampleTypes[i] = r.valueType()
	}
	return l
}

// template returns h without the fields that change from one profile of
// a series to the next, which a store keeps with each profile.
func template(h store.Header) store.Header {
	h.TimeNanos, h.DurationNanos = 0, 0
	return h
}

// The encoding of a store.MergedHeader, the header of a rollup.

func (b *buf) order(o store.Order) {
	b.int(o.Time)
	b.string(o.ID)
}

func (r *reader) order() store.Order { return store.Order{Time: r.int(), ID: r.string()} }

func (b *buf) first(f store.First) {
	b.bool(f.Valid)
	if f.Valid {
		b.string(f.Value)
		b.order(f.At)
	}
}

func (r *reader) first() store.First {
	if !r.bool() {
		return store.First{}
	}
	return store.First{Value: r.string(), At: r.order(), Valid: true}
}

func (b *buf) mergedHeader(m *store.MergedHeader) {
	b.int(m.Profiles)
	b.bool(m.Mixed)
	b.layout(layout{m.PeriodType, m.SampleTypes})
	b.int(m.Period)
	b.int(m.TimeNanos)
	b.int(m.DurationNanos)
	b.uint(uint64(len(m.Comments)))
	for _, c := range m.Comments {
		b.string(c.Text)
		b.order(c.At)
	}
	for _, f := range []store.First{m.DropFrames, m.KeepFrames, m.DocURL, m.DefaultType, m.Main} {
		b.first(f)
	}
	b.uint(uint64(len(m.Mappings)))
	for _, u := range m.Mappings {
		b.hash(u.Hash)
		b.order(u.At)
	}
}

func (r *reader) mergedHeader() store.MergedHeader {
	m := store.MergedHeader{Profiles: r.int(), Mixed: r.bool()}
	l := r.layout()
	m.PeriodType, m.SampleTypes = l.PeriodType, l.SampleTypes
	m.Period, m.TimeNanos, m.DurationNanos = r.int(), r.int(), r.int()
	m.Comments = make([]store.Comment, r.count(2))
	for i := range m.Comments {
		m.Comments[i] = store.Comment{Text: r.string(), At: r.order()}
	}
	for _, f := range []*store.First{&m.DropFrames, &m.KeepFrames, &m.DocURL, &m.DefaultType, &m.Main} {
		*f = r.first()
	}
	m.Mappings = make([]store.MappingUse, r.count(10))
	for i := range m.Mappings {
		m.Mappings[i] = store.MappingUse{Hash: r.hash(), At: r.order()}
		if i > 0 && m.Mappings[i].Hash <= m.Mappings[i-1].Hash && r.err == nil {
			r.failf("mappings of a merged header not sorted")
		}
	}
	if m.Mixed {
		m.SampleTypes = nil
	}
	if len(m.Comments) == 0 {
		m.Comments = nil
	}
	if len(m.Mappings) == 0 {
		m.Mappings = nil
	}
	return m
}
