package dirstore

import (
	"fmt"

	"github.com/perflab/perflab/store"
)

// A block holds the profiles of one day partition that one compaction
// wrote: in sections, one for each service, each with its own dictionary
// of parts, so that the profiles of a service share their parts, and in
// each section the series of that service. A series' profiles are in
// pages (blobs of about pageBytes of encoded samples), found by the
// series' profile index (one blob for each series of the block).
//
// Its index, loaded when the store opens and kept in memory, is what
// queries plan with: for each section its service, dictionary and
// layouts; for each series its labels, time span, count, layouts and
// profile index; and the pages of the block's table of profile IDs.

const (
	blockMagic  = "PLBLOCK1"
	rollupMagic = "PLROLUP1"
	formatV1    = 1
)

// A blockMeta is a block's index.
type blockMeta struct {
	id    uint64
	day   int64 // the partition: days since the Unix epoch
	level int
	// sources are what the block was made from: the WAL segment it
	// compacts, or the blocks it merges; see Store.recover.
	sources  []sourceRef
	sections []*sectionMeta
	idPages  []idPage
}

// A sourceRef names a WAL segment or a block.
type sourceRef struct {
	wal bool
	num uint64
}

// A sectionMeta is the index of one section of a block.
type sectionMeta struct {
	service string
	dict    blobRef
	layouts []layout
	// headerLayout gives the layout of each of the dictionary's header
	// templates.
	headerLayout []uint32
	series       []*blockSeries
}

// A blockSeries is the index of one series in one block.
type blockSeries struct {
	slot       int // its position in the block, across sections
	labels     store.Labels
	minT, maxT int64 // Unix nanoseconds of its first and last profile
	count      int
	layouts    []uint32
	index      blobRef
}

// An idPage finds a page of the block's ID table: the profile IDs of the
// block, sorted, each with the slot of its series and its position there.
type idPage struct {
	first store.Hash
	ref   blobRef
}

func (b *buf) blockMeta(m *blockMeta) {
	b.uint(formatV1)
	b.uint(m.id)
	b.int(m.day)
	b.uint(uint64(m.level))
	b.uint(uint64(len(m.sources)))
	for _, s := range m.sources {
		b.bool(s.wal)
		b.uint(s.num)
	}
	b.uint(uint64(len(m.sections)))
	for _, sec := range m.sections {
		b.sectionMeta(sec)
	}
	b.uint(uint64(len(m.idPages)))
	for _, p := range m.idPages {
		b.hash(p.first)
		b.blobRef(p.ref)
	}
}

func (b *buf) sectionMeta(sec *sectionMeta) {
	b.string(sec.service)
	b.blobRef(sec.dict)
	b.uint(uint64(len(sec.layouts)))
	for _, l := range sec.layouts {
		b.layout(l)
	}
	b.uint(uint64(len(sec.headerLayout)))
	for _, l := range sec.headerLayout {
		b.uint(uint64(l))
	}
	b.uint(uint64(len(sec.series)))
	for _, s := range sec.series {
		b.labels(s.labels)
		b.int(s.minT)
		b.uint(uint64(s.maxT - s.minT))
		b.uint(uint64(s.count))
		b.uint(uint64(len(s.layouts)))
		for _, l := range s.layouts {
			b.uint(uint64(l))
		}
		b.blobRef(s.index)
	}
}

// decodeBlockMeta reads a block's index.
func decodeBlockMeta(data []byte) (*blockMeta, error) {
	r := reader{b: data}
	if v := r.uint(); v != formatV1 && r.err == nil {
		return nil, fmt.Errorf("block index: format version %d, not %d: %w", v, formatV1, ErrCorrupt)
	}
	m := &blockMeta{id: r.uint(), day: r.int(), level: r.number()}
	m.sources = make([]sourceRef, r.count(2))
	for i := range m.sources {
		m.sources[i] = sourceRef{wal: r.bool(), num: r.uint()}
	}
	m.sections = make([]*sectionMeta, r.count(8))
	slot := 0
	for i := range m.sections {
		m.sections[i] = r.sectionMeta(&slot)
	}
	m.idPages = make([]idPage, r.count(12))
	for i := range m.idPages {
		m.idPages[i] = idPage{first: r.hash(), ref: r.blobRef()}
	}
	if err := r.done("block index"); err != nil {
		return nil, err
	}
	return m, nil
}

func (r *reader) sectionMeta(slot *int) *sectionMeta {
	sec := &sectionMeta{service: r.string(), dict: r.blobRef()}
	sec.layouts = make([]layout, r.count(3))
	for i := range sec.layouts {
		sec.layouts[i] = r.layout()
	}
	sec.headerLayout = make([]uint32, r.count(1))
	for i := range sec.headerLayout {
		sec.headerLayout[i] = r.ordinal(len(sec.layouts), "layout")
	}
	sec.series = make([]*blockSeries, r.count(8))
	for i := range sec.series {
		s := &blockSeries{slot: *slot, labels: r.labels(), minT: r.int()}
		*slot++
		s.maxT = s.minT + int64(r.uint())
		if s.maxT < s.minT && r.err == nil {
			r.failf("series time span out of range")
		}
		s.count = r.number()
		s.layouts = make([]uint32, r.count(1))
		for j := range s.layouts {
			s.layouts[j] = r.ordinal(len(sec.layouts), "layout")
		}
		s.index = r.blobRef()
		sec.series[i] = s
	}
	return sec
}

// ordinal reads a number that must be below n.
func (r *reader) ordinal(n int, what string) uint32 {
	v := r.uint()
	if v >= uint64(n) {
		if r.err == nil {
			r.failf("%s %d of %d", what, v, n)
		}
		return 0
	}
	return uint32(v)
}

// An entry is one profile of a series in a block or in the WAL: its
// times, its header template, its ID, where its samples are, and the sum
// of each of its columns of values.
type entry struct {
	time      int64 // the store's time of the profile, Unix nanoseconds
	timeNanos int64 // the profile's own TimeNanos
	duration  int64
	header    uint32
	id        store.Hash
	// page and off find the samples: in a block, the page and the offset
	// in its content; in the WAL (page -1), the offset in the file and n
	// their length.
	page   int32
	off    int64
	n      int32
	totals []int64
}

// A seriesIndex is the profile index of a series in a block: its pages
// and its entries in time order (then by ID).
type seriesIndex struct {
	pages   []blobRef
	entries []entry
}

func (b *buf) seriesIndex(x *seriesIndex) {
	b.uint(uint64(len(x.pages)))
	for _, p := range x.pages {
		b.blobRef(p)
	}
	b.uint(uint64(len(x.entries)))
	prev := int64(0)
	for _, e := range x.entries {
		b.int(e.time - prev)
		prev = e.time
		b.int(e.timeNanos - e.time)
		b.int(e.duration)
		b.uint(uint64(e.header))
		b.hash(e.id)
		b.uint(uint64(e.page))
		b.uint(uint64(e.off))
		b.uint(uint64(len(e.totals)))
		for _, t := range e.totals {
			b.int(t)
		}
	}
}

// decodeSeriesIndex reads a series' profile index, whose header
// templates must be below headers.
func decodeSeriesIndex(data []byte, headers int) (*seriesIndex, error) {
	r := reader{b: data}
	x := &seriesIndex{pages: make([]blobRef, r.count(7))}
	for i := range x.pages {
		x.pages[i] = r.blobRef()
	}
	x.entries = make([]entry, r.count(15))
	prev := int64(0)
	for i := range x.entries {
		e := &x.entries[i]
		e.time = prev + r.int()
		if e.time < prev && i > 0 && r.err == nil {
			r.failf("profiles not in time order")
		}
		prev = e.time
		e.timeNanos = e.time + r.int()
		e.duration = r.int()
		e.header = r.ordinal(headers, "header")
		e.id = r.hash()
		e.page = int32(r.ordinal(len(x.pages), "page"))
		e.off = int64(r.ordinal(maxBlob, "offset"))
		e.totals = make([]int64, r.count(1))
		for j := range e.totals {
			e.totals[j] = r.int()
		}
	}
	if err := r.done("profile index"); err != nil {
		return nil, err
	}
	return x, nil
}
