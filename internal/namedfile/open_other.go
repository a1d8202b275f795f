//go:build !unix

package namedfile

import "os"

// openNonblock opens name for reading. Elsewhere than Unix there are no
// FIFOs in the file system to block on.
func openNonblock(name string) (*os.File, error) {
	return os.Open(name)
}
