package pprofproto

import (
	"strings"

	"github.com/google/pprof/profile"
)

// mappings decodes every Mapping message into one array.
func (d *decoder) mappings() error {
	ms := make([]profile.Mapping, len(d.mappingMsgs))
	d.p.Mapping = make([]*profile.Mapping, len(ms))
	d.mappingByID = newIDIndex[profile.Mapping](len(ms))
	for i, data := range d.mappingMsgs {
		m := &ms[i]
		d.p.Mapping[i] = m
		if err := d.mapping(data, m); err != nil {
			return err
		}
		if err := d.mappingByID.add(m.ID, m); err != nil {
			return err
		}
	}
	if len(ms) == 0 {
		d.p.Mapping = nil
	}
	return nil
}

func (d *decoder) mapping(data []byte, m *profile.Mapping) error {
	var f field
	var file, buildID int64
	for i := 0; i < len(data); {
		var err error
		if i, err = next(data, i, &f); err != nil {
			return err
		}
		if f.num >= 1 && f.num <= 10 && f.typ != wireVarint {
			return errWire
		}
		switch f.num {
		case 1:
			m.ID = f.u64
		case 2:
			m.Start = f.u64
		case 3:
			m.Limit = f.u64
		case 4:
			m.Offset = f.u64
		case 5:
			file = int64(f.u64)
		case 6:
			buildID = int64(f.u64)
		case 7:
			m.HasFunctions = f.u64 != 0
		case 8:
			m.HasFilenames = f.u64 != 0
		case 9:
			m.HasLineNumbers = f.u64 != 0
		case 10:
			m.HasInlineFrames = f.u64 != 0
		}
	}
	var err error
	if m.File, err = d.str(file); err != nil {
		return err
	}
	if m.BuildID, err = d.str(buildID); err != nil {
		return err
	}
	// As pprof does, keep the suffix of "[kernel.kallsyms]_text".
	const prefix = "[kernel.kallsyms]"
	if strings.HasPrefix(m.File, prefix) {
		m.KernelRelocationSymbol = m.File[len(prefix):]
	}
	return nil
}

// functions decodes every Function message into one array.
func (d *decoder) functions() error {
	fs := make([]profile.Function, len(d.functionMsgs))
	d.p.Function = make([]*profile.Function, len(fs))
	d.functionByID = newIDIndex[profile.Function](len(fs))
	for i, data := range d.functionMsgs {
		fn := &fs[i]
		d.p.Function[i] = fn
		if err := d.function(data, fn); err != nil {
			return err
		}
		if err := d.functionByID.add(fn.ID, fn); err != nil {
			return err
		}
	}
	if len(fs) == 0 {
		d.p.Function = nil
	}
	return nil
}

func (d *decoder) function(data []byte, fn *profile.Function) error {
	var f field
	var name, systemName, filename int64
	for i := 0; i < len(data); {
		var err error
		if i, err = next(data, i, &f); err != nil {
			return err
		}
		if f.num >= 1 && f.num <= 5 && f.typ != wireVarint {
			return errWire
		}
		switch f.num {
		case 1:
			fn.ID = f.u64
		case 2:
			name = int64(f.u64)
		case 3:
			systemName = int64(f.u64)
		case 4:
			filename = int64(f.u64)
		case 5:
			fn.StartLine = int64(f.u64)
		}
	}
	var err error
	if fn.Name, err = d.str(name); err != nil {
		return err
	}
	if fn.SystemName, err = d.str(systemName); err != nil {
		return err
	}
	fn.Filename, err = d.str(filename)
	return err
}

// locations decodes every Location message into one array, their lines
// into a few more, resolving mappings and functions.
func (d *decoder) locations() error {
	ls := make([]profile.Location, len(d.locationMsgs))
	d.p.Location = make([]*profile.Location, len(ls))
	d.locationByID = newIDIndex[profile.Location](len(ls))
	lines := slab[profile.Line]{chunk: 2*len(ls) + 16}
	var tmp []profile.Line
	for i, data := range d.locationMsgs {
		l := &ls[i]
		d.p.Location[i] = l
		var err error
		if tmp, err = d.decodeLocation(data, l, tmp[:0]); err != nil {
			return err
		}
		if len(tmp) > 0 {
			l.Line = lines.take(len(tmp))
			copy(l.Line, tmp)
		}
		if err := d.locationByID.add(l.ID, l); err != nil {
			return err
		}
	}
	if len(ls) == 0 {
		d.p.Location = nil
	}
	d.locationSeq = ls
	for i := range ls {
		if ls[i].ID != uint64(i+1) {
			d.locationSeq = nil // not numbered 1..n: look IDs up
			break
		}
	}
	return nil
}

// location returns the location with the given ID, or nil.
func (d *decoder) location(id uint64) *profile.Location {
	if d.locationSeq != nil {
		if id-1 < uint64(len(d.locationSeq)) {
			return &d.locationSeq[id-1]
		}
		return nil
	}
	return d.locationByID.get(id)
}

// decodeLocation decodes one Location into l, and its lines into tmp.
func (d *decoder) decodeLocation(data []byte, l *profile.Location, tmp []profile.Line) ([]profile.Line, error) {
	var f field
	var mappingID uint64
	for i := 0; i < len(data); {
		var err error
		if i, err = next(data, i, &f); err != nil {
			return nil, err
		}
		if f.num >= 1 && f.num <= 5 && (f.typ != wireVarint) != (f.num == 4) {
			return nil, errWire
		}
		switch f.num {
		case 1:
			l.ID = f.u64
		case 2:
			mappingID = f.u64
		case 3:
			l.Address = f.u64
		case 4:
			ln, err := d.line(f.data)
			if err != nil {
				return nil, err
			}
			tmp = append(tmp, ln)
		case 5:
			l.IsFolded = f.u64 != 0
		}
	}
	l.Mapping = d.mappingByID.get(mappingID)
	return tmp, nil
}

// line decodes a Line; its function must exist, as ParseData's validity
// check requires.
func (d *decoder) line(data []byte) (profile.Line, error) {
	var f field
	var ln profile.Line
	var fid uint64
	for i := 0; i < len(data); {
		var err error
		if i, err = next(data, i, &f); err != nil {
			return ln, err
		}
		if f.num >= 1 && f.num <= 3 && f.typ != wireVarint {
			return ln, errWire
		}
		switch f.num {
		case 1:
			fid = f.u64
		case 2:
			ln.Line = int64(f.u64)
		case 3:
			ln.Column = int64(f.u64)
		}
	}
	if ln.Function = d.functionByID.get(fid); ln.Function == nil {
		return ln, errWire
	}
	return ln, nil
}
