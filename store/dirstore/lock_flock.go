//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package dirstore

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on f without waiting: flock, which
// the system releases when the process ends, however it ends.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
