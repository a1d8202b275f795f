package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"

	"github.com/perflab/perflab/goroutines"
	"github.com/perflab/perflab/internal/program"
	"github.com/perflab/perflab/profiles"
)

// runDumping runs program with GOTRACEBACK=all and reads the goroutine
// dump it prints on standard error when it dies, streaming. Ctrl-\ reaches
// it through perflab (dumpSignals); Ctrl-C stops it as package program
// stops every program.
func runDumping(ctx context.Context, argv []string, stdin io.Reader, stderr io.Writer, d *goroutines.Dump, opts profiles.Options) error {
	plan, err := program.Parse(argv)
	if err != nil {
		return usageErrorf("%w", err)
	}
	tmp, err := os.MkdirTemp("", "perflab-build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	argv, dir, err := plan.Build(ctx, tmp, stderr)
	if err != nil {
		return err
	}
	proc, err := program.Start(ctx, program.Config{Argv: argv, Dir: dir, Setenv: []string{"GOTRACEBACK=all"},
		Stdin: stdin, Stdout: stderr, Forward: dumpSignals})
	if err != nil {
		return err
	}
	readErr := goroutines.Read(argv[0], proc.Stderr(), d, goroutines.Options{MaxBytes: opts.MaxBytes})
	_, _ = io.Copy(io.Discard, proc.Stderr()) // let the program finish writing
	status, _, waitErr := proc.Wait()
	if waitErr != nil {
		return fmt.Errorf("%s: %w", argv[0], waitErr)
	}
	if readErr != nil {
		if errors.Is(readErr, goroutines.ErrEmpty) || errors.Is(readErr, goroutines.ErrNotDump) {
			return fmt.Errorf("%s: %s without printing a goroutine dump", argv[0], exitDescription(status))
		}
		return readErr
	}
	d.Notes = append(d.Notes, fmt.Sprintf("%s: %s", argv[0], exitDescription(status)))
	return nil
}

// exitDescription says how a program ended, from its exit status (128
// plus the signal's number when a signal ended it).
func exitDescription(status int) string {
	switch {
	case status == 0:
		return "exited with status 0"
	case status > 128:
		return fmt.Sprintf("exit status %d (signal: %v)", status, syscall.Signal(status-128))
	}
	return fmt.Sprintf("exit status %d", status)
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
