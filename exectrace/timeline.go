package exectrace

import "time"

// maxBuckets bounds the timeline: when it would grow past, neighbouring
// buckets merge and each covers twice the time.
const maxBuckets = 512

// A Point is one interval of the trace's course over time.
type Point struct {
	Start, Width  time.Duration // from the start of the trace
	ProcsBusy     float64       // mean number of Ps running goroutines
	Goroutines    float64       // mean number of goroutines alive
	GoroutinesMax int           // most alive at once
	HeapBytes     uint64        // heap objects at the end of the interval, 0 if unknown
}

type bucket struct {
	busy, alive float64 // integrals over time, count x ns
	aliveMax    int
	heap        uint64
}

// A timeline keeps the course of a trace in at most maxBuckets buckets,
// whatever its length.
type timeline struct {
	origin int64
	width  int64 // ns per bucket
	b      []bucket
}

func newTimeline(origin int64) *timeline {
	return &timeline{origin: origin, width: int64(time.Millisecond)}
}

// at returns the bucket holding time t, growing or coarsening the timeline.
func (tl *timeline) at(t int64) *bucket {
	i := max(0, (t-tl.origin)/tl.width)
	for i >= maxBuckets {
		tl.coarsen()
		i = (t - tl.origin) / tl.width
	}
	for int64(len(tl.b)) <= i {
		tl.b = append(tl.b, bucket{})
	}
	return &tl.b[i]
}

func (tl *timeline) coarsen() {
	n := (len(tl.b) + 1) / 2
	for i := range n {
		b := tl.b[2*i]
		if 2*i+1 < len(tl.b) {
			c := tl.b[2*i+1]
			b.busy += c.busy
			b.alive += c.alive
			b.aliveMax = max(b.aliveMax, c.aliveMax)
			if c.heap != 0 {
				b.heap = c.heap
			}
		}
		tl.b[i] = b
	}
	tl.b = tl.b[:n]
	tl.width *= 2
}

// level adds v x the part of [from, to) in each bucket to the field f picks.
func (tl *timeline) level(from, to int64, v float64, f func(*bucket) *float64) {
	if v == 0 || to <= from {
		return
	}
	tl.at(to - 1) // coarsen first, so that bucket bounds stay put below
	for from < to {
		b := tl.at(from)
		end := tl.origin + ((from-tl.origin)/tl.width+1)*tl.width
		end = min(end, to)
		*f(b) += v * float64(end-from)
		from = end
	}
}

func busyField(b *bucket) *float64  { return &b.busy }
func aliveField(b *bucket) *float64 { return &b.alive }

// points returns the timeline up to time end.
func (tl *timeline) points(end int64) []Point {
	ps := make([]Point, len(tl.b))
	for i, b := range tl.b {
		start := tl.origin + int64(i)*tl.width
		w := min(tl.width, end-start)
		if w <= 0 {
			w = tl.width
		}
		ps[i] = Point{Start: time.Duration(start - tl.origin), Width: time.Duration(w),
			ProcsBusy: b.busy / float64(w), Goroutines: b.alive / float64(w),
			GoroutinesMax: b.aliveMax, HeapBytes: b.heap}
	}
	return ps
}
