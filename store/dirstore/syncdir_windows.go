//go:build windows

package dirstore

// syncDir does nothing on Windows, where a directory cannot be synced and
// NTFS journals its entries.
func syncDir(string) error { return nil }
