// Package atomicfile writes files that appear complete or not at all: the
// data goes to a temporary file beside the destination, which is renamed
// over it at the end. A crash, a kill or an error part-way leaves the
// destination as it was.
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// A File is being written under a temporary name in its destination's
// directory until Commit renames it.
type File struct {
	*os.File
	name string
}

// Create creates name's directory if needed and a temporary file beside
// name, so that an unwritable destination is reported before any work is
// done. The file gets os.Create's mode.
func Create(name string) (*File, error) {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create directory %s: %w", dir, Unwrap(err))
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("cannot write to %s: %w", dir, Unwrap(err))
	}
	// CreateTemp makes the file private.
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &File{File: f, name: name}, nil
}

// Dest returns the name the file gets on Commit; Name is the temporary one.
func (f *File) Dest() string { return f.name }

// Commit flushes and closes the file and gives it its final name. On
// failure the temporary file is removed.
func (f *File) Commit() error {
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

// Abort closes and removes the temporary file.
func (f *File) Abort() {
	f.File.Close()
	os.Remove(f.File.Name())
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
