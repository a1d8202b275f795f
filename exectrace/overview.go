package exectrace

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"time"
)

// An Overview is a whole trace aggregated into Tiles of fixed columns,
// read one generation at a time by several goroutines: generations are
// self-contained, so on two cores the whole trace is read in about half
// the time of one pass, and while it loads, Tiles gives what has been read
// so far. Memory is one generation per goroutine plus the columns.
type Overview struct {
	ix      *Index
	width   float64 // ns per column
	columns int     // of the grid, with room for the trace to end past its estimate

	mu       sync.Mutex
	changed  *sync.Cond    // signalled when a generation is merged
	procs    [][]float32   // by P: busy share of each column; nil for Ps not seen
	alive    []float32     // mean goroutines alive in each column
	gc, stw  []Band        // as read, sorted when asked for
	state    []genState    // by generation
	errs     []error       // by generation, why it could not be read
	merged   int           // generations [0, merged) are merged
	prevLast int64         // the last event's time of the last generation merged
	end      time.Duration // the trace's end, exact once the last generation is read
	notes    []string      // generations that could not be read
}

type genState int

const (
	genPending genState = iota
	genRead
	genFailed
)

// NewOverview returns an Overview of the trace indexed by ix in about
// columns columns; Load fills it.
func NewOverview(ix *Index, columns int) *Overview {
	columns = max(1, min(columns, maxColumns*8/9))
	var end time.Duration
	if n := ix.Generations(); n > 0 {
		_, end = ix.GenerationTimes(n - 1)
	}
	o := &Overview{ix: ix, width: math.Max(1, float64(end)/float64(columns)), end: end,
		state: make([]genState, ix.Generations()), errs: make([]error, ix.Generations())}
	o.columns = columns + columns/8
	o.changed = sync.NewCond(&o.mu)
	return o
}

// A GenerationSinks gives Load more sinks for generation i, each read on
// its own, and takes them back, in order of generation, once read.
type GenerationSinks interface {
	Sinks(i int) []Sink
	Merge(i int, sinks []Sink)
}

// Load reads every generation of the trace in r with workers goroutines,
// giving their events to a Tiler per generation and to the sinks of more,
// if not nil, and merges them in order of generation. A generation that
// cannot be read is left out, with a note; Load returns the error of the
// first generation if that one cannot be read, and ctx's error if it is
// done first.
func (o *Overview) Load(ctx context.Context, r io.ReaderAt, workers int, more GenerationSinks) error {
	n := o.ix.Generations()
	r = ctxReaderAt{ctx, r}
	next := make(chan int)
	var wg sync.WaitGroup
	var first error
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				err := o.readGeneration(r, i, workers <= 1, more)
				if i == 0 && err != nil {
					first = err
				}
			}
		}()
	}
	for i := range n {
		if !o.waitAhead(ctx, i, 2*max(1, workers)) {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// waitAhead waits until generation i is fewer than ahead generations past
// the last merged, so that read generations waiting for their turn to be
// merged stay few; false if ctx is done.
func (o *Overview) waitAhead(ctx context.Context, i, ahead int) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.waitUntil(ctx, func() bool { return i < o.merged+ahead })
	return ctx.Err() == nil
}

// waitUntil waits, o.mu held, until cond holds or ctx is done.
func (o *Overview) waitUntil(ctx context.Context, cond func() bool) {
	stop := context.AfterFunc(ctx, func() {
		o.mu.Lock()
		o.changed.Broadcast()
		o.mu.Unlock()
	})
	defer stop()
	for !cond() && ctx.Err() == nil {
		o.changed.Wait()
	}
}

// genResult is one generation read, waiting for its turn to be merged.
type genResult struct {
	tiler *Tiler
	c0    int // the grid column where its tiles begin
	sinks []Sink
	err   error
}

// readGeneration reads generation i and merges it in its turn, after the
// generations before it: with the sinks in a goroutine of their own if
// pipelined, else in this one, when other workers keep the cores busy.
func (o *Overview) readGeneration(r io.ReaderAt, i int, pipelined bool, more GenerationSinks) error {
	from, _ := o.ix.GenerationTimes(i)
	c0 := int(float64(from) / o.width)
	start := time.Duration(float64(c0) * o.width)
	t := o.ix.Tiler(start, time.Duration(float64(o.columns)*o.width), max(1, o.columns-c0))
	t.deferHeads = true
	res := &genResult{tiler: t, c0: c0}
	sinks := []Sink{t}
	if more != nil {
		res.sinks = more.Sinks(i)
		sinks = append(sinks, res.sinks...)
	}
	_, res.err = o.ix.readGenerations(r, i, i+1, pipelined, sinks)
	o.mu.Lock()
	defer o.mu.Unlock()
	for o.merged < i { // the generations before are merged first
		o.changed.Wait()
	}
	o.merge(i, res, more)
	o.merged = i + 1
	o.changed.Broadcast()
	return res.err
}

// merge adds generation i's tiles to the grid; o.mu is held.
func (o *Overview) merge(i int, res *genResult, more GenerationSinks) {
	if res.err != nil {
		o.state[i], o.errs[i] = genFailed, res.err
		off, end := o.ix.GenerationBytes(i)
		cause := res.err
		if c := errors.Unwrap(cause); c != nil { // Read's words are about the first generation it read
			cause = c
		}
		o.notes = append(o.notes, fmt.Sprintf("generation %d of %d (bytes %d to %d) could not be read and is left out: %v", i+1, len(o.state), off, end, cause))
		return
	}
	o.state[i] = genRead
	t := res.tiler
	o.ix.NoteEnd(i, time.Duration(t.last))
	if i == len(o.state)-1 {
		o.end = time.Duration(t.last)
	}
	tl := t.Tiles()
	add := func(dst *[]float32, src []float32) {
		for j, v := range src {
			if v == 0 {
				continue
			}
			k := res.c0 + j
			for len(*dst) <= k {
				*dst = append(*dst, 0)
			}
			(*dst)[k] += v
		}
	}
	for _, l := range tl.Procs {
		for len(o.procs) <= l.Proc {
			o.procs = append(o.procs, nil)
		}
		if o.procs[l.Proc] == nil {
			o.procs[l.Proc] = []float32{}
		}
		add(&o.procs[l.Proc], l.Busy)
	}
	add(&o.alive, tl.Goroutines)
	// The previous generation's last events overlap this one's first by a
	// few milliseconds: what this one only tells by a goroutine's first
	// state counts from where the previous one stops telling.
	for _, h := range t.heads {
		dst := &o.alive
		if h.lane >= 0 {
			dst = &o.procs[h.lane]
		}
		o.spreadGrid(dst, max(h.from, o.prevLast), h.to)
	}
	o.prevLast = t.last
	o.gc, o.stw = append(o.gc, tl.GC...), append(o.stw, tl.STW...)
	if more != nil {
		more.Merge(i, res.sinks)
	}
}

// WaitFor waits until the first n generations are read (or found unreadable),
// or ctx is done, and returns the error of generation 0, if any: a
// trace whose first generation cannot be read is not worth serving.
func (o *Overview) WaitFor(ctx context.Context, n int) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.waitUntil(ctx, func() bool { return o.merged >= min(n, len(o.state)) })
	if len(o.errs) > 0 && o.errs[0] != nil {
		return o.errs[0]
	}
	return ctx.Err()
}

// spreadGrid adds 1 over [from, to) (ns from the trace's first event) to
// the columns of dst, each the share of the column covered; o.mu is held.
func (o *Overview) spreadGrid(dst *[]float32, from, to int64) {
	for from < to {
		k := int(float64(from) / o.width)
		if k >= o.columns {
			return
		}
		for len(*dst) <= k {
			*dst = append(*dst, 0)
		}
		seg := min(to, max(int64(float64(k+1)*o.width), from+1))
		(*dst)[k] += float32(float64(seg-from) / o.width)
		from = seg
	}
}

// Progress says how many generations of how many are read, and which
// stretches of the trace are not read yet.
type Progress struct {
	Read        int    `json:"generations_read"`
	Generations int    `json:"generations"`
	Pending     []Band `json:"pending,omitempty"`
}

// Done reports whether every generation is read.
func (p Progress) Done() bool { return p.Read == p.Generations }

// Tiles returns the overview as read so far, with its progress, and the
// notes of the generations that could not be read.
func (o *Overview) Tiles() (*Tiles, Progress, []string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := min(o.columns, max(1, int(math.Ceil(float64(o.end)/o.width))))
	tl := &Tiles{Start: 0, End: time.Duration(float64(n) * o.width), Columns: n}
	clamp := func(v []float32, hi float32) []float32 {
		out := make([]float32, n)
		for j := range min(n, len(v)) {
			out[j] = min(v[j], hi)
		}
		return out
	}
	for p, v := range o.procs {
		if v != nil {
			tl.Procs = append(tl.Procs, Lane{Proc: p, Busy: clamp(v, 1)})
		}
	}
	tl.Goroutines = clamp(o.alive, math.MaxFloat32)
	tl.GC, tl.STW = remerge(sortedBands(o.gc), o.width), remerge(sortedBands(o.stw), o.width)
	p := Progress{Generations: len(o.state)}
	for i, st := range o.state {
		if st != genPending {
			p.Read++
			continue
		}
		from, to := o.ix.GenerationTimes(i)
		if k := len(p.Pending); k > 0 && p.Pending[k-1].End >= from {
			p.Pending[k-1].End = to
			continue
		}
		p.Pending = append(p.Pending, Band{Start: from, End: to, Name: "not read yet"})
	}
	return tl, p, append([]string(nil), o.notes...)
}

// Notes returns what Tiles returns last: a note for each generation that
// could not be read.
func (o *Overview) Notes() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.notes...)
}

// End returns the time of the trace's last event, from its first: an
// estimate until the last generation is read.
func (o *Overview) End() time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.end
}

// sortedBands returns a copy of bs sorted by start.
func sortedBands(bs []Band) []Band {
	out := slices.Clone(bs)
	slices.SortFunc(out, func(a, b Band) int { return cmp.Compare(a.Start, b.Start) })
	return out
}

// ctxReaderAt stops reading when its context is done.
type ctxReaderAt struct {
	ctx context.Context
	r   io.ReaderAt
}

func (c ctxReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.ReadAt(p, off)
}
