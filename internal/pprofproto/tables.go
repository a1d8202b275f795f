package pprofproto

import (
	"strings"

	"github.com/google/pprof/profile"
)

// idIndex finds mappings, functions or locations by ID: in a slice for
// the usual IDs 1..n, in a map for others.
type idIndex[T any] struct {
	dense  []*T
	sparse map[uint64]*T
}

func newIDIndex[T any](n int) idIndex[T] {
	return idIndex[T]{dense: make([]*T, n+1)}
}

// add records x under id. Zero and repeated IDs are errors: ParseData
// rejects such profiles as invalid.
func (x *idIndex[T]) add(id uint64, v *T) error {
	if id == 0 {
		return errWire
	}
	if id < uint64(len(x.dense)) {
		if x.dense[id] != nil {
			return errWire
		}
		x.dense[id] = v
		return nil
	}
	if x.sparse == nil {
		x.sparse = map[uint64]*T{}
	}
	if x.sparse[id] != nil {
		return errWire
	}
	x.sparse[id] = v
	return nil
}

func (x *idIndex[T]) get(id uint64) *T {
	if id < uint64(len(x.dense)) {
		return x.dense[id]
	}
	return x.sparse[id]
}

// slab hands out slices carved from large arrays, so that many small
// slices cost few allocations. Each slice's capacity is its length, so
// appending to one never overwrites its neighbour.
type slab[T any] struct {
	buf   []T
	chunk int
}

func (s *slab[T]) take(n int) []T {
	if n > len(s.buf) {
		s.buf = make([]T, max(n, s.chunk))
	}
	r := s.buf[:n:n]
	s.buf = s.buf[n:]
	return r
}

// strings builds the string table in one allocation; every string of the
// profile shares it.
func (d *decoder) strings() error {
	var b strings.Builder
	b.Grow(d.stringBytes)
	for _, s := range d.stringMsgs {
		b.Write(s)
	}
	all := b.String()
	d.table = make([]string, len(d.stringMsgs))
	off := 0
	for i, s := range d.stringMsgs {
		d.table[i] = all[off : off+len(s)]
		off += len(s)
	}
	if len(d.table) > 0 && d.table[0] != "" {
		return errWire
	}
	return nil
}

// str resolves a string-table index. An index out of range is an error.
func (d *decoder) str(x int64) (string, error) {
	if x < 0 || x >= int64(len(d.table)) {
		return "", errWire
	}
	return d.table[x], nil
}

// header resolves the profile's own fields.
func (d *decoder) header() error {
	p := d.p
	var err error
	p.SampleType = make([]*profile.ValueType, len(d.sampleTypes))
	vts := make([]profile.ValueType, len(d.sampleTypes)+1)
	for i, vt := range d.sampleTypes {
		p.SampleType[i] = &vts[i]
		if err = d.valueType(&vts[i], vt); err != nil {
			return err
		}
	}
	if len(p.SampleType) == 0 {
		p.SampleType = nil
	}
	p.PeriodType = &vts[len(d.sampleTypes)]
	if d.periodType != nil {
		if err = d.valueType(p.PeriodType, *d.periodType); err != nil {
			return err
		}
	}
	for _, c := range d.comments {
		s, err := d.str(int64(c))
		if err != nil {
			return err
		}
		p.Comments = append(p.Comments, s)
	}
	for _, f := range []struct {
		dst *string
		x   int64
	}{{&p.DropFrames, d.dropFrames}, {&p.KeepFrames, d.keepFrames},
		{&p.DefaultSampleType, d.defaultType}, {&p.DocURL, d.docURL}} {
		if *f.dst, err = d.str(f.x); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) valueType(dst *profile.ValueType, vt valueType) (err error) {
	if dst.Type, err = d.str(vt.typ); err != nil {
		return err
	}
	dst.Unit, err = d.str(vt.unit)
	return err
}
