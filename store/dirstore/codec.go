package dirstore

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/perflab/perflab/store"
)

// Every file of a store is made of the same few encodings: unsigned
// integers as varints, signed ones as zig-zag varints, strings and byte
// strings prefixed with their length, hashes and IDs as 8 little-endian
// bytes. A buf writes them; a reader reads them back, remembering its
// first error, so that a corrupt file gives one error and never a panic.

// ErrCorrupt is wrapped by the errors of a file that is not what the
// store wrote: a checksum that does not match, a truncated or malformed
// encoding, a reference to something the file does not have.
var ErrCorrupt = errors.New("corrupt")

// A buf builds an encoding.
type buf []byte

func (b *buf) uint(v uint64) { *b = binary.AppendUvarint(*b, v) }

func (b *buf) int(v int64) { *b = binary.AppendVarint(*b, v) }

func (b *buf) u64(v uint64) { *b = binary.LittleEndian.AppendUint64(*b, v) }

func (b *buf) u32(v uint32) { *b = binary.LittleEndian.AppendUint32(*b, v) }

func (b *buf) hash(h store.Hash) { b.u64(uint64(h)) }

func (b *buf) bytes(p []byte) {
	b.uint(uint64(len(p)))
	*b = append(*b, p...)
}

func (b *buf) string(s string) {
	b.uint(uint64(len(s)))
	*b = append(*b, s...)
}

func (b *buf) byte(c byte) { *b = append(*b, c) }

func (b *buf) bool(v bool) {
	if v {
		b.byte(1)
	} else {
		b.byte(0)
	}
}

// A reader reads an encoding, remembering its first error; after an
// error every read returns zero values.
type reader struct {
	b   []byte
	err error
}

var errTruncated = errors.New("truncated")

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.b = nil
}

// failf records a malformed encoding.
func (r *reader) failf(format string, args ...any) { r.fail(fmt.Errorf(format, args...)) }

func (r *reader) uint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail(errTruncated)
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) int() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail(errTruncated)
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) u64() uint64 {
	if len(r.b) < 8 {
		r.fail(errTruncated)
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

func (r *reader) u32() uint32 {
	if len(r.b) < 4 {
		r.fail(errTruncated)
		return 0
	}
	v := binary.LittleEndian.Uint32(r.b)
	r.b = r.b[4:]
	return v
}

func (r *reader) hash() store.Hash { return store.Hash(r.u64()) }

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		r.fail(errTruncated)
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) bool() bool {
	switch r.byte() {
	case 0:
		return false
	case 1:
		return true
	}
	r.failf("bad boolean")
	return false
}

// count reads the length of a list whose elements take at least min bytes
// each: a length beyond what is left is an error, so that no input makes
// a reader allocate more than its size.
func (r *reader) count(min int) int {
	n := r.uint()
	if n > uint64(len(r.b)/max(min, 1)) {
		r.fail(errTruncated)
		return 0
	}
	return int(n)
}

// bytes reads a byte string, which shares r's memory.
func (r *reader) bytes() []byte {
	n := r.count(1)
	p := r.b[:n:n]
	r.b = r.b[n:]
	return p
}

func (r *reader) string() string { return string(r.bytes()) }

// done returns r's error, or one if bytes are left, wrapped with what was
// read and ErrCorrupt.
func (r *reader) done(what string) error {
	if r.err == nil && len(r.b) > 0 {
		r.err = fmt.Errorf("%d bytes after the end", len(r.b))
	}
	if r.err != nil {
		return fmt.Errorf("%s: %w: %w", what, r.err, ErrCorrupt)
	}
	return nil
}

// check returns r's error wrapped with what was read and ErrCorrupt, or
// nil; bytes may be left.
func (r *reader) check(what string) error {
	if r.err != nil {
		return fmt.Errorf("%s: %w: %w", what, r.err, ErrCorrupt)
	}
	return nil
}

func (b *buf) labels(ls store.Labels) {
	b.uint(uint64(len(ls)))
	for _, l := range ls {
		b.string(l.Name)
		b.string(l.Value)
	}
}

// labels reads series labels, which must be sorted and each named once.
func (r *reader) labels() store.Labels {
	n := r.count(2)
	ls := make(store.Labels, n)
	for i := range ls {
		ls[i] = store.Label{Name: r.string(), Value: r.string()}
		if i > 0 && ls[i-1].Name >= ls[i].Name && r.err == nil {
			r.failf("series labels not sorted")
		}
	}
	return ls
}

func (b *buf) valueType(v store.ValueType) {
	b.string(v.Type)
	b.string(v.Unit)
}

func (r *reader) valueType() store.ValueType {
	return store.ValueType{Type: r.string(), Unit: r.string()}
}

// number reads a count that is not the length of what follows (of
// profiles, say), which must fit in an int32.
func (r *reader) number() int {
	v := r.uint()
	if v > 1<<31-1 {
		r.failf("number %d out of range", v)
		return 0
	}
	return int(v)
}
