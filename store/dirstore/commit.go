package dirstore

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/perflab/perflab/store"
)

// A batch is what one Write (or DropBefore, or Compact) asks the
// committer to make durable.
type batch struct {
	ps   []*prepared
	mem  int64  // of memory reserved for it
	drop *int64 // a DropBefore record: the first day kept
	seal bool   // close the active segment
	err  error
	done chan struct{}
}

// Write stores ps, all or none, and returns once they are durable: in a
// WAL chunk synced to disk, shared with the other Writes waiting at the
// time (group commit). It returns an error wrapping store.ErrLimit when a
// profile breaks a limit (see store.Limits) or the batch alone takes more
// memory than the budget, store.ErrInvalid when a profile is not valid,
// and store.ErrBusy when the writes waiting and the WAL not yet compacted
// hold more than the memory budget, or compaction is behind.
func (s *Store) Write(ctx context.Context, ps ...store.Profile) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(ps) == 0 {
		return nil
	}
	b := &batch{ps: make([]*prepared, len(ps)), done: make(chan struct{})}
	news := map[string]bool{}
	for i, p := range ps {
		x, err := s.prepare(p)
		if err == nil {
			err = s.checkSeries(x.labels, news)
		}
		if err != nil {
			return fmt.Errorf("profile %d of %d: %w", i+1, len(ps), err)
		}
		b.ps[i] = x
		b.mem += splitMem(x.split)
	}
	if err := s.reserve(b.mem); err != nil {
		return err
	}
	if err := s.enqueue(b); err != nil {
		s.mu.Lock()
		s.pending -= b.mem
		s.mu.Unlock()
		return err
	}
	<-b.done
	return b.err
}

// prepare checks and splits p, as every store does (see store.Prepare).
func (s *Store) prepare(p store.Profile) (*prepared, error) {
	x, err := store.Prepare(p, s.opts.Limits)
	if err != nil {
		return nil, err
	}
	id, err := store.ParseHash(x.ID)
	if err != nil {
		return nil, err
	}
	return &prepared{labels: x.Labels, time: x.Time.UnixNano(), split: x.Split, id: id}, nil
}

// checkSeries tells whether the series labels, with the new series of
// the batch so far, would be over MaxSeries now; the committer checks
// again, as writes of others may come first.
func (s *Store) checkSeries(labels store.Labels, news map[string]bool) error {
	key := labels.String()
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.series[key] == nil {
		news[key] = true
	}
	if n := len(s.series) + len(news); n > s.opts.Limits.MaxSeries {
		return fmt.Errorf("series %s: more than the limit of %d series: %w", labels, s.opts.Limits.MaxSeries, store.ErrLimit)
	}
	return nil
}

// splitMem returns roughly the bytes of memory sp takes.
func splitMem(sp *store.SplitProfile) int64 {
	ps := sp.Parts
	n := int64(256 + len(sp.Samples)*(48+8*len(sp.Header.SampleTypes)))
	for _, st := range ps.Stacks {
		n += 64 + 8*int64(len(st))
	}
	n += int64(len(ps.Locations))*120 + int64(len(ps.Functions))*160 + int64(len(ps.Mappings))*200 + int64(len(ps.LabelSets))*120
	return n
}

// maxSealed bounds the WAL segments waiting for compaction: beyond it,
// writes wait for compaction to catch up.
const maxSealed = 8

// reserve takes mem bytes of the memory budget for a write.
func (s *Store) reserve(mem int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	budget := s.opts.Limits.MemoryBudget
	switch {
	case s.closed:
		return errClosed
	case s.failed != nil:
		return s.failed
	case mem > budget:
		return fmt.Errorf("a write of %d bytes in memory, more than the memory budget of %d: %w", mem, budget, store.ErrLimit)
	case s.pending+s.head+mem > budget:
		return fmt.Errorf("store %s: %d bytes of writes waiting and %d of the WAL not yet compacted, over the memory budget of %d: %w", s.dir, s.pending, s.head, budget, store.ErrBusy)
	case len(s.segments) > maxSealed:
		return fmt.Errorf("store %s: %d WAL segments wait for compaction, which is behind: %w", s.dir, len(s.segments)-1, store.ErrBusy)
	}
	s.pending += mem
	return nil
}

// enqueue gives b to the committer.
func (s *Store) enqueue(b *batch) error {
	s.qmu.Lock()
	if s.qclose {
		s.qmu.Unlock()
		return errClosed
	}
	s.queue = append(s.queue, b)
	s.qmu.Unlock()
	s.wake()
	return nil
}

func (s *Store) wake() {
	select {
	case s.qwake <- struct{}{}:
	default:
	}
}

// committer commits the batches waiting, all at once, until the store
// closes; it seals the active segment when it grows old.
func (s *Store) committer() {
	defer s.done.Done()
	tick := time.NewTicker(max(s.opts.SegmentAge/4, 10*time.Millisecond))
	defer tick.Stop()
	for {
		s.qmu.Lock()
		group, closing := s.queue, s.qclose
		s.queue = nil
		s.qmu.Unlock()
		if len(group) > 0 {
			s.commit(group)
			continue
		}
		if closing {
			return
		}
		select {
		case <-s.qwake:
		case <-tick.C:
			s.mu.Lock()
			if g := s.active; g != nil && len(g.entries) > 0 && time.Since(g.born) >= s.opts.SegmentAge {
				s.seal()
			}
			s.mu.Unlock()
		}
	}
}

// commit writes the records of a group of batches in one chunk of the
// active segment, syncs it, and then makes the profiles visible.
func (s *Store) commit(group []*batch) {
	defer func() {
		for _, b := range group {
			close(b.done)
		}
	}()
	s.mu.Lock()
	c, err := s.encodeGroup(group)
	s.mu.Unlock()
	if c != nil && err == nil {
		s.opts.hook("commit " + strconv.Itoa(len(group)))
		err = writeChunk(c.g.f, c.off, c.chunk)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range group {
		s.pending -= b.mem
	}
	switch {
	case err != nil:
		if c != nil {
			s.failed = fmt.Errorf("store %s: writing %s: %w", s.dir, c.g.path, err)
			err = s.failed
		}
		s.failAll(group, err)
	case c != nil:
		s.publish(group, c)
	}
	if s.active != nil && (c == nil || s.active.size >= s.opts.SegmentBytes || s.active.mem >= s.opts.Limits.MemoryBudget/4 ||
		slices.ContainsFunc(group, func(b *batch) bool { return b.seal })) {
		s.seal()
	}
}

// A chunk is a group's records, encoded for a segment.
type chunk struct {
	g     *segment
	off   int64
	chunk buf
	news  [][]*headEntry // of each batch
	mem   int64
}

// encodeGroup encodes the records of the batches of group that pass the
// series limit; nil when the group asks for nothing to be written. The
// caller holds s.mu.
func (s *Store) encodeGroup(group []*batch) (*chunk, error) {
	if !slices.ContainsFunc(group, func(b *batch) bool { return !b.seal }) {
		return nil, nil
	}
	g, err := s.activeSegment()
	if err != nil {
		return nil, err
	}
	c := &chunk{g: g, off: g.size, chunk: make(buf, chunkHeader, 64<<10), news: make([][]*headEntry, len(group))}
	for i, b := range group {
		switch {
		case b.seal:
		case b.drop != nil:
			c.chunk.byte(recDrop)
			c.chunk.int(*b.drop)
		default:
			if b.err = s.admit(b); b.err != nil {
				continue
			}
			for _, p := range b.ps {
				e, m := g.encode(&c.chunk, p)
				c.news[i] = append(c.news[i], e)
				c.mem += m
			}
		}
	}
	return c, nil
}

// publish makes the profiles of a chunk synced visible, in the WAL's
// order; the caller holds s.mu.
func (s *Store) publish(group []*batch, c *chunk) {
	c.g.size += int64(len(c.chunk))
	for i, b := range group {
		if b.drop != nil { // as replaying the WAL drops
			s.dropHead(*b.drop)
		}
		for _, e := range c.news[i] {
			c.g.entries = append(c.g.entries, e)
			s.newest = max(s.newest, e.time)
		}
	}
	c.g.mem += c.mem
	s.head += c.mem
}

// failAll fails the batches of group not failed yet.
func (s *Store) failAll(group []*batch, err error) {
	for _, b := range group {
		if b.err == nil {
			b.err = err
		}
	}
}

// admit checks the series limit for b, and counts its profiles in their
// series; the caller holds s.mu.
func (s *Store) admit(b *batch) error {
	news := map[string]bool{}
	for _, p := range b.ps {
		key := p.labels.String()
		if s.series[key] == nil {
			news[key] = true
		}
		if n := len(s.series) + len(news); n > s.opts.Limits.MaxSeries {
			return fmt.Errorf("series %s: more than the limit of %d series: %w", p.labels, s.opts.Limits.MaxSeries, store.ErrLimit)
		}
	}
	for _, p := range b.ps {
		p.series = s.seriesOf(p.labels)
		p.series.refs++
	}
	return nil
}

// activeSegment returns the segment written to, creating one; the caller
// holds s.mu.
func (s *Store) activeSegment() (*segment, error) {
	if s.failed != nil {
		return nil, s.failed
	}
	if s.active != nil {
		return s.active, nil
	}
	num := s.nextID
	f, err := createSegment(s.walDir, num)
	if err != nil {
		s.failed = fmt.Errorf("store %s: %w", s.dir, err)
		return nil, s.failed
	}
	s.nextID++
	s.active = newSegment(s.walDir, num, f, int64(len(walMagic)))
	s.segments = append(s.segments, s.active)
	return s.active, nil
}

// seal closes the active segment to writes, for compaction; the caller
// holds s.mu.
func (s *Store) seal() {
	s.active = nil
	s.wakeCompactor()
}

// Compact closes the WAL segment being written to, compacts the WAL into
// blocks, rebuilds missing rollups and merges the blocks it can, and
// returns when nothing is left to do. The store does all that in the
// background; Compact is for a benchmark or a test that wants it done.
func (s *Store) Compact(ctx context.Context) error {
	b := &batch{seal: true, done: make(chan struct{})}
	if err := s.enqueue(b); err != nil {
		return err
	}
	<-b.done
	if b.err != nil {
		return b.err
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.compactMu.Lock()
		job := s.nextJob()
		if job == nil {
			s.compactMu.Unlock()
			return nil
		}
		err := job(ctx)
		s.compactMu.Unlock()
		if err != nil {
			return err
		}
	}
}
