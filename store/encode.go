package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// Every part has one canonical encoding, the bytes its Hash is the
// SHA-256 of: a byte naming the kind of part, then its fields in order,
// integers as (zig-zag for signed) varints, strings and lists prefixed by
// their length, hashes as 8 little-endian bytes. A store may keep parts in
// this encoding (a blob under its hash) and check them when it reads them
// back: Decode* refuse anything that is not the canonical encoding of a
// part, so the hash of what they accept is the hash of what they return.

// Encode returns f's canonical encoding.
func (f Function) Encode() []byte { return encoding(f.encode) }

// Encode returns m's canonical encoding.
func (m Mapping) Encode() []byte { return encoding(m.encode) }

// Encode returns l's canonical encoding.
func (l Location) Encode() []byte { return encoding(l.encode) }

// Encode returns s's canonical encoding.
func (s Stack) Encode() []byte { return encoding(s.encode) }

// Encode returns ls's canonical encoding.
func (ls LabelSet) Encode() []byte { return encoding(ls.encode) }

// Encode returns h's canonical encoding, which ProfileID hashes too.
func (h *Header) Encode() []byte { return encoding(h.encode) }

func encoding(encode func(*hasher)) []byte {
	var h hasher
	encode(&h)
	return h.buf
}

func (hd *Header) encode(h *hasher) {
	h.reset(tagHeader)
	h.uint(uint64(len(hd.SampleTypes)))
	for _, st := range hd.SampleTypes {
		h.string(st.Type)
		h.string(st.Unit)
	}
	h.string(hd.DefaultSampleType)
	h.string(hd.PeriodType.Type)
	h.string(hd.PeriodType.Unit)
	h.int(hd.Period)
	h.int(hd.TimeNanos)
	h.int(hd.DurationNanos)
	h.uint(uint64(len(hd.Comments)))
	for _, c := range hd.Comments {
		h.string(c)
	}
	h.string(hd.DropFrames)
	h.string(hd.KeepFrames)
	h.string(hd.DocURL)
	h.uint(uint64(len(hd.Mappings)))
	for _, m := range hd.Mappings {
		h.hash(m)
	}
}

// DecodeFunction reads a Function's canonical encoding.
func DecodeFunction(data []byte) (Function, error) {
	d := decoder{buf: data}
	d.tag(tagFunction)
	f := Function{Name: d.string(), SystemName: d.string(), Filename: d.string(), StartLine: d.int()}
	return f, d.finish("function", data, f.encode)
}

// DecodeMapping reads a Mapping's canonical encoding.
func DecodeMapping(data []byte) (Mapping, error) {
	d := decoder{buf: data}
	d.tag(tagMapping)
	m := Mapping{Start: d.uint(), Limit: d.uint(), Offset: d.uint(), File: d.string(), BuildID: d.string(), KernelRelocationSymbol: d.string()}
	m.HasFunctions, m.HasFilenames, m.HasLineNumbers, m.HasInlineFrames = d.bool(), d.bool(), d.bool(), d.bool()
	return m, d.finish("mapping", data, m.encode)
}

// DecodeLocation reads a Location's canonical encoding.
func DecodeLocation(data []byte) (Location, error) {
	d := decoder{buf: data}
	d.tag(tagLocation)
	l := Location{Mapping: d.hash(), Address: d.uint(), IsFolded: d.bool()}
	if n := d.count(); n > 0 {
		l.Lines = make([]Line, n)
		for i := range l.Lines {
			l.Lines[i] = Line{Function: d.hash(), Line: d.int(), Column: d.int()}
		}
	}
	return l, d.finish("location", data, l.encode)
}

// DecodeStack reads a Stack's canonical encoding.
func DecodeStack(data []byte) (Stack, error) {
	d := decoder{buf: data}
	d.tag(tagStack)
	var s Stack
	if n := d.count(); n > 0 {
		s = make(Stack, n)
		for i := range s {
			s[i] = d.hash()
		}
	}
	return s, d.finish("stack", data, s.encode)
}

// DecodeLabelSet reads a LabelSet's canonical encoding.
func DecodeLabelSet(data []byte) (LabelSet, error) {
	d := decoder{buf: data}
	d.tag(tagLabelSet)
	var ls LabelSet
	for range d.count() {
		l := StringLabel{Key: d.string()}
		for range d.count() {
			l.Values = append(l.Values, d.string())
		}
		ls.Strings = append(ls.Strings, l)
	}
	for range d.count() {
		l := NumberLabel{Key: d.string()}
		for range d.count() {
			l.Values = append(l.Values, d.int())
		}
		for range d.count() {
			l.Units = append(l.Units, d.string())
		}
		ls.Numbers = append(ls.Numbers, l)
	}
	return ls, d.finish("label set", data, ls.encode)
}

// DecodeHeader reads a Header's canonical encoding.
func DecodeHeader(data []byte) (Header, error) {
	d := decoder{buf: data}
	d.tag(tagHeader)
	var h Header
	for range d.count() {
		h.SampleTypes = append(h.SampleTypes, ValueType{d.string(), d.string()})
	}
	h.DefaultSampleType = d.string()
	h.PeriodType = ValueType{d.string(), d.string()}
	h.Period, h.TimeNanos, h.DurationNanos = d.int(), d.int(), d.int()
	for range d.count() {
		h.Comments = append(h.Comments, d.string())
	}
	h.DropFrames, h.KeepFrames, h.DocURL = d.string(), d.string(), d.string()
	for range d.count() {
		h.Mappings = append(h.Mappings, d.hash())
	}
	return h, d.finish("header", data, h.encode)
}

// A decoder reads an encoding, remembering its first error.
type decoder struct {
	buf []byte
	err error
}

var errTruncated = errors.New("truncated")

func (d *decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
	d.buf = nil
}

func (d *decoder) tag(t byte) {
	if len(d.buf) == 0 || d.buf[0] != t {
		d.fail(errors.New("not this kind of part"))
		return
	}
	d.buf = d.buf[1:]
}

func (d *decoder) uint() uint64 {
	v, n := binary.Uvarint(d.buf)
	if n <= 0 {
		d.fail(errTruncated)
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

func (d *decoder) int() int64 {
	v, n := binary.Varint(d.buf)
	if n <= 0 {
		d.fail(errTruncated)
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

func (d *decoder) bool() bool {
	if len(d.buf) == 0 || d.buf[0] > 1 {
		d.fail(errors.New("bad boolean"))
		return false
	}
	v := d.buf[0] == 1
	d.buf = d.buf[1:]
	return v
}

// count reads the length of a list, each of whose elements takes at least
// a byte: no length beyond what is left, so no input makes a decoder
// allocate more than it is given.
func (d *decoder) count() int {
	n := d.uint()
	if n > uint64(len(d.buf)) {
		d.fail(errTruncated)
		return 0
	}
	return int(n)
}

func (d *decoder) string() string {
	n := d.count()
	s := string(d.buf[:n])
	d.buf = d.buf[n:]
	return s
}

func (d *decoder) hash() Hash {
	if len(d.buf) < 8 {
		d.fail(errTruncated)
		return 0
	}
	v := Hash(binary.LittleEndian.Uint64(d.buf))
	d.buf = d.buf[8:]
	return v
}

// finish checks that the whole of data was read and that it is the
// canonical encoding of what was read.
func (d *decoder) finish(kind string, data []byte, encode func(*hasher)) error {
	switch {
	case d.err != nil:
	case len(d.buf) > 0:
		d.err = errors.New("bytes after the end")
	case !bytes.Equal(encoding(encode), data):
		d.err = errors.New("not the canonical encoding")
	}
	if d.err != nil {
		return fmt.Errorf("decoding a %s: %w: %w", kind, d.err, ErrInvalid)
	}
	return nil
}
