package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxLinks bounds the symbolic links followed, as the kernel's ELOOP does.
const maxLinks = 40

// target is where a name's data goes.
type target struct {
	path   string      // the file to replace or open
	info   fs.FileInfo // the regular file replaced; nil for a new file
	direct bool        // write path in place instead of replacing it
}

// resolve follows name's symbolic links to the file written: a regular
// file or a new name is replaced; a device, a pipe, or a name under /proc,
// /dev/fd or /dev/std* (whose links lead to "pipe:[N]" or to a file opened
// by the shell) is written in place under its own name.
func resolve(name string) (target, error) {
	p := name
	for range maxLinks {
		if inPlace(p) {
			return target{path: name, direct: true}, nil
		}
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
			// A new file; create reports a directory that is missing or
			// is not one.
			return target{path: p}, nil
		case err != nil:
			return target{}, fmt.Errorf("cannot write to %s: %w", name, Unwrap(err))
		case fi.Mode()&fs.ModeSymlink != 0:
			if p, err = readLink(p); err != nil {
				return target{}, fmt.Errorf("cannot write to %s: %w", name, Unwrap(err))
			}
		case fi.Mode().IsRegular():
			return target{path: p, info: fi}, nil
		case fi.IsDir():
			return target{}, fmt.Errorf("cannot write to %s: is a directory", name)
		default: // devices, pipes, sockets
			return target{path: name, direct: true}, nil
		}
	}
	return target{}, fmt.Errorf("cannot write to %s: too many levels of symbolic links", name)
}

// readLink returns the path link points to. A relative target is taken
// from the link's directory with that directory's own links resolved, as
// the kernel does, so "../x" is not shortened lexically.
func readLink(link string) (string, error) {
	to, err := os.Readlink(link)
	if err != nil || filepath.IsAbs(to) {
		return to, err
	}
	dir := filepath.Dir(link)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return filepath.Join(dir, to), nil
}

// inPlace reports whether p names a stream of the process (/dev/stdout,
// /dev/fd/N, /proc/self/fd/N) or lies under /proc, where nothing may be
// replaced.
func inPlace(p string) bool {
	if filepath.Separator != '/' {
		return false
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	switch abs {
	case "/dev/stdin", "/dev/stdout", "/dev/stderr":
		return true
	}
	return strings.HasPrefix(abs, "/dev/fd/") || strings.HasPrefix(abs, "/proc/")
}
