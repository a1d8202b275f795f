package bench

import (
	"hash/maphash"
	"strings"

	"golang.org/x/perf/benchproc"
)

// configSet groups tables by configuration: the fields of their key other
// than the unit. An input can hold as many configuration keys as results
// (a "key1234: v" line before each), so nothing here builds a string or a
// slice per table and field: a table's cost is one pass over the fields,
// as it is in benchproc's own sorting, and the memory is a few words.
type configSet struct {
	// fields are the fields of the table keys other than .unit.
	fields []*benchproc.Field
	// id[i] numbers the configuration of table i, in order of first
	// appearance; first[c] is the index of the first table of
	// configuration c.
	id, first []int
}

var configSeed = maphash.MakeSeed()

// configs returns the tables' configurations.
func (ts *Tables) configs() *configSet {
	s := &configSet{id: make([]int, len(ts.Tables))}
	if len(ts.Keys) == 0 {
		return s
	}
	s.fields = configFields(ts.Keys[0])
	buckets := make(map[uint64][]int)
	for i, k := range ts.Keys {
		h := s.hash(k)
		c := -1
		for _, cand := range buckets[h] {
			if s.equal(k, ts.Keys[s.first[cand]]) {
				c = cand
				break
			}
		}
		if c < 0 {
			c = len(s.first)
			s.first = append(s.first, i)
			buckets[h] = append(buckets[h], c)
		}
		s.id[i] = c
	}
	return s
}

// hash hashes the non-empty configuration fields of k.
func (s *configSet) hash(k benchproc.Key) uint64 {
	var h maphash.Hash
	h.SetSeed(configSeed)
	for i, f := range s.fields {
		if v := k.Get(f); v != "" {
			maphash.WriteComparable(&h, i)
			h.WriteString(v)
		}
	}
	return h.Sum64()
}

// equal reports whether a and b have the same configuration.
func (s *configSet) equal(a, b benchproc.Key) bool {
	for _, f := range s.fields {
		if a.Get(f) != b.Get(f) {
			return false
		}
	}
	return true
}

// name returns the configuration of k as "k:v k:v", leaving out the
// fields k has no value for.
func (s *configSet) name(k benchproc.Key) string {
	var b strings.Builder
	for _, f := range s.fields {
		if v := k.Get(f); v != "" {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f.Name + ":" + v)
		}
	}
	return b.String()
}

// configFields returns the fields of the table key k other than the
// unit: the configuration that the table's header lines show.
func configFields(k benchproc.Key) []*benchproc.Field {
	var out []*benchproc.Field
	for _, f := range k.Projection().FlattenedFields() {
		if f.Name != ".unit" {
			out = append(out, f)
		}
	}
	return out
}
