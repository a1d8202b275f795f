package collect

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"sync"
	"syscall"

	"github.com/perflab/perflab/internal/atomicfile"
)

// A Session is a set of profiles being collected; Start begins one and Stop
// ends it and writes the files.
type Session struct {
	cfg     *config
	pending map[Kind]*atomicfile.File
	wall    *wallSampler
	restore []func()

	sig      chan os.Signal
	quit     chan struct{}
	quitOnce sync.Once

	mu        sync.Mutex // held while stopping; guards what follows
	stopped   bool
	startErr  error
	stopErr   error
	written   []string
	collected bool // a GC ran before heap/allocs
}

// Start begins collecting the profiles the options select and returns the
// session, whose Stop writes them:
//
//	defer collect.Start(collect.Profiles(collect.CPU, collect.Heap)).Stop()
//
// If PERFLAB_PROFILE is set (see FromEnv), it replaces the kinds and
// directory the options select, unless IgnoreEnv is given. With no kind
// selected, Start and Stop do nothing, so the line can stay in a program
// and be switched on by its environment.
//
// Start never fails as a whole: a profile it cannot start (an unwritable
// directory, a CPU profile already running elsewhere in the program) is
// reported on the Log writer and by Err, and the other profiles go on.
//
// Unless NoSignals is given, Start catches SIGINT and SIGTERM to write the
// files before the signal ends the process; a signal the process ignores
// when Start runs (SIGINT in a job a shell started in the background) is
// left alone.
func Start(opts ...Option) *Session {
	cfg := newConfig()
	for _, o := range opts {
		o(cfg)
	}
	s := &Session{cfg: cfg, pending: make(map[Kind]*atomicfile.File), quit: make(chan struct{})}
	if !cfg.ignoreEnv {
		s.applyEnv()
	}
	for _, k := range cfg.kinds {
		s.begin(k)
	}
	s.setRates()
	if cfg.signals && len(s.pending) > 0 {
		s.watchSignals()
	}
	return s
}

// watchSignals catches SIGINT and SIGTERM, except one that the process
// ignores (as a shell ignores SIGINT for a job it starts in the
// background): catching it would make the process stop profiling, or
// die, on a signal meant to leave it alone.
func (s *Session) watchSignals() {
	var sigs []os.Signal
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		if !signal.Ignored(sig) {
			sigs = append(sigs, sig)
		}
	}
	if len(sigs) == 0 {
		return
	}
	s.sig = make(chan os.Signal, 1)
	signal.Notify(s.sig, sigs...)
	go s.watch()
}

// applyEnv lets PERFLAB_PROFILE and PERFLAB_PROFILE_DIR replace the
// selection made in code.
func (s *Session) applyEnv() {
	envOpts, err := FromEnv()
	if err != nil {
		s.fail(&s.startErr, err)
		return
	}
	if len(envOpts) == 0 {
		return
	}
	s.cfg.kinds, s.cfg.files, s.cfg.dir = nil, make(map[Kind]string), "."
	for _, o := range envOpts {
		o(s.cfg)
	}
}

// begin creates the file for one kind and starts the kinds that record
// continuously: CPU, trace and wall-clock.
func (s *Session) begin(k Kind) {
	if !k.valid() {
		s.fail(&s.startErr, fmt.Errorf("unknown profile kind %q", clip(string(k), 40)))
		return
	}
	name := s.cfg.path(k)
	for other, pf := range s.pending {
		if pf.Dest() == name {
			s.fail(&s.startErr, fmt.Errorf("%s profile: %s is already the %s profile's file", k, name, other))
			return
		}
	}
	pf, err := atomicfile.CreateAll(name)
	if err != nil {
		s.fail(&s.startErr, fmt.Errorf("%s profile: %w", k, err))
		return
	}
	switch k {
	case CPU:
		err = pprof.StartCPUProfile(pf)
	case Trace:
		err = trace.Start(pf)
	case Wall:
		s.wall = startWall(s.cfg.wallHz)
	}
	if err != nil {
		pf.Abort()
		s.fail(&s.startErr, fmt.Errorf("%s profile: %w", k, err))
		return
	}
	s.pending[k] = pf
}

// setRates applies the sampling rates the selected kinds need and
// remembers how to undo them.
func (s *Session) setRates() {
	if s.cfg.memRate != nil && (s.pending[Heap] != nil || s.pending[Allocs] != nil) {
		old := runtime.MemProfileRate
		runtime.MemProfileRate = *s.cfg.memRate
		s.restore = append(s.restore, func() { runtime.MemProfileRate = old })
	}
	if s.pending[Block] != nil {
		rate := 1
		if s.cfg.blockRate != nil {
			rate = *s.cfg.blockRate
		}
		runtime.SetBlockProfileRate(rate)
		// The runtime does not report the rate in force, so Stop returns
		// to its default: off.
		s.restore = append(s.restore, func() { runtime.SetBlockProfileRate(0) })
	}
	if s.pending[Mutex] != nil {
		frac := 1
		if s.cfg.mutexFrac != nil {
			frac = *s.cfg.mutexFrac
		}
		old := runtime.SetMutexProfileFraction(frac)
		s.restore = append(s.restore, func() { runtime.SetMutexProfileFraction(old) })
	}
}

// watch stops the session on SIGINT or SIGTERM, then lets the signal take
// its course.
func (s *Session) watch() {
	select {
	case sig := <-s.sig:
		s.stop()
		signal.Stop(s.sig)
		if p, err := os.FindProcess(os.Getpid()); err != nil || p.Signal(sig) != nil {
			os.Exit(1)
		}
	case <-s.quit:
	}
}

// Stop ends the session: it stops the CPU profile, trace and wall-clock
// sampling, writes the other profiles (after a garbage collection, for
// heap and allocs, as go test does), restores the rates Start changed and
// gives every file its final name. It returns every error of the session,
// Start's included. Calling Stop again does nothing and returns the same
// error.
func (s *Session) Stop() error {
	s.stop()
	s.quitOnce.Do(func() {
		if s.sig != nil {
			signal.Stop(s.sig)
		}
		close(s.quit)
	})
	return errors.Join(s.startErr, s.stopErr)
}

// Err returns the errors Start met, nil if every profile started.
func (s *Session) Err() error { return s.startErr }

// Files returns the names of the files Stop wrote, in the order written.
func (s *Session) Files() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.written)
}

func (s *Session) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	s.stopped = true
	for _, k := range Kinds {
		pf := s.pending[k]
		if pf == nil {
			continue
		}
		if err := s.finish(k, pf); err != nil {
			pf.Abort()
			s.fail(&s.stopErr, fmt.Errorf("%s profile: %w", k, err))
			continue
		}
		if err := pf.Commit(); err != nil {
			s.fail(&s.stopErr, fmt.Errorf("%s profile: %w", k, err))
			continue
		}
		s.written = append(s.written, pf.Dest())
	}
	for _, undo := range s.restore {
		undo()
	}
}

// finish completes one kind's data in its file.
func (s *Session) finish(k Kind, w io.Writer) error {
	switch k {
	case CPU:
		pprof.StopCPUProfile()
		return nil
	case Trace:
		trace.Stop()
		return nil
	case Wall:
		return s.wall.stop().Write(w)
	case Heap, Allocs:
		if !s.collected {
			runtime.GC() // materialize the statistics, as go test does
			s.collected = true
		}
	}
	p := pprof.Lookup(string(k))
	if p == nil {
		return fmt.Errorf("the runtime has no %q profile", k)
	}
	return p.WriteTo(w, 0)
}

// fail records err and reports it on the log writer.
func (s *Session) fail(dst *error, err error) {
	err = fmt.Errorf("collect: %w", err)
	*dst = errors.Join(*dst, err)
	if s.cfg.log != nil {
		fmt.Fprintln(s.cfg.log, err)
	}
}
