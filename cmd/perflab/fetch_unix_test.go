//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFetchSpecialOutputs checks that fetch -o writes devices and named
// pipes in place.
func TestFetchSpecialOutputs(t *testing.T) {
	bin := perflab(t)
	srv, fixed, _ := fetchServer(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan []byte, 1)
	go func() {
		data, _ := os.ReadFile(fifo) // waits for the writer
		got <- data
	}()
	if _, stderr, code := runPerflab(t, bin, "fetch", "-o", fifo, srv.URL+"/fixed"); code != 0 {
		t.Fatalf("fetch -o FIFO: exit %d, %q", code, stderr)
	}
	select {
	case data := <-got:
		if !bytes.Equal(data, fixed) {
			t.Errorf("the pipe's reader got %d bytes, want the %d served", len(data), len(fixed))
		}
	case <-time.After(20 * time.Second):
		t.Fatal("nothing came through the pipe")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("%s is no longer a named pipe: %v", fifo, err)
	}
}
