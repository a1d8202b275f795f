package web

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/exp/trace"
)

// A goLane is one goroutine's lane: Busy[i] is the share of column i it
// was running, 0 to 1.
type goLane struct {
	Goroutine int64     `json:"goroutine"`
	Busy      []float32 `json:"busy"`
}

// maxGoLanes bounds the goroutine lanes of a tiles request.
const maxGoLanes = 16

// goLaneIDs reads the g parameter: goroutine IDs separated by commas.
func goLaneIDs(q url.Values) ([]int64, error) {
	v := q.Get("g")
	if v == "" {
		return nil, nil
	}
	var ids []int64
	for _, f := range strings.Split(v, ",") {
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil || id <= 0 {
			return nil, fmt.Errorf("URL parameter g: want goroutine IDs separated by commas, got %q", v)
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) > maxGoLanes {
		return nil, fmt.Errorf("URL parameter g: at most %d goroutines, got %d", maxGoLanes, len(ids))
	}
	slices.Sort(ids)
	return ids, nil
}

// A laneSink sums, per column of a window, the time each of some
// goroutines ran.
type laneSink struct {
	origin     trace.Time
	start, end int64
	width      float64 // ns per column
	seen       bool    // an event
	first      int64
	last       int64
	ns         map[trace.GoID][]float64
	since      map[trace.GoID]int64 // running since
}

func newLaneSink(origin trace.Time, start, end time.Duration, columns int, ids []int64) *laneSink {
	s := &laneSink{origin: origin, start: int64(start), end: int64(end),
		width: float64(end-start) / float64(columns),
		ns:    make(map[trace.GoID][]float64), since: make(map[trace.GoID]int64)}
	for _, id := range ids {
		s.ns[trace.GoID(id)] = make([]float64, columns)
	}
	return s
}

func (s *laneSink) Event(ev *trace.Event) {
	now := int64(ev.Time() - s.origin)
	if !s.seen {
		s.seen, s.first = true, now
	}
	s.last = max(s.last, now)
	if ev.Kind() != trace.EventStateTransition {
		return
	}
	st := ev.StateTransition()
	if st.Resource.Kind != trace.ResourceGoroutine {
		return
	}
	id := st.Resource.Goroutine()
	if _, ok := s.ns[id]; !ok {
		return
	}
	from, to := st.Goroutine()
	switch {
	case to == trace.GoRunning && from == trace.GoUndetermined: // running since the events read began
		s.since[id] = s.first
	case to == trace.GoRunning && from != trace.GoRunning:
		s.since[id] = now
	case from == trace.GoRunning && to != trace.GoRunning:
		if t0, ok := s.since[id]; ok {
			s.spread(s.ns[id], t0, now)
			delete(s.since, id)
		}
	}
}

// spread adds the part of [from, to) in each column.
func (s *laneSink) spread(c []float64, from, to int64) {
	from, to = max(from, s.start), min(to, s.end)
	for from < to {
		i := int(float64(from-s.start) / s.width)
		if i >= len(c) {
			return
		}
		seg := min(to, max(s.start+int64(float64(i+1)*s.width), from+1))
		c[i] += float64(seg - from)
		from = seg
	}
}

// lanes returns the lanes, goroutines still running counted to the last event.
func (s *laneSink) lanes() []goLane {
	out := []goLane{}
	for id, t0 := range s.since {
		s.spread(s.ns[id], t0, s.last)
	}
	for id, c := range s.ns {
		busy := make([]float32, len(c))
		for i, v := range c {
			busy[i] = float32(min(1, v/s.width))
		}
		out = append(out, goLane{Goroutine: int64(id), Busy: busy})
	}
	slices.SortFunc(out, func(a, b goLane) int { return int(a.Goroutine - b.Goroutine) })
	return out
}
