package scrape

import (
	"slices"
	"strconv"
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
	values map[string][]int64
	types  string
	time   int64
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
	prev, prevTypes, prevTime := b.values, b.types, b.time
	b.values, b.types, b.time = sums, strings.Join(types, ","), cur.TimeNanos
	if prev == nil || prevTypes != b.types {
		return nil, false
	}
	for k, vs := range sums {
		old := prev[k]
		for i, v := range vs {
			if cols[i] && old != nil && v < old[i] {
				return nil, false // a counter went down: a restart
			}
		}
	}
	out = cur.Copy()
	kept := out.Sample[:0]
	seen := make(map[string]bool, len(sums))
	for i, s := range out.Sample {
		k := keys[i]
		if seen[k] {
			continue // its values are in the first sample of its key
		}
		seen[k] = true
		s.Value = append([]int64(nil), sums[k]...)
		if old := prev[k]; old != nil {
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
func sumByKey(p *profile.Profile) (map[string][]int64, []string) {
	sums := make(map[string][]int64, len(p.Sample))
	keys := make([]string, len(p.Sample))
	for i, s := range p.Sample {
		k := sampleKey(s)
		keys[i] = k
		if vs, ok := sums[k]; ok {
			for j, v := range s.Value {
				vs[j] += v
			}
			continue
		}
		sums[k] = append([]int64(nil), s.Value...)
	}
	return sums, keys
}

// sampleKey names a sample's stack and labels: the addresses of its
// locations (or their functions and lines, for a profile without
// addresses), and its labels and numeric labels. Within one process the
// runtime gives a stack the same addresses at every scrape.
func sampleKey(s *profile.Sample) string {
	var b strings.Builder
	for _, l := range s.Location {
		if l.Address != 0 {
			b.WriteString(strconv.FormatUint(l.Address, 16))
		} else {
			for _, ln := range l.Line {
				if ln.Function != nil {
					b.WriteString(ln.Function.Name)
				}
				b.WriteByte(':')
				b.WriteString(strconv.FormatInt(ln.Line, 10))
				b.WriteByte(';')
			}
		}
		b.WriteByte('|')
	}
	for _, k := range sortedKeys(s.Label) {
		b.WriteString(k + "=" + strings.Join(s.Label[k], ",") + ";")
	}
	for _, k := range sortedKeys(s.NumLabel) {
		b.WriteString(k + "#")
		for _, v := range s.NumLabel[k] {
			b.WriteString(strconv.FormatInt(v, 10) + ",")
		}
	}
	return b.String()
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
