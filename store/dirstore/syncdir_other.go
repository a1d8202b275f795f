//go:build !windows

package dirstore

import "os"

// syncDir makes the entries of directory dir durable: the files created,
// renamed and removed in it.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
