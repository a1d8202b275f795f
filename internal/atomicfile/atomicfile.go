// Package atomicfile writes files that appear complete or not at all: the
// data goes to a temporary file beside the destination, which is renamed
// over it at the end. A crash, a kill or an error part-way leaves the
// destination as it was.
//
// Only regular files, and names that do not exist yet, are replaced that
// way. A device (/dev/null, a terminal), a named pipe, or a name under
// /dev/fd, /proc or /dev/std* (such as /dev/stdout) is opened and written
// in place, since renaming over it would destroy it. A symbolic link is
// followed: the link stays, and its target is replaced. New files get the
// mode 0666 less the umask, as os.Create gives them; a replaced file keeps
// its mode.
package atomicfile

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// A File is being written under a temporary name in its destination's
// directory until Commit renames it; or, for a device, a pipe or a
// /dev/stdout-like name, written in place.
type File struct {
	*os.File
	name   string
	direct bool
}

// Create opens a temporary file beside name, or name itself if it is a
// device or a pipe (see the package comment), so that an unwritable
// destination is reported before any work is done. name's directory must
// exist: a missing one is an error naming it, wrapping fs.ErrNotExist.
func Create(name string) (*File, error) {
	return create(name, false)
}

// CreateAll is Create, first creating name's directory and its parents if
// needed, with mode 0777 less the umask.
func CreateAll(name string) (*File, error) {
	return create(name, true)
}

func create(name string, mkdir bool) (*File, error) {
	t, err := resolve(name)
	if err != nil {
		return nil, err
	}
	if t.direct {
		f, err := os.OpenFile(t.path, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return nil, fmt.Errorf("cannot write to %s: %w", name, Unwrap(err))
		}
		return &File{File: f, name: name, direct: true}, nil
	}
	dir := filepath.Dir(t.path)
	if mkdir {
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return nil, fmt.Errorf("cannot create directory %s: %w", dir, Unwrap(err))
		}
	} else if err := checkDir(dir); err != nil {
		return nil, err
	}
	f, err := createTemp(dir, filepath.Base(t.path), t.info)
	if err != nil {
		return nil, fmt.Errorf("cannot write to %s: %w", dir, Unwrap(err))
	}
	return &File{File: f, name: t.path}, nil
}

// checkDir reports a directory that is missing or is not one.
func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return missingDirError(dir)
	case err != nil:
		return fmt.Errorf("cannot write to %s: %w", dir, Unwrap(err))
	case !fi.IsDir():
		return fmt.Errorf("cannot write to %s: not a directory", dir)
	}
	return nil
}

// A missingDirError names a directory that does not exist; it wraps
// fs.ErrNotExist.
type missingDirError string

func (e missingDirError) Error() string { return "directory " + string(e) + " does not exist" }
func (e missingDirError) Unwrap() error { return fs.ErrNotExist }

// createTemp creates a new file in dir named after base. Its mode is that
// of old, the file it replaces, or else 0666 less the umask: the kernel
// applies the umask (and a directory's default ACL) to the mode asked for
// at creation, so it need not be read.
func createTemp(dir, base string, old fs.FileInfo) (*os.File, error) {
	perm := fs.FileMode(0o666)
	if old != nil {
		perm = old.Mode().Perm()
	}
	for range 10000 {
		name := filepath.Join(dir, "."+base+".tmp"+rand.Text()[:10])
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if old != nil {
			// The umask may have removed bits the old file had.
			err = f.Chmod(perm)
			keepOwner(f, old)
		}
		if err != nil {
			f.Close()
			os.Remove(name)
			return nil, err
		}
		return f, nil
	}
	return nil, errors.New("no unused temporary name")
}

// Dest returns the name the file gets on Commit; Name is the temporary one.
// For a symbolic link, Dest is the link's target.
func (f *File) Dest() string { return f.name }

// Commit flushes and closes the file and gives it its final name. On
// failure the temporary file is removed. A device or pipe is only closed.
func (f *File) Commit() error {
	if f.direct {
		if err := f.File.Close(); err != nil {
			return fmt.Errorf("writing %s: %w", f.name, Unwrap(err))
		}
		return nil
	}
	err := f.File.Sync()
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.File.Name(), f.name)
	}
	if err != nil {
		os.Remove(f.File.Name())
		return fmt.Errorf("writing %s: %w", f.name, Unwrap(err))
	}
	return nil
}

// Abort closes and removes the temporary file. What was already written to
// a device or a pipe stays written.
func (f *File) Abort() {
	f.File.Close()
	if !f.direct {
		os.Remove(f.File.Name())
	}
}

// Write writes the file name with what write writes, atomically.
func Write(name string, write func(io.Writer) error) error {
	f, err := Create(name)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return f.Commit()
}

// Unwrap drops the *os.PathError or *os.LinkError around err, whose file
// name is the temporary one and would only confuse, keeping the cause.
func Unwrap(err error) error {
	switch e := err.(type) {
	case *os.PathError:
		return e.Err
	case *os.LinkError:
		return e.Err
	}
	return err
}
