package exectrace

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Latency sums up the durations of one task or region type, or of one
// kind of wait.
type Latency struct {
	Name               string
	Count              int64
	P50, P90, P99, Max time.Duration
	Total              time.Duration
}

// maxNames bounds the task and region types kept; more are counted under
// "(other)".
const maxNames = 1000

// histMax is the longest duration a histogram tells apart: a day.
const histMax = int64(24 * time.Hour)

// A latencies keeps a histogram per name, 1% precise, in bounded memory.
type latencies struct {
	byName map[string]*latencyHist
}

type latencyHist struct {
	h     *hdrhistogram.Histogram
	max   int64
	total int64
}

func newHist() *latencyHist { return &latencyHist{h: hdrhistogram.New(1, histMax, 2)} }

func (l *latencyHist) record(d int64) {
	d = max(1, d)
	l.max = max(l.max, d)
	l.total += d
	l.h.RecordValue(min(d, histMax)) //nolint:errcheck // clamped to the range
}

func (l *latencyHist) stats(name string) Latency {
	q := func(p float64) time.Duration { return time.Duration(min(l.h.ValueAtQuantile(p), l.max)) }
	return Latency{Name: name, Count: l.h.TotalCount(), P50: q(50), P90: q(90), P99: q(99),
		Max: time.Duration(l.max), Total: time.Duration(l.total)}
}

func (l *latencies) record(name string, d int64) {
	if l.byName == nil {
		l.byName = make(map[string]*latencyHist)
	}
	h := l.byName[name]
	if h == nil {
		if len(l.byName) >= maxNames {
			name = "(other)"
			h = l.byName[name]
		}
		if h == nil {
			h = newHist()
			l.byName[strings.Clone(name)] = h
		}
	}
	h.record(d)
}

// stats returns the latencies by name, the largest total first.
func (l *latencies) stats() []Latency {
	var out []Latency
	for name, h := range l.byName {
		out = append(out, h.stats(name))
	}
	slices.SortFunc(out, func(a, b Latency) int {
		if c := cmp.Compare(b.Total, a.Total); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}
