//go:build unix

package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadBodyFile gives -D a device that never ends and a named pipe
// nobody writes to: each is refused at once with one line naming the
// file, before any request is sent.
func TestLoadBodyFile(t *testing.T) {
	bin := perflab(t)
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	url := silentServer(t)
	for path, kind := range map[string]string{"/dev/zero": "a character device", fifo: "a named pipe"} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, bin, "load", "-n", "1", "-c", "1", "-D", path, url)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		timedOut := ctx.Err() != nil
		cancel()
		want := "perflab: load: -D: " + path + ": not a regular file (" + kind + ")"
		if timedOut || cmd.ProcessState.ExitCode() != 1 || !strings.HasPrefix(stderr.String(), want) ||
			strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("-D %s: %v, stderr %q; want exit 1 at once and one line %q...", path, err, stderr.String(), want)
		}
	}
}
