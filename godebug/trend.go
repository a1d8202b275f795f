package godebug

import (
	"fmt"
	"strings"
	"time"

	"github.com/perflab/perflab/internal/units"
)

// A Trend is the least-squares trend of the live heap and the verdict
// drawn from it.
type Trend struct {
	BytesPerSecond float64 // slope of live heap over time
	R2             float64 // how well a straight line fits
	From, To       time.Duration
	Growth         int64 // slope times the judged span, bytes
	Leak           bool
	Verdict        string
}

// Thresholds of the leak verdict. The runtime prints heap sizes in whole
// MB, so growth smaller than a few MB is indistinguishable from rounding.
const (
	minGCsForVerdict = 5
	minLeakGrowth    = 2 << 20
)

// A run shorter than this, in collections or in time since the program
// started, cannot tell a leak from a program still loading its data.
const (
	minGCsForLeak = 10
	minRunForLeak = 5 * time.Second
)

// tooShort turns a leak verdict into "heap growing; too short to call it
// a leak" when the run had fewer than minGCsForLeak collections or lasted
// less than minRunForLeak (run is how long the program had run at its
// last collection, or in all when known).
func tooShort(t Trend, gcs int, run time.Duration) Trend {
	if !t.Leak || (gcs >= minGCsForLeak && run >= minRunForLeak) {
		return t
	}
	t.Leak = false
	growth, _ := strings.CutPrefix(t.Verdict, "possible leak: ")
	t.Verdict = fmt.Sprintf("heap growing; too short to call it a leak (%d GCs over %v; a leak verdict needs at least %d GCs and %v): %s",
		gcs, run.Round(time.Millisecond), minGCsForLeak, minRunForLeak, growth)
	return t
}

// LiveHeapTrend fits a least-squares line to the live heap of the
// collections over time and judges whether it keeps growing through the
// run. The live heap of each cycle is taken as GCPoint.Retained: the
// marked heap less what was allocated while marking.
//
// It is built to hold on real traces:
//   - warm-up: with 8 or more collections the first quarter is left out,
//     with fewer the first one, so caches filled at start do not read as
//     a leak;
//   - few collections: below 5 no verdict is given; a leaking program
//     collects less and less often as its heap doubles, so 5 suffice;
//   - noise and map growth (whose live heap drops after each evacuation):
//     a leak needs a positive slope, growth of at least 2 MB and a
//     sizeable share of the mean live heap with a line that fits, and the
//     highest live heap of the last third of the span must clearly top
//     the highest before it (by 2 MB, the runtime's rounding, or 2%), or
//     the later half of the span must climb at a third of the slope or
//     more: the heap is still growing at the end.
func LiveHeapTrend(ps []GCPoint) Trend {
	if len(ps) < minGCsForVerdict {
		return Trend{Verdict: fmt.Sprintf("not enough GCs to judge the live heap (%d; need %d)", len(ps), minGCsForVerdict)}
	}
	switch {
	case len(ps) >= 8:
		ps = ps[len(ps)/4:]
	default:
		ps = ps[1:] // the first GC runs while the program initialises
	}
	xs, ys := make([]float64, len(ps)), make([]float64, len(ps))
	var mean float64
	for i, p := range ps {
		xs[i], ys[i] = p.Start.Seconds(), float64(p.Retained())
		mean += ys[i] / float64(len(ps))
	}
	f := leastSquares(xs, ys)
	t := Trend{BytesPerSecond: f.Slope, R2: f.R2, From: ps[0].Start, To: ps[len(ps)-1].Start}
	t.Growth = int64(f.Slope * (t.To - t.From).Seconds())

	tail := len(ps) - max(1, len(ps)/3)
	var earlier, final int64
	for i, p := range ps {
		if i < tail {
			earlier = max(earlier, p.Retained())
		} else {
			final = max(final, p.Retained())
		}
	}
	rel := float64(t.Growth) / max(mean, 1)
	stillGrowing := final >= earlier+max(2<<20, earlier/50) || tailGrows(xs, ys, f.Slope)
	fits := (rel >= 0.2 && f.R2 >= 0.3) || (rel >= 0.05 && f.R2 >= 0.8)
	t.Leak = f.Slope > 0 && t.Growth >= minLeakGrowth && stillGrowing && fits

	first := ps[0].Retained()
	span := (t.To - t.From).Round(time.Millisecond)
	if t.Leak {
		t.Verdict = fmt.Sprintf("possible leak: live heap (retained) grew from %s to %s over %v (%s/s, R²=%.2f), still growing at the end",
			units.MB(first), units.MB(final), span, units.MB(int64(f.Slope)), f.R2)
	} else {
		t.Verdict = fmt.Sprintf("steady: live heap (retained) stayed between %s and %s over %v (trend %s/s, R²=%.2f)",
			units.MB(minLive(ps)), units.MB(max(earlier, final)), span, units.MB(int64(f.Slope)), f.R2)
	}
	return t
}

func minLive(ps []GCPoint) int64 {
	m := ps[0].Retained()
	for _, p := range ps {
		m = min(m, p.Retained())
	}
	return m
}

// tailGrows reports whether the later half of the points still climbs at
// a third of the whole span's slope or more, by at least 1 MB: a leak keeps
// growing, a warm-up levels off.
func tailGrows(xs, ys []float64, slope float64) bool {
	h := len(xs) / 2
	if len(xs)-h < 2 {
		return false
	}
	tail := leastSquares(xs[h:], ys[h:])
	span := xs[len(xs)-1] - xs[h]
	return tail.Slope >= slope/3 && tail.Slope*span >= 1<<20
}
