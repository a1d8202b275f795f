package dirstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrLocked is wrapped by Open's error when another process has the
// store open.
var ErrLocked = errors.New("store in use by another process")

var errLocked = errors.New("locked")

// lockName is the lock file of a store's directory.
const lockName = "LOCK"

// lockDir locks the store in dir for this process, and writes the
// process's ID in the lock file for the message another process gets.
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		var pid [32]byte
		n, _ := f.ReadAt(pid[:], 0)
		f.Close()
		if errors.Is(err, errLocked) {
			holder := "another process"
			if p := strings.TrimSpace(string(pid[:n])); p != "" {
				holder = "process " + p
			}
			return nil, fmt.Errorf("%s is locked by %s: %w", path, holder, ErrLocked)
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}
