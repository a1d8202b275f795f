//go:build unix

package namedfile

import (
	"os"
	"syscall"
)

// openNonblock opens name for reading without waiting: opening a FIFO
// blocks until a writer comes, for ever if none does. The descriptor's
// mode matters only until Open refuses what is not a regular file.
func openNonblock(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
