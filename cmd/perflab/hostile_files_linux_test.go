package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/reporttest"
)

// TestListShowsNoProcFiles: a profile whose source file is perflab's own
// /proc/self/environ or cmdline (directly or through a symbolic link)
// must not make list print the token perflab got by environment or flag
// (issue 24.3).
func TestListShowsNoProcFiles(t *testing.T) {
	bin := perflab(t)
	dir := t.TempDir()
	link := filepath.Join(dir, "main.go")
	if err := os.Symlink("/proc/self/environ", link); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"/proc/self/environ", "/proc/self/cmdline", link} {
		prof := filepath.Join(t.TempDir(), "p.pprof")
		reporttest.WriteProfile(t, reporttest.OneSample(file), prof)
		cmd := exec.Command(bin, "list", "-token=flag-s3cret", "main.main", prof)
		cmd.Env = append(os.Environ(), "PERFLAB_TOKEN=env-s3cret")
		out, err := cmd.CombinedOutput()
		if err != nil || strings.Contains(string(out), "s3cret") || !strings.Contains(string(out), "under /proc, /sys or /dev") {
			t.Errorf("perflab list of a function in %s: %v\n%s\nwant no token, an Error line refusing the file", file, err, out)
		}
	}
}

// fifoProfile writes a profile whose one sampled function, main.main, is
// in a mapping whose file is a FIFO, and returns the profile and the FIFO.
func fifoProfile(t *testing.T) (prof, fifo string) {
	t.Helper()
	dir := t.TempDir()
	fifo = filepath.Join(dir, "server")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	prof = filepath.Join(dir, "cpu.pprof")
	reporttest.WriteProfile(t, reporttest.MappedSample(fifo), prof)
	return prof, fifo
}

// TestDisasmFIFOBinary: a profile whose mapping file is a FIFO: disasm
// refuses it at once in one line instead of waiting for a writer for
// ever (issue 24.5).
func TestDisasmFIFOBinary(t *testing.T) {
	bin := perflab(t)
	prof, fifo := fifoProfile(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "disasm", "main.main", prof).CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "binary "+fifo+": not a regular file") {
		t.Errorf("perflab disasm of a profile whose binary is a FIFO: %v\n%s\nwant exit 1 and one line refusing the FIFO", err, out)
	}
}

// TestDisasmInterrupted: whatever perflab disasm waits for (here a FIFO
// given as the profile, with no writer), SIGINT or SIGTERM ends it (issue
// 24.5: it used to ignore both for over 10 minutes).
func TestDisasmInterrupted(t *testing.T) {
	bin := perflab(t)
	prof, fifo := fifoProfile(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		for _, args := range [][]string{{"disasm", "main.main", fifo}, {"disasm", "main.main", fifo, prof}} {
			cmd := exec.Command(bin, args...)
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond)
			cmd.Process.Signal(sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(out.String(), "context canceled") {
					t.Errorf("%s after %s: %v, %q; want exit 1 saying it was cancelled", args, sig, err, out.String())
				}
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Errorf("perflab %s still running 10 s after %s", strings.Join(args, " "), sig)
			}
		}
	}
}
