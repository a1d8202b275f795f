package loadgen

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Run puts the load cfg describes on its URL and returns what it measured.
// It returns an error only for a bad Config; failed requests are counted
// in the Result, and Result.Err says whether the run failed as a whole.
// Canceling ctx stops the run: requests in flight are abandoned and
// counted as Unfinished, and the Result holds what completed before, with
// Interrupted set.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	t, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &runner{t: t, parent: ctx, ctx: runCtx, cancel: cancel, newClient: t.clientFactory()}
	return r.run(), nil
}

// EndGrace is how long requests still in flight when Duration ends may take
// to complete; after that they are abandoned and counted as Unfinished, so
// that a run lasts at most Duration + EndGrace even against a server that
// hangs.
const EndGrace = time.Second

// A client sends the run's request and fills in a Sample's status, size
// and phases. Each worker owns one. start is when the worker read the
// clock just before the call; do returns when the response ended (or the
// request failed), so that a request costs as few clock reads as it can.
type client interface {
	do(ctx context.Context, start, deadline time.Time, s *Sample) (end time.Time, err error)
	abort() // make a call in progress fail now; safe from another goroutine
	close()
}

type runner struct {
	t         *target
	parent    context.Context // the caller's: canceled means interrupted
	ctx       context.Context // the run's: canceled at the end of its grace
	cancel    context.CancelFunc
	newClient func() client
	start     time.Time
	end       time.Time     // zero unless Duration
	interval  time.Duration // between intended send times; 0 unless Rate
	next      atomic.Int64  // the next request's sequence number
	started   atomic.Int64  // requests sent (or being sent)
	sent      atomic.Int64  // completed, for progress
	errors    atomic.Int64
	stopped   atomic.Int64 // when ctx ended, in ns from start; 0 if it did not
	shards    []*shard
	sampleMu  sync.Mutex
	clientsMu sync.Mutex
	clients   []client
}

func (r *runner) run() *Result {
	rate := r.t.cfg.Rate > 0
	nshards := min(r.t.c, 2*runtime.GOMAXPROCS(0))
	for range nshards {
		r.shards = append(r.shards, newShard(rate))
	}
	if rate {
		r.interval = max(1, time.Duration(float64(time.Second)/r.t.cfg.Rate))
	}
	r.start = time.Now()
	if r.t.cfg.Duration > 0 {
		r.end = r.start.Add(r.t.cfg.Duration)
		stop := time.AfterFunc(r.t.cfg.Duration+EndGrace, r.cancel)
		defer stop.Stop()
	}
	stopAbort := context.AfterFunc(r.ctx, r.abortAll)
	defer stopAbort()
	stopProgress := r.progress()
	var wg sync.WaitGroup
	for i := range r.t.c {
		wg.Go(func() { r.work(r.shards[i%nshards]) })
	}
	wg.Wait()
	elapsed := time.Since(r.start)
	stopProgress()
	res := result(r.shards, rate)
	res.URL = r.t.cfg.URL
	res.Elapsed = elapsed
	res.Rate = r.t.cfg.Rate
	res.Interrupted = r.parent.Err() != nil
	res.Unfinished = r.started.Load() - res.Requests
	res.Unsent = r.unsent()
	return res
}

// unsent counts, in rate mode, the requests whose intended send time came
// before the run stopped sending (at Duration, at cancellation, or never
// with N) but that never went out: every worker was busy until the end.
func (r *runner) unsent() int64 {
	if r.interval == 0 {
		return 0
	}
	cutoff := time.Duration(r.stopped.Load())
	if d := r.t.cfg.Duration; d > 0 && (cutoff == 0 || cutoff > d) {
		cutoff = d
	}
	due := r.t.n
	if cutoff > 0 {
		// intended times start + i*interval before the cutoff
		due = int64((cutoff + r.interval - 1) / r.interval)
		if r.t.n > 0 {
			due = min(due, r.t.n)
		}
	}
	return max(0, due-r.started.Load())
}

func (r *runner) abortAll() {
	r.stopped.Store(int64(max(1, time.Since(r.start))))
	r.clientsMu.Lock()
	defer r.clientsMu.Unlock()
	for _, c := range r.clients {
		c.abort()
	}
}

// work is one worker: it takes sequence numbers in turn and sends a request
// for each, at its intended time in rate mode, until the run's end.
func (r *runner) work(sh *shard) {
	c := r.newClient()
	r.clientsMu.Lock()
	r.clients = append(r.clients, c)
	r.clientsMu.Unlock()
	if r.ctx.Err() != nil {
		c.abort()
	}
	defer c.close()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var s Sample
	for {
		sl, ok := r.nextSlot(timer)
		if !ok {
			return
		}
		r.started.Add(1)
		var deadline time.Time
		if r.t.cfg.Timeout > 0 {
			deadline = sl.sent.Add(r.t.cfg.Timeout)
		}
		done, err := c.do(r.ctx, sl.sent, deadline, &s)
		if r.ctx.Err() != nil {
			return // abandoned: counted as unfinished
		}
		r.sent.Add(1)
		if err != nil {
			r.errors.Add(1)
			sh.recordError(err)
			continue
		}
		start := sl.sent
		if sl.queued {
			start = sl.intended
		}
		s.Offset, s.Latency, s.Uncorrected = sl.sent.Sub(r.start), done.Sub(start), done.Sub(sl.sent)
		sh.recordResponse(&s, sl.sent.Sub(sl.intended), sl.queued)
		if r.t.cfg.OnSample != nil {
			r.sampleMu.Lock()
			r.t.cfg.OnSample(s)
			r.sampleMu.Unlock()
		}
	}
}

// A slot is one request's place in the schedule.
type slot struct {
	intended time.Time // when it should go out (rate mode), else sent
	sent     time.Time
	// queued means its intended time passed before a worker was free for
	// it (all were busy): its latency counts from the intended time.
	queued bool
}

// nextSlot takes the next request of the run and, in rate mode, waits for
// its intended time. It reports false when the run is over.
func (r *runner) nextSlot(timer *time.Timer) (slot, bool) {
	var sl slot
	i := r.next.Add(1) - 1
	if r.t.n > 0 && i >= r.t.n {
		return sl, false
	}
	if r.interval > 0 {
		sl.intended = r.start.Add(time.Duration(i) * r.interval)
		if !r.end.IsZero() && !sl.intended.Before(r.end) {
			return sl, false
		}
		sl.queued = !time.Now().Before(sl.intended)
		if !sl.queued && !r.sleepUntil(timer, sl.intended) {
			return sl, false
		}
	}
	sl.sent = time.Now()
	if r.ctx.Err() != nil || r.interval == 0 && !r.end.IsZero() && !sl.sent.Before(r.end) {
		return sl, false
	}
	if r.interval == 0 {
		sl.intended = sl.sent
	}
	return sl, true
}

// sleepUntil waits for t; it reports false if the run was canceled first.
func (r *runner) sleepUntil(timer *time.Timer, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return true
	}
	timer.Reset(d)
	select {
	case <-timer.C:
		return true
	case <-r.ctx.Done():
		return false
	}
}

// progress calls OnProgress periodically until the returned func is called.
func (r *runner) progress() (stop func()) {
	f := r.t.cfg.OnProgress
	if f == nil {
		return func() {}
	}
	every := r.t.cfg.ProgressEvery
	if every <= 0 {
		every = 250 * time.Millisecond
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		h := newHistogram()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				f(r.snapshot(h))
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// snapshot reports the run so far, merging the latencies into h.
func (r *runner) snapshot(h *hdr.Histogram) Progress {
	p := Progress{Elapsed: time.Since(r.start), Sent: r.sent.Load(), Errors: r.errors.Load()}
	h.Reset()
	for _, s := range r.shards {
		s.mu.Lock()
		h.Merge(s.lat)
		s.mu.Unlock()
	}
	p.P50 = time.Duration(h.ValueAtPercentile(50))
	p.P99 = time.Duration(h.ValueAtPercentile(99))
	return p
}
