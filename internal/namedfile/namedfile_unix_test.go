//go:build unix

package namedfile_test

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/perflab/perflab/internal/namedfile"
)

// TestOpenFIFO: a FIFO with no writer is refused at once instead of
// blocking the open for ever.
func TestOpenFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := namedfile.Open(fifo)
		done <- err
	}()
	if err := <-done; !errors.Is(err, namedfile.ErrNotRegular) {
		t.Errorf("Open(FIFO) = %v, want ErrNotRegular", err)
	}
}
