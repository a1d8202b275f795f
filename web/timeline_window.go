package web

import (
	"cmp"
	"slices"
	"time"

	"github.com/perflab/perflab/exectrace"
	"golang.org/x/exp/trace"
)

// resample returns the window [start, end) of tiles ov in width columns,
// each the overlap-weighted mean of ov's columns; the caller asks only for
// columns at least as wide as ov's. The trace ends at last, inside ov's
// last column: that column's time is spread over its part before last, so
// that a window ending at the trace's end holds all of it.
func resample(ov *exectrace.Tiles, last, start, end time.Duration, width int) *exectrace.Tiles {
	out := &exectrace.Tiles{Start: start, End: end, Columns: width}
	src := float64(ov.End-ov.Start) / float64(max(1, ov.Columns))
	dst := float64(end-start) / float64(width)
	stop := float64(last - ov.Start)
	mean := func(v []float32) []float32 {
		r := make([]float32, width)
		for j := range r {
			a := float64(start-ov.Start) + float64(j)*dst
			b := a + dst
			var sum, w float64
			for i := max(0, int(a/src)); i < len(v) && float64(i)*src < b; i++ {
				c0, c1 := float64(i)*src, float64(i+1)*src
				if c0 < stop && stop < c1 {
					c1 = stop
				}
				lo, hi := max(a, c0), min(b, c1)
				if hi > lo {
					sum += float64(v[i]) * src * (hi - lo) / (c1 - c0)
					w += hi - lo
				}
			}
			if w > 0 {
				r[j] = float32(sum / dst)
			}
		}
		return r
	}
	for _, l := range ov.Procs {
		out.Procs = append(out.Procs, exectrace.Lane{Proc: l.Proc, Busy: mean(l.Busy)})
	}
	out.Goroutines = mean(ov.Goroutines)
	out.GC, out.STW = clipBands(ov.GC, start, end, dst), clipBands(ov.STW, start, end, dst)
	return out
}

// clipBands keeps the bands that overlap [start, end), clipped, merging
// those less than a column apart.
func clipBands(bs []exectrace.Band, start, end time.Duration, col float64) []exectrace.Band {
	var out []exectrace.Band
	for _, b := range bs {
		if b.End < start || b.Start >= end {
			continue
		}
		b.Start, b.End = max(b.Start, start), min(b.End, end)
		if n := len(out); n > 0 && float64(b.Start-out[n-1].End) < col {
			out[n-1].End = max(out[n-1].End, b.End)
			continue
		}
		out = append(out, b)
	}
	return out
}

// A spanStat is what the tasks or regions of one name did in a window:
// how many overlapped it and their time inside it.
type spanStat struct {
	Kind    string `json:"kind"` // "task" or "region"
	Name    string `json:"name"`
	Count   int64  `json:"count"`
	TotalNs int64  `json:"total_ns"`
}

// maxSpanNames bounds the names a spanSink keeps.
const maxSpanNames = 200

// summarySpans returns the tasks and regions of the whole trace, from the
// summary; pending is true if the summary is not read yet.
func (s *TraceServer) summarySpans() (spans []spanStat, pending bool) {
	sum := s.summary()
	if sum == nil {
		return nil, true
	}
	var out []spanStat
	for _, l := range sum.Tasks {
		out = append(out, spanStat{Kind: "task", Name: l.Name, Count: l.Count, TotalNs: int64(l.Total)})
	}
	for _, l := range sum.Regions {
		out = append(out, spanStat{Kind: "region", Name: l.Name, Count: l.Count, TotalNs: int64(l.Total)})
	}
	sortSpans(out)
	return out, false
}

func sortSpans(s []spanStat) {
	slices.SortFunc(s, func(a, b spanStat) int {
		return cmp.Or(cmp.Compare(b.TotalNs, a.TotalNs), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
	})
}

// A spanSink sums the tasks and regions of a window by name: the part of
// each inside the window. Spans still open at the end are cut there.
type spanSink struct {
	origin     trace.Time // of the whole trace
	start, end int64
	open       map[spanKey]int64 // begin time of open spans
	byName     map[[2]string]*spanStat
}

type spanKey struct {
	g    trace.GoID
	task trace.TaskID
	name string
}

func newSpanSink(origin trace.Time, start, end time.Duration) *spanSink {
	return &spanSink{origin: origin, start: int64(start), end: int64(end),
		open: make(map[spanKey]int64), byName: make(map[[2]string]*spanStat)}
}

func (s *spanSink) Event(ev *trace.Event) {
	now := int64(ev.Time() - s.origin)
	switch ev.Kind() {
	case trace.EventTaskBegin, trace.EventTaskEnd:
		t := ev.Task()
		s.span("task", spanKey{task: t.ID}, t.Type, ev.Kind() == trace.EventTaskBegin, now)
	case trace.EventRegionBegin, trace.EventRegionEnd:
		r := ev.Region()
		s.span("region", spanKey{g: ev.Goroutine(), name: r.Type}, r.Type, ev.Kind() == trace.EventRegionBegin, now)
	}
}

func (s *spanSink) span(kind string, k spanKey, name string, begin bool, now int64) {
	if begin {
		if len(s.open) < 1<<16 {
			s.open[k] = now
		}
		return
	}
	from, ok := s.open[k]
	if !ok {
		return
	}
	delete(s.open, k)
	s.add(kind, name, from, now)
}

func (s *spanSink) add(kind, name string, from, to int64) {
	from, to = max(from, s.start), min(to, s.end)
	if to < from {
		return
	}
	key := [2]string{kind, name}
	st := s.byName[key]
	if st == nil {
		if len(s.byName) >= maxSpanNames {
			key[1] = "(other)"
			if st = s.byName[key]; st == nil {
				st = &spanStat{Kind: kind, Name: "(other)"}
				s.byName[key] = st
			}
		} else {
			st = &spanStat{Kind: kind, Name: name}
			s.byName[key] = st
		}
	}
	st.Count++
	st.TotalNs += to - from
}

// stats returns the sums, most time first.
func (s *spanSink) stats() []spanStat {
	out := make([]spanStat, 0, len(s.byName))
	for _, st := range s.byName {
		out = append(out, *st)
	}
	sortSpans(out)
	return out
}

// inWindow keeps the spans that overlap [start, end).
func inWindow(spans []exectrace.Span, start, end time.Duration) []exectrace.Span {
	out := spans[:0]
	for _, sp := range spans {
		if sp.End >= start && sp.Start < end {
			out = append(out, sp)
		}
	}
	return out
}
