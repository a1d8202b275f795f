package namedfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The causes of this package's errors, for errors.Is; the errors
// themselves are *fs.PathError naming the file.
var (
	ErrSystemPath = errors.New("under /proc, /sys or /dev: never read for input")
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("too large")
	ErrChanged    = errors.New("its length read differs from its size (changed while read, or not a real file)")
)

// systemDirs are the trees of pseudo-files and devices Check refuses.
var systemDirs = []string{"/proc", "/sys", "/dev"}

// Check returns an error wrapping ErrSystemPath if name, made absolute and
// cleaned, or the file it resolves to through symbolic links, is under
// /proc, /sys or /dev.
func Check(name string) error {
	abs, err := filepath.Abs(name)
	if err != nil {
		return &fs.PathError{Op: "open", Path: name, Err: err}
	}
	paths := []string{abs}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		paths = append(paths, real)
	}
	for _, p := range paths {
		p = filepath.ToSlash(p)
		for _, d := range systemDirs {
			if p == d || strings.HasPrefix(p, d+"/") {
				return &fs.PathError{Op: "open", Path: name, Err: ErrSystemPath}
			}
		}
	}
	return nil
}

// Open opens the regular file name for reading, after Check, without
// blocking, and returns it with its information. Anything but a regular
// file is refused with ErrNotRegular.
func Open(name string) (*os.File, fs.FileInfo, error) {
	if err := Check(name); err != nil {
		return nil, nil, err
	}
	return OpenArg(name)
}

// OpenArg is Open without Check, for a file the user named on the
// command line rather than input: it may be under /proc (/proc/PID/exe),
// but it is still opened without blocking and must be a regular file.
func OpenArg(name string) (*os.File, fs.FileInfo, error) {
	f, err := openNonblock(name)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// ReadFile reads the regular file name, opened by Open, if it holds at
// most max bytes (see ReadAll).
func ReadFile(name string, max int64, what string) ([]byte, error) {
	f, info, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, info, max, what)
}

// ReadAll reads f, a file Open returned with its information, if it
// holds at most max bytes; what names the kind of file in the error that
// refuses a larger one ("larger than 64 MiB, the limit for a source
// file"). The number of bytes read must equal the file's size.
func ReadAll(f *os.File, info fs.FileInfo, max int64, what string) ([]byte, error) {
	size := info.Size()
	if size > max {
		return nil, &fs.PathError{Op: "read", Path: f.Name(), Err: tooLarge(max, what)}
	}
	data := make([]byte, size+1) // one more byte shows a file longer than it says
	n, err := io.ReadFull(f, data)
	switch {
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF):
		return nil, err
	case err == nil || int64(n) != size:
		return nil, &fs.PathError{Op: "read", Path: f.Name(), Err: ErrChanged}
	}
	return data[:n], nil
}

// tooLarge says that a file is over max bytes, the limit for what; it
// matches ErrTooLarge.
func tooLarge(max int64, what string) error {
	limit := fmt.Sprintf("%d bytes", max)
	if max >= 1<<20 && max%(1<<20) == 0 {
		limit = fmt.Sprintf("%d MiB", max>>20)
	}
	return &sizeError{fmt.Sprintf("larger than %s, the limit for %s", limit, what)}
}

// A sizeError refuses a file over a limit.
type sizeError struct{ msg string }

func (e *sizeError) Error() string        { return e.msg }
func (e *sizeError) Is(target error) bool { return target == ErrTooLarge }
