package clickhouse

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/perflab/perflab/store"
)

// The writer's bounds.
const (
	// flushers is how many batches are written at once.
	flushers = 2
	// maxBatchBytes bounds a batch, so that one insert stays far below
	// ClickHouse's max_insert_block_size (a profile's rows then reach their
	// shard in one block, all or none).
	maxBatchBytes = 16 << 20
	// linger is how long a unit may wait in the queue for others to join
	// its batch when Writes come concurrently (the last batch held several
	// units), unless the queue holds half a batch's bytes already. An
	// insert costs ClickHouse a part of its CPU time whatever it holds (new
	// parts of four tables, and their merges later): with 32 writers of a
	// profile each, lingering halved the inserts and the rows ClickHouse
	// merged, and cut its CPU a profile by about a third. A Write waits up
	// to linger longer; Writes one after another are not held.
	linger = 100 * time.Millisecond
	// answeredTries is how many times a batch is sent to a ClickHouse that
	// answers with an exception before the writes fail: an exception that
	// persists is a bug or a broken database, not a restart. A ClickHouse
	// that does not answer is tried until the store closes.
	answeredTries = 8
	// maxBackoff bounds the wait between tries.
	maxBackoff = 2 * time.Second
)

// A writer writes units to ClickHouse in batches: the units queued while
// a batch is written make the next one, held up to linger for more when
// Writes come concurrently, so that concurrent Writes share inserts. A Write waits until its unit is written (durable when
// acknowledged); the bytes of the units queued and being written are
// bounded by the memory budget, beyond which Write returns ErrBusy. When
// ClickHouse cannot be reached, the writer tries again with backoff,
// holding the units, until it can or the store closes.
type writer struct {
	st     *Store
	budget int64

	mu      sync.Mutex
	queue   []*unit
	pending int64 // bytes of the queued units and of those being written
	last    int   // units in the last batch taken
	lastErr error // why the last try failed, nil after a success
	closed  bool

	wake    chan struct{}
	ctx     context.Context // canceled by close
	cancel  context.CancelFunc
	stopped sync.WaitGroup
}

func newWriter(st *Store, budget int64) *writer {
	w := &writer{st: st, budget: budget, wake: make(chan struct{}, 1)}
	w.ctx, w.cancel = context.WithCancel(context.Background())
	for range flushers {
		w.stopped.Go(w.run)
	}
	return w
}

// errClosed is the error of a Write after Close.
var errClosed = errors.New("store closed")

// submit queues u and waits until it is written, or ctx ends.
func (w *writer) submit(ctx context.Context, u *unit) error {
	w.mu.Lock()
	switch {
	case w.closed:
		w.mu.Unlock()
		return errClosed
	case w.pending+u.size > w.budget && w.pending > 0:
		pending, last := w.pending, w.lastErr
		w.mu.Unlock()
		if last != nil {
			return fmt.Errorf("%d bytes wait for ClickHouse, which failed: %v; over the memory budget of %d: %w", pending, last, w.budget, store.ErrBusy)
		}
		return fmt.Errorf("%d bytes wait to be written to ClickHouse, over the memory budget of %d: %w", pending, w.budget, store.ErrBusy)
	}
	w.pending += u.size
	u.queued = time.Now()
	w.queue = append(w.queue, u)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	select {
	case err := <-u.done:
		return err
	case <-ctx.Done():
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if i := slices.Index(w.queue, u); i >= 0 {
		w.queue = slices.Delete(w.queue, i, i+1)
		w.pending -= u.size
		return w.gaveUp(ctx.Err(), "not written")
	}
	// Being written: it may still get there.
	return w.gaveUp(ctx.Err(), "maybe written")
}

// gaveUp returns the error of a Write whose context ended before its
// unit was written: ErrBusy as well when ClickHouse is failing.
func (w *writer) gaveUp(err error, what string) error {
	if w.lastErr != nil {
		return fmt.Errorf("%s: ClickHouse failed: %v: %w (%w)", what, w.lastErr, store.ErrBusy, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// run writes batches until the writer closes.
func (w *writer) run() {
	for {
		batch, wait := w.take()
		if batch == nil {
			var timer <-chan time.Time
			if wait > 0 {
				timer = time.After(wait)
			}
			select {
			case <-w.wake:
				continue
			case <-timer:
				continue
			case <-w.ctx.Done():
				w.failQueued()
				return
			}
		}
		err := w.flush(batch)
		w.mu.Lock()
		for _, u := range batch {
			w.pending -= u.size
		}
		w.mu.Unlock()
		if err == nil {
			w.st.cache.add(batch)
			for _, u := range batch {
				for _, ps := range u.split {
					w.st.partsCache.add(ps)
				}
			}
		}
		for _, u := range batch {
			u.done <- err
		}
	}
}

// take removes the queued units of the next batch from the queue. It
// returns none while the queue is empty, or while the units queued may
// linger for more to join them (see linger), with how long they may yet.
func (w *writer) take() ([]*unit, time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var size int64
	n := 0
	for n < len(w.queue) && (n == 0 || size+w.queue[n].size <= maxBatchBytes) {
		size += w.queue[n].size
		n++
	}
	if n == 0 {
		return nil, 0
	}
	if wait := linger - time.Since(w.queue[0].queued); wait > 0 && w.last > 1 && size < maxBatchBytes/2 && n == len(w.queue) && !w.closed {
		return nil, wait
	}
	w.last = n
	batch := slices.Clone(w.queue[:n])
	w.queue = slices.Delete(w.queue, 0, n)
	if len(w.queue) > 0 {
		select {
		case w.wake <- struct{}{}: // for the other flusher
		default:
		}
	}
	return batch, 0
}

func (w *writer) failQueued() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, u := range w.queue {
		u.done <- errClosed
		w.pending -= u.size
	}
	w.queue = nil
}

// close refuses new units, waits up to grace for those queued and being
// written, then stops the writer: the units left fail.
func (w *writer) close(grace time.Duration) {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	for deadline := time.Now().Add(grace); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		w.mu.Lock()
		pending := w.pending
		w.mu.Unlock()
		if pending == 0 {
			break
		}
	}
	w.cancel()
	w.stopped.Wait()
}

// flush writes a batch. The series and parts go first, each table's rows
// in one insert, all at once; the profiles, whose rows name mappings,
// follow the mappings; the samples, whose merge needs their parts and
// their profiles' rows, come last. After a failure, profiles and samples
// are written again only where they did not get.
func (w *writer) flush(batch []*unit) error {
	errs := make([]error, tProfiles+1)
	var wg sync.WaitGroup
	for t := range tProfiles {
		if t == tMappings {
			continue
		}
		wg.Go(func() { errs[t] = w.flushParts(batch, t) })
	}
	wg.Go(func() {
		if errs[tMappings] = w.flushParts(batch, tMappings); errs[tMappings] == nil {
			errs[tProfiles] = w.flushSeries(batch, tProfiles)
		}
	})
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return w.flushSeries(batch, tSamples)
}

// flushParts writes the rows of table t, of series or parts, of a batch.
func (w *writer) flushParts(batch []*unit, t int) error {
	var rows rowWriter
	for _, u := range batch {
		rows.append(&u.parts[t])
	}
	if rows.rows == 0 {
		return nil
	}
	name := writtenTables[t]
	return w.try("writing "+name, func() error {
		return w.st.c.insert(w.ctx, anyShard, "writing "+name, name, insertColumns(name), &rows)
	})
}

// A seriesOf is the rows of one series of one unit.
type seriesOf struct {
	u      *unit
	series uint64
}

// flushSeries writes the rows of table t (profiles or samples) of every
// series of the batch; after a failure it asks which of them got there
// (by insert ID), and sends the others again.
func (w *writer) flushSeries(batch []*unit, t int) error {
	var left []seriesOf
	for _, u := range batch {
		for s := range u.series {
			left = append(left, seriesOf{u, s})
		}
	}
	name := writtenTables[t]
	first := true
	return w.try("writing "+name, func() error {
		if !first {
			still, err := w.missing(left, t)
			if err != nil {
				return err
			}
			left = still
		}
		first = false
		rows := seriesRowsOf(left, t)
		if rows.rows == 0 {
			return nil
		}
		return w.st.c.insert(w.ctx, anyShard, "writing "+name, name, insertColumns(name), rows)
	})
}

// seriesRowsOf returns the rows of table t of sos: profiles in the order
// of sos, samples in the order of the samples table's key (service, type,
// series; each series' rows of a type in the order of time, stack and
// label set), so that ClickHouse need not sort them.
func seriesRowsOf(sos []seriesOf, t int) *rowWriter {
	var rows rowWriter
	if t == tProfiles {
		for _, so := range sos {
			rows.append(&so.u.series[so.series].profiles)
		}
		return &rows
	}
	type typed struct {
		service, typ string
		series       uint64
		rows         *rowWriter
	}
	var all []typed
	for _, so := range sos {
		sr := so.u.series[so.series]
		for typ, w := range sr.samples {
			all = append(all, typed{sr.service, typ, so.series, w})
		}
	}
	slices.SortStableFunc(all, func(a, b typed) int {
		return cmp.Or(strings.Compare(a.service, b.service), strings.Compare(a.typ, b.typ), cmp.Compare(a.series, b.series))
	})
	for _, ty := range all {
		rows.append(ty.rows)
	}
	return &rows
}

// missing returns those of the series of units whose rows of table t are
// not all in ClickHouse.
func (w *writer) missing(sos []seriesOf, t int) ([]seriesOf, error) {
	if len(sos) == 0 {
		return nil, nil
	}
	ids, series, services := []string{}, []string{}, map[string]bool{}
	lo, hi := int64(1<<63-1), int64(-1<<63)
	for _, so := range sos {
		sr := so.u.series[so.series]
		ids = append(ids, fmt.Sprint(so.u.insertID))
		series = append(series, fmt.Sprint(so.series))
		services[quote(sr.service)] = true
		lo, hi = min(lo, sr.minTime), max(hi, sr.maxTime)
	}
	type key struct{ id, series uint64 }
	found := map[key]uint64{}
	sql := fmt.Sprintf("SELECT insert_id, series, count() FROM %s WHERE service IN (%s) AND series IN (%s) AND time >= %d AND time <= %d AND insert_id IN (%s) GROUP BY insert_id, series",
		writtenTables[t], strings.Join(slices.Sorted(maps.Keys(services)), ", "), strings.Join(series, ", "), lo, hi, strings.Join(ids, ", "))
	err := w.st.c.query(w.ctx, anyShard, "checking what a failed write left", sql, func(r *rowReader) error {
		for r.more() {
			k := key{r.uint64(), r.uint64()}
			found[k] = r.uint64()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var left []seriesOf
	for _, so := range sos {
		sr := so.u.series[so.series]
		want := sr.sampleRows()
		if t == tProfiles {
			want = sr.profiles.rows
		}
		// A series' rows reach its shard in one block, all or none.
		if found[key{so.u.insertID, so.series}] < uint64(want) {
			left = append(left, so)
		}
	}
	return left, nil
}

// try calls f until it succeeds, backing off between tries; it gives up
// after answeredTries exceptions in a row from ClickHouse, or when the
// writer closes.
func (w *writer) try(what string, f func() error) error {
	backoff := 50 * time.Millisecond
	exceptions := 0
	for {
		err := f()
		w.mu.Lock()
		w.lastErr = err
		w.mu.Unlock()
		if err == nil {
			return nil
		}
		if w.ctx.Err() != nil {
			return fmt.Errorf("%s: %w", what, errClosed)
		}
		var chErr *Error
		if errors.As(err, &chErr) {
			if exceptions++; exceptions >= answeredTries {
				return err
			}
		} else {
			exceptions = 0
		}
		select {
		case <-time.After(backoff):
		case <-w.ctx.Done():
			return fmt.Errorf("%s: %w", what, errClosed)
		}
		backoff = min(2*backoff, maxBackoff)
	}
}
