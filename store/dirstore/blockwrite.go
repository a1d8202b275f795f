package dirstore

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/perflab/perflab/store"
)

// pageBytes is the size of encoded samples at which a series' page is
// written: a query for a few profiles decompresses little more.
const pageBytes = 64 << 10

// idsPerPage is the number of profile IDs in a page of a block's ID
// table.
const idsPerPage = 4096

// A profileRec is one profile given to a blockWriter: its times, header
// template and ID, and its samples numbered as its section's dictionary
// numbers parts, sorted.
type profileRec struct {
	time, timeNanos, duration int64
	header                    uint32
	id                        store.Hash
	rows                      *rows
}

// An idEntry is one row of a block's ID table.
type idEntry struct {
	id        store.Hash
	slot, pos uint32
}

// A blockWriter writes a block and its rollup file under temporary
// names, section by section and series by series, then renames them.
type blockWriter struct {
	dir        string
	meta       *blockMeta
	blk, rlp   *fileWriter
	rollupDirs []blobRef
	ids        []idEntry
	sec        *sectionMeta
	headers    []store.Header // of the section being written
	hook       func(string)
}

func blockName(id uint64) string  { return fmt.Sprintf("%016x.blk", id) }
func rollupName(id uint64) string { return fmt.Sprintf("%016x.rlp", id) }

// newBlockWriter starts block id of partition day in dir.
func newBlockWriter(dir string, id uint64, day int64, level int, sources []sourceRef, hook func(string)) (*blockWriter, error) {
	if _, err := os.Stat(dir); err != nil {
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return nil, err
		}
		if err := syncDir(filepath.Dir(dir)); err != nil {
			return nil, err
		}
	}
	w := &blockWriter{dir: dir, meta: &blockMeta{id: id, day: day, level: level, sources: sources}, hook: hook}
	var err error
	if w.blk, err = createFile(filepath.Join(dir, blockName(id)+".tmp"), blockMagic); err != nil {
		return nil, err
	}
	if w.rlp, err = createFile(filepath.Join(dir, rollupName(id)+".tmp"), rollupMagic); err != nil {
		w.blk.abort()
		return nil, err
	}
	return w, nil
}

// section starts the section of service, whose parts d holds.
func (w *blockWriter) section(service string, d *dict) error {
	w.sec = &sectionMeta{service: service, dict: w.blk.blob(d.encode())}
	w.meta.sections = append(w.meta.sections, w.sec)
	w.headers = make([]store.Header, len(d.headers))
	for i := range d.headers {
		h, err := d.header(i)
		if err != nil {
			return err
		}
		w.headers[i] = h
		l := layoutOf(&h)
		j := slices.IndexFunc(w.sec.layouts, l.equal)
		if j < 0 {
			j = len(w.sec.layouts)
			w.sec.layouts = append(w.sec.layouts, l)
		}
		w.sec.headerLayout = append(w.sec.headerLayout, uint32(j))
	}
	return nil
}

// series writes the series labels, whose profiles each yields in time
// order (then by ID).
func (w *blockWriter) series(labels store.Labels, each func(yield func(*profileRec) error) error) error {
	bs := &blockSeries{slot: len(w.rollupDirs), labels: labels}
	var idx seriesIndex
	var page buf
	ru := newRollupBuilder(w.rlp)
	err := each(func(p *profileRec) error {
		if int(p.header) >= len(w.headers) {
			return fmt.Errorf("header template %d of %d: %w", p.header, len(w.headers), ErrCorrupt)
		}
		h := &w.headers[p.header]
		if p.rows.ncol != len(h.SampleTypes) {
			return fmt.Errorf("profile %s: %d columns for %d sample types: %w", p.id, p.rows.ncol, len(h.SampleTypes), ErrCorrupt)
		}
		if len(page) >= pageBytes {
			idx.pages = append(idx.pages, w.blk.blob(page))
			page = page[:0]
		}
		idx.entries = append(idx.entries, entry{
			time: p.time, timeNanos: p.timeNanos, duration: p.duration, header: p.header, id: p.id,
			page: int32(len(idx.pages)), off: int64(len(page)), totals: columnTotals(p.rows),
		})
		page.rows(p.rows)
		w.ids = append(w.ids, idEntry{p.id, uint32(bs.slot), uint32(len(idx.entries) - 1)})
		ru.add(p, h)
		if l := w.sec.headerLayout[p.header]; !slices.Contains(bs.layouts, l) {
			bs.layouts = append(bs.layouts, l)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(idx.entries) == 0 {
		return nil
	}
	if len(page) > 0 {
		idx.pages = append(idx.pages, w.blk.blob(page))
	}
	bs.minT, bs.maxT, bs.count = idx.entries[0].time, idx.entries[len(idx.entries)-1].time, len(idx.entries)
	slices.Sort(bs.layouts)
	var ib buf
	ib.seriesIndex(&idx)
	bs.index = w.blk.blob(ib)
	w.rollupDirs = append(w.rollupDirs, ru.finish())
	w.sec.series = append(w.sec.series, bs)
	return nil
}

// columnTotals returns the sum of each column of rs.
func columnTotals(rs *rows) []int64 {
	t := make([]int64, rs.ncol)
	for i := range rs.len() {
		for c, v := range rs.row(i) {
			t[c] += v
		}
	}
	return t
}

// finish writes the ID table and the indexes, syncs both files and
// renames them to their names, the block first: a block without its
// rollup file is whole, and gets its rollups rebuilt.
func (w *blockWriter) finish() error {
	slices.SortFunc(w.ids, func(a, b idEntry) int {
		return cmp.Or(cmp.Compare(a.id, b.id), cmp.Compare(a.slot, b.slot), cmp.Compare(a.pos, b.pos))
	})
	for len(w.ids) > 0 {
		n := min(len(w.ids), idsPerPage)
		var p buf
		for _, e := range w.ids[:n] {
			p.hash(e.id)
			p.u32(e.slot)
			p.u32(e.pos)
		}
		w.meta.idPages = append(w.meta.idPages, idPage{first: w.ids[0].id, ref: w.blk.blob(p)})
		w.ids = w.ids[n:]
	}
	var idx buf
	idx.blockMeta(w.meta)
	if err := w.blk.finish(idx); err != nil {
		w.rlp.abort()
		os.Remove(w.blk.path)
		return err
	}
	var ri buf
	ri.uint(formatV1)
	ri.uint(w.meta.id)
	ri.uint(uint64(len(w.rollupDirs)))
	for _, r := range w.rollupDirs {
		ri.blobRef(r)
	}
	if err := w.rlp.finish(ri); err != nil {
		os.Remove(w.blk.path)
		os.Remove(w.rlp.path)
		return err
	}
	if err := os.Rename(w.blk.path, filepath.Join(w.dir, blockName(w.meta.id))); err != nil {
		os.Remove(w.blk.path)
		os.Remove(w.rlp.path)
		return err
	}
	w.hook("renamed") // the block is there, and its rollups not yet
	if err := os.Rename(w.rlp.path, filepath.Join(w.dir, rollupName(w.meta.id))); err != nil {
		os.Remove(w.rlp.path)
	}
	return syncDir(w.dir)
}

// abort removes what w wrote.
func (w *blockWriter) abort() {
	w.blk.abort()
	w.rlp.abort()
}
