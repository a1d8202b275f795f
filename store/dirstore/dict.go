package dirstore

import (
	"fmt"
	"slices"

	"github.com/perflab/perflab/store"
)

// A kind is a kind of part of the canonical form.
type kind uint8

const (
	kindFunction kind = iota
	kindMapping
	kindLocation
	kindStack
	kindLabelSet
	numKinds
)

var kindNames = [numKinds]string{"function", "mapping", "location", "stack", "label set"}

func (k kind) String() string { return kindNames[k] }

// decodePart decodes the canonical encoding of a part of kind k.
func decodePart(k kind, enc []byte) (any, error) {
	switch k {
	case kindFunction:
		return store.DecodeFunction(enc)
	case kindMapping:
		return store.DecodeMapping(enc)
	case kindLocation:
		return store.DecodeLocation(enc)
	case kindStack:
		return store.DecodeStack(enc)
	default:
		return store.DecodeLabelSet(enc)
	}
}

// A part is a part of the canonical form: a store.Function, Mapping,
// Location, Stack or LabelSet.
type part interface {
	Encode() []byte
	Hash() store.Hash
}

// encodePart returns the canonical encoding of p, a part.
func encodePart(p any) []byte { return p.(part).Encode() }

// A dict is the dictionary of one section of a block: every part its
// profiles and rollups use, of each kind sorted by hash, so that a part's
// ordinal is its rank among the hashes of its kind, and the header
// templates of its profiles (headers without TimeNanos and DurationNanos).
// Parts are kept in their canonical encoding and decoded when asked for.
//
// Encoded, it is, for each kind in order: the count, the hashes (8 bytes
// each, ascending), the encodings (each prefixed by its length); then the
// count of header templates and their canonical encodings.
type dict struct {
	hashes  [numKinds][]store.Hash
	encs    [numKinds][][]byte
	headers [][]byte
}

// encode returns d's encoding.
func (d *dict) encode() []byte {
	var b buf
	for k := range numKinds {
		b.uint(uint64(len(d.hashes[k])))
		for _, h := range d.hashes[k] {
			b.hash(h)
		}
		for _, e := range d.encs[k] {
			b.bytes(e)
		}
	}
	b.uint(uint64(len(d.headers)))
	for _, h := range d.headers {
		b.bytes(h)
	}
	return b
}

// decodeDict reads a dict's encoding; the dict shares data's memory.
func decodeDict(data []byte) (*dict, error) {
	r := reader{b: data}
	d := &dict{}
	for k := range numKinds {
		n := r.count(9)
		d.hashes[k] = make([]store.Hash, n)
		for i := range d.hashes[k] {
			d.hashes[k][i] = r.hash()
			if i > 0 && d.hashes[k][i] <= d.hashes[k][i-1] && r.err == nil {
				r.failf("%s hashes not in ascending order", kind(k))
			}
		}
		d.encs[k] = make([][]byte, n)
		for i := range d.encs[k] {
			d.encs[k][i] = r.bytes()
		}
	}
	n := r.count(1)
	d.headers = make([][]byte, n)
	for i := range d.headers {
		d.headers[i] = r.bytes()
	}
	if err := r.done("dictionary"); err != nil {
		return nil, err
	}
	return d, nil
}

// size returns roughly the bytes d takes in memory.
func (d *dict) size() int64 {
	n := int64(64)
	for k := range numKinds {
		n += int64(len(d.hashes[k]))*(8+24) + int64(cap(d.encs[k]))*24
		for _, e := range d.encs[k] {
			n += int64(len(e))
		}
	}
	for _, h := range d.headers {
		n += 24 + int64(len(h))
	}
	return n
}

// ordinal returns the ordinal of the part of kind k with hash h.
func (d *dict) ordinal(k kind, h store.Hash) (int, bool) {
	return slices.BinarySearch(d.hashes[k], h)
}

// hash returns the hash of the part of kind k numbered i.
func (d *dict) hash(k kind, i uint32) (store.Hash, error) {
	if int(i) >= len(d.hashes[k]) {
		return 0, fmt.Errorf("%s %d of %d: %w", k, i, len(d.hashes[k]), ErrCorrupt)
	}
	return d.hashes[k][i], nil
}

// part decodes the part of kind k with hash h.
func (d *dict) part(k kind, h store.Hash) (any, bool, error) {
	i, ok := d.ordinal(k, h)
	if !ok {
		return nil, false, nil
	}
	p, err := decodePart(k, d.encs[k][i])
	if err != nil {
		return nil, false, fmt.Errorf("%s %s: %w: %w", k, h, err, ErrCorrupt)
	}
	return p, true, nil
}

// header decodes the header template numbered i.
func (d *dict) header(i int) (store.Header, error) {
	if i < 0 || i >= len(d.headers) {
		return store.Header{}, fmt.Errorf("header %d of %d: %w", i, len(d.headers), ErrCorrupt)
	}
	h, err := store.DecodeHeader(d.headers[i])
	if err != nil {
		return store.Header{}, fmt.Errorf("header %d: %w: %w", i, err, ErrCorrupt)
	}
	return h, nil
}

// A dictBuilder collects the parts and header templates of a section
// being written, then numbers them.
type dictBuilder struct {
	parts   [numKinds]map[store.Hash][]byte
	headers map[string]int // by encoding, its ordinal
	hdrs    [][]byte
}

func newDictBuilder() *dictBuilder {
	b := &dictBuilder{headers: map[string]int{}}
	for k := range numKinds {
		b.parts[k] = map[store.Hash][]byte{}
	}
	return b
}

// has reports whether b has the part of kind k with hash h.
func (b *dictBuilder) has(k kind, h store.Hash) bool {
	_, ok := b.parts[k][h]
	return ok
}

// add adds the part of kind k with hash h and canonical encoding enc.
func (b *dictBuilder) add(k kind, h store.Hash, enc []byte) { b.parts[k][h] = enc }

// header adds a header template and returns its ordinal.
func (b *dictBuilder) header(enc []byte) int {
	if i, ok := b.headers[string(enc)]; ok {
		return i
	}
	b.headers[string(enc)] = len(b.hdrs)
	b.hdrs = append(b.hdrs, enc)
	return len(b.hdrs) - 1
}

// build returns the dict of what b collected.
func (b *dictBuilder) build() *dict {
	d := &dict{headers: b.hdrs}
	for k := range numKinds {
		hs := make([]store.Hash, 0, len(b.parts[k]))
		for h := range b.parts[k] {
			hs = append(hs, h)
		}
		slices.Sort(hs)
		d.hashes[k] = hs
		d.encs[k] = make([][]byte, len(hs))
		for i, h := range hs {
			d.encs[k][i] = b.parts[k][h]
		}
	}
	return d
}
