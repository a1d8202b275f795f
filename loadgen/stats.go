package loadgen

import (
	"sort"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// LateThreshold is how far past its intended send time a request must go
// out to count as late in rate mode.
const LateThreshold = time.Millisecond

// maxLatency is the largest latency the histograms hold; larger ones are
// recorded as this.
const maxLatency = int64(time.Hour)

func newHistogram() *hdr.Histogram { return hdr.New(1, maxLatency, 3) }

// A phase accumulates one of the Details lines: mean, fastest, slowest.
type phase struct {
	sum, min, max int64
}

func (p *phase) add(d time.Duration, first bool) {
	v := int64(d)
	if first || v < p.min {
		p.min = v
	}
	p.max = max(p.max, v)
	p.sum += v
}

func (p *phase) merge(q *phase, first bool) {
	if first || q.min < p.min {
		p.min = q.min
	}
	p.max = max(p.max, q.max)
	p.sum += q.sum
}

// A shard is the part of the run's statistics some workers record into.
// Workers are spread over a few shards so that they seldom wait on a lock.
type shard struct {
	mu         sync.Mutex
	lat, unc   *hdr.Histogram
	lateness   *hdr.Histogram
	latSum     int64
	uncSum     int64
	lateSum    int64
	responses  int64
	late       int64
	lateQueued int64
	bytes      int64
	phases     [5]phase
	status     map[int]int64
	errs       map[string]*ErrorCount
	_          [64]byte // keep shards' locks on separate cache lines
}

func newShard(rate bool) *shard {
	s := &shard{lat: newHistogram(), status: map[int]int64{}, errs: map[string]*ErrorCount{}}
	if rate {
		s.unc, s.lateness = newHistogram(), newHistogram()
	}
	return s
}

// recordResponse records a response; lateness is how long after its
// intended time the request went out, and queued whether it waited for a
// busy worker (rate mode).
func (s *shard) recordResponse(smp *Sample, lateness time.Duration, queued bool) {
	s.mu.Lock()
	first := s.responses == 0
	s.responses++
	s.lat.RecordValue(min(int64(smp.Latency), maxLatency))
	s.latSum += int64(smp.Latency)
	if s.unc != nil {
		s.unc.RecordValue(min(int64(smp.Uncorrected), maxLatency))
		s.uncSum += int64(smp.Uncorrected)
		s.lateSum += max(int64(lateness), 0)
		s.lateness.RecordValue(min(max(int64(lateness), 0), maxLatency))
		if lateness > LateThreshold {
			s.late++
			if queued {
				s.lateQueued++
			}
		}
	}
	s.bytes += smp.Bytes
	for i, d := range [5]time.Duration{smp.DNSDialup, smp.DNS, smp.Write, smp.Wait, smp.Read} {
		s.phases[i].add(d, first)
	}
	s.status[smp.Status]++
	s.mu.Unlock()
}

func (s *shard) recordError(err error) {
	kind := Kind(err)
	s.mu.Lock()
	if e := s.errs[kind]; e != nil {
		e.Count++
	} else {
		s.errs[kind] = &ErrorCount{Kind: kind, Count: 1, Example: err.Error()}
	}
	s.mu.Unlock()
}

// percentilesReported are the percentiles every Dist holds.
var percentilesReported = []float64{10, 25, 50, 75, 90, 95, 99, 99.9, 99.99}

// A Dist is a latency distribution.
type Dist struct {
	Count       int64
	Min, Max    time.Duration
	Mean        time.Duration // exact, from the sum of all latencies
	Percentiles []Percentile  // 10 25 50 75 90 95 99 99.9 99.99
	hist        *hdr.Histogram
}

// A Percentile is the latency under which P percent of requests completed.
type Percentile struct {
	P     float64
	Value time.Duration
}

func newDist(h *hdr.Histogram, sum int64) Dist {
	d := Dist{Count: h.TotalCount(), hist: h}
	if d.Count == 0 {
		return d
	}
	d.Min, d.Max = time.Duration(h.Min()), time.Duration(h.Max())
	d.Mean = time.Duration(sum / d.Count)
	for _, p := range percentilesReported {
		d.Percentiles = append(d.Percentiles, Percentile{P: p, Value: time.Duration(h.ValueAtPercentile(p))})
	}
	return d
}

// Percentile returns the latency at percentile p (0-100).
func (d *Dist) Percentile(p float64) time.Duration {
	if d.hist == nil || d.Count == 0 {
		return 0
	}
	return time.Duration(d.hist.ValueAtPercentile(p))
}

// A Bucket is one bar of hey's response time histogram: Count latencies
// above the previous bucket's Mark and at most this Mark.
type Bucket struct {
	Mark  time.Duration
	Count int64
}

// Buckets splits [Min, Max] into n equal intervals, as hey's histogram
// does, and returns n+1 buckets: the first holds the latencies equal to Min.
func (d *Dist) Buckets(n int) []Bucket {
	if d.hist == nil || d.Count == 0 || n < 1 {
		return nil
	}
	b := make([]Bucket, n+1)
	width := float64(d.Max-d.Min) / float64(n)
	for i := range b {
		b[i].Mark = d.Min + time.Duration(width*float64(i))
	}
	b[n].Mark = d.Max
	for _, bar := range d.hist.Distribution() {
		if bar.Count == 0 {
			continue
		}
		v := min(max(time.Duration(bar.From), d.Min), d.Max)
		i := sort.Search(len(b), func(i int) bool { return b[i].Mark >= v })
		b[min(i, n)].Count += bar.Count
	}
	return b
}
