package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/perflab/perflab/goroutines"
	"github.com/perflab/perflab/profiles"
)

// runDumping runs program with GOTRACEBACK=all and reads the goroutine
// dump it prints on standard error when it dies, streaming. Ctrl-\ and
// Ctrl-C reach it through forwardSignals.
func runDumping(ctx context.Context, program []string, stdin io.Reader, stderr io.Writer, d *goroutines.Dump, opts profiles.Options) error {
	cmd := exec.CommandContext(ctx, program[0], program[1:]...)
	cmd.Env = append(os.Environ(), "GOTRACEBACK=all")
	cmd.Stdin, cmd.Stdout = stdin, stderr
	ownProcessGroup(cmd)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %w", program[0], err)
	}
	stop := forwardSignals(cmd.Process)
	defer stop()
	readErr := goroutines.Read(program[0], pipe, d, goroutines.Options{MaxBytes: opts.MaxBytes})
	_, _ = io.Copy(io.Discard, pipe) // let the program finish writing
	waitErr := cmd.Wait()
	if readErr != nil {
		if errors.Is(readErr, goroutines.ErrEmpty) || errors.Is(readErr, goroutines.ErrNotDump) {
			return fmt.Errorf("%s: %s without printing a goroutine dump", program[0], exitDescription(waitErr))
		}
		return readErr
	}
	d.Notes = append(d.Notes, fmt.Sprintf("%s: %s", program[0], exitDescription(waitErr)))
	return nil
}

// exitDescription says how a program ended.
func exitDescription(err error) string {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return "exited with status 0"
	case errors.As(err, &ee):
		return ee.ProcessState.String() // "exit status 2", "signal: killed"
	}
	return err.Error()
}

// programPath returns the executable a program name refers to, for its
// DWARF data; "" if it cannot be found.
func programPath(name string) string {
	p, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	return p
}
