package profiles

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// Decoding profile.proto takes more memory than the encoding: a 2-byte
// empty sample message becomes a Sample of more than 100 bytes, and each
// 1-byte location ID in a sample two 8-byte words. So the size limit alone
// does not bound memory: a few kilobytes of gzip can inflate to a gigabyte
// of empty messages that would decode to tens of gigabytes. decodeCost
// estimates, in one quick pass over the top-level fields, what the decoder
// will allocate, so that such input is refused before it is decoded.

// fieldCost is what the decoder allocates, in bytes, for one top-level
// field of profile.proto: a fixed cost per message, a cost per integer it
// holds (location IDs, values, line numbers: each becomes one or two 8-byte
// words) and a cost per byte. Figures are for 64-bit platforms, measured
// with the decoder of github.com/google/pprof/profile.
// Other fields cost one byte per byte.
var fieldCost = [...]struct{ fixed, perInt, perByte int64 }{
	0: {0, 0, 1},
	1: {0, 0, 1},    // sample types
	2: {176, 16, 0}, // sample
	3: {200, 0, 2},  // mapping
	4: {96, 16, 0},  // location
	5: {120, 0, 2},  // function
	6: {96, 0, 2},   // string table entry
}

// decodeCost estimates the bytes the pprof decoder allocates for data, an
// uncompressed profile.proto. ok is false if data is not a well-formed
// sequence of protobuf fields (it may be a legacy text profile).
func decodeCost(data []byte) (cost int64, ok bool) {
	for len(data) > 0 {
		key, n := binary.Uvarint(data)
		if n <= 0 {
			return 0, false
		}
		data = data[n:]
		size := 0
		switch key & 7 {
		case 0: // varint
			_, size = binary.Uvarint(data)
			if size <= 0 {
				return 0, false
			}
		case 1: // 64-bit
			size = 8
		case 2: // length-delimited
			l, m := binary.Uvarint(data)
			if m <= 0 || l > uint64(len(data)-m) {
				return 0, false
			}
			data = data[m:]
			size = int(l)
		case 5: // 32-bit
			size = 4
		default:
			return 0, false
		}
		if size > len(data) {
			return 0, false
		}
		c := fieldCost[0]
		if f := key >> 3; f < uint64(len(fieldCost)) {
			c = fieldCost[f]
		}
		cost += c.fixed + c.perByte*int64(size)
		if c.perInt > 0 {
			cost += c.perInt * countVarints(data[:size])
		}
		data = data[size:]
	}
	return cost, true
}

// estimateCost estimates the memory decoding data takes, whatever its
// format: the larger of its cost as profile.proto and as a legacy format.
func estimateCost(data []byte) int64 {
	cost, _ := decodeCost(data)
	return max(cost, legacyCost(data))
}

// legacyCost estimates the memory the legacy parsers take. They build a
// sample of about a kilobyte, garbage included, from each record line of a
// text profile, however short; binary CPU profiles cost about two words per
// 8-byte word.
func legacyCost(data []byte) int64 {
	if !looksLikeText(data) {
		return 16 * int64(len(data))
	}
	cost := int64(len(data))
	for line := range bytes.Lines(data) {
		if len(line) > 0 && line[0] != '#' {
			cost += 1024
		}
	}
	return cost
}

// countVarints returns how many varints could end in b: the number of
// bytes whose high bit is clear, counted eight at a time.
func countVarints(b []byte) int64 {
	var n int64
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		n += 8 - int64(bits.OnesCount64(w&0x8080808080808080))
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x80 {
			n++
		}
	}
	return n
}
