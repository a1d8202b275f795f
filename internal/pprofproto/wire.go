package pprofproto

import "errors"

// errWire reports malformed wire data. Its text never reaches users:
// Decode hands input it rejects to profile.ParseData, which explains.
var errWire = errors.New("malformed profile.proto")

// Wire types of the protobuf encoding.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

// field is one decoded protobuf field.
type field struct {
	num  uint64
	typ  int
	u64  uint64 // the value of a varint or fixed field
	data []byte // the payload of a length-delimited field
}

// varint decodes a varint at data[i:], returning the value and the index
// after it, with pprof's rules: at most 10 bytes, excess bits dropped.
func varint(data []byte, i int) (uint64, int, error) {
	if i < len(data) && data[i] < 0x80 {
		return uint64(data[i]), i + 1, nil
	}
	var u uint64
	for k := 0; ; k++ {
		if k >= 10 || i+k >= len(data) {
			return 0, 0, errWire
		}
		b := data[i+k]
		u |= uint64(b&0x7f) << (7 * k)
		if b < 0x80 {
			return u, i + k + 1, nil
		}
	}
}

// next decodes the field at data[i:] into f and returns the index after
// it. Wire types other than varint, fixed64, bytes and fixed32 are errors,
// as in pprof.
func next(data []byte, i int, f *field) (int, error) {
	key, i, err := varint(data, i)
	if err != nil {
		return 0, err
	}
	f.num = key >> 3
	f.typ = int(key & 7)
	f.data = nil
	f.u64 = 0
	switch f.typ {
	case wireVarint:
		f.u64, i, err = varint(data, i)
		return i, err
	case wireFixed64:
		if len(data)-i < 8 {
			return 0, errWire
		}
		for k := 7; k >= 0; k-- {
			f.u64 = f.u64<<8 | uint64(data[i+k])
		}
		return i + 8, nil
	case wireBytes:
		var n uint64
		n, i, err = varint(data, i)
		if err != nil || n > uint64(len(data)-i) {
			return 0, errWire
		}
		f.data = data[i : i+int(n) : i+int(n)]
		return i + int(n), nil
	case wireFixed32:
		if len(data)-i < 4 {
			return 0, errWire
		}
		for k := 3; k >= 0; k-- {
			f.u64 = f.u64<<8 | uint64(data[i+k])
		}
		return i + 4, nil
	}
	return 0, errWire
}

// int64 returns a varint field's value, or an error for another wire
// type.
func (f *field) int64() (int64, error) {
	if f.typ != wireVarint {
		return 0, errWire
	}
	return int64(f.u64), nil
}

// appendPacked appends the values of a repeated integer field, packed or
// not, to dst.
func appendPacked(dst []uint64, f *field) ([]uint64, error) {
	switch f.typ {
	case wireVarint:
		return append(dst, f.u64), nil
	case wireBytes:
		for i := 0; i < len(f.data); {
			if b := f.data[i]; b < 0x80 { // fast path: one-byte varint
				dst = append(dst, uint64(b))
				i++
				continue
			}
			u, j, err := varint(f.data, i)
			if err != nil {
				return nil, err
			}
			dst = append(dst, u)
			i = j
		}
		return dst, nil
	}
	return nil, errWire
}
