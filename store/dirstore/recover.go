package dirstore

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perflab/perflab/store"
)

// recover reads what the directory holds when the store opens: the
// blocks of every partition, then the WAL, whose segments it replays into
// the head. A compaction or merge that a crash interrupted is undone or
// finished here: temporary files are removed, blocks merged into another
// are removed, and blocks compacted from a segment that still exists are
// removed (the segment is compacted again).
func (s *Store) recover() error {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, dropSuffix) {
			os.RemoveAll(filepath.Join(s.dir, name))
			continue
		}
		t, err := time.Parse(time.DateOnly, name)
		if err != nil || !e.IsDir() || dayName(dayOf(t.UnixNano())) != name {
			continue // not a partition: leave it alone
		}
		if err := s.loadPartition(dayOf(t.UnixNano())); err != nil {
			return err
		}
	}
	nums, err := s.segmentNumbers()
	if err != nil {
		return err
	}
	s.dropReplaced(nums)
	for _, p := range s.partitions {
		for _, b := range p.blocks {
			s.addBlock(b)
		}
	}
	for i, num := range nums {
		if err := s.replay(num, i == len(nums)-1); err != nil {
			return err
		}
		s.nextID = max(s.nextID, num+1)
	}
	return nil
}

const dropSuffix = ".drop"

// loadPartition opens the blocks of the partition of day.
func (s *Store) loadPartition(day int64) error {
	p := s.partition(day)
	entries, err := os.ReadDir(p.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		path := filepath.Join(p.dir, e.Name())
		switch name := e.Name(); {
		case strings.HasSuffix(name, ".tmp"):
			os.Remove(path) // a compaction the process did not finish
		case strings.HasSuffix(name, ".blk"):
			b, err := openBlock(path)
			if err != nil {
				return err
			}
			p.blocks = append(p.blocks, b)
			s.nextID = max(s.nextID, b.meta.id+1)
		case strings.HasSuffix(name, ".rlp"):
			id, err := strconv.ParseUint(strings.TrimSuffix(name, ".rlp"), 16, 64)
			if err != nil || !fileExists(filepath.Join(p.dir, blockName(id))) {
				os.Remove(path) // the rollups of a block removed
			}
		}
	}
	slices.SortFunc(p.blocks, func(a, b *block) int { return cmp.Compare(a.meta.id, b.meta.id) })
	for _, b := range p.blocks {
		if err := b.openRollups(); err != nil {
			s.logf("%v: the block's rollups will be rebuilt", err)
		}
	}
	return nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// segmentNumbers lists the WAL's segments, oldest first, removing
// temporary files.
func (s *Store) segmentNumbers() ([]uint64, error) {
	entries, err := os.ReadDir(s.walDir)
	if err != nil {
		return nil, err
	}
	var nums []uint64
	for _, e := range entries {
		num, err := strconv.ParseUint(strings.TrimSuffix(e.Name(), ".wal"), 16, 64)
		if err != nil || e.Name() != segmentName(num) {
			continue
		}
		nums = append(nums, num)
	}
	slices.Sort(nums)
	return nums, nil
}

// dropReplaced removes the blocks that another block replaces (the
// inputs of a merge), and those compacted from a segment of the WAL that
// still exists.
func (s *Store) dropReplaced(segments []uint64) {
	for _, p := range s.partitions {
		merged := map[uint64]bool{}
		for _, b := range p.blocks {
			for _, src := range b.meta.sources {
				if !src.wal {
					merged[src.num] = true
				}
			}
		}
		p.blocks = slices.DeleteFunc(p.blocks, func(b *block) bool {
			redo := slices.ContainsFunc(b.meta.sources, func(src sourceRef) bool {
				return src.wal && slices.Contains(segments, src.num)
			})
			if merged[b.meta.id] || redo {
				b.obsolete.Store(true)
				b.clean()
				return true
			}
			return false
		})
	}
}

// addBlock makes b part of the store's state: its series are counted;
// the caller holds s.mu, or has the store to itself.
func (s *Store) addBlock(b *block) {
	b.series = make([]*series, len(b.slots))
	for i, bs := range b.slots {
		ser := s.seriesOf(bs.labels)
		ser.refs++
		bs.labels = ser.labels
		b.series[i] = ser
	}
	s.newest = max(s.newest, b.maxT)
	b.onClean = func() { s.cache.forget(b) }
}

// replay reads segment num into the head; a write cut short at the end
// of the last segment is dropped, anywhere else it is an error.
func (s *Store) replay(num uint64, last bool) error {
	path := filepath.Join(s.walDir, segmentName(num))
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	g := newSegment(s.walDir, num, f, fi.Size())
	rp := &replayer{s: s, g: g}
	err = readChunks(f, fi.Size(), func(off int64, payload []byte) error {
		return readRecords(payload, off, rp)
	})
	if t, ok := isTorn(err); ok && last {
		s.logf("%s: dropped a write cut short by a crash: %d bytes %v", path, fi.Size()-t.off, t)
		err = f.Truncate(t.off)
		g.size = t.off
		if err == nil {
			err = f.Sync()
		}
	}
	if _, ok := isTorn(err); ok {
		err = fmt.Errorf("%w, and it is not the last segment: %w", err, ErrCorrupt)
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if g.size < int64(len(walMagic)) {
		f.Close()
		return os.Remove(path)
	}
	s.segments = append(s.segments, g)
	s.head += g.mem
	return nil
}

// A replayer applies a segment's records to the store.
type replayer struct {
	s  *Store
	g  *segment
	rs rows
}

func (r *replayer) series(ls store.Labels) error {
	ser := r.s.seriesOf(ls)
	if _, ok := r.g.seriesOrd[ser]; !ok {
		r.g.seriesOrd[ser] = uint32(len(r.g.series))
	}
	r.g.series = append(r.g.series, ser)
	r.g.mem += seriesMem
	return nil
}

func (r *replayer) part(k kind, enc []byte) error {
	p, err := decodePart(k, enc)
	if err != nil {
		return fmt.Errorf("%w: %w", err, ErrCorrupt)
	}
	r.g.addPart(k, p.(part).Hash(), p)
	r.g.mem += int64(len(enc) + partMem)
	return nil
}

func (r *replayer) header(enc []byte) error {
	h, err := store.DecodeHeader(enc)
	if err != nil {
		return fmt.Errorf("%w: %w", err, ErrCorrupt)
	}
	r.g.headerOrd[string(enc)] = uint32(len(r.g.headers))
	r.g.headers = append(r.g.headers, h)
	r.g.mem += int64(2*len(enc) + partMem)
	return nil
}

func (r *replayer) profile(p *walProfile, samples []byte) error {
	g := r.g
	if int(p.series) >= len(g.series) || int(p.header) >= len(g.headers) {
		return fmt.Errorf("profile of series %d and header %d: not defined before: %w", p.series, p.header, ErrCorrupt)
	}
	rd := reader{b: samples}
	rd.rows(&r.rs, len(g.headers[p.header].SampleTypes))
	if err := rd.done("samples"); err != nil {
		return err
	}
	for i := range r.rs.len() {
		if int(r.rs.stacks[i]) >= len(g.byOrd[kindStack]) || int(r.rs.labels[i]) > len(g.byOrd[kindLabelSet]) {
			return fmt.Errorf("samples of profile %016x: a part not defined before: %w", p.id, ErrCorrupt)
		}
	}
	ser := g.series[p.series]
	e := &headEntry{series: ser, entry: entry{
		time: p.time, timeNanos: p.timeNanos, duration: p.duration, header: p.header, id: store.Hash(p.id),
		page: -1, off: p.off, n: p.n, totals: columnTotals(&r.rs),
	}}
	ser.refs++
	g.entries = append(g.entries, e)
	g.mem += entryMem
	r.s.newest = max(r.s.newest, p.time)
	return nil
}

func (r *replayer) drop(day int64) error {
	r.s.dropHead(day)
	r.g.entries = dropEntries(r.s, r.g.entries, day)
	return r.s.dropPartitions(day)
}
