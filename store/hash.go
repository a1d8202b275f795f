package store

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
)

// A Hash is the stable 64-bit content hash of a part of a profile (a
// function, mapping, location, stack or label set): the first 8 bytes,
// little-endian, of the SHA-256 of the part's canonical encoding, which
// begins with a byte naming the kind of part. It is the same in every
// process, on every machine and in every release of perflab that keeps
// this encoding, so a backend may store it (ClickHouse keeps the values
// perflab computes as UInt64). SHA-256 rather than a faster
// non-cryptographic hash: a pushed profile cannot be crafted to take the
// hash of another service's part (that costs 2^64 tries). Zero means "no
// part": the empty label set, a line without a function, a location
// without a mapping.
type Hash uint64

// String returns h as 16 hexadecimal digits.
func (h Hash) String() string { return fmt.Sprintf("%016x", uint64(h)) }

// ParseHash reads the 16 hexadecimal digits of Hash.String.
func ParseHash(s string) (Hash, error) {
	if len(s) != 16 {
		return 0, fmt.Errorf("hash %q: want 16 hexadecimal digits", clip(s))
	}
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		return 0, fmt.Errorf("hash %q: want 16 hexadecimal digits", clip(s))
	}
	return Hash(v), nil
}

// The first byte of each kind of part's encoding, so that two kinds of
// parts never share a hash by sharing bytes.
const (
	tagFunction byte = iota + 1
	tagMapping
	tagMappingKey
	tagLocation
	tagStack
	tagLabelSet
	tagProfile
	tagHeader
)

// A hasher builds a part's canonical encoding: numbers as varints,
// strings prefixed with their length.
type hasher struct {
	buf []byte
}

func (h *hasher) reset(tag byte) { h.buf = append(h.buf[:0], tag) }

func (h *hasher) uint(v uint64) { h.buf = binary.AppendUvarint(h.buf, v) }

func (h *hasher) int(v int64) { h.buf = binary.AppendVarint(h.buf, v) }

func (h *hasher) bool(v bool) {
	if v {
		h.buf = append(h.buf, 1)
	} else {
		h.buf = append(h.buf, 0)
	}
}

func (h *hasher) string(s string) {
	h.uint(uint64(len(s)))
	h.buf = append(h.buf, s...)
}

func (h *hasher) hash(v Hash) { h.buf = binary.LittleEndian.AppendUint64(h.buf, uint64(v)) }

// sum returns the Hash of the encoding so far; it is never zero.
func (h *hasher) sum() Hash {
	s := sha256.Sum256(h.buf)
	v := Hash(binary.LittleEndian.Uint64(s[:8]))
	if v == 0 {
		v = 1 // zero means "no part"
	}
	return v
}
