package dirstore

import (
	"cmp"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"

	"github.com/perflab/perflab/store"
)

// A badBlock is the error of a compaction that found a block corrupt.
type badBlock struct {
	b   *block
	err error
}

func (e *badBlock) Error() string { return e.err.Error() }
func (e *badBlock) Unwrap() error { return e.err }

// culprit marks the block that made err corrupt, so that it is not tried
// again, and tells the log.
func (s *Store) culprit(err error) error {
	var bad *badBlock
	if errors.As(err, &bad) && errors.Is(err, ErrCorrupt) {
		bad.b.bad.Store(true)
		s.logf("%v: the block is left as it is, and its rollups are not rebuilt", err)
		return nil
	}
	return err
}

// mergeBlocks merges the blocks in of partition p into one, which
// replaces them.
func (s *Store) mergeBlocks(ctx context.Context, p *partition, in []*block) error {
	s.mu.Lock()
	id := s.newID()
	s.mu.Unlock()
	level := 0
	sources := make([]sourceRef, len(in))
	for i, b := range in {
		level = max(level, b.meta.level+1)
		sources[i] = sourceRef{num: b.meta.id}
	}
	w, err := newBlockWriter(p.dir, id, p.day, level, sources, s.opts.hook)
	if err != nil {
		return err
	}
	if err := writeMerged(ctx, w, in); err != nil {
		w.abort()
		return s.culprit(err)
	}
	if err := w.finish(); err != nil {
		return err
	}
	nb, err := openWritten(p.dir, id)
	if err != nil {
		return err
	}
	s.opts.hook("merged") // the block is there, and the blocks it merges still
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addBlock(nb)
	p.blocks = slices.DeleteFunc(p.blocks, func(b *block) bool { return slices.Contains(in, b) })
	p.blocks = append(p.blocks, nb)
	for _, b := range in {
		for _, ser := range b.series {
			s.unref(ser, 1)
		}
		b.remove()
	}
	s.wakeCompactor()
	return nil
}

// A mergeInput is a section of a block being merged.
type mergeInput struct {
	b   *block
	sec *sectionMeta
	rm  *remapping
}

// writeMerged writes the sections of the blocks in into w, merging the
// sections of each service and the profiles of each series.
func writeMerged(ctx context.Context, w *blockWriter, in []*block) error {
	services := map[string][]*mergeInput{}
	for _, b := range in {
		for _, sec := range b.meta.sections {
			services[sec.service] = append(services[sec.service], &mergeInput{b: b, sec: sec})
		}
	}
	for _, svc := range sortedKeys(services) {
		ins := services[svc]
		d, err := mergeDicts(ins)
		if err != nil {
			return err
		}
		if err := w.section(svc, d); err != nil {
			return err
		}
		type part struct {
			in *mergeInput
			bs *blockSeries
		}
		series := map[string][]part{}
		var labels []store.Labels
		for _, x := range ins {
			for _, bs := range x.sec.series {
				key := bs.labels.String()
				if series[key] == nil {
					labels = append(labels, bs.labels)
				}
				series[key] = append(series[key], part{x, bs})
			}
		}
		slices.SortFunc(labels, store.Labels.Compare)
		for _, ls := range labels {
			if err := ctx.Err(); err != nil {
				return err
			}
			var curs []*cursor
			for _, pt := range series[ls.String()] {
				c, err := newCursor(pt.in, pt.bs)
				if err != nil {
					return err
				}
				curs = append(curs, c)
			}
			if err := w.series(ls, mergeProfiles(curs)); err != nil {
				return err
			}
		}
	}
	return nil
}

// mergeDicts returns the union of the dictionaries of ins, and sets how
// each is renumbered.
func mergeDicts(ins []*mergeInput) (*dict, error) {
	db := newDictBuilder()
	dicts := make([]*dict, len(ins))
	headers := make([]map[uint32]uint32, len(ins))
	for i, x := range ins {
		d, err := x.b.readDict(x.sec)
		if err != nil {
			return nil, &badBlock{x.b, err}
		}
		dicts[i] = d
		for k := range numKinds {
			for j, h := range d.hashes[k] {
				if !db.has(k, h) {
					db.add(k, h, d.encs[k][j])
				}
			}
		}
		headers[i] = map[uint32]uint32{}
		for j, enc := range d.headers {
			headers[i][uint32(j)] = uint32(db.header(enc))
		}
	}
	nd := db.build()
	for i, x := range ins {
		d := dicts[i]
		x.rm = &remapping{dict: nd, headers: headers[i], stacks: map[uint32]uint32{}, labels: map[uint32]uint32{0: 0}}
		for j, h := range d.hashes[kindStack] {
			o, _ := nd.ordinal(kindStack, h)
			x.rm.stacks[uint32(j)] = uint32(o)
		}
		for j, h := range d.hashes[kindLabelSet] {
			o, _ := nd.ordinal(kindLabelSet, h)
			x.rm.labels[uint32(j)+1] = uint32(o) + 1
		}
	}
	return nd, nil
}

// A cursor reads the profiles of a series in a block being merged.
type cursor struct {
	in *mergeInput
	x  *seriesIndex
	pr *pageReader
	i  int
}

func newCursor(in *mergeInput, bs *blockSeries) (*cursor, error) {
	x, err := in.b.seriesIndex(bs)
	if err != nil {
		return nil, &badBlock{in.b, err}
	}
	return &cursor{in: in, x: x, pr: newPageReader(in.b, bs.slot, x)}, nil
}

// mergeProfiles yields the profiles of curs in time order, then by ID.
func mergeProfiles(curs []*cursor) func(yield func(*profileRec) error) error {
	return func(yield func(*profileRec) error) error {
		var rs, out rows
		for {
			var c *cursor
			for _, d := range curs {
				if d.i < len(d.x.entries) && (c == nil || compareEntries(&d.x.entries[d.i], &c.x.entries[c.i]) < 0) {
					c = d
				}
			}
			if c == nil {
				return nil
			}
			e := &c.x.entries[c.i]
			c.i++
			if err := c.pr.rows(e, &rs); err != nil {
				return &badBlock{c.in.b, err}
			}
			if err := c.in.rm.remap(&rs, &out); err != nil {
				return &badBlock{c.in.b, c.in.b.errorf(err)}
			}
			p := &profileRec{time: e.time, timeNanos: e.timeNanos, duration: e.duration, header: c.in.rm.headers[e.header], id: e.id, rows: &out}
			if err := yield(p); err != nil {
				return err
			}
		}
	}
}

func compareEntries(a, b *entry) int {
	return cmp.Or(cmp.Compare(a.time, b.time), cmp.Compare(a.id, b.id))
}

// rebuildRollups writes the rollup file of b again from its profiles.
func (s *Store) rebuildRollups(ctx context.Context, b *block) error {
	path := filepath.Join(b.dir, rollupName(b.meta.id))
	os.Remove(path + ".tmp")
	w, err := createFile(path+".tmp", rollupMagic)
	if err != nil {
		return err
	}
	dirs, err := rollupsOf(ctx, b, w)
	if err != nil {
		w.abort()
		return s.culprit(&badBlock{b, err})
	}
	var idx buf
	idx.uint(formatV1)
	idx.uint(b.meta.id)
	idx.uint(uint64(len(dirs)))
	for _, d := range dirs {
		idx.blobRef(d)
	}
	if err := w.finish(idx); err != nil {
		os.Remove(w.path)
		return err
	}
	if err := os.Rename(w.path, path); err != nil {
		os.Remove(w.path)
		return err
	}
	if err := syncDir(b.dir); err != nil {
		return err
	}
	if err := b.openRollups(); err != nil {
		return err
	}
	s.logf("%s: rollups rebuilt from the block's profiles", path)
	return nil
}

// rollupsOf writes the rollups of every series of b with w, and returns
// their directories by slot.
func rollupsOf(ctx context.Context, b *block, w *fileWriter) ([]blobRef, error) {
	var dirs []blobRef
	headers := map[*sectionMeta][]store.Header{}
	for slot, sec := range b.sections {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hs, ok := headers[sec]
		if !ok {
			d, err := b.readDict(sec)
			if err != nil {
				return nil, err
			}
			for i := range d.headers {
				h, err := d.header(i)
				if err != nil {
					return nil, b.errorf(err)
				}
				hs = append(hs, h)
			}
			headers[sec] = hs
		}
		ru := newRollupBuilder(w)
		err := b.eachProfile(slot, func(e *entry, rs *rows) error {
			ru.add(&profileRec{time: e.time, timeNanos: e.timeNanos, duration: e.duration, header: e.header, id: e.id, rows: rs}, &hs[e.header])
			return nil
		})
		if err != nil {
			return nil, err
		}
		dirs = append(dirs, ru.finish())
	}
	return dirs, nil
}
