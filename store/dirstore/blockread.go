package dirstore

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/perflab/perflab/store"
)

// A block is an open block file, and its rollup file when it has a good
// one.
type block struct {
	meta  *blockMeta
	dir   string
	path  string
	f     *os.File
	bytes int64 // of the block file

	slots    []*blockSeries // by slot
	sections []*sectionMeta // by slot
	minT     int64
	maxT     int64
	count    int64

	// rollups is the block's rollup file, nil while it is missing or
	// corrupt (until it is rebuilt).
	rollups atomic.Pointer[rollupFile]
	retired []*rollupFile // given up as corrupt, closed with the block (guarded by retire)
	retire  sync.Mutex
	series  []*series // by slot, once the store has the block

	// walPending is set while the WAL segment the block was compacted
	// from is not removed yet: the block cannot be merged until then (see
	// Store.recover). bad is set when compacting the block failed on a
	// corrupt file: it is not tried again.
	walPending atomic.Bool
	bad        atomic.Bool

	refs     atomic.Int64
	obsolete atomic.Bool
	cleanup  sync.Once
	onClean  func() // after the files are removed
}

// openBlock opens the block file path and reads its index.
func openBlock(path string) (*block, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	b, err := readBlockFile(f, path)
	if err == nil && blockName(b.meta.id) != filepath.Base(path) {
		err = fmt.Errorf("%s: the index names block %s: %w", path, blockName(b.meta.id), ErrCorrupt)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return b, nil
}

func readBlockFile(f *os.File, path string) (*block, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	data, err := readIndex(f, fi.Size(), blockMagic)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	meta, err := decodeBlockMeta(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b := &block{meta: meta, dir: filepath.Dir(path), path: path, f: f, bytes: fi.Size(), minT: 1<<63 - 1, maxT: -1 << 63}
	for _, sec := range meta.sections {
		for _, s := range sec.series {
			b.slots = append(b.slots, s)
			b.sections = append(b.sections, sec)
			b.minT, b.maxT = min(b.minT, s.minT), max(b.maxT, s.maxT)
			b.count += int64(s.count)
		}
	}
	return b, nil
}

// A rollupFile is a block's open rollup file, and the rollup directory
// of each of its series by slot.
type rollupFile struct {
	f     *os.File
	size  int64
	slots []blobRef
}

// openRollups opens the block's rollup file. A missing or corrupt one is
// an error: the caller has it rebuilt.
func (b *block) openRollups() error {
	path := filepath.Join(b.dir, rollupName(b.meta.id))
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	rf := &rollupFile{f: f}
	fi, err := f.Stat()
	if err == nil {
		rf.size = fi.Size()
		err = b.readRollupIndex(rf)
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	b.rollups.Store(rf)
	return nil
}

func (b *block) readRollupIndex(rf *rollupFile) error {
	data, err := readIndex(rf.f, rf.size, rollupMagic)
	if err != nil {
		return err
	}
	id, slots, err := decodeRollupIndex(data)
	switch {
	case err != nil:
		return err
	case id != b.meta.id || len(slots) != len(b.slots):
		return fmt.Errorf("rollups of block %016x with %d series, not of this block: %w", id, len(slots), ErrCorrupt)
	}
	rf.slots = slots
	return nil
}

// size returns the bytes of the block's files.
func (b *block) size() int64 {
	n := b.bytes
	if rf := b.rollups.Load(); rf != nil {
		n += rf.size
	}
	return n
}

// close closes the block's files.
func (b *block) close() {
	b.f.Close()
	if rf := b.rollups.Load(); rf != nil {
		rf.f.Close()
	}
	b.retire.Lock()
	defer b.retire.Unlock()
	for _, rf := range b.retired {
		rf.f.Close()
	}
}

// giveUpRollups stops queries from taking rf, the block's rollups, which
// are corrupt: they read around them until they are rebuilt. Queries
// reading rf now may go on; it is closed with the block. (On Windows, a
// rebuild cannot replace the file while it is open: it is tried again
// later, and works once the store is opened again.)
func (b *block) giveUpRollups(rf *rollupFile) {
	if b.rollups.CompareAndSwap(rf, nil) {
		b.retire.Lock()
		b.retired = append(b.retired, rf)
		b.retire.Unlock()
	}
}

// remove closes the block's files and removes them, once no query uses
// the block any more (see acquire and release).
func (b *block) remove() {
	b.obsolete.Store(true)
	if b.refs.Load() == 0 {
		b.clean()
	}
}

func (b *block) acquire() { b.refs.Add(1) }

func (b *block) release() {
	if b.refs.Add(-1) == 0 && b.obsolete.Load() {
		b.clean()
	}
}

func (b *block) clean() {
	b.cleanup.Do(func() {
		b.close()
		os.Remove(b.path)
		os.Remove(filepath.Join(b.dir, rollupName(b.meta.id)))
		if b.onClean != nil {
			b.onClean()
		}
	})
}

// errorf wraps err with the block's file name.
func (b *block) errorf(err error) error { return fmt.Errorf("%s: %w", b.path, err) }

// seriesIndex reads the profile index of s.
func (b *block) seriesIndex(s *blockSeries) (*seriesIndex, error) {
	data, err := readBlob(b.f, s.index)
	if err != nil {
		return nil, b.errorf(fmt.Errorf("profile index of series %s: %w", s.labels, err))
	}
	x, err := decodeSeriesIndex(data, len(b.sections[s.slot].headerLayout))
	if err != nil {
		return nil, b.errorf(fmt.Errorf("series %s: %w", s.labels, err))
	}
	return x, nil
}

// page reads a page of samples.
func (b *block) page(ref blobRef) ([]byte, error) {
	data, err := readBlob(b.f, ref)
	if err != nil {
		return nil, b.errorf(fmt.Errorf("page: %w", err))
	}
	return data, nil
}

// readDict reads the dictionary of sec.
func (b *block) readDict(sec *sectionMeta) (*dict, error) {
	data, err := readBlob(b.f, sec.dict)
	if err == nil {
		var d *dict
		if d, err = decodeDict(data); err == nil {
			if len(d.headers) != len(sec.headerLayout) {
				return nil, b.errorf(fmt.Errorf("dictionary of %d header templates, the index has %d: %w", len(d.headers), len(sec.headerLayout), ErrCorrupt))
			}
			return d, nil
		}
	}
	return nil, b.errorf(fmt.Errorf("dictionary of service %q: %w", sec.service, err))
}

// rollupDir reads the rollup directory of the series in slot, or nil
// when it has none.
func (b *block) rollupDir(rf *rollupFile, slot int) ([]rollupMeta, error) {
	if rf.slots[slot].n == 0 {
		return nil, nil
	}
	data, err := readBlob(rf.f, rf.slots[slot])
	if err == nil {
		var rs []rollupMeta
		if rs, err = decodeRollupDir(data, len(b.sections[slot].headerLayout)); err == nil {
			return rs, nil
		}
	}
	return nil, fmt.Errorf("%s: rollups of series %s: %w", filepath.Join(b.dir, rollupName(b.meta.id)), b.slots[slot].labels, err)
}

// rollup reads a rollup's content.
func (b *block) rollup(rf *rollupFile, slot int, m *rollupMeta) (*rollupData, error) {
	data, err := readBlob(rf.f, m.data)
	if err == nil {
		var d *rollupData
		if d, err = decodeRollupData(data); err == nil {
			return d, nil
		}
	}
	return nil, fmt.Errorf("%s: rollup of series %s: %w", filepath.Join(b.dir, rollupName(b.meta.id)), b.slots[slot].labels, err)
}

// findID returns the slots and positions of the profiles with ID id.
func (b *block) findID(id store.Hash) ([]idEntry, error) {
	pages := b.meta.idPages
	i, _ := slices.BinarySearchFunc(pages, id, func(p idPage, id store.Hash) int {
		if p.first < id {
			return -1
		}
		if p.first > id {
			return 1
		}
		return 0
	})
	// The ID may be in the page before the first whose first ID is id,
	// and, when written several times, run on over several pages.
	var found []idEntry
	for j := max(i-1, 0); j < len(pages) && pages[j].first <= id; j++ {
		data, err := readBlob(b.f, pages[j].ref)
		if err != nil {
			return nil, b.errorf(fmt.Errorf("ID table: %w", err))
		}
		if len(data)%16 != 0 {
			return nil, b.errorf(fmt.Errorf("ID table page of %d bytes: %w", len(data), ErrCorrupt))
		}
		for r := (reader{b: data}); len(r.b) > 0; {
			e := idEntry{id: r.hash(), slot: r.u32(), pos: r.u32()}
			if e.id == id && int(e.slot) < len(b.slots) && int(e.pos) < b.slots[e.slot].count {
				found = append(found, e)
			}
		}
	}
	return found, nil
}

// columns returns the number of columns of the values of a profile of
// header template h in section sec.
func (sec *sectionMeta) columns(h uint32) int {
	return len(sec.layouts[sec.headerLayout[h]].SampleTypes)
}

// A pageReader reads the samples of a series' profiles in a block,
// keeping the page it read last.
type pageReader struct {
	b    *block
	sec  *sectionMeta
	x    *seriesIndex
	no   int32
	page []byte
}

func newPageReader(b *block, slot int, x *seriesIndex) *pageReader {
	return &pageReader{b: b, sec: b.sections[slot], x: x, no: -1}
}

// rows reads the samples of e into rs.
func (pr *pageReader) rows(e *entry, rs *rows) error {
	if e.page != pr.no {
		page, err := pr.b.page(pr.x.pages[e.page])
		if err != nil {
			return err
		}
		pr.page, pr.no = page, e.page
	}
	if e.off > int64(len(pr.page)) {
		return pr.b.errorf(fmt.Errorf("profile %s at offset %d of a page of %d bytes: %w", e.id, e.off, len(pr.page), ErrCorrupt))
	}
	r := reader{b: pr.page[e.off:]}
	r.rows(rs, pr.sec.columns(e.header))
	if err := r.check("samples"); err != nil {
		return pr.b.errorf(fmt.Errorf("profile %s: %w", e.id, err))
	}
	return nil
}

// eachProfile calls fn with every profile of the series in slot, in
// order, and its samples; rs is reused from one call to the next.
func (b *block) eachProfile(slot int, fn func(e *entry, rs *rows) error) error {
	x, err := b.seriesIndex(b.slots[slot])
	if err != nil {
		return err
	}
	pr := newPageReader(b, slot, x)
	var rs rows
	for i := range x.entries {
		e := &x.entries[i]
		if err := pr.rows(e, &rs); err != nil {
			return err
		}
		if err := fn(e, &rs); err != nil {
			return err
		}
	}
	return nil
}
