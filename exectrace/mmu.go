package exectrace

import (
	"math"
	"sort"
)

// An mmuPoint is a change of mutator utilization: from t on it is u, and
// cum is its integral from the start up to t.
type mmuPoint struct {
	t   int64
	cum float64
	u   float64
}

// An mmuTracker computes the minimum mutator utilization for a few window
// sizes in one pass over a step function of utilization, keeping only the
// steps of the last largest window. The mean over a window is piecewise
// linear in the window's position, so its minimum lies where the window
// starts or ends at a step; both are evaluated, which makes the result
// exact.
type mmuTracker struct {
	windows []int64
	min     []float64
	cursor  []int // absolute index of the next window start to evaluate
	base    int   // absolute index of hist[0]
	hist    []mmuPoint
	started bool
	t0      int64
	// nextTrim is the length at which trim next looks, so that its cost
	// stays linear overall.
	nextTrim int
}

func newMMUTracker(windows []int64) *mmuTracker {
	m := &mmuTracker{windows: windows, min: make([]float64, len(windows)), cursor: make([]int, len(windows))}
	for i := range m.min {
		m.min[i] = math.Inf(1)
	}
	return m
}

// step records that utilization is u from time t on.
func (m *mmuTracker) step(t int64, u float64) {
	if !m.started {
		m.started, m.t0 = true, t
		m.hist = append(m.hist, mmuPoint{t: t, u: u})
		return
	}
	last := m.hist[len(m.hist)-1]
	if t < last.t {
		t = last.t
	}
	if u == last.u {
		return
	}
	m.boundary(t, u)
}

// boundary adds a step at t, evaluating the windows that end at t and the
// windows that start at earlier steps and end by t.
func (m *mmuTracker) boundary(t int64, u float64) {
	last := m.hist[len(m.hist)-1]
	cum := last.cum + last.u*float64(t-last.t)
	for i, w := range m.windows {
		for m.cursor[i] < m.base+len(m.hist) {
			s := m.hist[m.cursor[i]-m.base]
			if s.t+w > t {
				break
			}
			end := s.t + w
			m.observe(i, last.cum+last.u*float64(end-last.t)-s.cum)
			m.cursor[i]++
		}
		if t-w >= m.t0 {
			m.observe(i, cum-m.cumAt(t-w))
		}
	}
	m.hist = append(m.hist, mmuPoint{t: t, cum: cum, u: u})
	m.trim(t)
}

func (m *mmuTracker) observe(i int, integral float64) {
	mean := integral / float64(m.windows[i])
	m.min[i] = min(m.min[i], mean)
}

// cumAt interpolates the integral of utilization at time t.
func (m *mmuTracker) cumAt(t int64) float64 {
	j := sort.Search(len(m.hist), func(j int) bool { return m.hist[j].t > t }) - 1
	if j < 0 {
		j = 0
	}
	p := m.hist[j]
	return p.cum + p.u*float64(t-p.t)
}

// trim drops steps no window can still need.
func (m *mmuTracker) trim(now int64) {
	if len(m.hist) < max(1024, m.nextTrim) {
		return
	}
	defer func() { m.nextTrim = 2 * len(m.hist) }()
	maxW := maxOf(m.windows)
	drop := 0
	for drop+1 < len(m.hist) && m.hist[drop+1].t <= now-maxW {
		drop++
	}
	for _, c := range m.cursor {
		drop = min(drop, c-m.base)
	}
	m.hist = append(m.hist[:0], m.hist[drop:]...)
	m.base += drop
}

func maxOf(s []int64) int64 {
	var x int64
	for _, v := range s {
		x = max(x, v)
	}
	return x
}

// finish ends the step function at t and returns the MMU for each window
// and the mean utilization over the whole trace. A window longer than the
// trace gets the mean.
func (m *mmuTracker) finish(t int64) (mmu []float64, mean float64) {
	if !m.started {
		return nil, math.NaN()
	}
	last := m.hist[len(m.hist)-1]
	if t < last.t {
		t = last.t
	}
	m.boundary(t, math.NaN()) // NaN never equals: a forced step
	end := m.hist[len(m.hist)-1]
	mean = 1
	if t > m.t0 {
		mean = end.cum / float64(t-m.t0)
	}
	mmu = make([]float64, len(m.windows))
	for i, w := range m.windows {
		mmu[i] = m.min[i]
		if w > t-m.t0 || math.IsInf(mmu[i], 1) {
			mmu[i] = mean
		}
		mmu[i] = max(0, min(1, mmu[i]))
	}
	return mmu, mean
}
