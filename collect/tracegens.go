package collect

import (
	"bytes"
	"strconv"
)

// Wire codes of the execution trace format (Go 1.26), from x/exp/trace's
// internal/tracev2: what genFramer needs to follow the batches.
const (
	wireHeaderLen       = 16
	wireEventBatch      = 1
	wireExperimentBatch = 49
	wireEndOfGeneration = 52
)

// A genFramer follows the batches of a trace as it streams past, to tell
// where each generation ends: at its end-of-generation batch. It holds no
// data, only where it is in the current batch.
type genFramer struct {
	head     []byte // the trace's header, as it comes
	state    int    // one of the framer states below
	skip     uint64 // bytes left of a batch's data
	varints  int    // varints left of a batch header
	v        uint64 // the varint being read
	shift    uint   // its next bits' place
	boundary bool   // between two generations (or after the header)
	ended    int    // generations ended so far
	lost     bool   // the stream is not as expected: no more ends are told
}

const (
	framerHeader  = iota // the trace's 16-byte header (zero: the start)
	framerKind           // a batch's first byte
	framerExp            // an experimental batch's experiment byte
	framerVarints        // generation, M, timestamp, size
	framerData           // the batch's data
)

// next returns how many bytes of p, from its start, belong to the current
// generation, and whether the generation ends with them. After the framer
// is lost, all of p belongs to it and no end is told.
func (f *genFramer) next(p []byte) (n int, end bool) {
	for n < len(p) {
		if f.lost {
			return len(p), false
		}
		switch f.state {
		case framerHeader:
			k := min(wireHeaderLen-len(f.head), len(p)-n)
			f.head = append(f.head, p[n:n+k]...)
			n += k
			if len(f.head) == wireHeaderLen {
				f.lost = !endsGenerations(f.head)
				f.state, f.boundary = framerKind, true
			}
		case framerData:
			k := int(min(f.skip, uint64(len(p)-n)))
			n += k
			f.skip -= uint64(k)
			if f.skip == 0 {
				f.state = framerKind
			}
		case framerKind:
			kind := p[n]
			n++
			f.boundary = false
			switch kind {
			case wireEndOfGeneration:
				f.boundary = true
				f.ended++
				return n, true
			case wireEventBatch:
				f.state, f.varints = framerVarints, 4
			case wireExperimentBatch:
				f.state = framerExp
			default:
				f.lost = true
			}
		case framerExp:
			n++
			f.state, f.varints = framerVarints, 4
		case framerVarints:
			f.varint(p[n])
			n++
		}
	}
	return n, false
}

// varint reads a byte of a batch header's varints; after the fourth, the
// size, the batch's data follows.
func (f *genFramer) varint(c byte) {
	f.v |= uint64(c&0x7f) << f.shift
	f.shift += 7
	if c&0x80 != 0 {
		if f.shift > 63 {
			f.lost = true
		}
		return
	}
	f.varints--
	if f.varints == 0 {
		f.state, f.skip = framerData, f.v
		if f.skip == 0 {
			f.state = framerKind
		}
	}
	f.v, f.shift = 0, 0
}

// endsGenerations reports whether a trace with header head marks the end
// of each generation: Go 1.26 and later.
func endsGenerations(head []byte) bool {
	rest, ok := bytes.CutPrefix(head, []byte("go 1."))
	if !ok {
		return false
	}
	v, ok := bytes.CutSuffix(bytes.TrimRight(rest, "\x00"), []byte(" trace"))
	n, err := strconv.Atoi(string(v))
	return ok && err == nil && n >= 26
}
