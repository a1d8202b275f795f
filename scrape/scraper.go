package scrape

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"sync"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/store"
)

// Options bound a Scraper. Zero fields take the defaults below.
type Options struct {
	// MaxConcurrent bounds the profiles read, decoded and written at
	// once, whatever the number of targets (a CPU profile's fetch holds
	// no slot while the target collects it).
	MaxConcurrent int
	// MaxProfileBytes bounds one profile, as read and once inflated.
	MaxProfileBytes int64
	// MaxBackoff bounds the wait before a failing target is tried again:
	// the wait doubles from the interval with each failure, up to this.
	MaxBackoff time.Duration
	// Log, if not nil, is told of the problems that are not a target's
	// (a target file that cannot be read), one line each.
	Log io.Writer
}

// The defaults of Options.
const (
	DefaultMaxConcurrent   = 16
	DefaultMaxProfileBytes = 64 << 20
	DefaultMaxBackoff      = 5 * time.Minute
)

func (o Options) withDefaults() Options {
	if o.MaxConcurrent <= 0 {
		o.MaxConcurrent = DefaultMaxConcurrent
	}
	if o.MaxProfileBytes <= 0 {
		o.MaxProfileBytes = DefaultMaxProfileBytes
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	return o
}

// A Scraper pulls profiles from the targets of a Config into a store.
type Scraper struct {
	store store.Store
	cfg   Config
	opts  Options
	slots chan struct{}

	mu     sync.Mutex
	health map[string]*Health // by target key
}

// New returns a Scraper of cfg's jobs into st. Run starts it.
func New(st store.Store, cfg Config, opts Options) *Scraper {
	opts = opts.withDefaults()
	return &Scraper{store: st, cfg: cfg, opts: opts, slots: make(chan struct{}, opts.MaxConcurrent), health: map[string]*Health{}}
}

// Run scrapes until ctx is done, then waits for the scrapes in flight to
// stop and returns nil. Each target's kinds are scraped on their own: a
// CPU or wall-clock profile back to back, each covering the job's
// interval; the others once an interval, at an offset within it that
// depends on the target, so that many targets do not fire at once. A
// failing target is retried after a wait that doubles with each failure
// (see Options.MaxBackoff) and never holds up the others. file_sd_configs
// files are read again every RefreshInterval; targets that leave them
// stop being scraped.
func (s *Scraper) Run(ctx context.Context) error {
	running := map[string]context.CancelFunc{}
	var wg sync.WaitGroup
	defer func() {
		for _, cancel := range running {
			cancel()
		}
		wg.Wait()
	}()
	refresh := time.Duration(0)
	for _, j := range s.cfg.Jobs {
		if len(j.Files) > 0 && (refresh == 0 || j.RefreshInterval < refresh) {
			refresh = j.RefreshInterval
		}
	}
	for {
		s.sync(ctx, running, &wg)
		var tick <-chan time.Time
		if refresh > 0 {
			tick = time.After(refresh)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick:
		}
	}
}

// sync starts the targets the jobs have now and stops those they lost.
// A job whose files cannot be read keeps the targets it had.
func (s *Scraper) sync(ctx context.Context, running map[string]context.CancelFunc, wg *sync.WaitGroup) {
	want := map[string]*target{}
	keep := map[string]bool{} // jobs whose targets stay as they are
	for i := range s.cfg.Jobs {
		j := &s.cfg.Jobs[i]
		ts, err := j.targets()
		if err != nil {
			s.logf("scrape: job %s: %v", j.Name, err)
			keep[j.Name] = true
		}
		for _, t := range ts {
			want[t.key()] = t
		}
	}
	for key, cancel := range running {
		if _, ok := want[key]; !ok && !keep[jobOf(key)] {
			cancel()
			delete(running, key)
			s.mu.Lock()
			delete(s.health, key)
			s.mu.Unlock()
		}
	}
	for key, t := range want {
		if _, ok := running[key]; ok {
			continue
		}
		tctx, cancel := context.WithCancel(ctx)
		running[key] = cancel
		s.addHealth(key, t)
		for _, f := range plan(t.job.Kinds) {
			wg.Go(func() { s.loop(tctx, key, t, f) })
		}
	}
}

// jobOf returns the job of a target key.
func jobOf(key string) string {
	for i := range len(key) {
		if key[i] == 0 {
			return key[:i]
		}
	}
	return key
}

func (s *Scraper) addHealth(key string, t *target) {
	labels := map[string]string{}
	for _, l := range t.labels {
		labels[l.Name] = l.Value
	}
	var kinds []string
	for _, k := range t.job.Kinds {
		kinds = append(kinds, k.Short)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.health[key] = &Health{Job: t.job.Name, Instance: t.addr, URL: t.base, Labels: labels, Kinds: kinds,
		Scraped: map[string]int64{}, down: map[string]bool{}, next: map[string]time.Time{}}
}

// loop scrapes one kind of one target until ctx is done.
func (s *Scraper) loop(ctx context.Context, key string, t *target, f fetch) {
	interval := t.job.Interval
	next := time.Now().Add(offset(key, interval))
	base := &baseline{}
	failures := 0
	for {
		s.scheduled(key, f.name, next)
		if !sleepUntil(ctx, next) {
			return
		}
		start := time.Now()
		err := s.scrape(ctx, t, f, base)
		if ctx.Err() != nil {
			return
		}
		s.record(key, f.name, start, err)
		switch {
		case err != nil:
			failures++
			next = time.Now().Add(backoff(interval, failures, s.opts.MaxBackoff))
		case f.timed:
			failures, next = 0, time.Now()
		default:
			failures = 0
			for !next.After(time.Now()) {
				next = next.Add(interval)
			}
		}
	}
}

// offset spreads the targets' scrapes over the interval: a fraction of
// it that depends only on the target, as Prometheus does.
func offset(key string, interval time.Duration) time.Duration {
	h := fnv.New64a()
	h.Write([]byte(key))
	return time.Duration(h.Sum64() % uint64(interval))
}

// backoff is the wait after the nth failure in a row: the interval,
// doubled for each failure after the first, at most max (or the
// interval, if that is longer).
func backoff(interval time.Duration, n int, max time.Duration) time.Duration {
	d := interval
	for i := 1; i < n && d < max; i++ {
		d *= 2
	}
	return min(d, maxDur(max, interval))
}

func maxDur(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

// sleepUntil waits until t or ctx is done, reporting whether t came.
func sleepUntil(ctx context.Context, t time.Time) bool {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// scrape fetches one profile of a target and stores it, or its growth
// since the last scrape.
func (s *Scraper) scrape(ctx context.Context, t *target, f fetch, base *baseline) error {
	opts := profiles.Options{Token: t.job.Token, Header: t.job.Header, MaxBytes: s.opts.MaxProfileBytes, Timeout: t.job.Timeout}
	if f.timed {
		opts.Seconds, opts.Timeout = int(t.job.Interval/time.Second), 0 // 1.5 x the seconds, plus 5 s
	}
	src, err := profiles.Open(ctx, t.base+f.path, opts)
	if err != nil {
		return err
	}
	defer src.Close()
	select { // the target has collected the profile: now hold a slot
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	case <-ctx.Done():
		return ctx.Err()
	}
	p, err := profiles.Parse(src.Name, src, opts)
	if err != nil {
		return err
	}
	if p.TimeNanos == 0 {
		p.TimeNanos = time.Now().UnixNano()
	}
	if f.cumulative {
		var ok bool
		if p, ok = base.delta(p, func(vt *profile.ValueType) bool { return cumulativeType(f.name, vt) }); !ok {
			return nil
		}
	}
	err = s.store.Write(ctx, store.Profile{Labels: t.labels.With(store.LabelName, f.name), Profile: p})
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// logf writes one line to Options.Log.
func (s *Scraper) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, format+"\n", args...)
	}
}
