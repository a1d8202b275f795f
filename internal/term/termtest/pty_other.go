//go:build !linux

package termtest

import (
	"fmt"
	"os"
	"runtime"
)

// openPTY reports that termtest opens pseudo-terminals only on Linux.
func openPTY() (control, tty *os.File, err error) {
	return nil, nil, fmt.Errorf("termtest opens pseudo-terminals only on Linux, not %s", runtime.GOOS)
}
