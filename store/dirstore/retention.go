package dirstore

import (
	"context"
	"os"
	"time"
)

// DropBefore deletes the profiles older than the day (UTC) of t: the
// partitions of the days before, each a directory removed at once, and
// the WAL's profiles of those days. The day of t is kept whole, so what
// the store keeps may begin up to a day before t. A record in the WAL
// makes the drop durable: after a crash, the WAL's profiles written
// before DropBefore are dropped again when the store opens.
func (s *Store) DropBefore(ctx context.Context, t time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	day := dayOf(clampNanos(t))
	// No compaction while the WAL's old profiles are dropped: a segment
	// being compacted must not bring them back into a block.
	s.compactMu.Lock()
	defer s.compactMu.Unlock()
	b := &batch{drop: &day, done: make(chan struct{})}
	if err := s.enqueue(b); err != nil {
		return err
	}
	<-b.done // the committer has dropped the WAL's profiles
	if b.err != nil {
		return b.err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropPartitions(day)
}

// dropHead drops the WAL's profiles of the days before day; the caller
// holds s.mu.
func (s *Store) dropHead(day int64) {
	for _, g := range s.segments {
		n := len(g.entries)
		g.entries = dropEntries(s, g.entries, day)
		mem := int64(n-len(g.entries)) * entryMem
		g.mem -= mem
		s.head -= mem
	}
}

// dropEntries returns entries without those of the days before day,
// which lose their reference to their series.
func dropEntries(s *Store, entries []*headEntry, day int64) []*headEntry {
	var kept []*headEntry
	for _, e := range entries {
		if dayOf(e.time) < day {
			s.unref(e.series, 1)
			continue
		}
		kept = append(kept, e)
	}
	return kept
}

// dropPartitions removes the partitions of the days before day: their
// blocks leave the store, and their directory is removed (renamed first,
// so that a crash part-way leaves nothing half-removed under a
// partition's name). A query reading a block still reads it: its files
// are closed when the query ends. The caller holds s.mu.
func (s *Store) dropPartitions(day int64) error {
	for d, p := range s.partitions {
		if d >= day {
			continue
		}
		delete(s.partitions, d)
		for _, b := range p.blocks {
			for _, ser := range b.series {
				s.unref(ser, 1)
			}
			b.remove()
		}
		trash := p.dir + dropSuffix
		if err := os.Rename(p.dir, trash); err != nil {
			if os.IsNotExist(err) {
				continue
			}
			s.logf("removing %s: %v (its files are removed when no query reads them)", p.dir, err)
			continue
		}
		if err := os.RemoveAll(trash); err != nil {
			s.logf("removing %s: %v (it is removed when the store opens again)", trash, err)
		}
	}
	return syncDir(s.dir)
}
