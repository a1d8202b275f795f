package godebug

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// MergeGODEBUG returns env with settings ("gctrace=1", ...) merged into
// its GODEBUG variable: the program's other settings are kept, and a
// setting of the same name is replaced.
func MergeGODEBUG(env []string, settings ...string) []string {
	var existing string
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			existing = v
			continue
		}
		out = append(out, kv)
	}
	names := map[string]bool{}
	for _, s := range settings {
		name, _, _ := strings.Cut(s, "=")
		names[name] = true
	}
	var merged []string
	for _, s := range strings.Split(existing, ",") {
		name, _, _ := strings.Cut(strings.TrimSpace(s), "=")
		if s != "" && !names[name] {
			merged = append(merged, s)
		}
	}
	merged = append(merged, settings...)
	return append(out, "GODEBUG="+strings.Join(merged, ","))
}

// A Command runs a program under GODEBUG settings and scans its standard
// error as it comes.
type Command struct {
	Path     string
	Args     []string
	Dir      string    // the program's working directory; "" for perflab's own
	Settings []string  // GODEBUG settings, e.g. "gctrace=1"
	Stdin    io.Reader // passed to the program; nil for none
	Stdout   io.Writer // the program's standard output, passed through
	// Stderr receives the program's own standard error lines, and the
	// trace lines too when PassTrace is set.
	Stderr    io.Writer
	PassTrace bool
	// Handle is called with every record of the program's standard
	// error, in order, from a single goroutine.
	Handle func(Record)
	// Grace is how long the program has to exit on its own once ctx is
	// done (a terminal's Ctrl-C reaches it directly) before it is sent an
	// interrupt; it is killed after as long again. Zero means 2s.
	Grace time.Duration
}

// Run starts the program, waits for it and returns its exit status (128
// plus the signal number if a signal ended it) and how long it ran. When
// ctx is done and the program has not exited within Grace, it is sent an
// interrupt (a second Ctrl-C at once could cut short a graceful shutdown).
// err reports only a failure to run the program or to read its output.
func (c *Command) Run(ctx context.Context) (status int, elapsed time.Duration, err error) {
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env = MergeGODEBUG(os.Environ(), c.Settings...)
	cmd.Dir = c.Dir
	cmd.Stdin, cmd.Stdout = c.Stdin, c.Stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	stop := context.AfterFunc(ctx, func() { c.interrupt(cmd) })
	defer stop()
	scanErr := c.scan(pipe)
	werr := cmd.Wait()
	elapsed = time.Since(start)
	var ee *exec.ExitError
	switch {
	case errors.As(werr, &ee):
		status = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			status = 128 + int(ws.Signal())
		}
	case werr != nil:
		return 0, elapsed, werr
	}
	if scanErr != nil {
		return status, elapsed, fmt.Errorf("reading %s's standard error: %w", c.Path, scanErr)
	}
	return status, elapsed, nil
}

// scan reads the program's standard error to its end.
func (c *Command) scan(r io.Reader) error {
	s := NewScanner(r)
	for s.Scan() {
		rec := s.Result()
		_, isText := rec.(*Text)
		_, isBad := rec.(*SyntaxError) // may hold the program's own output
		if (isText || isBad || c.PassTrace) && c.Stderr != nil {
			c.Stderr.Write(s.Bytes())
		}
		if !isText && c.Handle != nil {
			c.Handle(rec)
		}
	}
	_, err := io.Copy(io.Discard, r) // let the program finish writing
	return errors.Join(s.Err(), err)
}

// interrupt lets the program stop on its own for the grace period, then
// asks it to stop, then kills it.
func (c *Command) interrupt(cmd *exec.Cmd) {
	grace := c.Grace
	if grace == 0 {
		grace = 2 * time.Second
	}
	time.AfterFunc(grace, func() {
		if cmd.Process.Signal(os.Interrupt) == nil {
			time.AfterFunc(grace, func() { cmd.Process.Kill() })
		}
	})
}
