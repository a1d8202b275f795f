package clickhouse

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/perflab/perflab/store"
)

// The tables a write fills, in the order it fills them: series and parts
// first, so that no row refers to what is missing; profiles before
// samples, so that a merge never meets a sample whose profile's mappings
// it lacks. Series and parts may be written twice (ReplacingMergeTree
// keeps one copy, and reads take any); profiles and samples may not.
const (
	tSeries = iota
	tFunctions
	tMappings
	tLocations
	tStacks
	tLabelSets
	tProfiles
	tSamples
	nWritten
)

// writtenTables names the tables of the constants above.
var writtenTables = [nWritten]string{"series", "functions", "mappings", "locations", "stacks", "label_sets", "profiles", "samples"}

// insertColumns returns the column list of table name for an INSERT, in
// the order of its definition in tables: the order the encoders below
// write the values of a row in.
func insertColumns(name string) string {
	for _, t := range tables {
		if t.name != name {
			continue
		}
		var names []string
		depth := 0
		start := 1
		for i, r := range t.columns {
			switch r {
			case '(':
				depth++
			case ')':
				depth--
			}
			if (r == ',' && depth == 1) || (r == ')' && depth == 0) {
				field := strings.TrimSpace(t.columns[start:i])
				names = append(names, field[:strings.IndexByte(field, ' ')])
				start = i + 1
			}
		}
		return "(" + strings.Join(names, ", ") + ")"
	}
	panic("clickhouse: no table " + name)
}

// dayOf returns the day partition of a time in Unix nanoseconds, as
// ClickHouse's intDiv computes it (rounding toward zero, as Go's / does).
func dayOf(nanos int64) int32 { return int32(nanos / dayNanos) }

// stableHash returns the first 8 bytes of the SHA-256 of the strings,
// each preceded by its length, with a tag: the hashes perflab stores
// besides the canonical form's (series, layouts, mapping files), the same
// in every process.
func stableHash(tag string, parts ...string) uint64 {
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	for _, p := range append([]string{tag}, parts...) {
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(p)))])
		h.Write([]byte(p))
	}
	return binary.LittleEndian.Uint64(h.Sum(nil))
}

// seriesHash names a series by its labels.
func seriesHash(labels store.Labels) uint64 {
	parts := make([]string, 0, 2*len(labels))
	for _, l := range labels {
		parts = append(parts, l.Name, l.Value)
	}
	return stableHash("series", parts...)
}

// A prepared profile is a profile checked and split, ready to encode.
type prepared struct {
	labels  store.Labels
	series  uint64
	time    int64 // Unix nanoseconds
	id      store.Hash
	split   *store.SplitProfile
	types   []string // profile type IDs, in the order of the sample types
	layout  uint64   // hash of types
	mapfile uint64   // hash of the files of the profile's mappings by key
}

func newPrepared(labels store.Labels, t time.Time, sp *store.SplitProfile) (*prepared, error) {
	id, err := store.ParseHash(store.ProfileID(labels, t, sp))
	if err != nil {
		return nil, err
	}
	p := &prepared{labels: labels, series: seriesHash(labels), time: t.UnixNano(), id: id, split: sp}
	for _, pt := range sp.Header.Types(labels.Get(store.LabelName)) {
		p.types = append(p.types, pt.ID())
	}
	p.layout = stableHash("layout", p.types...)
	p.mapfile = stableHash("mapfiles", mappingFiles(sp.Header.Mappings, sp.Parts.Mappings)...)
	return p, nil
}

// mappingFiles returns the key and file of each mapping key of a profile,
// sorted by key, taking a key's first mapping in the profile's order: what
// Totals' Focus matches a location's mapping by.
func mappingFiles(order []store.Hash, parts map[store.Hash]store.Mapping) []string {
	files := map[store.Hash]string{}
	for _, h := range order {
		m := parts[h]
		if _, ok := files[m.Key()]; !ok {
			files[m.Key()] = m.File
		}
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(files)) {
		out = append(out, k.String(), files[k])
	}
	return out
}

// A unit is the rows of one Write, table by table; the rows of profiles
// and samples are kept apart by series, so that after a failure the
// writer can send again those of the series that did not get there.
type unit struct {
	insertID uint64
	parts    [tProfiles]rowWriter
	series   map[uint64]*seriesRows
	// written are the series and parts this unit writes, by day, for the
	// cache once it has been written.
	written map[int32][]uint64
	// split are the parts of the unit's profiles, for the store's cache
	// of parts once they are written.
	split []*store.Parts
	size  int64
	done  chan error
	// queued is when the unit was queued for the writer.
	queued time.Time
}

// seriesRows are the profiles and samples of one series in a unit. The
// samples are kept by profile type, each type's rows in the order of the
// samples table's key (time, stack, label set), so that the writer can
// send a batch's rows in that order (service, type, series, ...): the
// order of the rollups' key too when a series has one profile in each
// hour of a batch, as a fleet's pushes do. ClickHouse then need not sort
// what it writes, nor the materialized views what they pass on.
type seriesRows struct {
	service          string
	minTime, maxTime int64
	profiles         rowWriter
	samples          map[string]*rowWriter
}

// sampleRows returns the number of sample rows of sr.
func (sr *seriesRows) sampleRows() int {
	n := 0
	for _, w := range sr.samples {
		n += w.rows
	}
	return n
}

// encode returns the unit of ps; it leaves out the series and parts that
// has reports written on the same day.
func encode(insertID uint64, ps []*prepared, has func(day int32, h uint64) bool) *unit {
	u := &unit{insertID: insertID, series: map[uint64]*seriesRows{}, written: map[int32][]uint64{}, done: make(chan error, 1)}
	seen := map[int32]map[uint64]bool{}
	fresh := func(day int32, h uint64) bool {
		if seen[day] == nil {
			seen[day] = map[uint64]bool{}
		}
		if seen[day][h] || has(day, h) {
			return false
		}
		seen[day][h] = true
		u.written[day] = append(u.written[day], h)
		return true
	}
	ps = slices.Clone(ps)
	slices.SortStableFunc(ps, func(a, b *prepared) int { return cmp.Compare(a.time, b.time) })
	for _, p := range ps {
		day := dayOf(p.time)
		if fresh(day, p.series) {
			u.seriesRow(day, p)
		}
		u.partRows(day, p.split.Parts, fresh)
		u.split = append(u.split, p.split.Parts)
		sr := u.series[p.series]
		if sr == nil {
			sr = &seriesRows{service: p.labels.Get(store.LabelService), minTime: p.time, maxTime: p.time, samples: map[string]*rowWriter{}}
			u.series[p.series] = sr
		}
		sr.minTime, sr.maxTime = min(sr.minTime, p.time), max(sr.maxTime, p.time)
		u.profileRow(&sr.profiles, p)
		u.sampleRows(sr, p)
	}
	for i := range u.parts {
		u.size += int64(len(u.parts[i].buf))
	}
	for _, sr := range u.series {
		u.size += int64(len(sr.profiles.buf))
		for _, w := range sr.samples {
			u.size += int64(len(w.buf))
		}
	}
	return u
}

func (u *unit) seriesRow(day int32, p *prepared) {
	w := &u.parts[tSeries]
	w.int32(day)
	w.uint64(p.series)
	w.string(p.labels.Get(store.LabelService))
	w.string(p.labels.Get(store.LabelName))
	names, values := make([]string, len(p.labels)), make([]string, len(p.labels))
	for i, l := range p.labels {
		names[i], values[i] = l.Name, l.Value
	}
	w.strings(names)
	w.strings(values)
	w.endRow()
}

// partRows writes the parts that fresh reports new.
func (u *unit) partRows(day int32, parts *store.Parts, fresh func(int32, uint64) bool) {
	for h, f := range parts.Functions {
		if fresh(day, uint64(h)) {
			encodeFunction(&u.parts[tFunctions], day, h, f)
		}
	}
	for h, m := range parts.Mappings {
		if fresh(day, uint64(h)) {
			encodeMapping(&u.parts[tMappings], day, h, m)
		}
	}
	for h, l := range parts.Locations {
		if fresh(day, uint64(h)) {
			encodeLocation(&u.parts[tLocations], day, h, l)
		}
	}
	for h, s := range parts.Stacks {
		if fresh(day, uint64(h)) {
			w := &u.parts[tStacks]
			w.int32(day)
			w.uint64(uint64(h))
			w.hashes(s)
			w.endRow()
		}
	}
	for h, ls := range parts.LabelSets {
		if fresh(day, uint64(h)) {
			encodeLabelSet(&u.parts[tLabelSets], day, h, ls)
		}
	}
}

func encodeFunction(w *rowWriter, day int32, h store.Hash, f store.Function) {
	w.int32(day)
	w.uint64(uint64(h))
	w.string(f.Name)
	w.string(f.SystemName)
	w.string(f.Filename)
	w.int64(f.StartLine)
	w.endRow()
}

func encodeMapping(w *rowWriter, day int32, h store.Hash, m store.Mapping) {
	w.int32(day)
	w.uint64(uint64(h))
	w.uint64(m.Start)
	w.uint64(m.Limit)
	w.uint64(m.Offset)
	w.string(m.File)
	w.string(m.BuildID)
	w.string(m.KernelRelocationSymbol)
	for _, b := range []bool{m.HasFunctions, m.HasFilenames, m.HasLineNumbers, m.HasInlineFrames} {
		w.bool(b)
	}
	w.endRow()
}

func encodeLocation(w *rowWriter, day int32, h store.Hash, l store.Location) {
	w.int32(day)
	w.uint64(uint64(h))
	w.uint64(uint64(l.Mapping))
	w.uint64(l.Address)
	w.bool(l.IsFolded)
	column(w, l.Lines, func(ln store.Line) { w.uint64(uint64(ln.Function)) })
	column(w, l.Lines, func(ln store.Line) { w.int64(ln.Line) })
	column(w, l.Lines, func(ln store.Line) { w.int64(ln.Column) })
	w.endRow()
}

// column writes an array of one value of each of items: a column of a
// list of structures, as the tables keep them.
func column[T any](w *rowWriter, items []T, write func(T)) {
	w.arrayLen(len(items))
	for _, it := range items {
		write(it)
	}
}

func encodeLabelSet(w *rowWriter, day int32, h store.Hash, ls store.LabelSet) {
	w.int32(day)
	w.uint64(uint64(h))
	column(w, ls.Strings, func(l store.StringLabel) { w.string(l.Key) })
	column(w, ls.Strings, func(l store.StringLabel) { w.strings(l.Values) })
	column(w, ls.Numbers, func(l store.NumberLabel) { w.string(l.Key) })
	column(w, ls.Numbers, func(l store.NumberLabel) { w.int64s(l.Values) })
	column(w, ls.Numbers, func(l store.NumberLabel) { w.strings(l.Units) })
	w.endRow()
}

func (u *unit) profileRow(w *rowWriter, p *prepared) {
	h := &p.split.Header
	w.string(p.labels.Get(store.LabelService))
	w.string(p.labels.Get(store.LabelName))
	w.uint64(p.series)
	w.int64(p.time)
	w.uint64(uint64(p.id))
	w.uint64(u.insertID)
	w.uint64(p.layout)
	w.uint64(p.mapfile)
	w.strings(p.types)
	column(w, h.SampleTypes, func(st store.ValueType) { w.string(st.Type) })
	column(w, h.SampleTypes, func(st store.ValueType) { w.string(st.Unit) })
	totals := make([]int64, len(h.SampleTypes))
	for _, s := range p.split.Samples {
		for i, v := range s.Values {
			totals[i] += v
		}
	}
	w.int64s(totals)
	w.string(h.DefaultSampleType)
	w.string(h.PeriodType.Type)
	w.string(h.PeriodType.Unit)
	w.int64(h.Period)
	w.int64(h.TimeNanos)
	w.int64(h.DurationNanos)
	w.strings(h.Comments)
	w.string(h.DropFrames)
	w.string(h.KeepFrames)
	w.string(h.DocURL)
	w.hashes(h.Mappings)
	w.endRow()
}

// sampleRows writes a row for each sample and type whose value is not
// zero to the rows of its type in sr, in the order of stack and label
// set: a zero adds nothing to a merge, which drops the samples whose
// values are all zero.
func (u *unit) sampleRows(sr *seriesRows, p *prepared) {
	service := p.labels.Get(store.LabelService)
	samples := slices.Clone(p.split.Samples)
	slices.SortFunc(samples, func(a, b store.Sample) int {
		return cmp.Or(cmp.Compare(a.Stack, b.Stack), cmp.Compare(a.Labels, b.Labels))
	})
	for i, typ := range p.types {
		w := sr.samples[typ]
		if w == nil {
			w = &rowWriter{}
			sr.samples[typ] = w
		}
		for _, s := range samples {
			v := s.Values[i]
			if v == 0 {
				continue
			}
			w.string(service)
			w.string(typ)
			w.uint64(p.series)
			w.int64(p.time)
			w.uint64(uint64(p.id))
			w.uint64(u.insertID)
			w.uint64(p.layout)
			w.uint64(p.mapfile)
			w.uint64(uint64(s.Stack))
			w.uint64(uint64(s.Labels))
			w.int64(v)
			w.endRow()
		}
	}
}
