package investigate

import (
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/perflab/perflab/godebug"
	"github.com/perflab/perflab/loadgen"
)

// gcRecorder keeps the program's gctrace: the whole run's, for the heap
// trend and leak verdict, and the measured window's.
type gcRecorder struct {
	mu       sync.Mutex
	all      godebug.GCAnalyzer
	window   godebug.GCAnalyzer
	inWindow bool
	// cpu is the GC's CPU in the window, less idle marking (which uses
	// otherwise idle processors and takes nothing from the program).
	cpu   time.Duration
	procs int
}

func (g *gcRecorder) add(rec godebug.Record, _ time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.all.Add(rec)
	if !g.inWindow {
		return
	}
	g.window.Add(rec)
	if gc, ok := rec.(*godebug.GC); ok {
		g.cpu += gc.CPU() - gc.IdleCPU
		g.procs = gc.Procs
	}
}

func (g *gcRecorder) startWindow() {
	g.mu.Lock()
	g.inWindow = true
	g.mu.Unlock()
}

func (g *gcRecorder) endWindow() {
	g.mu.Lock()
	g.inWindow = false
	g.mu.Unlock()
}

// bucketWidth is the resolution of the throughput over time.
const bucketWidth = 10 * time.Millisecond

// latencyRecorder keeps every response's latency in one histogram over
// all URLs, and counts per bucketWidth of each URL's load.
type latencyRecorder struct {
	hist    *hdr.Histogram
	buckets [][]bucket // per URL
}

type bucket struct {
	n      int64
	latSum time.Duration
}

func newLatencyRecorder() *latencyRecorder {
	return &latencyRecorder{hist: hdr.New(1, int64(time.Hour), 3)}
}

// sampler returns the OnSample of URL i's load; loadgen calls it one
// sample at a time.
func (l *latencyRecorder) sampler(i int) func(loadgen.Sample) {
	for len(l.buckets) <= i {
		l.buckets = append(l.buckets, nil)
	}
	return func(s loadgen.Sample) {
		l.hist.RecordValue(min(int64(s.Latency), int64(time.Hour)))
		b := int(s.Offset / bucketWidth)
		if b >= 1<<22 { // 11 hours: keep memory bounded
			return
		}
		bs := l.buckets[i]
		for len(bs) <= b {
			bs = append(bs, bucket{})
		}
		bs[b].n++
		bs[b].latSum += s.Latency
		l.buckets[i] = bs
	}
}

// A Round is one equal part of a URL's measured load.
type Round struct {
	URL          string  `json:"url"`
	RPS          float64 `json:"rps"`
	MeanLatency  float64 `json:"mean_latency_seconds"`
	Responses    int64   `json:"responses"`
	StartSeconds float64 `json:"start_seconds"`
}

// rounds cuts URL i's load, which lasted elapsed, into n equal parts.
func (l *latencyRecorder) rounds(i int, url string, elapsed time.Duration, n int) []Round {
	if i >= len(l.buckets) || elapsed <= 0 {
		return nil
	}
	bs := l.buckets[i]
	per := elapsed / time.Duration(n)
	if per < bucketWidth {
		per, n = bucketWidth, max(1, int(elapsed/bucketWidth))
	}
	out := make([]Round, n)
	for j := range out {
		out[j] = Round{URL: url, StartSeconds: (time.Duration(j) * per).Seconds()}
	}
	var sums = make([]time.Duration, n)
	for b, c := range bs {
		j := min(int(time.Duration(b)*bucketWidth/per), n-1)
		out[j].Responses += c.n
		sums[j] += c.latSum
	}
	for j := range out {
		out[j].RPS = float64(out[j].Responses) / per.Seconds()
		if out[j].Responses > 0 {
			out[j].MeanLatency = (sums[j] / time.Duration(out[j].Responses)).Seconds()
		}
	}
	return out
}
