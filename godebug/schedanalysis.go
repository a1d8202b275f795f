package godebug

import (
	"math"
	"math/bits"
	"slices"
	"time"
)

// A SchedPoint is one schedtrace sample as summaries and charts use it.
type SchedPoint struct {
	At          time.Duration
	GOMAXPROCS  int
	IdleProcs   int
	Threads     int
	Spinning    int
	IdleThreads int
	RunQueue    int // global run queue
	LocalTotal  int // sum of the per-P run queues
	LocalMax    int // longest per-P run queue
	LocalMin    int // shortest per-P run queue
}

// A SchedAnalyzer accumulates schedtrace records. Its zero value is ready
// to use. With scheddetail=1 the per-P run queues come from the P lines
// that follow each summary line.
//
// As with GCAnalyzer, a stream may hold the traces of several processes
// one after another; a new one starts where the SCHED time goes back (a
// new "SCHED 0ms"), and each is summarised on its own.
type SchedAnalyzer struct {
	cur       schedProcess
	earlier   []*SchedSummary // finished processes, at most maxProcesses
	omitted   int             // finished processes past maxProcesses
	processes int
	malformed int
}

// schedProcess accumulates the samples of one process.
type schedProcess struct {
	points   []SchedPoint
	dec      decimator
	n        int
	cur      *SchedPoint // sample still taking P lines
	curLocal []int
	globalQ  counts // global run queue lengths over all samples
	localQ   counts // per-P run queue lengths over all samples and Ps
	started  bool
	sum      schedSums
	waits    map[string]int // goroutines by wait reason, last detailed block
	blockG   map[string]int // being filled by the current block
	lastAt   time.Duration
	first    time.Duration
}

// schedSums are running totals over every sample, kept or not.
type schedSums struct {
	idleShare    float64 // sum of idleprocs/gomaxprocs
	saturated    int
	imbalanced   int
	idleQueued   int // samples with idle Ps while goroutines were queued
	spinningMax  int
	spinningSum  int
	threadsMax   int
	procsMin     int
	procsMax     int
	localSamples int // samples that had per-P queue lengths
}

// maxWaitReasons bounds the distinct wait reasons counted per block.
const maxWaitReasons = 100

// counts is a histogram of run-queue lengths: exact below 1024, and
// above that in buckets of under 1% width, so that it stays small
// whatever the input. Its max is exact.
type counts struct {
	n    map[int]int
	top  int
	sum  float64
	seen int
}

func (c *counts) add(v int) {
	if c.n == nil {
		c.n = map[int]int{}
	}
	c.top, c.sum, c.seen = max(c.top, v), c.sum+float64(v), c.seen+1
	if v >= 1024 {
		shift := bits.Len(uint(v)) - 8
		v = v >> shift << shift
	}
	c.n[v]++
}

// Add takes one record; records other than the sched kinds and
// *SyntaxError are ignored.
func (a *SchedAnalyzer) Add(rec Record) {
	p := &a.cur
	switch r := rec.(type) {
	case *Sched:
		p.flush()
		if p.n > 0 && (r.At < p.lastAt || r.At == 0) {
			a.finish()
		}
		if p.n == 0 {
			a.processes++
		}
		p.start(r)
	case *SchedP:
		if p.cur != nil {
			p.curLocal = append(p.curLocal, r.RunQueue)
		}
	case *SchedG:
		if p.blockG == nil {
			break
		}
		reason := r.WaitReason
		if _, ok := p.blockG[reason]; !ok && len(p.blockG) >= maxWaitReasons {
			reason = "other"
		}
		p.blockG[reason]++
	case *SyntaxError:
		switch r.Kind {
		case "SCHED", "P", "M", "G":
			a.malformed++
		}
	}
}

// finish summarises the current process and starts afresh.
func (a *SchedAnalyzer) finish() {
	if len(a.earlier) < maxProcesses {
		s := a.cur.summary()
		s.Process = a.processes
		a.earlier = append(a.earlier, s)
	} else {
		a.omitted++
	}
	a.cur = schedProcess{}
}

func (a *schedProcess) start(r *Sched) {
	at := r.At
	if a.n == 0 {
		a.first = at
	}
	a.lastAt = at
	a.n++
	a.cur = &SchedPoint{
		At: at, GOMAXPROCS: r.GOMAXPROCS, IdleProcs: r.IdleProcs, Threads: r.Threads,
		Spinning: r.SpinningThreads, IdleThreads: r.IdleThreads, RunQueue: r.RunQueue,
	}
	a.curLocal = append(a.curLocal[:0], r.LocalRunQueues...)
	if r.Detailed {
		a.blockG = map[string]int{}
	}
}

// flush finishes the current sample.
func (a *schedProcess) flush() {
	p := a.cur
	if p == nil {
		return
	}
	a.cur = nil
	if len(a.blockG) > 0 {
		a.waits = a.blockG
	}
	a.blockG = nil
	a.addPoint(p, a.curLocal)
}

func (a *schedProcess) addPoint(p *SchedPoint, local []int) {
	if !a.started {
		a.started = true
		a.sum.procsMin = p.GOMAXPROCS
	}
	if len(local) > 0 {
		p.LocalMin = local[0]
		for _, q := range local {
			p.LocalTotal += q
			p.LocalMax = max(p.LocalMax, q)
			p.LocalMin = min(p.LocalMin, q)
			a.localQ.add(q)
		}
		a.sum.localSamples++
		if p.IdleProcs > 0 && p.LocalMax >= 2 {
			a.sum.imbalanced++ // goroutines waited on one P while another P had nothing to do
		}
	}
	a.globalQ.add(p.RunQueue)
	s := &a.sum
	if p.GOMAXPROCS > 0 {
		s.idleShare += float64(p.IdleProcs) / float64(p.GOMAXPROCS)
	}
	queued := p.RunQueue + p.LocalTotal
	if p.IdleProcs == 0 && queued >= max(p.GOMAXPROCS, 1) {
		s.saturated++
	}
	if p.IdleProcs > 0 && queued > 0 {
		s.idleQueued++
	}
	s.spinningMax = max(s.spinningMax, p.Spinning)
	s.spinningSum += p.Spinning
	s.threadsMax = max(s.threadsMax, p.Threads)
	s.procsMin = min(s.procsMin, p.GOMAXPROCS)
	s.procsMax = max(s.procsMax, p.GOMAXPROCS)
	a.points = thin(&a.dec, a.points, *p)
}

// Samples returns the number of schedtrace samples of the current (last)
// process seen so far.
func (a *SchedAnalyzer) Samples() int { return a.cur.n }

// Processes returns the number of processes seen so far.
func (a *SchedAnalyzer) Processes() int { return a.processes }

// Points returns the samples of the current (last) process kept for
// charts: all of them, or an evenly thinned sample of very long traces. A
// sample still waiting for its P lines is included.
func (a *SchedAnalyzer) Points() []SchedPoint {
	a.cur.flush()
	return a.cur.points
}

// percentile returns the nearest-rank p-th percentile of the counted values.
func (c *counts) percentile(p float64) int {
	keys := make([]int, 0, len(c.n))
	for k := range c.n {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	rank := max(int(math.Ceil(p/100*float64(c.seen))), 1)
	seen := 0
	for _, k := range keys {
		seen += c.n[k]
		if seen >= rank {
			return k
		}
	}
	return 0
}

// max returns the largest counted value.
func (c *counts) max() int { return c.top }

// mean returns the mean of the counted values.
func (c *counts) mean() float64 {
	if c.seen == 0 {
		return 0
	}
	return c.sum / float64(c.seen)
}
