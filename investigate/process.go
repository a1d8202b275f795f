package investigate

import (
	"context"
	"io"
	"os"
	"sync"
	"time"

	"github.com/perflab/perflab/godebug"
	"github.com/perflab/perflab/internal/program"
)

// A process is the program under investigation, run by package program:
// its output goes to a log file, its standard error is scanned for
// gctrace lines.
type process struct {
	*program.Process
	exited  <-chan struct{} // closed when the program has exited
	scanned chan struct{}   // closed when stderr is read to its end
	tmp     string          // where a go run or go test line was built
}

// startProcess starts the program with GODEBUG=gctrace=1 merged into
// o.Env, its standard output and error going to log. A "go run" or "go
// test" line is built first, without GODEBUG, its output to log.
func startProcess(ctx context.Context, o *Options, log io.Writer, onRecord func(godebug.Record, time.Time)) (*process, error) {
	lw := &lockedWriter{w: log}
	plan, err := program.Parse(append([]string{o.Program}, o.Args...))
	if err != nil {
		return nil, &UsageError{err}
	}
	tmp, err := os.MkdirTemp("", "perflab-build-")
	if err != nil {
		return nil, err
	}
	argv, dir, err := plan.Build(ctx, tmp, lw)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	proc, err := program.Start(context.Background(), program.Config{Argv: argv, Dir: dir,
		Env: o.Env, GODEBUG: []string{"gctrace=1"}, Stdout: lw, Grace: o.Grace})
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	p := &process{Process: proc, exited: proc.Exited(), scanned: make(chan struct{}), tmp: tmp}
	go func() {
		defer close(p.scanned)
		godebug.ScanStderr(io.TeeReader(proc.Stderr(), lw), nil, false, func(rec godebug.Record) { onRecord(rec, time.Now()) })
	}()
	return p, nil
}

// status is the program's exit status, valid once it has exited.
func (p *process) status() int { return p.ExitStatus() }

// running reports whether the program has not exited yet.
func (p *process) running() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// stop ends the program and its process group with package program's
// policy (SIGTERM, the grace period, SIGKILL), and waits for its output
// to be read. It reports whether the program had to be killed.
func (p *process) stop() (killed bool) {
	killed = p.Stop(program.Terminate)
	p.Wait()
	<-p.scanned
	os.RemoveAll(p.tmp)
	return killed
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
