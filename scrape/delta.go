package scrape

import (
	"encoding/binary"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/store"
)

// cumulativeType reports whether the sample type vt of a profile of kind
// name (its __name__) counts since the program started, so that the
// scraper stores its growth between two scrapes: every sample type of a
// cumulative kind (see store.Kinds: mutex, block), and of the memory
// profile only alloc_objects and alloc_space (the allocs kind), since
// inuse_* say what is live now.
func cumulativeType(name string, vt *profile.ValueType) bool {
	if name == "memory" {
		return strings.HasPrefix(vt.Type, "alloc_")
	}
	for _, k := range store.Kinds {
		if k.Type.Name == name && k.Cumulative {
			return true
		}
	}
	return false
}

// A baseline is the last scrape of a cumulative profile of one target:
// the values of its samples by stack and labels, summed, and its time.
type baseline struct {
	sums  sums
	types string
	time  int64
}

// sums are the values of a profile's samples summed by sample key (see
// sampleKey): a row of values for each key, in the order of the sorted
// keys. A scraper keeps one for each target's cumulative kinds, so it is
// kept small: a key is a 64-bit hash rather than the stack it names (a
// target's allocs profile has thousands of stacks, tens of frames deep),
// and the rows share one slice, without a map.
type sums struct {
	keys   []uint64
	values []int64
	width  int
}

// row returns the values of key k, or nil.
func (s *sums) row(k uint64) []int64 {
	r, ok := slices.BinarySearch(s.keys, k)
	if !ok {
		return nil
	}
	return s.values[r*s.width : (r+1)*s.width : (r+1)*s.width]
}

// delta returns cur less the baseline in its cumulative sample types
// (those cumulative says), the others as they are, covering the time
// between the two scrapes, and makes cur the baseline. ok is false when
// there is nothing to store: at the first scrape, when the sample types
// changed, and when a counter went down (the program restarted, so its
// counts began again): cur is then a new baseline.
func (b *baseline) delta(cur *profile.Profile, cumulative func(*profile.ValueType) bool) (out *profile.Profile, ok bool) {
	cols := make([]bool, len(cur.SampleType))
	types := make([]string, len(cur.SampleType))
	for i, vt := range cur.SampleType {
		cols[i] = cumulative(vt)
		types[i] = vt.Type + "/" + vt.Unit
	}
	sums, keys := sumByKey(cur)
	prev, prevTypes, prevTime := b.sums, b.types, b.time
	b.sums, b.types, b.time = sums, strings.Join(types, ","), cur.TimeNanos
	if prev.keys == nil || prevTypes != b.types {
		return nil, false
	}
	for r, k := range sums.keys {
		old := prev.row(k)
		for i, v := range sums.values[r*sums.width : (r+1)*sums.width] {
			if cols[i] && old != nil && v < old[i] {
				return nil, false // a counter went down: a restart
			}
		}
	}
	out = cur.Copy()
	kept := out.Sample[:0]
	seen := make(map[uint64]bool, len(sums.keys))
	for i, s := range out.Sample {
		k := keys[i]
		if seen[k] {
			continue // its values are in the first sample of its key
		}
		seen[k] = true
		s.Value = append([]int64(nil), sums.row(k)...)
		if old := prev.row(k); old != nil {
			for c := range s.Value {
				if cols[c] {
					s.Value[c] -= old[c]
				}
			}
		}
		if !allZero(s.Value) {
			kept = append(kept, s)
		}
	}
	out.Sample = kept
	if prevTime > 0 && cur.TimeNanos > prevTime {
		out.TimeNanos, out.DurationNanos = prevTime, cur.TimeNanos-prevTime
	}
	return out, true
}

// sumByKey sums a profile's values by sample key, and returns each
// sample's key.
func sumByKey(p *profile.Profile) (sums, []uint64) {
	width := len(p.SampleType)
	keys := make([]uint64, len(p.Sample))
	rows := make(map[uint64]int, len(p.Sample)) // a key's first sample
	var h maphash.Hash
	h.SetSeed(keySeed)
	for i, sample := range p.Sample {
		keys[i] = sampleKey(&h, sample)
		if _, ok := rows[keys[i]]; !ok {
			rows[keys[i]] = len(rows)
		}
	}
	s := sums{keys: make([]uint64, 0, len(rows)), values: make([]int64, len(rows)*width), width: width}
	for k := range rows {
		s.keys = append(s.keys, k)
	}
	slices.Sort(s.keys)
	for r, k := range s.keys {
		rows[k] = r
	}
	for i, sample := range p.Sample {
		row := s.values[rows[keys[i]]*width:]
		for j, v := range sample.Value[:min(len(sample.Value), width)] {
			row[j] += v
		}
	}
	return s, keys
}

// keySeed seeds sampleKey's hashes: a key lives only in this process.
var keySeed = maphash.MakeSeed()

// sampleKey hashes a sample's stack and labels into h: the addresses of
// its locations (or their functions and lines, for a profile without
// addresses), and its labels and numeric labels. Within one process the
// runtime gives a stack the same addresses at every scrape. Two keys of
// a target's samples collide with a chance of about n²/2⁶⁵ (10⁻¹¹ for
// ten thousand stacks).
func sampleKey(h *maphash.Hash, s *profile.Sample) uint64 {
	h.Reset()
	var buf [9]byte
	for _, l := range s.Location {
		if l.Address != 0 {
			buf[0] = 'a'
			binary.LittleEndian.PutUint64(buf[1:], l.Address)
			h.Write(buf[:])
		} else {
			for _, ln := range l.Line {
				if ln.Function != nil {
					h.WriteString(ln.Function.Name)
				}
				buf[0] = 0
				binary.LittleEndian.PutUint64(buf[1:], uint64(ln.Line))
				h.Write(buf[:])
			}
		}
		h.WriteByte('|')
	}
	for _, k := range sortedKeys(s.Label) {
		h.WriteString(k)
		h.WriteByte('=')
		for _, v := range s.Label[k] {
			h.WriteString(v)
			h.WriteByte(0)
		}
		h.WriteByte(';')
	}
	for _, k := range sortedKeys(s.NumLabel) {
		h.WriteString(k)
		h.WriteByte('#')
		for _, v := range s.NumLabel[k] {
			binary.LittleEndian.PutUint64(buf[1:], uint64(v))
			h.Write(buf[1:])
		}
		h.WriteByte(';')
	}
	return h.Sum64()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func allZero(vs []int64) bool {
	for _, v := range vs {
		if v != 0 {
			return false
		}
	}
	return true
}
