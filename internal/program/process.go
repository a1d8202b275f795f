package program

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/perflab/perflab/godebug"
)

// DefaultGrace is how long a stopped program's group has between the stop
// signal and SIGKILL when Config.Grace is zero.
const DefaultGrace = 2 * time.Second

// Config is how to run a program.
type Config struct {
	Argv []string // the program and its arguments (from Plan.Build)
	Dir  string   // its working directory; "" for perflab's own
	// Env is the program's environment; nil means perflab's own.
	Env []string
	// GODEBUG settings ("gctrace=1") are merged into the environment's
	// GODEBUG: the program's other settings stay, one of the same name is
	// replaced.
	GODEBUG []string
	// Setenv are "NAME=value" pairs that replace the environment's, such
	// as GOTRACEBACK=all or PERFLAB_PROFILE=trace.
	Setenv []string
	Stdin  io.Reader // nil for none
	Stdout io.Writer // nil for none
	// Stderr receives the program's standard error; nil makes it readable
	// from Process.Stderr instead.
	Stderr io.Writer
	// Forward are signals perflab passes on to the program's group while
	// it runs, such as SIGQUIT for a goroutine dump. A Ctrl-C (the context
	// being done) always stops the group.
	Forward []os.Signal
	// Grace is how long the group has to end after a stop signal before
	// SIGKILL; 0 means DefaultGrace.
	Grace time.Duration
}

// A Process is a running program, in a process group of its own.
type Process struct {
	cmd     *exec.Cmd
	grace   time.Duration
	start   time.Time
	stderr  *os.File       // the read end, when Config.Stderr is nil
	copies  sync.WaitGroup // output copied to non-file writers
	exited  chan struct{}  // closed when the program has exited
	done    chan struct{}  // closed when nothing of its group is left
	status  int
	elapsed time.Duration
	err     error
	stopMu  sync.Mutex
	killed  bool
}

// Start starts the program. When ctx is done before it exits, Stop(SIGINT)
// ends it, as a Ctrl-C would have done.
func Start(ctx context.Context, c Config) (*Process, error) {
	if len(c.Argv) == 0 {
		return nil, usagef("no program to run")
	}
	cmd := exec.Command(c.Argv[0], c.Argv[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = environment(c)
	cmd.Stdin = c.Stdin
	p := &Process{cmd: cmd, grace: c.Grace, exited: make(chan struct{}), done: make(chan struct{})}
	if p.grace <= 0 {
		p.grace = DefaultGrace
	}
	var parentEnds []*os.File
	out, err := p.output(c.Stdout, &parentEnds)
	if err != nil {
		return nil, err
	}
	cmd.Stdout = out
	switch {
	case c.Stderr != nil && sameWriter(c.Stdout, c.Stderr):
		cmd.Stderr = out // one pipe for both, in the order they were written
	case c.Stderr == nil:
		r, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		p.stderr, cmd.Stderr = r, w
		parentEnds = append(parentEnds, w)
	default:
		if cmd.Stderr, err = p.output(c.Stderr, &parentEnds); err != nil {
			return nil, err
		}
	}
	ownGroup(cmd)
	p.start = time.Now()
	err = cmd.Start()
	for _, f := range parentEnds { // the program holds its own copies
		f.Close()
	}
	if err != nil {
		if p.stderr != nil {
			p.stderr.Close()
		}
		return nil, fmt.Errorf("program %s: %w", c.Argv[0], startError(err))
	}
	go p.wait()
	stopForward := p.forward(c.Forward)
	go func() {
		select {
		case <-ctx.Done():
			p.Stop(os.Interrupt)
		case <-p.done:
		}
		stopForward()
	}()
	return p, nil
}

// environment is the program's environment: Env or perflab's, with the
// GODEBUG settings merged and Setenv's pairs replacing their names.
func environment(c Config) []string {
	env := c.Env
	if env == nil {
		env = os.Environ()
	}
	if len(c.GODEBUG) > 0 {
		env = godebug.MergeGODEBUG(env, c.GODEBUG...)
	}
	for _, kv := range c.Setenv {
		name, _, _ := strings.Cut(kv, "=")
		out := env[:0:0]
		for _, e := range env {
			if !strings.HasPrefix(e, name+"=") {
				out = append(out, e)
			}
		}
		env = append(out, kv)
	}
	return env
}

// output returns what the program writes w through: w itself if it is a
// file, else a pipe copied to w, so that waiting for the program never
// waits for a child that still holds the pipe.
func (p *Process) output(w io.Writer, parentEnds *[]*os.File) (io.Writer, error) {
	if w == nil {
		return nil, nil
	}
	if f, ok := w.(*os.File); ok {
		return f, nil
	}
	r, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	*parentEnds = append(*parentEnds, pw)
	p.copies.Add(1)
	go func() {
		defer p.copies.Done()
		io.Copy(w, r)
		r.Close()
	}()
	return pw, nil
}

// sameWriter reports whether a and b are the same writer; writers of
// types that cannot be compared are not.
func sameWriter(a, b io.Writer) (same bool) {
	defer func() { recover() }()
	return a == b
}

// startError keeps the cause of a failure to start: "no such file",
// "permission denied".
func startError(err error) error {
	var ee *exec.Error
	var pe *os.PathError
	switch {
	case errors.As(err, &ee):
		return ee.Err
	case errors.As(err, &pe):
		return pe.Err
	}
	return err
}

// wait waits for the program, then ends what is left of its group.
func (p *Process) wait() {
	err := p.cmd.Wait()
	p.elapsed = time.Since(p.start)
	p.status, p.err = exitStatus(err)
	close(p.exited)
	p.endGroup(Terminate)
	p.copies.Wait()
	close(p.done)
}

// exitStatus maps how the program ended to one status: its exit code, or
// 128 plus the number of the signal that ended it.
func exitStatus(err error) (int, error) {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return 0, err
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), nil
	}
	return ee.ExitCode(), nil
}

// endGroup stops the members of the program's group still running after
// it exited: sig, the grace period, SIGKILL.
func (p *Process) endGroup(sig os.Signal) {
	if !groupAlive(p.cmd.Process) {
		return
	}
	signalGroup(p.cmd.Process, sig)
	if p.waitGroupGone(p.grace) {
		return
	}
	signalGroup(p.cmd.Process, os.Kill)
	p.waitGroupGone(5 * time.Second) // a process that survives SIGKILL: do not hang
}

// waitGroupGone polls until no member of the group is left, for at most d.
func (p *Process) waitGroupGone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for groupAlive(p.cmd.Process) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// Stop ends the program and its whole group: sig (SIGINT for a Ctrl-C,
// SIGTERM to end an investigation), the grace period, then SIGKILL. It
// returns when nothing of the group is left, and reports whether SIGKILL
// was needed. Stopping a program that has ended does nothing.
func (p *Process) Stop(sig os.Signal) (killed bool) {
	p.stopMu.Lock()
	defer p.stopMu.Unlock()
	select {
	case <-p.exited:
	default:
		signalGroup(p.cmd.Process, sig)
		select {
		case <-p.exited:
		case <-time.After(p.grace):
			signalGroup(p.cmd.Process, os.Kill)
			p.killed = true
		}
	}
	select {
	case <-p.done:
	case <-time.After(p.grace + 10*time.Second): // survivors of SIGKILL: do not hang
	}
	return p.killed
}

// Stderr is the program's standard error, when Config.Stderr was nil: read
// it to its end, which comes when nothing of the group holds it.
func (p *Process) Stderr() io.Reader { return p.stderr }

// Exited is closed when the program itself has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// ExitStatus is the program's exit status, 128+signal if a signal ended
// it; valid once Exited is closed.
func (p *Process) ExitStatus() int { return p.status }

// CPUTime is the user and system CPU time the program used; valid once
// Exited is closed.
func (p *Process) CPUTime() time.Duration {
	if ps := p.cmd.ProcessState; ps != nil {
		return ps.UserTime() + ps.SystemTime()
	}
	return 0
}

// Wait waits until the program has exited and nothing of its group is
// left, and returns its exit status (128+signal if a signal ended it) and
// how long it ran. The error reports only a failure to wait for it.
func (p *Process) Wait() (status int, elapsed time.Duration, err error) {
	<-p.done
	if p.stderr != nil {
		defer p.stderr.Close()
	}
	return p.status, p.elapsed, p.err
}

// forward passes the signals on to the group until the returned function
// is called.
func (p *Process) forward(sigs []os.Signal) (stop func()) {
	if len(sigs) == 0 {
		return func() {}
	}
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, sigs...)
	quit := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-ch:
				signalGroup(p.cmd.Process, sig)
			case <-quit:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(quit)
	}
}
