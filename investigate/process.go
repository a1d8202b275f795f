package investigate

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/perflab/perflab/godebug"
)

// A process is the program under investigation: its output goes to a log
// file, its standard error is scanned for gctrace lines.
type process struct {
	cmd    *exec.Cmd
	log    io.Writer
	exited chan struct{} // closed when the program has exited
	status int           // exit status, 128+signal when killed; valid after exited
	err    error         // a failure to wait or to read its output
	grace  time.Duration
	start  time.Time

	mu       sync.Mutex
	onRecord func(godebug.Record, time.Time) // called per gctrace record
	scanned  chan struct{}                   // closed when stderr is read to its end
}

// startProcess starts the program in its own process group with
// GODEBUG=gctrace=1 merged into env, its standard output and error going
// to log.
func startProcess(o *Options, log io.Writer, onRecord func(godebug.Record, time.Time)) (*process, error) {
	cmd := exec.Command(o.Program, o.Args...)
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = godebug.MergeGODEBUG(env, "gctrace=1")
	p := &process{cmd: cmd, log: &lockedWriter{w: log}, exited: make(chan struct{}),
		scanned: make(chan struct{}), grace: o.Grace, onRecord: onRecord}
	cmd.Stdout = p.log
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	setProcessGroup(cmd)
	p.start = time.Now()
	if err := cmd.Start(); err != nil {
		var ee *exec.Error
		var pe *os.PathError
		switch {
		case errors.As(err, &ee):
			err = ee.Err
		case errors.As(err, &pe):
			err = pe.Err
		}
		return nil, fmt.Errorf("program %s: %w", o.Program, err)
	}
	go p.scan(stderr)
	go p.wait()
	return p, nil
}

func (p *process) scan(r io.Reader) {
	defer close(p.scanned)
	s := godebug.NewScanner(r)
	for s.Scan() {
		p.log.Write(s.Bytes())
		rec := s.Result()
		if _, ok := rec.(*godebug.Text); !ok {
			p.onRecord(rec, time.Now())
		}
	}
	io.Copy(p.log, r)
}

func (p *process) wait() {
	<-p.scanned
	err := p.cmd.Wait()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		p.status = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			p.status = 128 + int(ws.Signal())
		}
	case err != nil:
		p.err = err
	}
	close(p.exited)
}

// running reports whether the program has not exited yet.
func (p *process) running() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// stop ends the program: SIGTERM to its process group, SIGKILL after the
// grace period, and a wait for it to exit. It reports whether the program
// had to be killed.
func (p *process) stop() (killed bool) {
	if !p.running() {
		return false
	}
	terminate(p.cmd)
	select {
	case <-p.exited:
		return false
	case <-time.After(p.grace):
	}
	kill(p.cmd)
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second): // a process that survives SIGKILL: do not hang
	}
	return true
}

// lockedWriter serialises writes from the program's two streams.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
