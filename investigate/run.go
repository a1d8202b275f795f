package investigate

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/atomicfile"
	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/internal/term"
	"github.com/perflab/perflab/loadgen"
)

// Run starts the program, loads it, collects its profiles, gctrace,
// goroutines and an execution trace while the load runs, stops it and
// writes every artefact and the reports to o.Dir. It returns the report
// even when the run ended early (the program exited, never answered, or
// served no /debug/pprof/): the report's Problems say what went wrong and
// the files hold what was collected. The error is nil only when the
// whole run went through; a bad Options is a *UsageError.
func Run(ctx context.Context, o Options) (*Report, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.Dir, 0o777); err != nil {
		return nil, fmt.Errorf("output directory: %w", err)
	}
	if err := portFree(o.URLs[0]); err != nil {
		return nil, err
	}
	r := &runner{o: &o, gc: &gcRecorder{}, rep: newReport(&o)}
	err := r.run(ctx)
	if r.proc == nil { // the program did not start: nothing to report
		return nil, err
	}
	if err != nil {
		r.rep.Problems = append(r.rep.Problems, term.OneLine(err.Error()))
	}
	r.analyze()
	if werr := r.write(); werr != nil {
		return r.rep, errors.Join(err, werr)
	}
	return r.rep, err
}

// portFree fails when something already answers on the first URL's port:
// the program could not bind it, and the load would go to another server.
func portFree(raw string) error {
	c, err := net.DialTimeout("tcp", hostPort(raw), time.Second)
	if err != nil {
		return nil
	}
	c.Close()
	return fmt.Errorf("%s: port %s is already taken by another program; stop it or give the program another port", raw, hostPort(raw))
}

// runner is one Run in progress.
type runner struct {
	o    *Options
	gc   *gcRecorder
	rep  *Report
	proc *process
	lat  *latencyRecorder

	snapStart, snapEnd snapshots
	cpuFile, traceFile string
	windowStart        time.Time
	window             time.Duration
	results            []*loadgen.Result
	mu                 sync.Mutex

	cpuProfile, allocs, baseCPU *profile.Profile
}

func (r *runner) problem(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rep.Problems = append(r.rep.Problems, term.OneLine(fmt.Sprintf(format, args...)))
}

func (r *runner) run(ctx context.Context) error {
	logFile, err := atomicfile.Create(filepath.Join(r.o.Dir, "program.log"))
	if err != nil {
		return err
	}
	cpu0 := cputime.Self()
	r.proc, err = startProcess(ctx, r.o, logFile, r.gc.add)
	if err != nil {
		logFile.Abort()
		return err
	}
	r.rep.artefact("program.log")
	defer func() {
		r.o.Progress("stopping the program")
		if r.proc.stop() {
			r.problem("the program did not exit within %v of SIGTERM and was killed", r.o.Grace)
		}
		r.rep.ExitStatus = r.proc.status()
		r.rep.Cost.PerflabCPUSeconds = (cputime.Self() - cpu0).Seconds()
		r.rep.Cost.ProgramCPUSeconds = r.proc.CPUTime().Seconds()
		logFile.Commit()
		r.o.Progress("")
	}()
	if err := r.waitReady(ctx); err != nil {
		return err
	}
	if err := r.warmup(ctx); err != nil {
		return err
	}
	return r.measure(ctx)
}

// waitReady polls the first URL with GET until it gives an HTTP response
// of any status, the program exits or o.Wait passes.
func (r *runner) waitReady(ctx context.Context) error {
	r.o.Progress("waiting for " + r.o.URLs[0])
	deadline := time.Now().Add(r.o.Wait)
	for {
		if answers(ctx, r.o.URLs[0]) {
			return nil
		}
		select {
		case <-r.proc.exited:
			return fmt.Errorf("the program exited with status %d before %s answered; its output is in %s",
				r.proc.status(), r.o.URLs[0], filepath.Join(r.o.Dir, "program.log"))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not answer within %v of the program's start; its output is in %s",
				r.o.URLs[0], r.o.Wait, filepath.Join(r.o.Dir, "program.log"))
		}
	}
}

// answers reports whether u gives an HTTP response of any status.
func answers(ctx context.Context, u string) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return true
}

// warmup loads each URL for a share of o.Warmup, so that caches fill
// and connections open before the measurement.
func (r *runner) warmup(ctx context.Context) error {
	if r.o.Warmup < 0 {
		return nil
	}
	r.o.Progress("warming up")
	for _, u := range r.o.URLs {
		cfg := r.o.Load
		cfg.URL, cfg.N, cfg.Duration = u, 0, r.o.Warmup/time.Duration(len(r.o.URLs))
		cfg.OnSample, cfg.OnProgress = nil, nil
		res, err := loadgen.Run(ctx, cfg)
		if err != nil {
			return fmt.Errorf("warm-up of %s: %w", u, err)
		}
		if err := r.alive(); err != nil {
			return err
		}
		if err := res.Err(); err != nil {
			return fmt.Errorf("warm-up of %s: %w", u, err)
		}
		r.rep.WarmupRPS = res.RPS()
		r.rep.Cost.Responses += res.Responses
	}
	return ctx.Err()
}

// alive fails when the program has exited.
func (r *runner) alive() error {
	if r.proc.running() {
		return nil
	}
	return fmt.Errorf("the program exited with status %d during the run; its output is in %s",
		r.proc.status(), filepath.Join(r.o.Dir, "program.log"))
}

// estimate is how long the measured load should last: its Duration per
// URL, or the requests at the warm-up's rate.
func (r *runner) estimate() time.Duration {
	n := time.Duration(len(r.o.URLs))
	if r.o.Load.Duration > 0 {
		return n * r.o.Load.Duration
	}
	reqs := r.o.Load.N
	if reqs == 0 {
		reqs = loadgen.DefaultN
	}
	rate := r.rep.WarmupRPS
	if r.o.Load.Rate > 0 {
		rate = r.o.Load.Rate
	}
	if rate <= 0 {
		return n * time.Second
	}
	return n * time.Duration(float64(reqs)/rate*float64(time.Second))
}

// measure runs the measured load with the collectors around it.
func (r *runner) measure(ctx context.Context) error {
	pprofOK := r.checkPprof(ctx)
	if pprofOK {
		r.o.Progress("profiles at the start")
		r.snapStart = r.takeSnapshots(ctx, "start")
	}
	est := r.estimate()
	cpuSecs := max(1, int(est/time.Second))
	var wg sync.WaitGroup
	colCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.lat = newLatencyRecorder()
	r.gc.startWindow()
	r.windowStart = time.Now()
	if pprofOK {
		wg.Go(func() { r.cpuFile = r.fetchTimed(colCtx, "profile", cpuSecs, "cpu.pprof") })
		wg.Go(func() {
			if r.o.TraceSeconds < 0 {
				return
			}
			select { // the trace from the middle of the load
			case <-time.After(min(est/3, 2*time.Second)):
			case <-colCtx.Done():
				return
			}
			r.traceFile = r.fetchTimed(colCtx, "trace", r.o.TraceSeconds, "trace.out")
		})
	}
	err := r.load(ctx)
	r.window = time.Since(r.windowStart)
	r.gc.endWindow()
	if pprofOK && r.proc.running() {
		r.o.Progress("profiles at the end")
		r.snapEnd = r.takeSnapshots(ctx, "end")
	}
	r.o.Progress("waiting for the CPU profile and the trace")
	if !r.proc.running() {
		cancel()
	}
	wg.Wait()
	return err
}

// load puts the measured load on each URL in turn.
func (r *runner) load(ctx context.Context) error {
	for i, u := range r.o.URLs {
		cfg := r.o.Load
		cfg.URL = u
		cfg.OnSample = r.lat.sampler(i)
		cfg.OnProgress = func(p loadgen.Progress) {
			r.o.Progress(fmt.Sprintf("loading %s: %v, %d responses, %d errors", u, p.Elapsed.Round(100*time.Millisecond), p.Sent-p.Errors, p.Errors))
		}
		res, err := loadgen.Run(ctx, cfg)
		if err != nil {
			return fmt.Errorf("load of %s: %w", u, err)
		}
		r.results = append(r.results, res)
		if err := r.alive(); err != nil {
			return err
		}
		if err := res.Err(); err != nil {
			return fmt.Errorf("load of %s: %w", u, err)
		}
		if res.Interrupted {
			return ctx.Err()
		}
	}
	return nil
}
