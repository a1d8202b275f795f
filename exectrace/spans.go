package exectrace

import (
	"cmp"
	"container/heap"
	"slices"
	"sync"
	"time"

	"golang.org/x/exp/trace"
)

// A Span is one task or region of a trace, for drawing as a bar.
type Span struct {
	Kind      string        `json:"kind"` // "task" or "region"
	Name      string        `json:"name"` // the task's type, the region's name; "" if not in the events read
	Start     time.Duration `json:"start_ns"`
	End       time.Duration `json:"end_ns"`
	Goroutine int64         `json:"g,omitempty"`          // a region's goroutine
	Task      uint64        `json:"task,omitempty"`       // a task's ID, a region's task if any
	OpenStart bool          `json:"open_start,omitempty"` // began before the events read
	OpenEnd   bool          `json:"open_end,omitempty"`   // ended after them
}

// maxOpenSpans bounds the tasks and regions begun and not yet ended that
// a SpanCollector or a SpanIndex keeps.
const maxOpenSpans = 1 << 16

// spanKey identifies an open task (by ID) or region (by goroutine and name).
type spanKey struct {
	task trace.TaskID
	g    trace.GoID
	name string
}

// A SpanCollector is a Sink that gathers the tasks and regions of the
// events it reads, keeping the longest keep of them: its memory does not
// grow with the trace.
type SpanCollector struct {
	origin  trace.Time
	keep    int
	seen    bool
	first   int64
	last    int64
	open    map[spanKey]Span // begun, not ended
	orphans []Span           // ended, begun before the events read: Start unknown
	kept    spanHeap
}

// NewSpanCollector returns a SpanCollector with times from origin, or
// from the first event it reads if origin is 0.
func NewSpanCollector(origin trace.Time, keep int) *SpanCollector {
	return &SpanCollector{origin: origin, keep: max(1, keep), open: make(map[spanKey]Span)}
}

// Event adds one event.
func (c *SpanCollector) Event(ev *trace.Event) {
	if !c.seen && c.origin == 0 {
		c.origin = ev.Time()
	}
	now := int64(ev.Time() - c.origin)
	if !c.seen {
		c.seen, c.first = true, now
	}
	c.last = max(c.last, now)
	switch ev.Kind() {
	case trace.EventTaskBegin, trace.EventTaskEnd:
		t := ev.Task()
		sp := Span{Kind: "task", Name: t.Type, Task: uint64(t.ID)}
		c.span(spanKey{task: t.ID}, sp, ev.Kind() == trace.EventTaskBegin, now)
	case trace.EventRegionBegin, trace.EventRegionEnd:
		r := ev.Region()
		sp := Span{Kind: "region", Name: r.Type, Goroutine: int64(ev.Goroutine())}
		if r.Task != trace.NoTask && r.Task != trace.BackgroundTask {
			sp.Task = uint64(r.Task)
		}
		c.span(spanKey{g: ev.Goroutine(), name: r.Type}, sp, ev.Kind() == trace.EventRegionBegin, now)
	}
}

func (c *SpanCollector) span(k spanKey, sp Span, begin bool, now int64) {
	if begin {
		if len(c.open) < maxOpenSpans {
			sp.Start = time.Duration(now)
			c.open[k] = sp
		}
		return
	}
	b, ok := c.open[k]
	if !ok {
		if len(c.orphans) < maxOpenSpans {
			sp.End, sp.OpenStart = time.Duration(now), true
			c.orphans = append(c.orphans, sp)
		}
		return
	}
	delete(c.open, k)
	b.End = time.Duration(now)
	c.kept.add(b, c.keep)
}

// Spans returns the longest spans read, sorted by start: those begun before
// the events read start at the first event, those not ended end at the last.
func (c *SpanCollector) Spans() []Span {
	h := spanHeap{s: slices.Clone(c.kept.s)}
	for _, sp := range c.orphans {
		sp.Start = time.Duration(c.first)
		h.add(sp, c.keep)
	}
	for _, sp := range c.open {
		sp.End, sp.OpenEnd = time.Duration(c.last), true
		h.add(sp, c.keep)
	}
	return h.sorted()
}

// A spanHeap keeps the longest spans added: a min-heap by duration.
type spanHeap struct{ s []Span }

func (h *spanHeap) Len() int           { return len(h.s) }
func (h *spanHeap) Less(i, j int) bool { return h.s[i].End-h.s[i].Start < h.s[j].End-h.s[j].Start }
func (h *spanHeap) Swap(i, j int)      { h.s[i], h.s[j] = h.s[j], h.s[i] }
func (h *spanHeap) Push(x any)         { h.s = append(h.s, x.(Span)) }
func (h *spanHeap) Pop() any {
	x := h.s[len(h.s)-1]
	h.s = h.s[:len(h.s)-1]
	return x
}

// add adds sp, dropping the shortest span if there are more than keep.
func (h *spanHeap) add(sp Span, keep int) {
	if len(h.s) < keep {
		heap.Push(h, sp)
		return
	}
	if sp.End-sp.Start > h.s[0].End-h.s[0].Start {
		h.s[0] = sp
		heap.Fix(h, 0)
	}
}

// sorted returns the spans by start, then longest first.
func (h *spanHeap) sorted() []Span {
	out := slices.Clone(h.s)
	slices.SortFunc(out, func(a, b Span) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(b.End, a.End))
	})
	return out
}

// A SpanIndex keeps the longest tasks and regions of a whole trace, read
// generation by generation (it is the GenerationSinks of an Overview's
// Load): a task that goes on over several generations is joined from its
// begin and its end, read apart.
type SpanIndex struct {
	origin trace.Time
	keep   int
	mu     sync.Mutex
	open   map[spanKey]Span // begun in the generations merged, not ended
	kept   spanHeap
	end    time.Duration
}

// NewSpanIndex returns a SpanIndex of the trace indexed by ix, keeping the
// keep longest spans.
func NewSpanIndex(ix *Index, keep int) *SpanIndex {
	return &SpanIndex{origin: ix.Origin(), keep: max(1, keep), open: make(map[spanKey]Span)}
}

// Sinks returns the sinks of generation i: one SpanCollector.
func (x *SpanIndex) Sinks(int) []Sink { return []Sink{NewSpanCollector(x.origin, x.keep)} }

// Merge joins generation i's spans to those of the generations before it.
func (x *SpanIndex) Merge(_ int, sinks []Sink) {
	c := sinks[0].(*SpanCollector)
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, sp := range c.orphans {
		k := sp.key()
		if b, ok := x.open[k]; ok {
			delete(x.open, k)
			b.End = sp.End
			if b.Name == "" {
				b.Name = sp.Name
			}
			sp = b
		} else {
			sp.Start = 0 // began before the trace
		}
		x.kept.add(sp, x.keep)
	}
	for _, sp := range c.kept.s {
		x.kept.add(sp, x.keep)
	}
	for k, sp := range c.open {
		if len(x.open) < maxOpenSpans {
			x.open[k] = sp
		}
	}
	x.end = max(x.end, time.Duration(c.last))
}

// key returns the key of a span's begin and end.
func (sp Span) key() spanKey {
	if sp.Kind == "task" {
		return spanKey{task: trace.TaskID(sp.Task)}
	}
	return spanKey{g: trace.GoID(sp.Goroutine), name: sp.Name}
}

// Window returns the longest n spans that overlap [start, end), sorted by
// start; spans still open end at the last event merged.
func (x *SpanIndex) Window(start, end time.Duration, n int) []Span {
	x.mu.Lock()
	defer x.mu.Unlock()
	var h spanHeap
	add := func(sp Span) {
		if sp.End >= start && sp.Start < end {
			h.add(sp, n)
		}
	}
	for _, sp := range x.kept.s {
		add(sp)
	}
	for _, sp := range x.open {
		sp.End, sp.OpenEnd = x.end, true
		add(sp)
	}
	return h.sorted()
}
