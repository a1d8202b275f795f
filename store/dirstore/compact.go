package dirstore

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/perflab/perflab/store"
)

// Compaction runs in the background, one job at a time: it turns each
// sealed WAL segment into blocks (one for each day the segment's profiles
// fall in), rebuilds the rollups of blocks that lack them, and merges the
// blocks of a partition: four blocks of about the same size into one
// (sizes grow by fours, so a profile is rewritten a few times at most),
// and, once a day is over (an hour past it, by the latest profile
// written), all its blocks into as few as MaxBlockProfiles allows.

// A job is one step of compaction.
type job func(ctx context.Context) error

func (s *Store) wakeCompactor() {
	select {
	case s.compactWake <- struct{}{}:
	default:
	}
}

// compactor runs jobs until ctx is done; a job that fails is tried again
// a minute later.
func (s *Store) compactor(ctx context.Context) {
	defer s.done.Done()
	for {
		s.compactMu.Lock()
		j := s.nextJob()
		var err error
		if j != nil {
			err = j(ctx)
		}
		s.compactMu.Unlock()
		if ctx.Err() != nil {
			return
		}
		wait := time.Duration(0)
		switch {
		case err != nil:
			s.logf("compaction: %v (trying again in a minute)", err)
			wait = time.Minute
		case j != nil:
			continue
		}
		var timer <-chan time.Time
		if wait > 0 {
			timer = time.After(wait)
		}
		select {
		case <-ctx.Done():
			return
		case <-s.compactWake:
		case <-timer:
		}
	}
}

// nextJob returns the next thing to do, or nil; the caller holds
// s.compactMu.
func (s *Store) nextJob() job {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	for _, g := range s.segments {
		// A segment waits until the files of those compacted before it
		// are removed: a crash must not find an older segment, whose
		// DropBefore records would drop the blocks of a newer one.
		if g != s.active && s.unremoved == 0 {
			return func(ctx context.Context) error { return s.compactSegment(ctx, g) }
		}
	}
	parts := s.sortedPartitions()
	for _, p := range parts {
		for _, b := range p.blocks {
			if b.rollups.Load() == nil && !b.bad.Load() {
				return func(ctx context.Context) error { return s.rebuildRollups(ctx, b) }
			}
		}
	}
	for _, p := range parts {
		if in := s.planMerge(p); len(in) > 1 {
			return func(ctx context.Context) error { return s.mergeBlocks(ctx, p, in) }
		}
	}
	return nil
}

// mergeFanIn is the number of blocks of about the same size merged at
// once.
const mergeFanIn = 4

// planMerge returns blocks of p to merge; the caller holds s.mu.
func (s *Store) planMerge(p *partition) []*block {
	var ready []*block
	for _, b := range p.blocks {
		if !b.walPending.Load() && !b.bad.Load() && b.count < int64(s.opts.MaxBlockProfiles) {
			ready = append(ready, b)
		}
	}
	over := (p.day+1)*int64(24*time.Hour)+int64(time.Hour) <= s.newest
	if over {
		return s.fitting(ready)
	}
	tiers := map[int][]*block{}
	for _, b := range ready {
		tier := 0
		for n := b.count; n >= mergeFanIn; n /= mergeFanIn {
			tier++
		}
		tiers[tier] = append(tiers[tier], b)
		if len(tiers[tier]) == mergeFanIn {
			return s.fitting(tiers[tier])
		}
	}
	return nil
}

// fitting returns the first run of blocks whose profiles fit in one
// block.
func (s *Store) fitting(bs []*block) []*block {
	for i := range bs {
		n := int64(0)
		j := i
		for ; j < len(bs) && n+bs[j].count <= int64(s.opts.MaxBlockProfiles); j++ {
			n += bs[j].count
		}
		if j-i > 1 {
			return bs[i:j]
		}
	}
	return nil
}

// newID returns a new block or segment number; the caller holds s.mu.
func (s *Store) newID() uint64 {
	id := s.nextID
	s.nextID++
	return id
}

// compactSegment writes the profiles of sealed segment g into blocks,
// then replaces g with them.
func (s *Store) compactSegment(ctx context.Context, g *segment) error {
	s.mu.RLock()
	entries := g.entries
	s.mu.RUnlock()
	byDay := map[int64][]*headEntry{}
	for _, e := range entries {
		byDay[dayOf(e.time)] = append(byDay[dayOf(e.time)], e)
	}
	days := make([]int64, 0, len(byDay))
	for d := range byDay {
		days = append(days, d)
	}
	slices.Sort(days)
	var written []*block
	for _, day := range days {
		b, err := s.writeSegmentBlock(ctx, g, day, byDay[day])
		if err != nil {
			for _, b := range written {
				b.obsolete.Store(true)
				b.clean()
			}
			return fmt.Errorf("compacting %s: %w", g.path, err)
		}
		written = append(written, b)
	}
	s.opts.hook("compacted") // the blocks are there, and the segment still
	s.mu.Lock()
	for _, b := range written {
		b.walPending.Store(true)
		s.addBlock(b)
		p := s.partition(b.meta.day)
		p.blocks = append(p.blocks, b)
	}
	for _, e := range entries {
		s.unref(e.series, 1)
	}
	s.segments = slices.DeleteFunc(s.segments, func(x *segment) bool { return x == g })
	s.head -= g.mem
	s.unremoved++
	s.mu.Unlock()
	g.onClean = func() {
		syncDir(s.walDir)
		for _, b := range written {
			b.walPending.Store(false)
		}
		s.mu.Lock()
		s.unremoved--
		s.mu.Unlock()
		s.wakeCompactor()
	}
	g.remove()
	return nil
}

// writeSegmentBlock writes the profiles of g of one day into a block,
// and opens it.
func (s *Store) writeSegmentBlock(ctx context.Context, g *segment, day int64, entries []*headEntry) (*block, error) {
	s.mu.Lock()
	id := s.newID()
	p := s.partition(day)
	s.mu.Unlock()
	w, err := newBlockWriter(p.dir, id, day, 0, []sourceRef{{wal: true, num: g.num}}, s.opts.hook)
	if err != nil {
		return nil, err
	}
	if err := writeSegmentSections(ctx, w, g, entries); err != nil {
		w.abort()
		return nil, err
	}
	if err := w.finish(); err != nil {
		return nil, err
	}
	return openWritten(p.dir, id)
}

// openWritten opens a block just written, with its rollups.
func openWritten(dir string, id uint64) (*block, error) {
	b, err := openBlock(filepath.Join(dir, blockName(id)))
	if err != nil {
		return nil, err
	}
	if err := b.openRollups(); err != nil {
		b.close()
		return nil, err
	}
	return b, nil
}

// bySeries groups entries by service then series, each group sorted by
// labels and its entries by time then ID.
func bySeries(entries []*headEntry) [][][]*headEntry {
	groups := map[*series][]*headEntry{}
	for _, e := range entries {
		groups[e.series] = append(groups[e.series], e)
	}
	all := make([][]*headEntry, 0, len(groups))
	for _, es := range groups {
		slices.SortFunc(es, func(a, b *headEntry) int { return cmp.Or(cmp.Compare(a.time, b.time), cmp.Compare(a.id, b.id)) })
		all = append(all, es)
	}
	slices.SortFunc(all, func(a, b []*headEntry) int {
		return cmp.Or(strings.Compare(service(a[0].series.labels), service(b[0].series.labels)), a[0].series.labels.Compare(b[0].series.labels))
	})
	var out [][][]*headEntry
	for i, es := range all {
		if i == 0 || service(es[0].series.labels) != service(all[i-1][0].series.labels) {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], es)
	}
	return out
}

func service(ls store.Labels) string { return ls.Get(store.LabelService) }

// writeSegmentSections writes the entries of g into w, a section for each
// service.
func writeSegmentSections(ctx context.Context, w *blockWriter, g *segment, entries []*headEntry) error {
	for _, svc := range bySeries(entries) {
		rm, err := segmentDict(g, svc)
		if err != nil {
			return err
		}
		if err := w.section(service(svc[0][0].series.labels), rm.dict); err != nil {
			return err
		}
		for _, es := range svc {
			if err := ctx.Err(); err != nil {
				return err
			}
			each := func(yield func(*profileRec) error) error {
				var in, out rows
				for _, e := range es {
					if err := g.readRows(&e.entry, &in); err != nil {
						return err
					}
					if err := rm.remap(&in, &out); err != nil {
						return fmt.Errorf("%s: %w", g.path, err)
					}
					p := &profileRec{time: e.time, timeNanos: e.timeNanos, duration: e.duration, header: rm.headers[e.header], id: e.id, rows: &out}
					if err := yield(p); err != nil {
						return err
					}
				}
				return nil
			}
			if err := w.series(es[0].series.labels, each); err != nil {
				return err
			}
		}
	}
	return nil
}

// A remapping renumbers the parts of samples from one file's numbering
// to a new dictionary's.
type remapping struct {
	dict    *dict
	stacks  map[uint32]uint32
	labels  map[uint32]uint32 // label set ordinals plus one
	headers map[uint32]uint32
}

// remap renumbers the samples of in into out, sorted.
func (rm *remapping) remap(in, out *rows) error {
	out.reset(in.ncol)
	for i := range in.len() {
		st, ok := rm.stacks[in.stacks[i]]
		l, lok := rm.labels[in.labels[i]]
		if !ok || !lok && in.labels[i] != 0 {
			return fmt.Errorf("samples refer to parts the file lacks: %w", ErrCorrupt)
		}
		out.add(st, l, in.row(i))
	}
	out.sort()
	return nil
}

// segmentDict returns the dictionary of the parts and header templates
// that entries of g use, and how to renumber them.
func segmentDict(g *segment, svc [][]*headEntry) (*remapping, error) {
	stacks, labels, headers := map[uint32]bool{}, map[uint32]bool{}, map[uint32]bool{}
	var rs rows
	for _, es := range svc {
		for _, e := range es {
			if err := g.readRows(&e.entry, &rs); err != nil {
				return nil, err
			}
			for i := range rs.len() {
				stacks[rs.stacks[i]] = true
				labels[rs.labels[i]] = true
			}
			headers[e.header] = true
		}
	}
	g.mu.RLock()
	defer g.mu.RUnlock()
	db := newDictBuilder()
	var err error
	add := func(k kind, h store.Hash) {
		if p, ok := partsGet(g.parts, k, h); ok {
			db.add(k, h, encodePart(p))
		} else if err == nil {
			err = fmt.Errorf("%s: %s %s missing: %w", g.path, k, h, ErrCorrupt)
		}
	}
	rm := &remapping{headers: map[uint32]uint32{}}
	for _, o := range sortedKeys(headers) {
		rm.headers[o] = uint32(db.header(g.headers[o].Encode()))
		for _, m := range g.headers[o].Mappings {
			add(kindMapping, m)
		}
	}
	closure(db, g.parts, g.byOrd, stacks, labels, add)
	if err != nil {
		return nil, err
	}
	rm.dict = db.build()
	rm.stacks, rm.labels = renumber(rm.dict, g.byOrd, stacks, labels)
	return rm, nil
}

// closure adds the stacks and label sets numbered in hashes to db, and
// the locations and functions of the stacks, found in parts.
func closure(db *dictBuilder, parts *store.Parts, hashes [numKinds][]store.Hash, stacks, labels map[uint32]bool, add func(kind, store.Hash)) {
	for o := range stacks {
		h := hashes[kindStack][o]
		add(kindStack, h)
		for _, l := range parts.Stacks[h] {
			if !db.has(kindLocation, l) {
				add(kindLocation, l)
				for _, ln := range parts.Locations[l].Lines {
					if ln.Function != 0 && !db.has(kindFunction, ln.Function) {
						add(kindFunction, ln.Function)
					}
				}
			}
		}
	}
	for o := range labels {
		if o != 0 {
			add(kindLabelSet, hashes[kindLabelSet][o-1])
		}
	}
}

// renumber maps the stacks and label sets numbered in hashes to their
// ordinals in d.
func renumber(d *dict, hashes [numKinds][]store.Hash, stacks, labels map[uint32]bool) (map[uint32]uint32, map[uint32]uint32) {
	sm, lm := make(map[uint32]uint32, len(stacks)), map[uint32]uint32{0: 0}
	for o := range stacks {
		i, _ := d.ordinal(kindStack, hashes[kindStack][o])
		sm[o] = uint32(i)
	}
	for o := range labels {
		if o != 0 {
			i, _ := d.ordinal(kindLabelSet, hashes[kindLabelSet][o-1])
			lm[o] = uint32(i) + 1
		}
	}
	return sm, lm
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
