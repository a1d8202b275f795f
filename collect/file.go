package collect

import (
	"fmt"
	"os"
	"path/filepath"
)

// pendingFile is a profile being written: it lives under a temporary name
// in the destination's directory until commit renames it, so the final
// name only ever holds a complete file.
type pendingFile struct {
	*os.File
	final string
}

// createPending creates the directory if needed and a temporary file next
// to name, so an unwritable destination is reported when a session starts,
// not when it ends.
func createPending(name string) (*pendingFile, error) {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create directory %s: %w", dir, unwrapPath(err))
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("cannot write to %s: %w", dir, unwrapPath(err))
	}
	// CreateTemp makes the file private; give it os.Create's mode.
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &pendingFile{File: f, final: name}, nil
}

// commit closes the file and gives it its final name.
func (p *pendingFile) commit() error {
	err := p.File.Sync()
	if cerr := p.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(p.File.Name(), p.final)
	}
	if err != nil {
		os.Remove(p.File.Name())
		return fmt.Errorf("writing %s: %w", p.final, unwrapPath(err))
	}
	return nil
}

// abort closes and removes the temporary file.
func (p *pendingFile) abort() {
	p.File.Close()
	os.Remove(p.File.Name())
}

// unwrapPath drops the *PathError wrapper whose file name is the temporary
// one, keeping the cause.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	if le, ok := err.(*os.LinkError); ok {
		return le.Err
	}
	return err
}
