//go:build unix

package loadgen

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadBodyFileSpecial refuses /dev/zero, which never ends, and a
// named pipe without a writer, which opening would wait on forever.
func TestReadBodyFileSpecial(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, kind := range map[string]string{"/dev/zero": "(a character device)", fifo: "(a named pipe)"} {
		done := make(chan error, 1)
		go func() { _, err := ReadBodyFile(path); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) || !strings.HasPrefix(err.Error(), path+": not a regular file "+kind) {
				t.Errorf("ReadBodyFile(%s) = %v; want %s: not a regular file %s", path, err, path, kind)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadBodyFile(%s) still reading after 5 s", path)
		}
	}
}
