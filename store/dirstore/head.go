package dirstore

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perflab/perflab/store"
)

// A series is one series of the store, whose labels are kept once.
type series struct {
	labels store.Labels
	key    string // labels.String()
	// refs counts the WAL profiles and the block series of the series
	// (guarded by Store.mu); a series without any is forgotten.
	refs int
}

// A segment is a WAL segment and what the store keeps in memory of it
// (the head): its parts, header templates and series, numbered as its
// records number them, and an entry for each of its profiles, whose
// samples stay in the file.
type segment struct {
	num  uint64
	path string
	f    *os.File
	size int64 // of its synced chunks
	born time.Time

	// mu guards the numbering, to which the committer adds while queries
	// read.
	mu        sync.RWMutex
	series    []*series
	seriesOrd map[*series]uint32
	byOrd     [numKinds][]store.Hash
	ords      [numKinds]map[store.Hash]uint32
	parts     *store.Parts
	headers   []store.Header
	headerOrd map[string]uint32

	// Guarded by Store.mu: the committed profiles in commit order
	// (DropBefore replaces the slice, never changes it), and roughly the
	// bytes of memory the segment takes.
	entries []*headEntry
	mem     int64

	refs     atomic.Int64
	obsolete atomic.Bool
	cleanup  sync.Once
	onClean  func() // after the file is removed
}

// A headEntry is a profile of the WAL.
type headEntry struct {
	entry
	series *series
}

func newSegment(dir string, num uint64, f *os.File, size int64) *segment {
	g := &segment{
		num: num, path: filepath.Join(dir, segmentName(num)), f: f, size: size, born: time.Now(),
		seriesOrd: map[*series]uint32{}, parts: store.NewParts(), headerOrd: map[string]uint32{},
	}
	for k := range numKinds {
		g.ords[k] = map[store.Hash]uint32{}
	}
	return g
}

// Memory estimates, in bytes, of what a segment keeps.
const (
	entryMem  = 160 // a headEntry, its totals and its pointer
	partMem   = 120 // the maps and slices that hold a part, besides its encoding
	seriesMem = 64
)

// addPart numbers a part; the caller holds g.mu.
func (g *segment) addPart(k kind, h store.Hash, part any) {
	g.ords[k][h] = uint32(len(g.byOrd[k]))
	g.byOrd[k] = append(g.byOrd[k], h)
	switch p := part.(type) {
	case store.Function:
		g.parts.Functions[h] = p
	case store.Mapping:
		g.parts.Mappings[h] = p
	case store.Location:
		g.parts.Locations[h] = p
	case store.Stack:
		g.parts.Stacks[h] = p
	case store.LabelSet:
		g.parts.LabelSets[h] = p
	}
}

// A prepared profile is one a Write checked and split.
type prepared struct {
	labels store.Labels
	time   int64
	split  *store.SplitProfile
	id     store.Hash
	series *series // set by the committer
}

// encode appends the records of p to b, whose chunk will be written at
// g.size, numbering what is new, and returns p's entry and the memory it
// adds to the segment.
func (g *segment) encode(b *buf, p *prepared) (*headEntry, int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	mem := int64(entryMem)
	so, ok := g.seriesOrd[p.series]
	if !ok {
		so = uint32(len(g.series))
		g.seriesOrd[p.series] = so
		g.series = append(g.series, p.series)
		b.byte(recSeries)
		b.labels(p.series.labels)
		mem += seriesMem
	}
	mem += g.encodeParts(b, p.split.Parts)
	tmpl := template(p.split.Header)
	enc := tmpl.Encode()
	ho, ok := g.headerOrd[string(enc)]
	if !ok {
		ho = uint32(len(g.headers))
		g.headerOrd[string(enc)] = ho
		g.headers = append(g.headers, tmpl)
		b.byte(recHeader)
		b.bytes(enc)
		mem += int64(2*len(enc) + partMem)
	}
	rs := g.rows(p.split)
	var samples buf
	samples.rows(rs)
	e := &headEntry{series: p.series, entry: entry{
		time: p.time, timeNanos: p.split.Header.TimeNanos, duration: p.split.Header.DurationNanos,
		header: ho, id: p.id, page: -1, n: int32(len(samples)), totals: columnTotals(rs),
	}}
	b.walProfile(&walProfile{series: so, time: e.time, timeNanos: e.timeNanos, duration: e.duration, header: ho, id: uint64(p.id)}, samples)
	e.off = g.size + int64(len(*b)-len(samples))
	return e, mem
}

// encodeParts appends the records of the parts of ps that g lacks.
func (g *segment) encodeParts(b *buf, ps *store.Parts) int64 {
	var mem int64
	add := func(k kind, h store.Hash, part any) {
		if _, ok := g.ords[k][h]; ok {
			return
		}
		enc := encodePart(part)
		b.byte(recPart)
		b.byte(byte(k))
		b.bytes(enc)
		g.addPart(k, h, part)
		mem += int64(len(enc) + partMem)
	}
	for h, p := range ps.Functions {
		add(kindFunction, h, p)
	}
	for h, p := range ps.Mappings {
		add(kindMapping, h, p)
	}
	for h, p := range ps.Locations {
		add(kindLocation, h, p)
	}
	for h, p := range ps.Stacks {
		add(kindStack, h, p)
	}
	for h, p := range ps.LabelSets {
		add(kindLabelSet, h, p)
	}
	return mem
}

// rows returns the samples of sp numbered by g, sorted.
func (g *segment) rows(sp *store.SplitProfile) *rows {
	rs := &rows{ncol: len(sp.Header.SampleTypes)}
	for _, s := range sp.Samples {
		var l uint32
		if s.Labels != 0 {
			l = g.ords[kindLabelSet][s.Labels] + 1
		}
		rs.add(g.ords[kindStack][s.Stack], l, s.Values)
	}
	rs.sort()
	return rs
}

// header returns header template i.
func (g *segment) header(i uint32) (store.Header, error) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if int(i) >= len(g.headers) {
		return store.Header{}, fmt.Errorf("%s: header template %d of %d: %w", g.path, i, len(g.headers), ErrCorrupt)
	}
	return g.headers[i], nil
}

// part returns the part of kind k with hash h.
func (g *segment) part(k kind, h store.Hash) (any, bool, error) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	p, ok := partsGet(g.parts, k, h)
	return p, ok, nil
}

// partsGet returns the part of kind k with hash h in ps.
func partsGet(ps *store.Parts, k kind, h store.Hash) (any, bool) {
	var p any
	var ok bool
	switch k {
	case kindFunction:
		p, ok = ps.Functions[h]
	case kindMapping:
		p, ok = ps.Mappings[h]
	case kindLocation:
		p, ok = ps.Locations[h]
	case kindStack:
		p, ok = ps.Stacks[h]
	default:
		p, ok = ps.LabelSets[h]
	}
	return p, ok
}

// readRows reads the samples of e, numbered by g, into rs.
func (g *segment) readRows(e *entry, rs *rows) error {
	h, err := g.header(e.header)
	if err != nil {
		return err
	}
	data := make([]byte, e.n)
	if _, err := g.f.ReadAt(data, e.off); err != nil {
		return fmt.Errorf("%s: samples at offset %d: %w", g.path, e.off, err)
	}
	r := reader{b: data}
	r.rows(rs, len(h.SampleTypes))
	if err := r.done("samples"); err != nil {
		return fmt.Errorf("%s: at offset %d: %w", g.path, e.off, err)
	}
	return nil
}

func (g *segment) acquire() { g.refs.Add(1) }

func (g *segment) release() {
	if g.refs.Add(-1) == 0 && g.obsolete.Load() {
		g.clean()
	}
}

// remove closes and removes the segment's file once no query uses it.
func (g *segment) remove() {
	g.obsolete.Store(true)
	if g.refs.Load() == 0 {
		g.clean()
	}
}

func (g *segment) clean() {
	g.cleanup.Do(func() {
		g.f.Close()
		os.Remove(g.path)
		if g.onClean != nil {
			g.onClean()
		}
	})
}
