package exectrace

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"golang.org/x/exp/trace"
)

// Tiles are a time window of a trace aggregated for drawing: per P, the
// share of each column of time it ran goroutines, and the GC and
// stop-the-world intervals as bands. Their size depends on the number of
// columns, never on the trace's length, so a browser can draw any window
// of any trace.
type Tiles struct {
	Start      time.Duration `json:"start_ns"` // from the first event of the trace
	End        time.Duration `json:"end_ns"`
	Columns    int           `json:"columns"`
	Procs      []Lane        `json:"procs"`
	GC         []Band        `json:"gc"`
	STW        []Band        `json:"stw"`
	Goroutines []float32     `json:"goroutines"` // mean goroutines alive in each column
}

// A Lane is one P: Busy[i] is the share of column i it ran goroutines, 0 to 1.
type Lane struct {
	Proc int       `json:"proc"`
	Busy []float32 `json:"busy"`
}

// A Band is an interval of the window, such as a GC cycle; bands closer
// than a column are merged.
type Band struct {
	Start time.Duration `json:"start_ns"`
	End   time.Duration `json:"end_ns"`
	Name  string        `json:"name"`
}

// A Tiler is a Sink that aggregates the window [start, end) of a trace
// (times from its first event) into Tiles of the given number of columns.
// With end 0 the window runs to the end of the trace, which is not known
// while reading: columns start a microsecond wide and merge pairwise when
// there would be more than twice as many as asked.
type Tiler struct {
	start, end int64
	columns    int
	width      float64 // ns per column
	limit      int     // columns kept before merging (open window)
	started    bool
	origin     trace.Time
	last       int64
	procs      []*series        // by P: busy ns per column; nil for Ps not seen
	running    goMap[runSpan]   // every goroutine seen; on if running
	open       map[string]int64 // GC and STW ranges begun
	gc, stw    []Band
	alive      int
	aliveAt    int64
	aliveNs    series // goroutines alive x ns per column
	// With deferHeads, what a goroutine did since the first event, told
	// only by its first state (GoUndetermined), goes to heads rather than
	// the columns: an Overview adds it from the previous generation's end.
	deferHeads bool
	heads      []headSpan
	told       int64 // from when the events read tell what goroutines do (Index.ToldFrom)
	seen       bool  // an event
	first      int64 // the first event's time
}

// A series holds one value per column.
type series struct{ v []float64 }

type runSpan struct {
	proc  trace.ProcID
	since int64
	on    bool // running
}

// maxColumns bounds the columns of a Tiler.
const maxColumns = 1 << 14

// NewTiler returns a Tiler for the window [start, end) in columns columns.
func NewTiler(start, end time.Duration, columns int) *Tiler {
	columns = max(1, min(columns, maxColumns))
	t := &Tiler{start: int64(max(0, start)), end: int64(end), columns: columns,
		open: make(map[string]int64)}
	if t.end > t.start {
		t.width, t.limit = float64(t.end-t.start)/float64(columns), columns
	} else {
		t.end, t.width, t.limit = 0, float64(time.Microsecond), 2*columns
	}
	return t
}

var _ Sink = (*Tiler)(nil)

// Event adds one event.
func (t *Tiler) Event(ev *trace.Event) {
	if !t.started {
		t.started, t.origin = true, ev.Time()
	}
	now := int64(ev.Time() - t.origin)
	if !t.seen {
		t.seen, t.first = true, now
	}
	t.last = max(t.last, now)
	switch ev.Kind() {
	case trace.EventStateTransition:
		if st := ev.StateTransition(); st.Resource.Kind == trace.ResourceGoroutine {
			t.goroutine(ev, st, now)
		}
	case trace.EventRangeBegin, trace.EventRangeActive, trace.EventRangeEnd:
		t.band(ev, now)
	}
}

func (t *Tiler) goroutine(ev *trace.Event, st trace.StateTransition, now int64) {
	id := st.Resource.Goroutine()
	from, to := st.Goroutine()
	// A goroutine's first state in the events read, if it existed before
	// them, is its state since they began: the runtime traces every change.
	undetermined := from == trace.GoUndetermined
	if undetermined {
		t.head(-1, now)
	}
	born := from == trace.GoNotExist || undetermined
	if born != (to == trace.GoNotExist) {
		t.spread(&t.aliveNs, t.aliveAt, now, float64(t.alive))
		t.aliveAt = now
		if born {
			t.alive++
		} else {
			t.alive--
		}
	}
	r := t.running.get(id)
	if r != nil && r.on && to != trace.GoRunning {
		r.on = false
		t.spread(t.procs[r.proc], r.since, now, 1)
	}
	if p := ev.Proc(); to == trace.GoRunning && from != trace.GoRunning && p >= 0 && int(p) < maxProcs {
		if r == nil {
			r = new(runSpan)
			t.running.put(id, r)
		}
		*r = runSpan{proc: p, since: now, on: true}
		for len(t.procs) <= int(p) {
			t.procs = append(t.procs, nil)
		}
		if t.procs[p] == nil {
			t.procs[p] = new(series)
		}
		if undetermined {
			t.head(int(p), now)
		}
	}
}

// A headSpan is [from, to) of a P's lane, or of goroutines alive if lane
// is -1, that a goroutine's first state tells of.
type headSpan struct {
	lane     int
	from, to int64
}

// head counts a goroutine on lane (a P, or -1 for alive) from the first
// event to now, or notes it in heads.
func (t *Tiler) head(lane int, now int64) {
	if t.deferHeads {
		t.heads = append(t.heads, headSpan{lane, t.first, now})
		return
	}
	c := &t.aliveNs
	if lane >= 0 {
		c = t.procs[lane]
	}
	t.spread(c, max(t.first, t.told), now, 1)
}

func (t *Tiler) band(ev *trace.Event, now int64) {
	r := ev.Range()
	stw := strings.HasPrefix(r.Name, "stop-the-world")
	if !stw && r.Name != "GC concurrent mark phase" {
		return
	}
	key := r.Name + "\x00" + r.Scope.String()
	if ev.Kind() == trace.EventRangeActive { // under way since the events read began
		now = t.first
	}
	if ev.Kind() != trace.EventRangeEnd {
		if _, ok := t.open[key]; !ok && len(t.open) < 1024 {
			t.open[key] = now
		}
		return
	}
	from, ok := t.open[key]
	if !ok {
		return
	}
	delete(t.open, key)
	if stw {
		t.stw = t.addBand(t.stw, from, now, r.Name)
	} else {
		t.gc = t.addBand(t.gc, from, now, "GC")
	}
}

// closeBands ends the GC and stop-the-world ranges still open at the last
// event: a range that goes on in the next generation, or past the end of
// the trace.
func (t *Tiler) closeBands() {
	for key, from := range t.open {
		name, _, _ := strings.Cut(key, "\x00")
		if strings.HasPrefix(name, "stop-the-world") {
			t.stw = t.addBand(t.stw, from, t.last, name)
		} else {
			t.gc = t.addBand(t.gc, from, t.last, "GC")
		}
	}
	clear(t.open)
	byStart := func(a, b Band) int { return cmp.Compare(a.Start, b.Start) }
	slices.SortFunc(t.gc, byStart)
	slices.SortFunc(t.stw, byStart)
}

// addBand clips [from, to) to the window and merges it with the last band
// when they are less than a column apart.
func (t *Tiler) addBand(bs []Band, from, to int64, name string) []Band {
	from = max(from, t.start)
	if t.end > 0 {
		to = min(to, t.end)
	}
	if to < from {
		return bs
	}
	if n := len(bs); n > 0 && float64(from-int64(bs[n-1].End)) < t.width {
		bs[n-1].End = time.Duration(max(to, int64(bs[n-1].End)))
		return bs
	}
	return append(bs, Band{Start: time.Duration(from), End: time.Duration(to), Name: name})
}

// maxProcs bounds the lanes of a Tiler.
const maxProcs = 1 << 12

// spread adds v x the part of [from, to) in each column to c, merging
// columns first in an open window that has grown too long.
func (t *Tiler) spread(c *series, from, to int64, v float64) {
	from = max(from, t.start)
	if t.end > 0 {
		to = min(to, t.end)
	}
	if to <= from || v == 0 {
		return
	}
	for t.end == 0 && float64(to-1-t.start)/t.width >= float64(t.limit) {
		t.coarsen()
	}
	for from < to {
		i := int(float64(from-t.start) / t.width)
		if i >= t.limit {
			break
		}
		for len(c.v) <= i {
			c.v = append(c.v, 0)
		}
		colEnd := t.start + int64(float64(i+1)*t.width)
		seg := min(to, max(colEnd, from+1))
		c.v[i] += v * float64(seg-from)
		from = seg
	}
}

// coarsen merges neighbouring columns of an open window.
func (t *Tiler) coarsen() {
	merge := func(c *series) {
		n := (len(c.v) + 1) / 2
		for i := range n {
			x := c.v[2*i]
			if 2*i+1 < len(c.v) {
				x += c.v[2*i+1]
			}
			c.v[i] = x
		}
		c.v = c.v[:n]
	}
	for _, c := range t.procs {
		if c != nil {
			merge(c)
		}
	}
	merge(&t.aliveNs)
	t.width *= 2
}

// Tiles returns the window as read so far: call it after the last event.
// An open window's columns are merged down to at most the number asked.
func (t *Tiler) Tiles() *Tiles {
	t.running.each(func(r *runSpan) {
		if r.on { // still running at the end
			t.spread(t.procs[r.proc], r.since, t.last, 1)
			r.since = t.last
		}
	})
	t.spread(&t.aliveNs, t.aliveAt, t.last, float64(t.alive))
	t.aliveAt = t.last
	t.closeBands()
	end := t.end
	if end == 0 {
		end = max(t.last, t.start+1)
		for float64(end-t.start)/t.width > float64(t.columns) {
			t.coarsen()
		}
	}
	n := min(t.limit, int(math.Ceil(float64(end-t.start)/t.width)))
	tl := &Tiles{Start: time.Duration(t.start), End: time.Duration(end), Columns: n}
	share := func(c *series, scale float64) []float32 {
		out := make([]float32, n)
		for i := range min(n, len(c.v)) {
			w := min(t.width, float64(end-t.start)-float64(i)*t.width)
			if w > 0 {
				out[i] = float32(c.v[i] / w / scale)
			}
		}
		return out
	}
	for id, c := range t.procs {
		if c != nil {
			tl.Procs = append(tl.Procs, Lane{Proc: id, Busy: share(c, 1)})
		}
	}
	tl.Goroutines = share(&t.aliveNs, 1)
	tl.GC, tl.STW = remerge(t.gc, t.width), remerge(t.stw, t.width)
	return tl
}

// remerge merges bands less than width apart.
func remerge(bs []Band, width float64) []Band {
	var out []Band
	for _, b := range bs {
		if n := len(out); n > 0 && float64(b.Start-out[n-1].End) < width {
			out[n-1].End = max(out[n-1].End, b.End)
			continue
		}
		out = append(out, b)
	}
	return out
}
